// Kernels for LRN, MeanVarianceNormalization, ReverseSequence, Compress, NonZero, Unique,
// Det, window functions, MaxUnpool and Einsum. Plain loops: these ops are rare and small.
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

class LrnKernel : public Kernel {
 public:
  Status Prepare(const KernelPrepareContext& ctx) override {
    if (ctx.inputs[0].dtype != DataType::kFloat) return ctx.Error("float32 only");
    shape_ = ctx.inputs[0].shape;
    alpha_ = ctx.attrs().GetFloat("alpha", 1e-4f);
    beta_ = ctx.attrs().GetFloat("beta", 0.75f);
    bias_ = ctx.attrs().GetFloat("bias", 1.0f);
    size_ = ctx.attrs().GetInt("size", 1);
    return Status::Ok();
  }
  Status Run(const KernelRunContext& ctx) const override {
    const float* x = static_cast<const float*>(ctx.inputs[0]);
    float* y = static_cast<float*>(ctx.outputs[0]);
    const int64_t n = shape_[0], c = shape_[1];
    int64_t plane = 1;
    for (size_t d = 2; d < shape_.size(); ++d) plane *= shape_[d];
    const int64_t lo = (size_ - 1) / 2, hi = size_ - 1 - lo;
    for (int64_t b = 0; b < n; ++b)
      for (int64_t ch = 0; ch < c; ++ch)
        for (int64_t p = 0; p < plane; ++p) {
          double sq = 0;
          for (int64_t k = std::max<int64_t>(0, ch - lo); k <= std::min(c - 1, ch + hi); ++k) {
            const double v = x[(b * c + k) * plane + p];
            sq += v * v;
          }
          const int64_t e = (b * c + ch) * plane + p;
          y[e] = static_cast<float>(x[e] / std::pow(bias_ + alpha_ / size_ * sq, beta_));
        }
    return Status::Ok();
  }

 private:
  Shape shape_;
  double alpha_ = 0, beta_ = 0, bias_ = 0;
  int64_t size_ = 1;
};

class MvnKernel : public Kernel {
 public:
  Status Prepare(const KernelPrepareContext& ctx) override {
    if (ctx.inputs[0].dtype != DataType::kFloat) return ctx.Error("float32 only");
    shape_ = ctx.inputs[0].shape;
    auto axes = ctx.attrs().GetInts("axes", {0, 2, 3});
    reduced_.assign(shape_.size(), false);
    for (int64_t a : axes) {
      OC_ASSIGN_OR_RETURN(int64_t n, NormalizeAxis(a, static_cast<int64_t>(shape_.size())));
      reduced_[n] = true;
    }
    return Status::Ok();
  }
  Status Run(const KernelRunContext& ctx) const override {
    const float* x = static_cast<const float*>(ctx.inputs[0]);
    float* y = static_cast<float*>(ctx.outputs[0]);
    const int64_t total = NumElements(shape_);
    auto group_of = [&](int64_t e) {
      int64_t g = 0, rem = e;
      for (size_t d = shape_.size(); d-- > 0;) {
        const int64_t idx = rem % shape_[d];
        rem /= shape_[d];
        if (!reduced_[d]) g = g * 1000003 + idx;  // key of the kept coordinates
      }
      return g;
    };
    std::map<int64_t, std::pair<double, double>> sums;
    std::map<int64_t, int64_t> counts;
    for (int64_t e = 0; e < total; ++e) {
      auto& s = sums[group_of(e)];
      s.first += x[e];
      s.second += static_cast<double>(x[e]) * x[e];
      ++counts[group_of(e)];
    }
    for (int64_t e = 0; e < total; ++e) {
      const int64_t g = group_of(e);
      const double n = static_cast<double>(counts[g]);
      const double mean = sums[g].first / n, var = sums[g].second / n - mean * mean;
      y[e] = static_cast<float>((x[e] - mean) / (std::sqrt(std::max(var, 0.0)) + 1e-9));
    }
    return Status::Ok();
  }

 private:
  Shape shape_;
  std::vector<bool> reduced_;
};

