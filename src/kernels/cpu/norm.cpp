// Normalisation kernels: BatchNormalization (inference), LayerNormalization,
// InstanceNormalization. Statistics are accumulated in double for stability.
#include <algorithm>
#include <cmath>

#include "backend/kernel.h"
#include "kernels/cpu/kernel_families.h"
#include "kernels/cpu/multiversion.h"

namespace oc {
namespace {

// Rows [r0, r1) of a layer normalisation over `cols` contiguous values; statistics in
// double, vectorised.
OC_MULTIVERSION void LayerNormRows(const float* x, const float* g, const float* b, float* y,
                                   float* mean_out, float* inv_out, int64_t r0, int64_t r1,
                                   int64_t cols, bool scalar_scale, bool scalar_bias, float eps) {
  for (int64_t r = r0; r < r1; ++r) {
    const float* px = x + r * cols;
    float* py = y + r * cols;
    double sum = 0, sq = 0;
#pragma omp simd reduction(+ : sum)
    for (int64_t i = 0; i < cols; ++i) sum += px[i];
    const double mean = sum / static_cast<double>(cols);
#pragma omp simd reduction(+ : sq)
    for (int64_t i = 0; i < cols; ++i) {
      const double d = px[i] - mean;
      sq += d * d;
    }
    const float inv = static_cast<float>(1.0 / std::sqrt(sq / static_cast<double>(cols) + eps));
    const float m = static_cast<float>(mean);
    if (!scalar_scale && b && !scalar_bias) {
#pragma omp simd
      for (int64_t i = 0; i < cols; ++i) py[i] = (px[i] - m) * inv * g[i] + b[i];
    } else {
      for (int64_t i = 0; i < cols; ++i) {
        const float v = (px[i] - m) * inv * g[scalar_scale ? 0 : i];
        py[i] = b ? v + b[scalar_bias ? 0 : i] : v;
      }
    }
    if (mean_out) mean_out[r] = m;
    if (inv_out) inv_out[r] = inv;
  }
}

class BatchNormKernel : public Kernel {
 public:
  Status Prepare(const KernelPrepareContext& ctx) override {
    const Shape& s = ctx.inputs[0].shape;
    if (ctx.inputs[0].dtype != DataType::kFloat) return ctx.Error("float32 only");
    for (size_t i = 1; i < 5; ++i)
      if (!ctx.constants[i]) return ctx.NeedsValue("scale, B, mean and var");
    batch_ = s[0];
    channels_ = s.size() > 1 ? s[1] : 1;
    spatial_ = 1;
    for (size_t i = 2; i < s.size(); ++i) spatial_ *= s[i];
    const float eps = ctx.attrs().GetFloat("epsilon", 1e-5f);
    // Training mode normalises with the batch's own statistics (population variance)
    // and also returns the updated running mean and variance.
    training_ = ctx.attrs().GetInt("training_mode", 0) != 0;
    std::vector<double> batch_mean(channels_), batch_var(channels_);
    if (training_) {
      if (!ctx.constants[0]) return ctx.NeedsValue("X (training mode uses batch statistics)");
      const float* x = ctx.constants[0]->data_as<float>();
      const double count = static_cast<double>(batch_ * spatial_);
      for (int64_t c = 0; c < channels_; ++c) {
        double sum = 0, sq = 0;
        for (int64_t b = 0; b < batch_; ++b)
          for (int64_t i = 0; i < spatial_; ++i) sum += x[(b * channels_ + c) * spatial_ + i];
        batch_mean[c] = sum / count;
        for (int64_t b = 0; b < batch_; ++b)
          for (int64_t i = 0; i < spatial_; ++i) {
            const double d = x[(b * channels_ + c) * spatial_ + i] - batch_mean[c];
            sq += d * d;
          }
        batch_var[c] = sq / count;
      }
      const double momentum = ctx.attrs().GetFloat("momentum", 0.9f);
      for (int64_t c = 0; c < channels_; ++c) {
        running_mean_.push_back(static_cast<float>(ctx.constants[3]->GetAsDouble(c) * momentum +
                                                   batch_mean[c] * (1 - momentum)));
        running_var_.push_back(static_cast<float>(ctx.constants[4]->GetAsDouble(c) * momentum +
                                                  batch_var[c] * (1 - momentum)));
      }
      n_out_ = ctx.outputs.size();
    }
    scale_.resize(channels_);
    shift_.resize(channels_);
    for (int64_t c = 0; c < channels_; ++c) {
      double g = ctx.constants[1]->GetAsDouble(c), b = ctx.constants[2]->GetAsDouble(c);
      double m = training_ ? batch_mean[c] : ctx.constants[3]->GetAsDouble(c);
      double v = training_ ? batch_var[c] : ctx.constants[4]->GetAsDouble(c);
      double k = g / std::sqrt(v + eps);
      scale_[c] = static_cast<float>(k);
      shift_[c] = static_cast<float>(b - m * k);
    }
    return Status::Ok();
  }
  Status Run(const KernelRunContext& ctx) const override {
    const float* x = static_cast<const float*>(ctx.inputs[0]);
    float* y = static_cast<float*>(ctx.outputs[0]);
    const int64_t planes = batch_ * channels_;
#pragma omp parallel for num_threads(ctx.num_threads) if (planes * spatial_ > 65536)
    for (int64_t p = 0; p < planes; ++p) {
      const int64_t c = p % channels_;
      const float k = scale_[c], b = shift_[c];
      for (int64_t i = 0; i < spatial_; ++i) y[p * spatial_ + i] = x[p * spatial_ + i] * k + b;
    }
    if (training_) {
      if (n_out_ > 1 && ctx.outputs[1])
        std::copy(running_mean_.begin(), running_mean_.end(), static_cast<float*>(ctx.outputs[1]));
      if (n_out_ > 2 && ctx.outputs[2])
        std::copy(running_var_.begin(), running_var_.end(), static_cast<float*>(ctx.outputs[2]));
    }
    return Status::Ok();
  }

