// Reference data movement, for any element type (bytes are moved, not interpreted):
// Reshape, Flatten, Squeeze, Unsqueeze, Identity, Transpose, Concat, Gather, Slice.
#include <cstring>

#include "kernels/reference/ref_util.h"
#include "ops/shape_rules.h"

namespace oc::ref {
namespace {

// Reshape-like ops: the bytes stay as they are (the output may be the input's buffer).
class CopyKernel : public Kernel {
 public:
  Status Prepare(const KernelPrepareContext& ctx) override {
    bytes_ = ctx.inputs[0].nbytes();
    return Status::Ok();
  }
  Status Run(const KernelRunContext& ctx) const override {
    if (bytes_ && ctx.outputs[0] != ctx.inputs[0])
      std::memmove(ctx.outputs[0], ctx.inputs[0], bytes_);
    return Status::Ok();
  }

 private:
  size_t bytes_ = 0;
};

class TransposeKernel : public Kernel {
 public:
  Status Prepare(const KernelPrepareContext& ctx) override {
    in_ = ctx.inputs[0].shape;
    es_ = DataTypeSize(ctx.inputs[0].dtype);
    perm_ = ctx.attrs().GetInts("perm");
    if (perm_.empty())
      for (size_t d = in_.size(); d-- > 0;) perm_.push_back(static_cast<int64_t>(d));
    if (perm_.size() != in_.size()) return ctx.Error("perm does not match the rank");
    return Status::Ok();
  }
  Status Run(const KernelRunContext& ctx) const override {
    const auto* x = static_cast<const char*>(ctx.inputs[0]);
    auto* y = static_cast<char*>(ctx.outputs[0]);
    const size_t rank = in_.size();
    Shape out(rank);
    for (size_t d = 0; d < rank; ++d) out[d] = in_[perm_[d]];
    const auto in_st = Strides(in_);
    const int64_t n = NumElements(out);
    std::vector<int64_t> coord(rank, 0);
    for (int64_t e = 0; e < n; ++e) {
      int64_t src = 0;
      for (size_t d = 0; d < rank; ++d) src += coord[d] * in_st[perm_[d]];
      std::memcpy(y + e * es_, x + src * es_, es_);
      for (size_t d = rank; d-- > 0;) {
        if (++coord[d] < out[d]) break;
        coord[d] = 0;
      }
    }
    return Status::Ok();
  }

 private:
  Shape in_;
  std::vector<int64_t> perm_;
  size_t es_ = 1;
};

class ConcatKernel : public Kernel {
 public:
  Status Prepare(const KernelPrepareContext& ctx) override {
    const Shape& out = ctx.outputs[0].shape;
    const int64_t axis = NormalizeAxis(ctx.attrs().GetInt("axis", 0), out.size());
    if (axis < 0 || axis >= static_cast<int64_t>(out.size())) return ctx.Error("axis out of range");
    es_ = DataTypeSize(ctx.outputs[0].dtype);
    outer_ = 1;
    for (int64_t d = 0; d < axis; ++d) outer_ *= out[d];
    rows_.clear();
    for (const auto& in : ctx.inputs) {
      int64_t row = 1;
      for (size_t d = static_cast<size_t>(axis); d < in.shape.size(); ++d) row *= in.shape[d];
      rows_.push_back(row);
    }
    return Status::Ok();
  }
  Status Run(const KernelRunContext& ctx) const override {
    auto* y = static_cast<char*>(ctx.outputs[0]);
    int64_t total = 0;
    for (int64_t r : rows_) total += r;
    int64_t offset = 0;
    for (size_t i = 0; i < rows_.size(); ++i) {
      const auto* x = static_cast<const char*>(ctx.inputs[i]);
      for (int64_t o = 0; o < outer_; ++o)
        std::memcpy(y + (o * total + offset) * es_, x + o * rows_[i] * es_, rows_[i] * es_);
      offset += rows_[i];
    }
    return Status::Ok();
  }