class ReverseSequenceKernel : public Kernel {
 public:
  Status Prepare(const KernelPrepareContext& ctx) override {
    shape_ = ctx.inputs[0].shape;
    esize_ = DataTypeSize(ctx.inputs[0].dtype);
    batch_axis_ = ctx.attrs().GetInt("batch_axis", 1);
    time_axis_ = ctx.attrs().GetInt("time_axis", 0);
    if (shape_.size() < 2 || batch_axis_ == time_axis_ || batch_axis_ > 1 || time_axis_ > 1)
      return ctx.Error("batch_axis and time_axis must be 0 and 1");
    return Status::Ok();
  }
  Status Run(const KernelRunContext& ctx) const override {
    const auto* in = static_cast<const uint8_t*>(ctx.inputs[0]);
    auto* out = static_cast<uint8_t*>(ctx.outputs[0]);
    const auto* lens = static_cast<const int64_t*>(ctx.inputs[1]);
    const auto st = ContiguousStrides(shape_);
    const int64_t inner = st[1] * static_cast<int64_t>(esize_);
    const int64_t batch = shape_[batch_axis_], time = shape_[time_axis_];
    for (int64_t b = 0; b < batch; ++b) {
      const int64_t len = std::clamp<int64_t>(lens[b], 0, time);
      for (int64_t t = 0; t < time; ++t) {
        const int64_t src_t = t < len ? len - 1 - t : t;
        const int64_t dst = (batch_axis_ == 0 ? b * st[0] + t * st[1] : t * st[0] + b * st[1]);
        const int64_t src =
            (batch_axis_ == 0 ? b * st[0] + src_t * st[1] : src_t * st[0] + b * st[1]);
        std::memcpy(out + dst * esize_, in + src * esize_, inner);
      }
    }
    return Status::Ok();
  }

 private:
  Shape shape_;
  size_t esize_ = 4;
  int64_t batch_axis_ = 1, time_axis_ = 0;
};

// Ops whose output size depends on input values: the runtime prepares them per call
// with every input available as a constant.
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

class DetKernel : public Kernel {
 public:
  Status Prepare(const KernelPrepareContext& ctx) override {
    const Shape& s = ctx.inputs[0].shape;
    type_ = ctx.inputs[0].dtype;
    if (type_ != DataType::kFloat && type_ != DataType::kDouble)
      return ctx.Error("float types only");
    m_ = s.back();
    if (s[s.size() - 2] != m_) return ctx.Error("matrices must be square");
    count_ = NumElements(s) / std::max<int64_t>(m_ * m_, 1);
    return Status::Ok();
  }
  Status Run(const KernelRunContext& ctx) const override {
    for (int64_t b = 0; b < count_; ++b) {
      std::vector<double> a(static_cast<size_t>(m_ * m_));
      for (int64_t i = 0; i < m_ * m_; ++i)
        a[i] = type_ == DataType::kFloat
                   ? static_cast<const float*>(ctx.inputs[0])[b * m_ * m_ + i]
                   : static_cast<const double*>(ctx.inputs[0])[b * m_ * m_ + i];
      double det = 1;
      for (int64_t c = 0; c < m_; ++c) {  // Gaussian elimination with partial pivoting
        int64_t p = c;
        for (int64_t r = c + 1; r < m_; ++r)
          if (std::abs(a[r * m_ + c]) > std::abs(a[p * m_ + c])) p = r;
        if (a[p * m_ + c] == 0) {
          det = 0;
          break;
        }
        if (p != c) {
          for (int64_t k = 0; k < m_; ++k) std::swap(a[p * m_ + k], a[c * m_ + k]);
          det = -det;
        }
        det *= a[c * m_ + c];
        for (int64_t r = c + 1; r < m_; ++r) {
          const double f = a[r * m_ + c] / a[c * m_ + c];
          for (int64_t k = c; k < m_; ++k) a[r * m_ + k] -= f * a[c * m_ + k];
        }
      }
      if (type_ == DataType::kFloat)
        static_cast<float*>(ctx.outputs[0])[b] = static_cast<float>(det);
      else
        static_cast<double*>(ctx.outputs[0])[b] = det;
    }
    return Status::Ok();
  }

