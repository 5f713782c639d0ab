// Shrink: x + bias below -lambd, x - bias above lambd, 0 in between.
#include <type_traits>

#include "kernels/cpu/dispatch.h"
#include "kernels/cpu/kernel_families.h"

namespace oc {
namespace {

class ShrinkKernel : public Kernel {
 public:
  Status Prepare(const KernelPrepareContext& ctx) override {
    type_ = ctx.inputs[0].dtype;
    n_ = ctx.inputs[0].numel();
    bias_ = ctx.attrs().GetFloat("bias", 0.0f);
    lambd_ = ctx.attrs().GetFloat("lambd", 0.5f);
    return Status::Ok();
  }
  Status Run(const KernelRunContext& ctx) const override {
    bool ok = DispatchArithmetic(type_, [&]<typename T>() {
      const T* x = static_cast<const T*>(ctx.inputs[0]);
      T* y = static_cast<T*>(ctx.outputs[0]);
      for (int64_t i = 0; i < n_; ++i) {
        const double v = static_cast<double>(x[i]);
        y[i] = SaturatingCast<T>(v < -lambd_ ? v + bias_ : v > lambd_ ? v - bias_ : 0.0);
      }
    });
    return ok ? Status::Ok() : Unsupported("Shrink: unsupported type");
  }

 private:
  DataType type_ = DataType::kFloat;
  int64_t n_ = 0;
  float bias_ = 0, lambd_ = 0.5f;
};

}  // namespace

void RegisterShrinkKernels(KernelTable& r) {
  r.SetFamilyTypes("all numeric types");
  r.Add<ShrinkKernel>("Shrink");
}

}  // namespace oc
