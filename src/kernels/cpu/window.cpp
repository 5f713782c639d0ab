// Window functions (HannWindow, HammingWindow, BlackmanWindow) of the signal ops.
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

class WindowKernel : public Kernel {
 public:
  Status Prepare(const KernelPrepareContext& ctx) override {
    OC_ASSIGN_OR_RETURN(n_, ctx.OneInt(0, "size"));
    if (ctx.outputs[0].shape.size() != 1 || ctx.outputs[0].shape[0] != n_)
      return ctx.Error("the window's length differs from its size");
    type_ = ctx.outputs[0].dtype;
    periodic_ = ctx.attrs().GetInt("periodic", 1) != 0;
    op_ = ctx.node->op_type;
    return Status::Ok();
  }
  Status Run(const KernelRunContext& ctx) const override {
    const double N = static_cast<double>(periodic_ ? n_ : n_ - 1);
    Tensor out(type_, {n_});
    for (int64_t i = 0; i < n_; ++i) {
      const double x = 2 * M_PI * static_cast<double>(i) / N;
      double v;
      if (op_ == "HannWindow")
        v = 0.5 - 0.5 * std::cos(x);
      else if (op_ == "HammingWindow")
        v = 25.0 / 46.0 - (21.0 / 46.0) * std::cos(x);
      else
        v = 0.42 - 0.5 * std::cos(x) + 0.08 * std::cos(2 * x);
      Tensor s = Tensor::Scalar(type_, v);
      std::memcpy(static_cast<uint8_t*>(ctx.outputs[0]) + i * DataTypeSize(type_), s.data(),
                  DataTypeSize(type_));
    }
    return Status::Ok();
  }

 private:
  int64_t n_ = 0;
  DataType type_ = DataType::kFloat;
  bool periodic_ = true;
  std::string op_;
};

}  // namespace

void RegisterWindowKernels(KernelTable& r) {
  for (const char* w : {"HannWindow", "HammingWindow", "BlackmanWindow"})
    r.Add<WindowKernel>(w, "", "all numeric output types");
}

}  // namespace oc