 private:
  int64_t outer_ = 1;
  std::vector<int64_t> rows_;
  size_t es_ = 1;
};

class GatherKernel : public Kernel {
 public:
  Status Prepare(const KernelPrepareContext& ctx) override {
    const Shape& d = ctx.inputs[0].shape;
    const int64_t axis = NormalizeAxis(ctx.attrs().GetInt("axis", 0), d.size());
    if (axis < 0 || axis >= static_cast<int64_t>(d.size())) return ctx.Error("axis out of range");
    es_ = DataTypeSize(ctx.inputs[0].dtype);
    outer_ = 1;
    for (int64_t k = 0; k < axis; ++k) outer_ *= d[k];
    dim_ = d[axis];
    inner_ = 1;
    for (size_t k = static_cast<size_t>(axis) + 1; k < d.size(); ++k) inner_ *= d[k];
    count_ = ctx.inputs[1].numel();
    idx64_ = ctx.inputs[1].dtype == DataType::kInt64;
    return Status::Ok();
  }
  Status Run(const KernelRunContext& ctx) const override {
    const auto* x = static_cast<const char*>(ctx.inputs[0]);
    auto* y = static_cast<char*>(ctx.outputs[0]);
    for (int64_t j = 0; j < count_; ++j) {
      int64_t i = idx64_ ? static_cast<const int64_t*>(ctx.inputs[1])[j]
                         : static_cast<const int32_t*>(ctx.inputs[1])[j];
      if (i < 0) i += dim_;
      if (i < 0 || i >= dim_)
        return InvalidArgument("Gather: index " + std::to_string(i) + " is out of range [0, " +
                               std::to_string(dim_) + ")");
      for (int64_t o = 0; o < outer_; ++o)
        std::memcpy(y + ((o * count_ + j) * inner_) * es_, x + ((o * dim_ + i) * inner_) * es_,
                    inner_ * es_);
    }
    return Status::Ok();
  }

 private:
  int64_t outer_ = 1, dim_ = 0, inner_ = 1, count_ = 0;
  bool idx64_ = true;
  size_t es_ = 1;
};

class SliceKernel : public Kernel {
 public:
  Status Prepare(const KernelPrepareContext& ctx) override {
    in_ = ctx.inputs[0].shape;
    es_ = DataTypeSize(ctx.inputs[0].dtype);
    std::vector<int64_t> starts, ends, axes, steps;
    if (ctx.opset < 10) {
      starts = ctx.attrs().GetInts("starts");
      ends = ctx.attrs().GetInts("ends");
      axes = ctx.attrs().GetInts("axes");
    } else {
      std::vector<int64_t>* lists[4] = {&starts, &ends, &axes, &steps};
      const char* names[4] = {"starts", "ends", "axes", "steps"};
      for (size_t i = 1; i < 5; ++i) {
        if (!ctx.has_input(i)) continue;
        if (!ctx.constants[i]) return ctx.NeedsValue(names[i - 1]);
        *lists[i - 1] = ctx.constants[i]->ToInt64Vector();
      }
    }
    auto dims = SliceBounds(in_, starts, ends, axes, steps, &begin_, &step_);
    if (!dims.ok()) return ctx.Error(dims.status().message());
    out_ = dims.value();
    return Status::Ok();
  }
  Status Run(const KernelRunContext& ctx) const override {
    const auto* x = static_cast<const char*>(ctx.inputs[0]);
    auto* y = static_cast<char*>(ctx.outputs[0]);
    const auto in_st = Strides(in_);
    const int64_t n = NumElements(out_);
    std::vector<int64_t> coord(out_.size(), 0);
    for (int64_t e = 0; e < n; ++e) {
      int64_t src = 0;
      for (size_t d = 0; d < out_.size(); ++d) src += (begin_[d] + coord[d] * step_[d]) * in_st[d];
      std::memcpy(y + e * es_, x + src * es_, es_);
      for (size_t d = out_.size(); d-- > 0;) {
        if (++coord[d] < out_[d]) break;
        coord[d] = 0;
      }
    }
    return Status::Ok();
  }

 private:
  Shape in_, out_;
  std::vector<int64_t> begin_, step_;
  size_t es_ = 1;
};

bool AnyType(const Node& node, const std::vector<TensorType>& in) {
  return !in.empty() && in[0].dtype != DataType::kUndefined && in[0].dtype != DataType::kString &&
         SingleOutput(node);
}

}  // namespace

void RegisterRefDataMovement(RefTable& t) {
  for (const char* op : {"Reshape", "Flatten", "Squeeze", "Unsqueeze", "Identity"})
    t.Add<CopyKernel>(op, AnyType, "all but string");
  t.Add<TransposeKernel>("Transpose", AnyType, "all but string");
  t.Add<ConcatKernel>("Concat", AnyType, "all but string");
  t.Add<GatherKernel>(
      "Gather",
      [](const Node& n, const std::vector<TensorType>& in) {
        return AnyType(n, in) && in.size() == 2 &&
               (in[1].dtype == DataType::kInt64 || in[1].dtype == DataType::kInt32);
      },
      "all but string (int32/int64 indices)");
  t.Add<SliceKernel>("Slice", AnyType, "all but string");
}

}  // namespace oc::ref