 private:
  int64_t batch_ = 1, channels_ = 1, spatial_ = 1;
  std::vector<float> scale_, shift_, running_mean_, running_var_;
  bool training_ = false;
  size_t n_out_ = 1;
};

class LayerNormKernel : public Kernel {
 public:
  Status Prepare(const KernelPrepareContext& ctx) override {
    const Shape& s = ctx.inputs[0].shape;
    if (ctx.inputs[0].dtype != DataType::kFloat) return ctx.Error("float32 only");
    OC_ASSIGN_OR_RETURN(int64_t axis, NormalizeAxis(ctx.attrs().GetInt("axis", -1),
                                                    static_cast<int64_t>(s.size())));
    rows_ = 1;
    for (int64_t d = 0; d < axis; ++d) rows_ *= s[d];
    cols_ = 1;
    for (size_t d = axis; d < s.size(); ++d) cols_ *= s[d];
    eps_ = ctx.attrs().GetFloat("epsilon", 1e-5f);
    scale_n_ = ctx.inputs[1].numel();
    bias_n_ = ctx.has_input(2) ? ctx.inputs[2].numel() : 0;
    if (scale_n_ != cols_ && scale_n_ != 1)
      return ctx.Error("Scale does not match the normalized shape");
    if (bias_n_ != 0 && bias_n_ != cols_ && bias_n_ != 1)
      return ctx.Error("B does not match the normalized shape");
    for (size_t i = 1; i < ctx.inputs.size(); ++i)
      if (ctx.has_input(i) && ctx.inputs[i].dtype != DataType::kFloat)
        return ctx.Error("Scale and B must be float32 like X");
    const auto& outs = ctx.node->outputs;
    has_mean_ = outs.size() > 1 && !outs[1].empty();
    has_inv_ = outs.size() > 2 && !outs[2].empty();
    return Status::Ok();
  }
  Status Run(const KernelRunContext& ctx) const override {
    const float* x = static_cast<const float*>(ctx.inputs[0]);
    const float* g = static_cast<const float*>(ctx.inputs[1]);
    const float* b = bias_n_ ? static_cast<const float*>(ctx.inputs[2]) : nullptr;
    float* y = static_cast<float*>(ctx.outputs[0]);
    float* mean_out = has_mean_ ? static_cast<float*>(ctx.outputs[1]) : nullptr;
    float* inv_out = has_inv_ ? static_cast<float*>(ctx.outputs[2]) : nullptr;
    const int64_t cols = cols_;
    const int64_t chunk = std::max<int64_t>(1, 16384 / std::max<int64_t>(cols, 1));
    const int64_t chunks = (rows_ + chunk - 1) / chunk;
#pragma omp parallel for num_threads(ctx.num_threads) if (rows_ * cols_ > 32768)
    for (int64_t c = 0; c < chunks; ++c) {
      const int64_t r0 = c * chunk, r1 = std::min(rows_, r0 + chunk);
      LayerNormRows(x, g, b, y, mean_out, inv_out, r0, r1, cols, scale_n_ == 1, bias_n_ == 1, eps_);
    }
    return Status::Ok();
  }

