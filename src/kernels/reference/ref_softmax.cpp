// Reference Softmax and LogSoftmax with the opset's semantics: before opset 13 the input
// is coerced to 2-D at `axis` (default 1) and normalised over the flattened inner block;
// from 13 on over the single `axis` (default -1).
#include <algorithm>
#include <cmath>
#include <limits>

#include "kernels/reference/ref_util.h"

namespace oc::ref {
namespace {

class SoftmaxKernel : public Kernel {
 public:
  Status Prepare(const KernelPrepareContext& ctx) override {
    const Shape& x = ctx.inputs[0].shape;
    const size_t rank = x.size();
    const bool coerce = ctx.opset < 13;
    int64_t axis = ctx.attrs().GetInt("axis", coerce ? 1 : -1);
    axis = NormalizeAxis(axis, std::max<size_t>(rank, 1));
    if (axis < 0 || axis > static_cast<int64_t>(rank) ||
        (!coerce && axis >= static_cast<int64_t>(rank) && rank > 0))
      return ctx.Error("axis out of range");
    log_ = ctx.node->op_type == "LogSoftmax";
    outer_ = 1;
    for (int64_t d = 0; d < axis; ++d) outer_ *= x[d];
    if (coerce) {
      // [outer, everything from axis on], normalised along the second dim.
      axis_len_ = 1;
      for (size_t d = static_cast<size_t>(axis); d < rank; ++d) axis_len_ *= x[d];
      inner_ = 1;
    } else {
      axis_len_ = rank ? x[axis] : 1;
      inner_ = 1;
      for (size_t d = static_cast<size_t>(axis) + 1; d < rank; ++d) inner_ *= x[d];
    }
    return Status::Ok();
  }
  Status Run(const KernelRunContext& ctx) const override {
    const auto* x = static_cast<const float*>(ctx.inputs[0]);
    auto* y = static_cast<float*>(ctx.outputs[0]);
    for (int64_t o = 0; o < outer_; ++o)
      for (int64_t i = 0; i < inner_; ++i) {
        const int64_t base = o * axis_len_ * inner_ + i;
        double mx = -std::numeric_limits<double>::infinity();
        for (int64_t a = 0; a < axis_len_; ++a) mx = std::max(mx, double(x[base + a * inner_]));
        double sum = 0;
        for (int64_t a = 0; a < axis_len_; ++a) sum += std::exp(x[base + a * inner_] - mx);
        for (int64_t a = 0; a < axis_len_; ++a) {
          const double v = x[base + a * inner_] - mx;
          y[base + a * inner_] = static_cast<float>(log_ ? v - std::log(sum) : std::exp(v) / sum);
        }
      }
    return Status::Ok();
  }

 private:
  bool log_ = false;
  int64_t outer_ = 1, axis_len_ = 1, inner_ = 1;
};

bool SoftmaxSupported(const Node& node, const std::vector<TensorType>& in) {
  return FloatInputs(in) && SingleOutput(node);
}

}  // namespace

void RegisterRefSoftmax(RefTable& t) {
  t.Add<SoftmaxKernel>("Softmax", SoftmaxSupported, "float32");
  t.Add<SoftmaxKernel>("LogSoftmax", SoftmaxSupported, "float32");
}

}  // namespace oc::ref
