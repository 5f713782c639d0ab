// Resize / Upsample: separable nearest, linear and cubic interpolation in any number of
// dimensions, with every coordinate transformation mode of the ONNX specification. Each
// output coordinate of each dimension gets a precomputed list of (input index, weight)
// taps, following the ONNX reference: the n nearest neighbours (ties to the lower index),
// edge values outside the input, weights renormalised with exclude_outside.
#include <algorithm>
#include <cmath>

#include "backend/kernel.h"
#include "kernels/cpu/dispatch.h"
#include "kernels/cpu/kernel_families.h"
#include "ops/shape_rules.h"

namespace oc {
namespace {

struct Tap {
  int64_t index;
  double weight;
};

struct DimTaps {
  std::vector<std::vector<Tap>> taps;  // per output coordinate
  std::vector<bool> extrapolate;       // per output coordinate (tf_crop_and_resize)
};

class ResizeKernel : public Kernel {
 public:
  Status Prepare(const KernelPrepareContext& ctx) override {
    in_ = ctx.inputs[0].shape;
    out_ = ctx.outputs[0].shape;
    type_ = ctx.inputs[0].dtype;
    if (out_.size() != in_.size()) return ctx.Error("output rank differs from input rank");
    const auto& a = ctx.attrs();
    const bool legacy = ctx.node->op_type == "Upsample" || ctx.opset < 11;
    std::string mode = a.GetString("mode", "nearest");
    std::string coord =
        legacy ? "asymmetric" : a.GetString("coordinate_transformation_mode", "half_pixel");
    std::string nearest = legacy ? "floor" : a.GetString("nearest_mode", "round_prefer_floor");
    if (legacy && mode == "bilinear") mode = "linear";
    const double cubic_a = a.GetFloat("cubic_coeff_a", -0.75f);
    const bool exclude = a.GetInt("exclude_outside", 0) != 0;
    extrapolation_ = a.GetFloat("extrapolation_value", 0.0f);
    if (mode != "nearest" && mode != "linear" && mode != "cubic")
      return ctx.Error("unknown mode " + mode);
    // Scale per dimension, as the reference computes it.
    std::vector<double> scale(in_.size(), 1.0);
    const Tensor* scales = nullptr;
    const Tensor* sizes = nullptr;
    if (legacy) {
      if (ctx.has_input(1)) scales = ctx.constants[1];
    } else {
      if (ctx.has_input(2) && ctx.constants[2] && ctx.constants[2]->numel() > 0)
        scales = ctx.constants[2];
      if (ctx.has_input(3) && ctx.constants[3] && ctx.constants[3]->numel() > 0)
        sizes = ctx.constants[3];
    }
    std::vector<float> attr_scales = a.GetFloats("scales");
    for (size_t d = 0; d < in_.size(); ++d) {
      if (sizes || (!scales && attr_scales.empty()))
        scale[d] = in_[d] ? static_cast<double>(out_[d]) / static_cast<double>(in_[d]) : 1.0;
      else if (scales)
        scale[d] = scales->GetAsDouble(static_cast<int64_t>(d));
      else
        scale[d] = attr_scales[d];
    }
    std::vector<double> roi;
    if (!legacy && ctx.has_input(1) && ctx.constants[1] && ctx.constants[1]->numel() > 0)
      for (int64_t i = 0; i < ctx.constants[1]->numel(); ++i)
        roi.push_back(ctx.constants[1]->GetAsDouble(i));
    if (coord == "tf_crop_and_resize" && roi.size() != 2 * in_.size())
      return ctx.Error("tf_crop_and_resize needs a roi of 2 x rank values");
    const int n = mode == "nearest" || mode == "linear" ? 2 : 4;
    dims_.resize(in_.size());
    for (size_t d = 0; d < in_.size(); ++d) {
      DimTaps& dt = dims_[d];
      const int64_t len = in_[d];
      const double out_len = scale[d] * static_cast<double>(len);
      for (int64_t o = 0; o < out_[d]; ++o) {
        const double x = static_cast<double>(o);
        double xo = 0;
        bool extrapolate = false;
        if (coord == "align_corners") {
          xo = out_len == 1 ? 0.0 : x * (len - 1) / (out_len - 1);
        } else if (coord == "asymmetric") {
          xo = x / scale[d];
        } else if (coord == "tf_crop_and_resize") {
          const double s = roi[d], e = roi[d + in_.size()];
          xo = out_len == 1 ? (e - s) * (len - 1) / 2 : x * (e - s) * (len - 1) / (out_len - 1);
          xo += s * (len - 1);
          extrapolate = xo < 0 || xo > len - 1;
        } else if (coord == "pytorch_half_pixel") {
          xo = out_len == 1 ? -0.5 : (x + 0.5) / scale[d] - 0.5;
        } else if (coord == "half_pixel") {
          xo = (x + 0.5) / scale[d] - 0.5;
        } else if (coord == "tf_half_pixel_for_nn") {
          xo = (x + 0.5) / scale[d];
        } else {
          return ctx.Error("unknown coordinate_transformation_mode " + coord);
        }
        dt.extrapolate.push_back(extrapolate);
        const double fl = std::floor(xo);
        const double ratio = xo == fl ? 1.0 : xo - fl;
        std::vector<double> coeffs;
        if (mode == "nearest") {
          if (xo == fl)
            coeffs = {0, 1};
          else if (nearest == "round_prefer_floor")
            coeffs = {ratio <= 0.5 ? 1.0 : 0.0, ratio > 0.5 ? 1.0 : 0.0};
          else if (nearest == "round_prefer_ceil")
            coeffs = {ratio < 0.5 ? 1.0 : 0.0, ratio >= 0.5 ? 1.0 : 0.0};
          else if (nearest == "floor")
            coeffs = {1, 0};
          else if (nearest == "ceil")
            coeffs = {0, 1};
          else
            return ctx.Error("unknown nearest_mode " + nearest);
        } else if (mode == "linear") {
          coeffs = {1 - ratio, ratio};
        } else {
          const double A = cubic_a, r = ratio;
          coeffs = {((A * (r + 1) - 5 * A) * (r + 1) + 8 * A) * (r + 1) - 4 * A,
                    ((A + 2) * r - (A + 3)) * r * r + 1,
                    ((A + 2) * (1 - r) - (A + 3)) * (1 - r) * (1 - r) + 1,
                    ((A * ((1 - r) + 1) - 5 * A) * ((1 - r) + 1) + 8 * A) * ((1 - r) + 1) - 4 * A};
        }
        // The n integer positions nearest to xo (ties to the lower one), in order.
        const int64_t base = static_cast<int64_t>(std::ceil(xo - n / 2.0 - 1e-9));
        std::vector<int64_t> cand;
        for (int64_t i = base - 1; i <= base + n; ++i) cand.push_back(i);
        std::stable_sort(cand.begin(), cand.end(), [&](int64_t p, int64_t q) {
          const double dp = std::abs(xo - static_cast<double>(p)),
                       dq = std::abs(xo - static_cast<double>(q));
          return dp != dq ? dp < dq : p < q;
        });
        cand.resize(n);
        std::sort(cand.begin(), cand.end());
        double total = 0;
        std::vector<Tap> taps;
        for (int i = 0; i < n; ++i) {
          double w = coeffs[i];
          if (exclude && (cand[i] < 0 || cand[i] >= len)) w = 0;
          total += w;
          // Outside the input the reference pads with edge values.
          taps.push_back({std::clamp<int64_t>(cand[i], 0, std::max<int64_t>(len - 1, 0)), w});
        }
        if (exclude && total != 0)
          for (auto& t : taps) t.weight /= total;
        std::vector<Tap> kept;
        for (const auto& t : taps)
          if (t.weight != 0) kept.push_back(t);
        dt.taps.push_back(kept);
      }
    }
    in_strides_.assign(in_.size(), 1);
    for (size_t d = in_.size(); d-- > 1;) in_strides_[d - 1] = in_strides_[d] * in_[d];
    if (!DispatchNumeric(type_, []<typename T>() {}) || type_ == DataType::kBool)
      return ctx.Error("unsupported type");
    return Status::Ok();
  }

