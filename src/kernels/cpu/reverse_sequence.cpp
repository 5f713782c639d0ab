// ReverseSequence: reverses the first sequence_lens[b] steps of each batch entry.
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

class ReverseSequenceKernel : public Kernel {
 public:
  Status Prepare(const KernelPrepareContext& ctx) override {
    shape_ = ctx.inputs[0].shape;
    esize_ = DataTypeSize(ctx.inputs[0].dtype);
    batch_axis_ = ctx.attrs().GetInt("batch_axis", 1);
    time_axis_ = ctx.attrs().GetInt("time_axis", 0);
    if (shape_.size() < 2 || batch_axis_ == time_axis_ || batch_axis_ > 1 || time_axis_ > 1)
      return ctx.Error("batch_axis and time_axis must be 0 and 1");
    return Status::Ok();
  }
  Status Run(const KernelRunContext& ctx) const override {
    const auto* in = static_cast<const uint8_t*>(ctx.inputs[0]);
    auto* out = static_cast<uint8_t*>(ctx.outputs[0]);
    const auto* lens = static_cast<const int64_t*>(ctx.inputs[1]);
    const auto st = ContiguousStrides(shape_);
    const int64_t inner = st[1] * static_cast<int64_t>(esize_);
    const int64_t batch = shape_[batch_axis_], time = shape_[time_axis_];
    for (int64_t b = 0; b < batch; ++b) {
      const int64_t len = std::clamp<int64_t>(lens[b], 0, time);
      for (int64_t t = 0; t < time; ++t) {
        const int64_t src_t = t < len ? len - 1 - t : t;
        const int64_t dst = (batch_axis_ == 0 ? b * st[0] + t * st[1] : t * st[0] + b * st[1]);
        const int64_t src =
            (batch_axis_ == 0 ? b * st[0] + src_t * st[1] : src_t * st[0] + b * st[1]);
        std::memcpy(out + dst * esize_, in + src * esize_, inner);
      }
    }
    return Status::Ok();
  }

 private:
  Shape shape_;
  size_t esize_ = 4;
  int64_t batch_axis_ = 1, time_axis_ = 0;
};

}  // namespace

void RegisterReverseSequenceKernels(KernelTable& r) {
  r.SetFamilyTypes("all types");
  r.Add<ReverseSequenceKernel>("ReverseSequence");
}

}  // namespace oc
