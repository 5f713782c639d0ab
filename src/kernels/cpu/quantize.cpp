// Quantization kernels. Integer arithmetic is exact (int32 accumulation); requantisation
// rounds half to even and saturates, as the ONNX specification requires.
#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <cstring>
#include <limits>

#include "backend/kernel.h"
#include "kernels/cpu/dispatch.h"
#include "kernels/cpu/integer_dnnl.h"
#include "kernels/cpu/kernel_families.h"
#include "kernels/cpu/spatial3.h"
#include "ops/shape_rules.h"

namespace oc {
namespace {

// Values of a (u)int8/int32 tensor as int32, or of a float tensor as float.
int32_t IntAt(DataType t, const void* p, int64_t i) {
  switch (t) {
    case DataType::kUint8:
      return static_cast<const uint8_t*>(p)[i];
    case DataType::kInt8:
      return static_cast<const int8_t*>(p)[i];
    case DataType::kInt32:
      return static_cast<const int32_t*>(p)[i];
    case DataType::kUint16:
      return static_cast<const uint16_t*>(p)[i];
    case DataType::kInt16:
      return static_cast<const int16_t*>(p)[i];
    default:
      return 0;
  }
}

// Saturating store of a rounded value into a uint8 / int8 (or int32) element.
// Requantisation as ONNX Runtime computes it (MLAS): the multiplier x_scale * w_scale /
// y_scale and the product in float32, rounded half to even, then the zero point.
float RequantMultiplier(float x_scale, float w_scale, float y_scale) {
  return (x_scale * w_scale) / y_scale;
}
double Requantize(int64_t acc, float multiplier, int32_t zero_point) {
  return static_cast<double>(std::nearbyintf(static_cast<float>(acc) * multiplier)) + zero_point;
}

void StoreSaturated(DataType t, void* p, int64_t i, double v) {
  // NaN has no integer and std::clamp passes it through to an undefined conversion: it is
  // stored as 0 (ONNX leaves it open).
  v = std::isnan(v) ? 0.0 : std::nearbyint(v);  // the default rounding mode: half to even
  switch (t) {
    case DataType::kUint8:
      static_cast<uint8_t*>(p)[i] = static_cast<uint8_t>(std::clamp(v, 0.0, 255.0));
      break;
    case DataType::kInt8:
      static_cast<int8_t*>(p)[i] = static_cast<int8_t>(std::clamp(v, -128.0, 127.0));
      break;
    case DataType::kUint16:
      static_cast<uint16_t*>(p)[i] = static_cast<uint16_t>(std::clamp(v, 0.0, 65535.0));
      break;
    case DataType::kInt16:
      static_cast<int16_t*>(p)[i] = static_cast<int16_t>(std::clamp(v, -32768.0, 32767.0));
      break;
    default:
      static_cast<int32_t*>(p)[i] =
          static_cast<int32_t>(std::clamp(v, -2147483648.0, 2147483647.0));
  }
}

double FloatAt(DataType t, const void* p, int64_t i) {
  Tensor view(t, {i + 1}, p, nullptr);
  return view.GetAsDouble(i);
}

// Per-tensor or per-axis parameter: index of the parameter for element e.
struct AxisParam {
  int64_t count = 1, inner = 1;  // parameter count and the stride of the axis
  int64_t At(int64_t e) const { return count == 1 ? 0 : (e / inner) % count; }
};

Result<AxisParam> MakeAxisParam(const KernelPrepareContext& ctx, size_t param_input) {
  AxisParam p;
  const Shape& x = ctx.inputs[0].shape;
  p.count = ctx.inputs[param_input].numel();
  if (p.count <= 1) {
    p.count = 1;
    return p;
  }
  OC_ASSIGN_OR_RETURN(int64_t axis,
                      NormalizeAxis(ctx.attrs().GetInt("axis", 1), static_cast<int64_t>(x.size())));
  if (x[axis] != p.count) return ctx.Error("per-axis parameters do not match the axis size");
  for (size_t d = axis + 1; d < x.size(); ++d) p.inner *= x[d];
  return p;
}

class QuantizeKernel : public Kernel {
 public:
  Status Prepare(const KernelPrepareContext& ctx) override {
    dequant_ = ctx.node->op_type == "DequantizeLinear";
    in_type_ = ctx.inputs[0].dtype;
    scale_type_ = ctx.inputs[1].dtype;
    zp_type_ = ctx.has_input(2) ? ctx.inputs[2].dtype : DataType::kUndefined;
    out_type_ = ctx.outputs[0].dtype;
    n_ = ctx.inputs[0].numel();
    // Run reads scale and zero point at every parameter index: both must hold them all.
    const int64_t scales = ctx.inputs[1].numel();
    if (scales < 1) return ctx.Error("the scale holds no value");
    if (ctx.has_input(2) && ctx.inputs[2].numel() != scales)
      return ctx.Error("the zero point holds " + std::to_string(ctx.inputs[2].numel()) +
                       " values, the scale " + std::to_string(scales));
    OC_ASSIGN_OR_RETURN(param_, MakeAxisParam(ctx, 1));
    return Status::Ok();
  }
  Status Run(const KernelRunContext& ctx) const override {
    for (int64_t e = 0; e < n_; ++e) {
      const int64_t k = param_.At(e);
      const double scale = FloatAt(scale_type_, ctx.inputs[1], k);
      const int32_t zp = zp_type_ == DataType::kUndefined ? 0 : IntAt(zp_type_, ctx.inputs[2], k);
      if (dequant_) {
        const double v = (static_cast<double>(IntAt(in_type_, ctx.inputs[0], e)) - zp) * scale;
        Tensor s = Tensor::Scalar(out_type_, v);
        std::memcpy(static_cast<uint8_t*>(ctx.outputs[0]) + e * DataTypeSize(out_type_), s.data(),
                    DataTypeSize(out_type_));
      } else {
        // float32 inputs divide in float32, as the reference does: the quotient decides
        // ties (0.5 / 0.019607844f is exactly 25.5 in float, 25.4999... in double).
        const double q = in_type_ == DataType::kFloat
                             ? static_cast<double>(static_cast<const float*>(ctx.inputs[0])[e] /
                                                   static_cast<float>(scale))
                             : FloatAt(in_type_, ctx.inputs[0], e) / scale;
        const double v = std::nearbyint(q) + zp;
        StoreSaturated(out_type_, ctx.outputs[0], e, v);
      }
    }
    return Status::Ok();
  }