 private:
  DataType type_ = DataType::kFloat;
  int64_t m_ = 0, count_ = 0;
};

class WindowKernel : public Kernel {
 public:
  Status Prepare(const KernelPrepareContext& ctx) override {
    if (!ctx.constants[0]) return ctx.NeedsValue("size");
    n_ = ctx.constants[0]->GetAsInt(0);
    type_ = ctx.outputs[0].dtype;
    periodic_ = ctx.attrs().GetInt("periodic", 1) != 0;
    op_ = ctx.node->op_type;
    return Status::Ok();
  }
  Status Run(const KernelRunContext& ctx) const override {
    const double N = static_cast<double>(periodic_ ? n_ : n_ - 1);
    Tensor out(type_, {n_});
    for (int64_t i = 0; i < n_; ++i) {
      const double x = 2 * M_PI * static_cast<double>(i) / N;
      double v;
      if (op_ == "HannWindow")
        v = 0.5 - 0.5 * std::cos(x);
      else if (op_ == "HammingWindow")
        v = 25.0 / 46.0 - (21.0 / 46.0) * std::cos(x);
      else
        v = 0.42 - 0.5 * std::cos(x) + 0.08 * std::cos(2 * x);
      Tensor s = Tensor::Scalar(type_, v);
      std::memcpy(static_cast<uint8_t*>(ctx.outputs[0]) + i * DataTypeSize(type_), s.data(),
                  DataTypeSize(type_));
    }
    return Status::Ok();
  }

 private:
  int64_t n_ = 0;
  DataType type_ = DataType::kFloat;
  bool periodic_ = true;
  std::string op_;
};

class MaxUnpoolKernel : public Kernel {
 public:
  Status Prepare(const KernelPrepareContext& ctx) override {
    in_ = ctx.inputs[0].shape;
    out_ = ctx.outputs[0].shape;
    esize_ = DataTypeSize(ctx.inputs[0].dtype);
    // Indices are flat positions in the unpooled shape implied by the attributes; an
    // explicit output_shape only adds room at the end of each dimension.
    const size_t n = in_.size() - 2;
    auto kernel = ctx.attrs().GetInts("kernel_shape");
    auto strides = ctx.attrs().GetInts("strides", std::vector<int64_t>(n, 1));
    auto pads = ctx.attrs().GetInts("pads", std::vector<int64_t>(2 * n, 0));
    if (kernel.size() != n) return ctx.Error("kernel_shape does not match the rank");
    implied_ = {in_[0], in_[1]};
    for (size_t i = 0; i < n; ++i)
      implied_.push_back((in_[2 + i] - 1) * strides[i] + kernel[i] - pads[i] - pads[i + n]);
    if (out_.size() != implied_.size()) return ctx.Error("output_shape has the wrong rank");
    return Status::Ok();
  }
  Status Run(const KernelRunContext& ctx) const override {
    std::memset(ctx.outputs[0], 0, static_cast<size_t>(NumElements(out_)) * esize_);
    const auto* x = static_cast<const uint8_t*>(ctx.inputs[0]);
    const auto* idx = static_cast<const int64_t*>(ctx.inputs[1]);
    auto* y = static_cast<uint8_t*>(ctx.outputs[0]);
    const int64_t total = NumElements(implied_), n_in = NumElements(in_);
    const auto out_st = ContiguousStrides(out_);
    for (int64_t i = 0; i < n_in; ++i) {
      if (idx[i] < 0 || idx[i] >= total)
        return InvalidArgument("MaxUnpool index " + std::to_string(idx[i]) + " is out of range");
      int64_t rem = idx[i], off = 0;
      for (size_t d = implied_.size(); d-- > 0;) {
        off += (rem % implied_[d]) * out_st[d];
        rem /= implied_[d];
      }
      std::memcpy(y + off * esize_, x + i * esize_, esize_);
    }
    return Status::Ok();
  }

 private:
  Shape in_, out_, implied_;
  size_t esize_ = 4;
};

