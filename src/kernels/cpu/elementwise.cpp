// Element-wise kernels: Where, Clip, Cast, Identity, and the registration of the whole
// family (the unary ops are elementwise_unary.cpp; the broadcasting binary, comparison and
// variadic ops elementwise_binary.cpp).
#include "kernels/cpu/elementwise.h"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <limits>
#include <type_traits>
#include <vector>

#include "backend/kernel.h"
#include "base/half.h"
#include "kernels/cpu/dispatch.h"
#include "kernels/cpu/kernel_families.h"

namespace oc {
namespace {

// ---- Where, Clip, Cast, Identity -------------------------------------------------

class WhereKernel : public Kernel {
 public:
  Status Prepare(const KernelPrepareContext& ctx) override {
    if (!BroadcastPlan::Valid(ctx.outputs[0].shape,
                              {ctx.inputs[0].shape, ctx.inputs[1].shape, ctx.inputs[2].shape}))
      return ctx.Error("input shapes do not broadcast to the output shape");
    plan_ = BroadcastPlan::Make(ctx.outputs[0].shape,
                                {ctx.inputs[0].shape, ctx.inputs[1].shape, ctx.inputs[2].shape});
    esize_ = DataTypeSize(ctx.outputs[0].dtype);
    return Status::Ok();
  }
  Status Run(const KernelRunContext& ctx) const override {
    const auto* c = static_cast<const uint8_t*>(ctx.inputs[0]);
    const auto* x = static_cast<const uint8_t*>(ctx.inputs[1]);
    const auto* y = static_cast<const uint8_t*>(ctx.inputs[2]);
    auto* out = static_cast<uint8_t*>(ctx.outputs[0]);
    for (int64_t r = 0; r < plan_.outer; ++r) {
      int64_t off[3];
      plan_.RowOffsets(r, off);
      for (int64_t i = 0; i < plan_.inner; ++i) {
        bool cond = c[off[0] + i * plan_.inner_step[0]];
        const uint8_t* src = cond ? x + (off[1] + i * plan_.inner_step[1]) * esize_
                                  : y + (off[2] + i * plan_.inner_step[2]) * esize_;
        std::memcpy(out + (r * plan_.inner + i) * esize_, src, esize_);
      }
    }
    return Status::Ok();
  }

 private:
  BroadcastPlan plan_;
  size_t esize_ = 4;
};

class ClipKernel : public Kernel {
 public:
  Status Prepare(const KernelPrepareContext& ctx) override {
    type_ = ctx.inputs[0].dtype;
    n_ = ctx.inputs[0].numel();
    lo_ = ctx.attrs().GetFloat("min", -std::numeric_limits<float>::infinity());
    hi_ = ctx.attrs().GetFloat("max", std::numeric_limits<float>::infinity());
    has_min_input_ = ctx.has_input(1);
    has_max_input_ = ctx.has_input(2);
    // Run reads each bound as one value of the input's type.
    for (size_t i = 1; i <= 2; ++i)
      if (ctx.has_input(i) && (ctx.inputs[i].dtype != type_ || ctx.inputs[i].numel() != 1))
        return ctx.Error("min and max must be single values of the input's type");
    return Status::Ok();
  }
  Status Run(const KernelRunContext& ctx) const override {
    bool ok = DispatchArithmetic(type_, [&]<typename T>() {
      T lo = has_min_input_ ? *static_cast<const T*>(ctx.inputs[1])
                            : (std::is_floating_point_v<T> ? static_cast<T>(lo_)
                                                           : std::numeric_limits<T>::lowest());
      T hi = has_max_input_ ? *static_cast<const T*>(ctx.inputs[2])
                            : (std::is_floating_point_v<T> ? static_cast<T>(hi_)
                                                           : std::numeric_limits<T>::max());
      const T* x = static_cast<const T*>(ctx.inputs[0]);
      T* y = static_cast<T*>(ctx.outputs[0]);
      ParallelChunks(n_, ctx.num_threads, [&](int64_t b, int64_t e) {
        for (int64_t i = b; i < e; ++i) y[i] = std::min(std::max(x[i], lo), hi);
      });
    });
    return ok ? Status::Ok() : Unsupported("Clip on unsupported type");
  }