 private:
  bool dequant_ = false;
  DataType in_type_ = DataType::kFloat, scale_type_ = DataType::kFloat, zp_type_ = DataType::kUint8,
           out_type_ = DataType::kUint8;
  int64_t n_ = 0;
  AxisParam param_;
};

class DynamicQuantizeKernel : public Kernel {
 public:
  Status Prepare(const KernelPrepareContext& ctx) override {
    if (ctx.inputs[0].dtype != DataType::kFloat) return ctx.Error("float32 only");
    n_ = ctx.inputs[0].numel();
    return Status::Ok();
  }
  Status Run(const KernelRunContext& ctx) const override {
    const float* x = static_cast<const float*>(ctx.inputs[0]);
    float lo = 0, hi = 0;
    for (int64_t i = 0; i < n_; ++i) {
      lo = std::min(lo, x[i]);
      hi = std::max(hi, x[i]);
    }
    const float scale = (hi - lo) / 255.0f;
    const float zp_f =
        scale == 0 ? 0.0f : std::clamp(std::nearbyint(0.0f - lo / scale), 0.0f, 255.0f);
    auto* y = static_cast<uint8_t*>(ctx.outputs[0]);
    for (int64_t i = 0; i < n_; ++i)
      y[i] = scale == 0 ? static_cast<uint8_t>(zp_f)
                        : static_cast<uint8_t>(
                              std::isnan(x[i])
                                  ? 0.0f
                                  : std::clamp(std::nearbyint(x[i] / scale) + zp_f, 0.0f, 255.0f));
    *static_cast<float*>(ctx.outputs[1]) = scale;
    *static_cast<uint8_t*>(ctx.outputs[2]) = static_cast<uint8_t>(zp_f);
    return Status::Ok();
  }

