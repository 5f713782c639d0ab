// Ops whose output size depends on input values (Compress, NonZero, Unique): the runtime
// prepares them per call with every input available as a constant.
#include <algorithm>
#include <cmath>
#include <cstring>
#include <map>
#include <numeric>

#include "backend/kernel.h"
#include "kernels/cpu/dispatch.h"
#include "kernels/cpu/kernel_families.h"
#include "ops/shape_rules.h"

namespace oc {
namespace {

class CompressKernel : public Kernel {
 public:
  Status Prepare(const KernelPrepareContext& ctx) override {
    if (!ctx.constants[1]) return ctx.NeedsValue("condition");
    shape_ = ctx.inputs[0].shape;
    esize_ = DataTypeSize(ctx.inputs[0].dtype);
    has_axis_ = ctx.attrs().Has("axis");
    if (has_axis_) {
      OC_ASSIGN_OR_RETURN(
          axis_, NormalizeAxis(ctx.attrs().GetInt("axis", 0), static_cast<int64_t>(shape_.size())));
    }
    const int64_t limit = has_axis_ ? shape_[axis_] : NumElements(shape_);
    for (int64_t i = 0; i < std::min(ctx.constants[1]->numel(), limit); ++i)
      if (ctx.constants[1]->GetAsInt(i)) keep_.push_back(i);
    return Status::Ok();
  }
  Status Run(const KernelRunContext& ctx) const override {
    const auto* in = static_cast<const uint8_t*>(ctx.inputs[0]);
    auto* out = static_cast<uint8_t*>(ctx.outputs[0]);
    if (!has_axis_) {
      for (size_t i = 0; i < keep_.size(); ++i)
        std::memcpy(out + i * esize_, in + keep_[i] * esize_, esize_);
      return Status::Ok();
    }
    int64_t outer = 1, inner = 1;
    for (int64_t d = 0; d < axis_; ++d) outer *= shape_[d];
    for (size_t d = axis_ + 1; d < shape_.size(); ++d) inner *= shape_[d];
    const size_t block = inner * esize_;
    size_t pos = 0;
    for (int64_t o = 0; o < outer; ++o)
      for (int64_t k : keep_) {
        std::memcpy(out + pos, in + (o * shape_[axis_] + k) * block, block);
        pos += block;
      }
    return Status::Ok();
  }

 private:
  Shape shape_;
  size_t esize_ = 4;
  bool has_axis_ = false;
  int64_t axis_ = 0;
  std::vector<int64_t> keep_;
};

class NonZeroKernel : public Kernel {
 public:
  Status Prepare(const KernelPrepareContext& ctx) override {
    if (!ctx.constants[0]) return ctx.NeedsValue("its input");
    const Tensor& x = *ctx.constants[0];
    const auto st = ContiguousStrides(x.shape());
    const int64_t rank = static_cast<int64_t>(x.shape().size());
    std::vector<int64_t> hits;
    for (int64_t e = 0; e < x.numel(); ++e)
      if (x.GetAsDouble(e) != 0) hits.push_back(e);
    result_.assign(static_cast<size_t>(rank * hits.size()), 0);
    for (size_t h = 0; h < hits.size(); ++h) {
      int64_t rem = hits[h];
      for (int64_t d = 0; d < rank; ++d) {
        result_[d * hits.size() + h] = rem / st[d];
        rem %= st[d];
      }
    }
    return Status::Ok();
  }
  Status Run(const KernelRunContext& ctx) const override {
    if (!result_.empty()) std::memcpy(ctx.outputs[0], result_.data(), result_.size() * 8);
    return Status::Ok();
  }

