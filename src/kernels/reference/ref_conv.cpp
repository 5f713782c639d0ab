// Reference convolution: direct loops over 1-3 spatial dims with groups, strides,
// dilations and pads (auto_pad resolved by the shared shape rules); the compiler's fused
// oc.Conv adds a residual (input 3) before its activation.
#include <algorithm>

#include "kernels/reference/ref_util.h"
#include "ops/fused_activation.h"
#include "ops/shape_rules.h"

namespace oc::ref {
namespace {

class ConvKernel : public Kernel {
 public:
  Status Prepare(const KernelPrepareContext& ctx) override {
    const Shape& x = ctx.inputs[0].shape;
    const Shape& w = ctx.inputs[1].shape;
    if (x.size() < 3 || x.size() > 5 || w.size() != x.size())
      return ctx.Error("reference Conv takes 1 to 3 spatial dims");
    const size_t n = x.size() - 2;
    const auto& a = ctx.attrs();
    auto ints = [&](const char* name, size_t count, int64_t v) {
      auto r = a.GetInts(name);
      return r.empty() ? std::vector<int64_t>(count, v) : r;
    };
    group_ = a.GetInt("group", 1);
    std::vector<int64_t> kernel(w.begin() + 2, w.end());
    strides_ = ints("strides", n, 1);
    dil_ = ints("dilations", n, 1);
    pads_ = ints("pads", 2 * n, 0);
    Shape out_spatial;
    Shape in_spatial(x.begin() + 2, x.end());
    OC_RETURN_IF_ERROR(ConvOutputShape(in_spatial, kernel, strides_, dil_,
                                       a.GetString("auto_pad", "NOTSET"), false, &pads_,
                                       &out_spatial));
    // Pad everything to three spatial dims so one loop nest serves 1-D to 3-D.
    auto to3 = [&](const std::vector<int64_t>& v, int64_t fill) {
      std::vector<int64_t> r(3 - n, fill);
      r.insert(r.end(), v.begin(), v.end());
      return r;
    };
    in_ = to3(in_spatial, 1);
    k_ = to3(kernel, 1);
    out_ = to3(out_spatial, 1);
    stride3_ = to3(strides_, 1);
    dil3_ = to3(dil_, 1);
    std::vector<int64_t> pb(pads_.begin(), pads_.begin() + n);
    pad3_ = to3(pb, 0);
    batch_ = x[0];
    cin_ = x[1];
    cout_ = w[0];
    if (group_ <= 0 || cin_ % group_ || cout_ % group_ || w[1] * group_ != cin_)
      return ctx.Error("channels do not match the weights and group");
    has_bias_ = ctx.has_input(2);
    has_residual_ = ctx.has_input(3);
    Shape expect{batch_, cout_};
    expect.insert(expect.end(), out_spatial.begin(), out_spatial.end());
    if (ctx.outputs[0].shape != expect)
      return ctx.Error("output shape " + ShapeToString(ctx.outputs[0].shape) + " is not " +
                       ShapeToString(expect));
    const std::string act = a.GetString("activation", "");
    if (!ParseFusedActivation(act, &act_)) return ctx.Error("unknown fused activation " + act);
    alpha_ = a.GetFloat("activation_alpha", 0.0f);
    beta_ = a.GetFloat("activation_beta", 0.0f);
    return Status::Ok();
  }

  Status Run(const KernelRunContext& ctx) const override {
    const auto* x = static_cast<const float*>(ctx.inputs[0]);
    const auto* w = static_cast<const float*>(ctx.inputs[1]);
    const auto* b = has_bias_ ? static_cast<const float*>(ctx.inputs[2]) : nullptr;
    const auto* res = has_residual_ ? static_cast<const float*>(ctx.inputs[3]) : nullptr;
    auto* y = static_cast<float*>(ctx.outputs[0]);
    const int64_t cin_g = cin_ / group_, cout_g = cout_ / group_;
    const int64_t in_sp = in_[0] * in_[1] * in_[2], out_sp = out_[0] * out_[1] * out_[2];
    const int64_t k_sp = k_[0] * k_[1] * k_[2];
    for (int64_t nb = 0; nb < batch_; ++nb)
      for (int64_t oc = 0; oc < cout_; ++oc) {
        const int64_t g = oc / cout_g;
        for (int64_t od = 0; od < out_[0]; ++od)
          for (int64_t oh = 0; oh < out_[1]; ++oh)
            for (int64_t ow = 0; ow < out_[2]; ++ow) {
              double acc = b ? b[oc] : 0.0;
              for (int64_t ic = 0; ic < cin_g; ++ic) {
                const float* xc = x + (nb * cin_ + g * cin_g + ic) * in_sp;
                const float* wc = w + (oc * cin_g + ic) * k_sp;
                for (int64_t kd = 0; kd < k_[0]; ++kd) {
                  const int64_t id = od * stride3_[0] - pad3_[0] + kd * dil3_[0];
                  if (id < 0 || id >= in_[0]) continue;
                  for (int64_t kh = 0; kh < k_[1]; ++kh) {
                    const int64_t ih = oh * stride3_[1] - pad3_[1] + kh * dil3_[1];
                    if (ih < 0 || ih >= in_[1]) continue;
                    for (int64_t kw = 0; kw < k_[2]; ++kw) {
                      const int64_t iw = ow * stride3_[2] - pad3_[2] + kw * dil3_[2];
                      if (iw < 0 || iw >= in_[2]) continue;
                      acc += static_cast<double>(xc[(id * in_[1] + ih) * in_[2] + iw]) *
                             wc[(kd * k_[1] + kh) * k_[2] + kw];
                    }
                  }
                }
              }
              const int64_t o = (nb * cout_ + oc) * out_sp + (od * out_[1] + oh) * out_[2] + ow;
              float v = static_cast<float>(acc);
              if (res) v += res[o];  // same index: the output may alias the residual
              y[o] = ApplyFusedActivation(act_, v, alpha_, beta_);
            }
      }
    return Status::Ok();
  }

 private:
  int64_t group_ = 1, batch_ = 0, cin_ = 0, cout_ = 0;
  std::vector<int64_t> strides_, dil_, pads_, in_, k_, out_, stride3_, dil3_, pad3_;
  bool has_bias_ = false, has_residual_ = false;
  FusedActivation act_ = FusedActivation::kNone;
  float alpha_ = 0, beta_ = 0;
};

bool ConvSupported(const Node& node, const std::vector<TensorType>& in) {
  if (!FloatInputs(in) || !SingleOutput(node) || in.size() < 2) return false;
  const size_t rank = in[0].shape.size();
  if (rank < 3 || rank > 5) return false;
  FusedActivation act;
  return ParseFusedActivation(node.attrs.GetString("activation", ""), &act);
}

}  // namespace

void RegisterRefConv(RefTable& t) {
  t.Add<ConvKernel>("Conv", ConvSupported, "float32");
  t.Add<ConvKernel>("Conv", ConvSupported, "float32", kOcDomain);
}

}  // namespace oc::ref