 private:
  int64_t n_ = 0;
};

// Integer matrix product with zero points; QLinearMatMul requantises the result.
class MatMulIntegerKernel : public Kernel {
 public:
  Status Prepare(const KernelPrepareContext& ctx) override {
    qlinear_ = ctx.node->op_type == "QLinearMatMul";
    const size_t ai = 0, bi = qlinear_ ? 3 : 1;
    a_type_ = ctx.inputs[ai].dtype;
    b_type_ = ctx.inputs[bi].dtype;
    Shape a = ctx.inputs[ai].shape, b = ctx.inputs[bi].shape;
    if (a.size() == 1) a.insert(a.begin(), 1);
    if (b.size() == 1) b.push_back(1);
    m_ = a[a.size() - 2];
    k_ = a.back();
    n_ = b.back();
    Shape ab(a.begin(), a.end() - 2), bb(b.begin(), b.end() - 2);
    OC_ASSIGN_OR_RETURN(Shape batch, BroadcastShapes(ab, bb));
    BroadcastPlan plan = BroadcastPlan::Make(
        batch.empty() ? Shape{1} : batch, {ab.empty() ? Shape{1} : ab, bb.empty() ? Shape{1} : bb});
    batches_ = NumElements(batch);
    for (int64_t bi2 = 0; bi2 < batches_; ++bi2) {
      int64_t row = bi2 / plan.inner, col = bi2 % plan.inner, off[2];
      plan.RowOffsets(row, off);
      a_off_.push_back((off[0] + col * plan.inner_step[0]) * m_ * k_);
      b_off_.push_back((off[1] + col * plan.inner_step[1]) * k_ * n_);
    }
    const size_t azp = qlinear_ ? 2 : 2, bzp = qlinear_ ? 5 : 3;
    has_azp_ = ctx.has_input(azp);
    has_bzp_ = ctx.has_input(bzp);
    azp_n_ = has_azp_ ? ctx.inputs[azp].numel() : 0;
    bzp_n_ = has_bzp_ ? ctx.inputs[bzp].numel() : 0;
    azp_type_ = has_azp_ ? ctx.inputs[azp].dtype : a_type_;
    bzp_type_ = has_bzp_ ? ctx.inputs[bzp].dtype : b_type_;
    out_type_ = ctx.outputs[0].dtype;
    // oneDNN's int8 matmul where the node fits (the loops below stay the fallback and the
    // oracle: tests/unit/kernels_quantize_test.cpp compares the two).
    OC_ASSIGN_OR_RETURN(const bool plain, ctx.config->int8_plain.Get());
    fast_ = !plain && fast_mm_.Prepare(ctx, qlinear_);
    return Status::Ok();
  }
  size_t WorkspaceSize() const override { return fast_ ? fast_mm_.WorkspaceSize() : 0; }
  bool ReadsConstantAtRun(size_t i) const override {
    return !fast_ || i != static_cast<size_t>(qlinear_ ? 3 : 1);  // B packed by oneDNN
  }
  Status Run(const KernelRunContext& ctx) const override {
    if (fast_) return fast_mm_.Run(ctx);
    const void* a = ctx.inputs[0];
    const void* b = ctx.inputs[qlinear_ ? 3 : 1];
    const void* azp = has_azp_ ? ctx.inputs[2] : nullptr;
    const void* bzp = has_bzp_ ? ctx.inputs[qlinear_ ? 5 : 3] : nullptr;
    float scale = 1;
    int32_t yzp = 0;
    if (qlinear_) {
      scale = RequantMultiplier(static_cast<float>(FloatAt(DataType::kFloat, ctx.inputs[1], 0)),
                                static_cast<float>(FloatAt(DataType::kFloat, ctx.inputs[4], 0)),
                                static_cast<float>(FloatAt(DataType::kFloat, ctx.inputs[6], 0)));
      yzp = IntAt(out_type_, ctx.inputs[7], 0);
    }
    for (int64_t bt = 0; bt < batches_; ++bt)
      for (int64_t i = 0; i < m_; ++i)
        for (int64_t j = 0; j < n_; ++j) {
          const int32_t za = azp ? IntAt(azp_type_, azp, azp_n_ > 1 ? i : 0) : 0;
          const int32_t zb = bzp ? IntAt(bzp_type_, bzp, bzp_n_ > 1 ? j : 0) : 0;
          int64_t acc = 0;
          for (int64_t p = 0; p < k_; ++p)
            acc += static_cast<int64_t>(IntAt(a_type_, a, a_off_[bt] + i * k_ + p) - za) *
                   (IntAt(b_type_, b, b_off_[bt] + p * n_ + j) - zb);
          const int64_t e = (bt * m_ + i) * n_ + j;
          if (qlinear_)
            StoreSaturated(out_type_, ctx.outputs[0], e, Requantize(acc, scale, yzp));
          else
            static_cast<int32_t*>(ctx.outputs[0])[e] = static_cast<int32_t>(acc);
        }
    return Status::Ok();
  }