 private:
  std::vector<int64_t> result_;
};

class UniqueKernel : public Kernel {
 public:
  Status Prepare(const KernelPrepareContext& ctx) override {
    if (!ctx.constants[0]) return ctx.NeedsValue("its input");
    const Tensor& x = *ctx.constants[0];
    const bool sorted = ctx.attrs().GetInt("sorted", 1) != 0;
    const size_t es = DataTypeSize(x.dtype());
    const auto* bytes = static_cast<const uint8_t*>(x.data());
    // Slices along the axis (or single elements) compared by value.
    int64_t outer = 1, count = x.numel(), inner = 1;
    int64_t axis = -1;
    if (ctx.attrs().Has("axis")) {
      OC_ASSIGN_OR_RETURN(axis, NormalizeAxis(ctx.attrs().GetInt("axis", 0),
                                              static_cast<int64_t>(x.shape().size())));
      outer = 1;
      for (int64_t d = 0; d < axis; ++d) outer *= x.shape()[d];
      count = x.shape()[axis];
      inner = 1;
      for (size_t d = axis + 1; d < x.shape().size(); ++d) inner *= x.shape()[d];
    }
    auto slice = [&](int64_t k) {
      std::vector<double> v;
      for (int64_t o = 0; o < outer; ++o)
        for (int64_t i = 0; i < inner; ++i) v.push_back(x.GetAsDouble((o * count + k) * inner + i));
      return v;
    };
    std::vector<std::vector<double>> firsts;
    std::vector<int64_t> first_index, inverse(count), counts;
    for (int64_t k = 0; k < count; ++k) {
      auto v = slice(k);
      auto it = std::find(firsts.begin(), firsts.end(), v);
      if (it == firsts.end()) {
        inverse[k] = static_cast<int64_t>(firsts.size());
        firsts.push_back(v);
        first_index.push_back(k);
        counts.push_back(1);
      } else {
        inverse[k] = it - firsts.begin();
        ++counts[inverse[k]];
      }
    }
    std::vector<int64_t> order(firsts.size());
    std::iota(order.begin(), order.end(), 0);
    if (sorted)
      std::sort(order.begin(), order.end(),
                [&](int64_t a, int64_t b) { return firsts[a] < firsts[b]; });
    std::vector<int64_t> rank(order.size());
    for (size_t r = 0; r < order.size(); ++r) rank[order[r]] = static_cast<int64_t>(r);
    const int64_t u = static_cast<int64_t>(order.size());
    y_.resize(static_cast<size_t>(outer * u * inner) * es);
    for (int64_t o = 0; o < outer; ++o)
      for (int64_t r = 0; r < u; ++r)
        std::memcpy(y_.data() + ((o * u + r) * inner) * es,
                    bytes + ((o * count + first_index[order[r]]) * inner) * es, inner * es);
    for (int64_t r = 0; r < u; ++r) {
      indices_.push_back(first_index[order[r]]);
      counts_.push_back(counts[order[r]]);
    }
    for (int64_t k = 0; k < count; ++k) inverse_.push_back(rank[inverse[k]]);
    n_out_ = ctx.outputs.size();
    y_shape_ = axis < 0 ? Shape{u} : x.shape();
    if (axis >= 0) y_shape_[axis] = u;
    return Status::Ok();
  }
  bool OutputShapes(std::vector<Shape>* shapes) const override {
    const int64_t u = static_cast<int64_t>(indices_.size());
    *shapes = {y_shape_, {u}, {static_cast<int64_t>(inverse_.size())}, {u}};
    shapes->resize(n_out_);
    return true;
  }
  Status Run(const KernelRunContext& ctx) const override {
    if (!y_.empty()) std::memcpy(ctx.outputs[0], y_.data(), y_.size());
    const std::vector<int64_t>* parts[] = {&indices_, &inverse_, &counts_};
    for (size_t i = 1; i < n_out_; ++i)
      if (ctx.outputs[i] && !parts[i - 1]->empty())
        std::memcpy(ctx.outputs[i], parts[i - 1]->data(), parts[i - 1]->size() * 8);
    return Status::Ok();
  }

 private:
  std::vector<uint8_t> y_;
  std::vector<int64_t> indices_, inverse_, counts_;
  Shape y_shape_;
  size_t n_out_ = 1;
};

}  // namespace

void RegisterSelectionKernels(KernelTable& r) {
  r.SetFamilyTypes("all types");
  r.Add<CompressKernel>("Compress");
  r.Add<NonZeroKernel>("NonZero");
  r.Add<UniqueKernel>("Unique");
}

}  // namespace oc
