// Softmax, LogSoftmax and Hardmax with the opset's semantics; SLEEF exp, OpenMP rows.
#include <sleef.h>

#include <algorithm>
#include <cmath>
#include <limits>

#include "kernels/cpu/dispatch.h"
#include "kernels/cpu/kernel_families.h"
#include "kernels/cpu/multiversion.h"
#include "kernels/cpu/vec_math.h"
#include "ops/shape_rules.h"

namespace oc {
namespace {

// Softmax of rows [r0, r1) of length dim, contiguous.
OC_MULTIVERSION void SoftmaxRows(const float* x, float* y, int64_t r0, int64_t r1, int64_t dim) {
  for (int64_t r = r0; r < r1; ++r) {
    const float* px = x + r * dim;
    float* py = y + r * dim;
    float m = -std::numeric_limits<float>::infinity();
#pragma omp simd reduction(max : m)
    for (int64_t i = 0; i < dim; ++i) m = px[i] > m ? px[i] : m;
    const float inv = 1.0f / ExpShiftSum(px, py, dim, m);
#pragma omp simd
    for (int64_t i = 0; i < dim; ++i) py[i] *= inv;
  }
}

// Softmax, LogSoftmax, Hardmax. Opset < 13 flattens to 2-D at `axis` (default 1);
// opset >= 13 normalises along the single `axis` (default -1).
class SoftmaxKernel : public Kernel {
 public:
  Status Prepare(const KernelPrepareContext& ctx) override {
    const Shape& s = ctx.inputs[0].shape;
    if (ctx.inputs[0].dtype != DataType::kFloat) return ctx.Error("float32 only");
    const int64_t rank = static_cast<int64_t>(s.size());
    const bool legacy = ctx.opset < 13;
    int64_t axis_attr = ctx.attrs().GetInt("axis", legacy ? 1 : -1);
    OC_ASSIGN_OR_RETURN(int64_t axis, NormalizeAxis(axis_attr, std::max<int64_t>(rank, 1)));
    outer_ = 1;
    inner_ = 1;
    if (legacy) {
      for (int64_t d = 0; d < axis; ++d) outer_ *= s[d];
      dim_ = 1;
      for (int64_t d = axis; d < rank; ++d) dim_ *= s[d];
    } else {
      for (int64_t d = 0; d < axis; ++d) outer_ *= s[d];
      dim_ = rank ? s[axis] : 1;
      for (int64_t d = axis + 1; d < rank; ++d) inner_ *= s[d];
    }
    const std::string& t = ctx.node->op_type;
    mode_ = t == "LogSoftmax" ? 1 : t == "Hardmax" ? 2 : 0;
    return Status::Ok();
  }
  Status Run(const KernelRunContext& ctx) const override {
    const float* x = static_cast<const float*>(ctx.inputs[0]);
    float* y = static_cast<float*>(ctx.outputs[0]);
    const int64_t rows = outer_ * inner_;
    if (inner_ == 1 && mode_ == 0) {
      // Contiguous rows (the attention case): vectorised exp.
      // Chunks of about 16K elements per task.
      const int64_t chunk = std::max<int64_t>(1, 16384 / std::max<int64_t>(dim_, 1));
      const int64_t chunks = (rows + chunk - 1) / chunk;
#pragma omp parallel for num_threads(ctx.num_threads) if (rows * dim_ > 32768)
      for (int64_t c = 0; c < chunks; ++c)
        SoftmaxRows(x, y, c * chunk, std::min(rows, (c + 1) * chunk), dim_);
      return Status::Ok();
    }
#pragma omp parallel for num_threads(ctx.num_threads) if (rows * dim_ > 32768)
    for (int64_t r = 0; r < rows; ++r) {
      const int64_t o = r / inner_, in = r % inner_;
      const float* px = x + o * dim_ * inner_ + in;
      float* py = y + o * dim_ * inner_ + in;
      const int64_t st = inner_;
      float m = -std::numeric_limits<float>::infinity();
      int64_t arg = 0;
      for (int64_t i = 0; i < dim_; ++i)
        if (px[i * st] > m) {
          m = px[i * st];
          arg = i;
        }
      if (mode_ == 2) {
        for (int64_t i = 0; i < dim_; ++i) py[i * st] = i == arg ? 1.0f : 0.0f;
        continue;
      }
      double sum = 0;
      for (int64_t i = 0; i < dim_; ++i) {
        float e = Sleef_expf_u10(px[i * st] - m);
        if (mode_ == 0) py[i * st] = e;
        sum += e;
      }
      if (mode_ == 0) {
        const float inv = static_cast<float>(1.0 / sum);
        for (int64_t i = 0; i < dim_; ++i) py[i * st] *= inv;
      } else {
        const float lse = m + static_cast<float>(std::log(sum));
        for (int64_t i = 0; i < dim_; ++i) py[i * st] = px[i * st] - lse;
      }
    }
    return Status::Ok();
  }

 private:
  int64_t outer_ = 1, dim_ = 1, inner_ = 1;
  int mode_ = 0;
};

}  // namespace

void RegisterSoftmaxKernels(KernelTable& r) {
  r.SetFamilyTypes("float32");
  r.Add<SoftmaxKernel>("Softmax");
  r.Add<SoftmaxKernel>("LogSoftmax");
  r.Add<SoftmaxKernel>("Hardmax");
}

}  // namespace oc