 private:
  DataType type_ = DataType::kFloat;
  int64_t n_ = 0;
  float lo_ = 0, hi_ = 0;
  bool has_min_input_ = false, has_max_input_ = false;
};

template <typename To>
void CastFrom(DataType from, const void* src, To* dst, int64_t n) {
  if (from == DataType::kFloat16 || from == DataType::kBFloat16) {
    const auto* s = static_cast<const uint16_t*>(src);
    for (int64_t i = 0; i < n; ++i) {
      float f = from == DataType::kFloat16 ? HalfToFloat(s[i]) : BFloat16ToFloat(s[i]);
      dst[i] = static_cast<To>(f);
    }
    return;
  }
  DispatchNumeric(from, [&]<typename From>() {
    const From* s = static_cast<const From*>(src);
    for (int64_t i = 0; i < n; ++i) {
      if constexpr (std::is_floating_point_v<From> && std::is_integral_v<To> &&
                    !std::is_same_v<To, bool>) {
        dst[i] = SaturatingCast<To>(static_cast<double>(s[i]));
      } else {
        dst[i] = static_cast<To>(s[i]);
      }
    }
  });
}

class CastKernel : public Kernel {
 public:
  Status Prepare(const KernelPrepareContext& ctx) override {
    from_ = ctx.inputs[0].dtype;
    to_ = ctx.outputs[0].dtype;
    n_ = ctx.inputs[0].numel();
    if (from_ == DataType::kString || to_ == DataType::kString)
      return Unsupported("Cast node [" + ctx.node->name + "]: string tensors are not supported");
    return Status::Ok();
  }
  Status Run(const KernelRunContext& ctx) const override {
    if (from_ == to_) {
      std::memcpy(ctx.outputs[0], ctx.inputs[0], n_ * DataTypeSize(to_));
      return Status::Ok();
    }
    if (to_ == DataType::kFloat16 || to_ == DataType::kBFloat16) {
      std::vector<float> tmp(static_cast<size_t>(n_));
      CastFrom<float>(from_, ctx.inputs[0], tmp.data(), n_);
      auto* d = static_cast<uint16_t*>(ctx.outputs[0]);
      for (int64_t i = 0; i < n_; ++i)
        d[i] = to_ == DataType::kFloat16 ? FloatToHalf(tmp[i]) : FloatToBFloat16(tmp[i]);
      return Status::Ok();
    }
    bool ok = DispatchNumeric(to_, [&]<typename To>() {
      CastFrom<To>(from_, ctx.inputs[0], static_cast<To*>(ctx.outputs[0]), n_);
    });
    return ok ? Status::Ok() : Unsupported("Cast to unsupported type");
  }

 private:
  DataType from_ = DataType::kFloat, to_ = DataType::kFloat;
  int64_t n_ = 0;
};

// Identity and inference-mode Dropout: copy input 0; Dropout's mask is all true.
class CopyKernel : public Kernel {
 public:
  Status Prepare(const KernelPrepareContext& ctx) override {
    // Training mode is only deterministic (an identity) with a constant ratio of 0.
    auto one_value = [&](size_t i) {
      return ctx.constants[i] && ctx.constants[i]->numel() == 1 ? ctx.constants[i] : nullptr;
    };
    const bool zero_ratio = one_value(1) && one_value(1)->GetAsDouble(0) == 0.0;
    if (ctx.node->op_type == "Dropout" && ctx.has_input(2) && !zero_ratio &&
        (!one_value(2) || one_value(2)->GetAsInt(0) != 0))
      return Unsupported("Dropout node [" + ctx.node->name +
                             "] may run in training mode (a random mask); OpenCANN runs "
                             "inference graphs only",
                         "EZ3003");
    bytes_ = ctx.inputs[0].nbytes();
    mask_elems_ = ctx.outputs.size() > 1 ? ctx.outputs[1].numel() : 0;
    return Status::Ok();
  }
  Status Run(const KernelRunContext& ctx) const override {
    if (ctx.outputs[0] != ctx.inputs[0] && bytes_)
      std::memcpy(ctx.outputs[0], ctx.inputs[0], bytes_);
    if (mask_elems_ > 0 && ctx.outputs[1]) std::memset(ctx.outputs[1], 1, mask_elems_);
    return Status::Ok();
  }

 private:
  size_t bytes_ = 0;
  int64_t mask_elems_ = 0;
};

}  // namespace

void RegisterElementwiseKernels(KernelTable& r) {
  r.SetFamilyTypes("all types");
  RegisterElementwiseUnaryKernels(r);
  RegisterElementwiseBinaryKernels(r);
  r.Add<WhereKernel>("Where");
  r.Add<ClipKernel>("Clip");
  r.Add<CastKernel>("Cast");
  r.Add<CastKernel>("CastLike");
  r.Add<CopyKernel>("Identity");
  r.Add<CopyKernel>("Dropout");
}

}  // namespace oc