 private:
  bool qlinear_ = false, has_azp_ = false, has_bzp_ = false;
  DataType a_type_ = DataType::kUint8, b_type_ = DataType::kUint8, azp_type_ = DataType::kUint8,
           bzp_type_ = DataType::kUint8, out_type_ = DataType::kInt32;
  int64_t m_ = 0, k_ = 0, n_ = 0, batches_ = 1, azp_n_ = 0, bzp_n_ = 0;
  std::vector<int64_t> a_off_, b_off_;
  bool fast_ = false;
  DnnlIntegerMatmul fast_mm_;
};

// Integer convolution with zero points; QLinearConv adds an int32 bias and requantises.
class ConvIntegerKernel : public Kernel {
 public:
  Status Prepare(const KernelPrepareContext& ctx) override {
    qlinear_ = ctx.node->op_type == "QLinearConv";
    const size_t wi = qlinear_ ? 3 : 1;
    x_ = ctx.inputs[0].shape;
    w_ = ctx.inputs[wi].shape;
    y_ = ctx.outputs[0].shape;
    x_type_ = ctx.inputs[0].dtype;
    w_type_ = ctx.inputs[wi].dtype;
    out_type_ = ctx.outputs[0].dtype;
    if (x_.size() < 3 || x_.size() > 5) return ctx.Error("1-D to 3-D only");
    const size_t n = x_.size() - 2;
    std::vector<int64_t> kernel(w_.begin() + 2, w_.end());
    strides_ = ctx.attrs().GetInts("strides", std::vector<int64_t>(n, 1));
    dil_ = ctx.attrs().GetInts("dilations", std::vector<int64_t>(n, 1));
    pads_ = ctx.attrs().GetInts("pads");
    Shape spatial;
    OC_RETURN_IF_ERROR(ConvOutputShape(Shape(x_.begin() + 2, x_.end()), kernel, strides_, dil_,
                                       ctx.attrs().GetString("auto_pad", "NOTSET"), false, &pads_,
                                       &spatial));
    group_ = ctx.attrs().GetInt("group", 1);
    xzp_in_ = qlinear_ ? 2 : 2;
    wzp_in_ = qlinear_ ? 5 : 3;
    has_xzp_ = ctx.has_input(xzp_in_);
    has_wzp_ = ctx.has_input(wzp_in_);
    wzp_n_ = has_wzp_ ? ctx.inputs[wzp_in_].numel() : 0;
    wzp_type_ = has_wzp_ ? ctx.inputs[wzp_in_].dtype : w_type_;
    has_bias_ = qlinear_ && ctx.has_input(8);
    w_scale_n_ = qlinear_ ? ctx.inputs[4].numel() : 1;
    // oneDNN's int8 kernels where the node fits them (the loops below stay the fallback and
    // the oracle: tests/unit/kernels_quantize_test.cpp compares the two).
    OC_ASSIGN_OR_RETURN(const bool plain, ctx.config->int8_plain.Get());
    fast_ = !plain && fast_conv_.Prepare(ctx, qlinear_);
    return Status::Ok();
  }
  size_t WorkspaceSize() const override { return fast_ ? fast_conv_.WorkspaceSize() : 0; }
  bool ReadsConstantAtRun(size_t i) const override {
    return !fast_ || i != static_cast<size_t>(qlinear_ ? 3 : 1);  // weights packed by oneDNN
  }
  Status Run(const KernelRunContext& ctx) const override {
    if (fast_) return fast_conv_.Run(ctx);
    const void* x = ctx.inputs[0];
    const void* w = ctx.inputs[qlinear_ ? 3 : 1];
    const int32_t xzp = has_xzp_ ? IntAt(x_type_, ctx.inputs[xzp_in_], 0) : 0;
    const Spatial3 g(x_, y_, w_, strides_, dil_, pads_);
    const int64_t *xs = g.x, *ys = g.y, *ks = g.k, *st = g.stride, *dl = g.dil, *pb = g.pad;
    const int64_t batch = x_[0], cin = x_[1], cout = y_[1], cin_g = cin / group_,
                  cout_g = cout / group_;
    const int64_t x_plane = xs[0] * xs[1] * xs[2], k_plane = ks[0] * ks[1] * ks[2];
    for (int64_t b = 0; b < batch; ++b)
      for (int64_t co = 0; co < cout; ++co) {
        const int64_t g = co / cout_g;
        const int32_t wzp =
            has_wzp_ ? IntAt(wzp_type_, ctx.inputs[wzp_in_], wzp_n_ > 1 ? co : 0) : 0;
        for (int64_t o0 = 0; o0 < ys[0]; ++o0)
          for (int64_t o1 = 0; o1 < ys[1]; ++o1)
            for (int64_t o2 = 0; o2 < ys[2]; ++o2) {
              int64_t acc = 0;
              for (int64_t ci = 0; ci < cin_g; ++ci) {
                const int64_t xc = g * cin_g + ci;
                for (int64_t k0 = 0; k0 < ks[0]; ++k0) {
                  const int64_t i0 = o0 * st[0] - pb[0] + k0 * dl[0];
                  if (i0 < 0 || i0 >= xs[0]) continue;
                  for (int64_t k1 = 0; k1 < ks[1]; ++k1) {
                    const int64_t i1 = o1 * st[1] - pb[1] + k1 * dl[1];
                    if (i1 < 0 || i1 >= xs[1]) continue;
                    for (int64_t k2 = 0; k2 < ks[2]; ++k2) {
                      const int64_t i2 = o2 * st[2] - pb[2] + k2 * dl[2];
                      if (i2 < 0 || i2 >= xs[2]) continue;
                      const int32_t xv =
                          IntAt(x_type_, x,
                                (b * cin + xc) * x_plane + (i0 * xs[1] + i1) * xs[2] + i2) -
                          xzp;
                      const int32_t wv =
                          IntAt(w_type_, w,
                                (co * cin_g + ci) * k_plane + (k0 * ks[1] + k1) * ks[2] + k2) -
                          wzp;
                      acc += static_cast<int64_t>(xv) * wv;
                    }
                  }
                }
              }
              const int64_t e = ((b * cout + co) * ys[0] + o0) * ys[1] * ys[2] + o1 * ys[2] + o2;
              if (!qlinear_) {
                static_cast<int32_t*>(ctx.outputs[0])[e] = static_cast<int32_t>(acc);
                continue;
              }
              if (has_bias_) acc += static_cast<const int32_t*>(ctx.inputs[8])[co];
              const float scale = RequantMultiplier(
                  static_cast<float>(FloatAt(DataType::kFloat, ctx.inputs[1], 0)),
                  static_cast<float>(
                      FloatAt(DataType::kFloat, ctx.inputs[4], w_scale_n_ > 1 ? co : 0)),
                  static_cast<float>(FloatAt(DataType::kFloat, ctx.inputs[6], 0)));
              StoreSaturated(out_type_, ctx.outputs[0], e,
                             Requantize(acc, scale, IntAt(out_type_, ctx.inputs[7], 0)));
            }
      }
    return Status::Ok();
  }

