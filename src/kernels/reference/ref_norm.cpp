// Reference normalisation: BatchNormalization (inference statistics), InstanceNormalization
// and LayerNormalization (from `axis` on, optional bias), computed in double.
#include <cmath>

#include "kernels/reference/ref_util.h"

namespace oc::ref {
namespace {

class BatchNormKernel : public Kernel {
 public:
  Status Prepare(const KernelPrepareContext& ctx) override {
    const Shape& x = ctx.inputs[0].shape;
    if (x.size() < 2) return ctx.Error("BatchNormalization needs N and C");
    n_ = x[0];
    c_ = x[1];
    sp_ = n_ * c_ != 0 ? ctx.inputs[0].numel() / (n_ * c_) : 0;
    eps_ = ctx.attrs().GetFloat("epsilon", 1e-5f);
    return Status::Ok();
  }
  Status Run(const KernelRunContext& ctx) const override {
    const auto* x = static_cast<const float*>(ctx.inputs[0]);
    const auto* scale = static_cast<const float*>(ctx.inputs[1]);
    const auto* bias = static_cast<const float*>(ctx.inputs[2]);
    const auto* mean = static_cast<const float*>(ctx.inputs[3]);
    const auto* var = static_cast<const float*>(ctx.inputs[4]);
    auto* y = static_cast<float*>(ctx.outputs[0]);
    for (int64_t b = 0; b < n_; ++b)
      for (int64_t c = 0; c < c_; ++c) {
        const double inv = 1.0 / std::sqrt(static_cast<double>(var[c]) + eps_);
        for (int64_t i = 0; i < sp_; ++i) {
          const int64_t k = (b * c_ + c) * sp_ + i;
          y[k] = static_cast<float>((x[k] - mean[c]) * inv * scale[c] + bias[c]);
        }
      }
    return Status::Ok();
  }

 private:
  int64_t n_ = 0, c_ = 0, sp_ = 0;
  float eps_ = 1e-5f;
};

class InstanceNormKernel : public Kernel {
 public:
  Status Prepare(const KernelPrepareContext& ctx) override {
    const Shape& x = ctx.inputs[0].shape;
    if (x.size() < 3) return ctx.Error("InstanceNormalization needs N, C and spatial dims");
    n_ = x[0];
    c_ = x[1];
    sp_ = n_ * c_ != 0 ? ctx.inputs[0].numel() / (n_ * c_) : 0;
    eps_ = ctx.attrs().GetFloat("epsilon", 1e-5f);
    return Status::Ok();
  }
  Status Run(const KernelRunContext& ctx) const override {
    const auto* x = static_cast<const float*>(ctx.inputs[0]);
    const auto* scale = static_cast<const float*>(ctx.inputs[1]);
    const auto* bias = static_cast<const float*>(ctx.inputs[2]);
    auto* y = static_cast<float*>(ctx.outputs[0]);
    for (int64_t p = 0; p < n_ * c_; ++p) {
      const float* xp = x + p * sp_;
      double mean = 0, var = 0;
      for (int64_t i = 0; i < sp_; ++i) mean += xp[i];
      mean /= static_cast<double>(sp_);
      for (int64_t i = 0; i < sp_; ++i) var += (xp[i] - mean) * (xp[i] - mean);
      var /= static_cast<double>(sp_);
      const double inv = 1.0 / std::sqrt(var + eps_);
      const int64_t c = p % c_;
      for (int64_t i = 0; i < sp_; ++i)
        y[p * sp_ + i] = static_cast<float>((xp[i] - mean) * inv * scale[c] + bias[c]);
    }
    return Status::Ok();
  }

 private:
  int64_t n_ = 0, c_ = 0, sp_ = 0;
  float eps_ = 1e-5f;
};

class LayerNormKernel : public Kernel {
 public:
  Status Prepare(const KernelPrepareContext& ctx) override {
    const Shape& x = ctx.inputs[0].shape;
    const int64_t axis = NormalizeAxis(ctx.attrs().GetInt("axis", -1), x.size());
    if (axis < 0 || axis >= static_cast<int64_t>(x.size())) return ctx.Error("axis out of range");
    outer_ = 1;
    for (int64_t d = 0; d < axis; ++d) outer_ *= x[d];
    inner_ = outer_ ? ctx.inputs[0].numel() / outer_ : 0;
    scale_index_ = BroadcastIndex(ctx.inputs[1].shape, Shape(x.begin() + axis, x.end()));
    has_bias_ = ctx.has_input(2);
    if (has_bias_)
      bias_index_ = BroadcastIndex(ctx.inputs[2].shape, Shape(x.begin() + axis, x.end()));
    eps_ = ctx.attrs().GetFloat("epsilon", 1e-5f);
    return Status::Ok();
  }
  Status Run(const KernelRunContext& ctx) const override {
    const auto* x = static_cast<const float*>(ctx.inputs[0]);
    const auto* scale = static_cast<const float*>(ctx.inputs[1]);
    const auto* bias = has_bias_ ? static_cast<const float*>(ctx.inputs[2]) : nullptr;
    auto* y = static_cast<float*>(ctx.outputs[0]);
    for (int64_t o = 0; o < outer_; ++o) {
      const float* xo = x + o * inner_;
      double mean = 0, var = 0;
      for (int64_t i = 0; i < inner_; ++i) mean += xo[i];
      mean /= static_cast<double>(inner_);
      for (int64_t i = 0; i < inner_; ++i) var += (xo[i] - mean) * (xo[i] - mean);
      var /= static_cast<double>(inner_);
      const double inv = 1.0 / std::sqrt(var + eps_);
      for (int64_t i = 0; i < inner_; ++i) {
        double v = (xo[i] - mean) * inv * scale[scale_index_[i]];
        if (bias) v += bias[bias_index_[i]];
        y[o * inner_ + i] = static_cast<float>(v);
      }
    }
    return Status::Ok();
  }

 private:
  int64_t outer_ = 0, inner_ = 0;
  std::vector<int64_t> scale_index_, bias_index_;
  bool has_bias_ = false;
  float eps_ = 1e-5f;
};

bool FloatOneOutput(const Node& node, const std::vector<TensorType>& in) {
  return FloatInputs(in) && SingleOutput(node);
}

}  // namespace

void RegisterRefNorm(RefTable& t) {
  t.Add<BatchNormKernel>(
      "BatchNormalization",
      [](const Node& n, const std::vector<TensorType>& in) {
        return FloatOneOutput(n, in) && n.attrs.GetInt("training_mode", 0) == 0;
      },
      "float32");
  t.Add<InstanceNormKernel>("InstanceNormalization", FloatOneOutput, "float32");
  t.Add<LayerNormKernel>("LayerNormalization", FloatOneOutput, "float32");
}

}  // namespace oc::ref