  Status Run(const KernelRunContext& ctx) const override {
    const bool ok = DispatchArithmetic(type_, [&]<typename T>() {
      const T* x = static_cast<const T*>(ctx.inputs[0]);
      T* y = static_cast<T*>(ctx.outputs[0]);
      const int64_t total = NumElements(out_);
      std::vector<int64_t> pos(out_.size(), 0);
      for (int64_t e = 0; e < total; ++e) {
        double v = Eval<T>(x, 0, 0, pos);
        if constexpr (std::is_integral_v<T>) v = std::nearbyint(v);
        y[e] = SaturatingCast<T>(v);
        for (size_t d = out_.size(); d-- > 0;) {
          if (++pos[d] < out_[d]) break;
          pos[d] = 0;
        }
      }
    });
    return ok ? Status::Ok() : Unsupported("Resize on an unsupported type");
  }

 private:
  template <typename T>
  double Eval(const T* x, size_t dim, int64_t offset, const std::vector<int64_t>& pos) const {
    if (dim == in_.size()) return static_cast<double>(x[offset]);
    const DimTaps& dt = dims_[dim];
    if (dt.extrapolate[pos[dim]]) return extrapolation_;
    double acc = 0;
    for (const Tap& t : dt.taps[pos[dim]])
      acc += t.weight * Eval<T>(x, dim + 1, offset + t.index * in_strides_[dim], pos);
    return acc;
  }

  Shape in_, out_;
  std::vector<int64_t> in_strides_;
  DataType type_ = DataType::kFloat;
  std::vector<DimTaps> dims_;
  double extrapolation_ = 0;
};

}  // namespace

void RegisterResizeKernels(KernelTable& r) {
  r.SetFamilyTypes("all numeric types");
  r.Add<ResizeKernel>("Resize");
  r.Add<ResizeKernel>("Upsample");
}

}  // namespace oc