 private:
  bool qlinear_ = false, has_xzp_ = false, has_wzp_ = false, has_bias_ = false;
  Shape x_, w_, y_;
  DataType x_type_ = DataType::kUint8, w_type_ = DataType::kUint8, wzp_type_ = DataType::kUint8,
           out_type_ = DataType::kInt32;
  std::vector<int64_t> strides_, dil_, pads_;
  int64_t group_ = 1, wzp_n_ = 0, w_scale_n_ = 1;
  size_t xzp_in_ = 2, wzp_in_ = 3;
  bool fast_ = false;
  DnnlIntegerConv fast_conv_;
};

}  // namespace

void RegisterQuantizeKernels(KernelTable& r) {
  r.SetFamilyTypes("uint8, int8 (int32 accumulators and biases); float32 scales");
  r.Add<QuantizeKernel>("QuantizeLinear");
  r.Add<QuantizeKernel>("DequantizeLinear");
  r.Add<DynamicQuantizeKernel>("DynamicQuantizeLinear");
  r.Add<MatMulIntegerKernel>("MatMulInteger");
  r.Add<MatMulIntegerKernel>("QLinearMatMul");
  r.Add<ConvIntegerKernel>("ConvInteger");
  r.Add<ConvIntegerKernel>("QLinearConv");
}

}  // namespace oc