class EinsumKernel : public Kernel {
 public:
  Status Prepare(const KernelPrepareContext& ctx) override {
    std::vector<Shape> shapes;
    for (const auto& t : ctx.inputs) shapes.push_back(t.shape);
    OC_ASSIGN_OR_RETURN(spec_, ParseEinsum(ctx.attrs().GetString("equation", ""), shapes));
    type_ = ctx.inputs[0].dtype;
    for (const auto& [c, d] : spec_.dims) labels_.push_back(c);
    for (const auto& in : spec_.inputs) {
      std::vector<int> pos;
      for (char c : in)
        pos.push_back(
            static_cast<int>(std::find(labels_.begin(), labels_.end(), c) - labels_.begin()));
      in_labels_.push_back(pos);
    }
    for (char c : spec_.output)
      out_labels_.push_back(
          static_cast<int>(std::find(labels_.begin(), labels_.end(), c) - labels_.begin()));
    for (const auto& s : shapes) in_strides_.push_back(ContiguousStrides(s));
    in_shapes_ = shapes;
    if (!DispatchNumeric(type_, []<typename T>() {}) || type_ == DataType::kBool)
      return ctx.Error("unsupported type");
    return Status::Ok();
  }
  Status Run(const KernelRunContext& ctx) const override {
    DispatchNumeric(type_, [&]<typename T>() {
      if constexpr (!std::is_same_v<T, bool>) {
        std::vector<int64_t> extent;
        for (char c : labels_) extent.push_back(spec_.dims.at(c));
        Shape out_shape;
        for (int l : out_labels_) out_shape.push_back(extent[l]);
        const auto out_st = ContiguousStrides(out_shape);
        T* y = static_cast<T*>(ctx.outputs[0]);
        std::fill(y, y + NumElements(out_shape), T(0));
        std::vector<int64_t> idx(labels_.size(), 0);
        const int64_t total = NumElements(extent);
        for (int64_t e = 0; e < total; ++e) {
          T prod = T(1);
          for (size_t k = 0; k < in_labels_.size(); ++k) {
            int64_t off = 0;
            for (size_t a = 0; a < in_labels_[k].size(); ++a) {
              // size-1 operand dims broadcast
              const int64_t i = in_shapes_[k][a] == 1 ? 0 : idx[in_labels_[k][a]];
              off += i * in_strides_[k][a];
            }
            prod = static_cast<T>(prod * static_cast<const T*>(ctx.inputs[k])[off]);
          }
          int64_t o = 0;
          for (size_t a = 0; a < out_labels_.size(); ++a) o += idx[out_labels_[a]] * out_st[a];
          y[o] = static_cast<T>(y[o] + prod);
          for (size_t l = labels_.size(); l-- > 0;) {
            if (++idx[l] < extent[l]) break;
            idx[l] = 0;
          }
        }
      }
    });
    return Status::Ok();
  }

 private:
  EinsumSpec spec_;
  DataType type_ = DataType::kFloat;
  std::vector<char> labels_;
  std::vector<std::vector<int>> in_labels_;
  std::vector<int> out_labels_;
  std::vector<std::vector<int64_t>> in_strides_;
  std::vector<Shape> in_shapes_;
};

}  // namespace

void RegisterMiscKernels(KernelTable& r) {
  r.SetFamilyTypes("all types");
  r.Add<LrnKernel>("LRN", "", "float32");
  r.Add<MvnKernel>("MeanVarianceNormalization", "", "float32");
  r.Add<ReverseSequenceKernel>("ReverseSequence");
  r.Add<CompressKernel>("Compress");
  r.Add<NonZeroKernel>("NonZero");
  r.Add<UniqueKernel>("Unique");
  r.Add<DetKernel>("Det", "", "float32, float64");
  for (const char* w : {"HannWindow", "HammingWindow", "BlackmanWindow"})
    r.Add<WindowKernel>(w, "", "all numeric output types");
  r.Add<MaxUnpoolKernel>("MaxUnpool");
  r.Add<EinsumKernel>("Einsum", "", "all numeric types");
}

}  // namespace oc
