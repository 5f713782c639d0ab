// MaxUnpool: scatters pooled values back to the positions MaxPool's indices name.
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

class MaxUnpoolKernel : public Kernel {
 public:
  Status Prepare(const KernelPrepareContext& ctx) override {
    in_ = ctx.inputs[0].shape;
    out_ = ctx.outputs[0].shape;
    esize_ = DataTypeSize(ctx.inputs[0].dtype);
    // Indices are flat positions in the unpooled shape implied by the attributes; an
    // explicit output_shape only adds room at the end of each dimension.
    const size_t n = in_.size() - 2;
    auto kernel = ctx.attrs().GetInts("kernel_shape");
    auto strides = ctx.attrs().GetInts("strides", std::vector<int64_t>(n, 1));
    auto pads = ctx.attrs().GetInts("pads", std::vector<int64_t>(2 * n, 0));
    if (kernel.size() != n) return ctx.Error("kernel_shape does not match the rank");
    implied_ = {in_[0], in_[1]};
    for (size_t i = 0; i < n; ++i)
      implied_.push_back((in_[2 + i] - 1) * strides[i] + kernel[i] - pads[i] - pads[i + n]);
    if (out_.size() != implied_.size()) return ctx.Error("output_shape has the wrong rank");
    return Status::Ok();
  }
  Status Run(const KernelRunContext& ctx) const override {
    std::memset(ctx.outputs[0], 0, static_cast<size_t>(NumElements(out_)) * esize_);
    const auto* x = static_cast<const uint8_t*>(ctx.inputs[0]);
    const auto* idx = static_cast<const int64_t*>(ctx.inputs[1]);
    auto* y = static_cast<uint8_t*>(ctx.outputs[0]);
    const int64_t total = NumElements(implied_), n_in = NumElements(in_);
    const auto out_st = ContiguousStrides(out_);
    for (int64_t i = 0; i < n_in; ++i) {
      if (idx[i] < 0 || idx[i] >= total)
        return InvalidArgument("MaxUnpool index " + std::to_string(idx[i]) + " is out of range");
      int64_t rem = idx[i], off = 0;
      for (size_t d = implied_.size(); d-- > 0;) {
        off += (rem % implied_[d]) * out_st[d];
        rem /= implied_[d];
      }
      std::memcpy(y + off * esize_, x + i * esize_, esize_);
    }
    return Status::Ok();
  }

 private:
  Shape in_, out_, implied_;
  size_t esize_ = 4;
};

}  // namespace

void RegisterMaxUnpoolKernels(KernelTable& r) {
  r.SetFamilyTypes("all types");
  r.Add<MaxUnpoolKernel>("MaxUnpool");
}

}  // namespace oc
