// LRN and MeanVarianceNormalization: plain loops (rare, small ops).
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
    size_ = ctx.attrs().GetInt("size", 0);
    if (size_ < 1) return ctx.Error("size must be given and at least 1");
    if (shape_.size() < 2) return ctx.Error("X must be N x C x ...");
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

}  // namespace

void RegisterLocalNormKernels(KernelTable& r) {
  r.Add<LrnKernel>("LRN", "", "float32");
  r.Add<MvnKernel>("MeanVarianceNormalization", "", "float32");
}

}  // namespace oc
