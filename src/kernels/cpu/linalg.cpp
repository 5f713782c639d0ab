// Det and Einsum: plain loops in double accumulation.
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
    const bool ok = DispatchArithmetic(type_, [&]<typename T>() {
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
    });
    return ok ? Status::Ok() : Unsupported("Einsum on an unsupported type");
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

void RegisterLinalgKernels(KernelTable& r) {
  r.Add<DetKernel>("Det", "", "float32, float64");
  r.Add<EinsumKernel>("Einsum", "", "all numeric types");
}

}  // namespace oc
