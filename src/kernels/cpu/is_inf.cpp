// IsInf: true where the input is +inf (detect_positive) or -inf (detect_negative).
#include <cmath>

#include "kernels/cpu/dispatch.h"
#include "kernels/cpu/kernel_families.h"

namespace oc {
namespace {

class IsInfKernel : public Kernel {
 public:
  Status Prepare(const KernelPrepareContext& ctx) override {
    type_ = ctx.inputs[0].dtype;
    n_ = ctx.inputs[0].numel();
    neg_ = ctx.attrs().GetInt("detect_negative", 1) != 0;
    pos_ = ctx.attrs().GetInt("detect_positive", 1) != 0;
    return Status::Ok();
  }
  Status Run(const KernelRunContext& ctx) const override {
    bool ok = DispatchNumeric(type_, [&]<typename T>() {
      const T* x = static_cast<const T*>(ctx.inputs[0]);
      bool* y = static_cast<bool*>(ctx.outputs[0]);
      for (int64_t i = 0; i < n_; ++i) {
        const double v = static_cast<double>(x[i]);
        y[i] = std::isinf(v) && ((v > 0 && pos_) || (v < 0 && neg_));
      }
    });
    return ok ? Status::Ok() : Unsupported("IsInf: unsupported type");
  }

 private:
  DataType type_ = DataType::kFloat;
  int64_t n_ = 0;
  bool neg_ = true, pos_ = true;
};

}  // namespace

void RegisterIsInfKernels(KernelTable& r) {
  r.SetFamilyTypes("all numeric types");
  r.Add<IsInfKernel>("IsInf");
}

}  // namespace oc