 private:
  int64_t rows_ = 1, cols_ = 1, scale_n_ = 0, bias_n_ = 0;
  float eps_ = 1e-5f;
  bool has_mean_ = false, has_inv_ = false;
};

class InstanceNormKernel : public Kernel {
 public:
  Status Prepare(const KernelPrepareContext& ctx) override {
    const Shape& s = ctx.inputs[0].shape;
    if (ctx.inputs[0].dtype != DataType::kFloat) return ctx.Error("float32 only");
    if (s.size() < 2) return ctx.Error("X must be N x C x ...");
    n_ = s[0];
    c_ = s[1];
    for (size_t i : {1, 2})
      if (ctx.inputs[i].dtype != DataType::kFloat || ctx.inputs[i].shape != Shape{c_})
        return ctx.Error("scale and B must be float32 [C]");
    spatial_ = 1;
    for (size_t i = 2; i < s.size(); ++i) spatial_ *= s[i];
    eps_ = ctx.attrs().GetFloat("epsilon", 1e-5f);
    return Status::Ok();
  }
  Status Run(const KernelRunContext& ctx) const override {
    const float* x = static_cast<const float*>(ctx.inputs[0]);
    const float* g = static_cast<const float*>(ctx.inputs[1]);
    const float* b = static_cast<const float*>(ctx.inputs[2]);
    float* y = static_cast<float*>(ctx.outputs[0]);
    for (int64_t p = 0; p < n_ * c_; ++p) {
      const float* px = x + p * spatial_;
      double sum = 0, sq = 0;
      for (int64_t i = 0; i < spatial_; ++i) sum += px[i];
      double mean = sum / static_cast<double>(spatial_);
      for (int64_t i = 0; i < spatial_; ++i) sq += (px[i] - mean) * (px[i] - mean);
      double inv = 1.0 / std::sqrt(sq / static_cast<double>(spatial_) + eps_);
      const int64_t c = p % c_;
      for (int64_t i = 0; i < spatial_; ++i)
        y[p * spatial_ + i] = static_cast<float>((px[i] - mean) * inv * g[c] + b[c]);
    }
    return Status::Ok();
  }

 private:
  int64_t n_ = 1, c_ = 1, spatial_ = 1;
  float eps_ = 1e-5f;
};

}  // namespace

void RegisterNormKernels(KernelTable& r) {
  r.SetFamilyTypes("float32");
  r.Add<BatchNormKernel>("BatchNormalization");
  r.Add<LayerNormKernel>("LayerNormalization");
  r.Add<InstanceNormKernel>("InstanceNormalization");
}

}  // namespace oc
