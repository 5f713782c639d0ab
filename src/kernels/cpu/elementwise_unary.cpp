// Element-wise unary kernels: math functions and activations (Relu ... IsNaN), one kernel for
// every op, float16/bfloat16 computed in float.
#include <sleef.h>

#include <algorithm>
#include <cmath>
#include <string>
#include <type_traits>

#include "backend/kernel.h"
#include "base/half.h"
#include "kernels/cpu/dispatch.h"
#include "kernels/cpu/elementwise.h"

namespace oc {
namespace {

enum class UnaryOp {
  kRelu,
  kSigmoid,
  kTanh,
  kExp,
  kLog,
  kSqrt,
  kErf,
  kAbs,
  kNeg,
  kReciprocal,
  kFloor,
  kCeil,
  kRound,
  kSin,
  kCos,
  kTan,
  kAsin,
  kAcos,
  kAtan,
  kSinh,
  kCosh,
  kAsinh,
  kAcosh,
  kAtanh,
  kSoftplus,
  kSoftsign,
  kElu,
  kSelu,
  kCelu,
  kLeakyRelu,
  kThresholdedRelu,
  kHardSigmoid,
  kHardSwish,
  kSign,
  kNot,
  kGelu,
  kMish,
  kIsNaN,
};

struct UnaryParams {
  float alpha = 0, beta = 0, gamma = 0;
  bool gelu_tanh = false;
};

template <typename T>
inline T ApplyUnary(UnaryOp op, T x, const UnaryParams& p) {
  using F = std::conditional_t<std::is_same_v<T, double>, double, float>;
  const F v = static_cast<F>(x);
  switch (op) {
    case UnaryOp::kRelu:
      return x > T(0) ? x : T(0);
    case UnaryOp::kSigmoid:
      return SaturatingCast<T>(F(1) / (F(1) + std::exp(-v)));
    case UnaryOp::kTanh:
      if constexpr (std::is_same_v<T, float>)
        return Sleef_tanhf_u10(x);
      else
        return SaturatingCast<T>(std::tanh(v));
    case UnaryOp::kExp:
      if constexpr (std::is_same_v<T, float>)
        return Sleef_expf_u10(x);
      else
        return SaturatingCast<T>(std::exp(v));
    case UnaryOp::kLog:
      return SaturatingCast<T>(std::log(v));
    case UnaryOp::kSqrt:
      return SaturatingCast<T>(std::sqrt(v));
    case UnaryOp::kErf:
      if constexpr (std::is_same_v<T, float>)
        return Sleef_erff_u10(x);
      else
        return SaturatingCast<T>(std::erf(v));
    case UnaryOp::kAbs:
      if constexpr (std::is_unsigned_v<T>)
        return x;
      else
        return x < T(0) ? static_cast<T>(-x) : x;
    case UnaryOp::kNeg:
      return SaturatingCast<T>(-x);
    case UnaryOp::kReciprocal:
      return SaturatingCast<T>(F(1) / v);
    case UnaryOp::kFloor:
      return SaturatingCast<T>(std::floor(v));
    case UnaryOp::kCeil:
      return SaturatingCast<T>(std::ceil(v));
    case UnaryOp::kRound:
      return SaturatingCast<T>(std::nearbyint(v));  // half to even
    case UnaryOp::kSin:
      return SaturatingCast<T>(std::sin(v));
    case UnaryOp::kCos:
      return SaturatingCast<T>(std::cos(v));
    case UnaryOp::kTan:
      return SaturatingCast<T>(std::tan(v));
    case UnaryOp::kAsin:
      return SaturatingCast<T>(std::asin(v));
    case UnaryOp::kAcos:
      return SaturatingCast<T>(std::acos(v));
    case UnaryOp::kAtan:
      return SaturatingCast<T>(std::atan(v));
    case UnaryOp::kSinh:
      return SaturatingCast<T>(std::sinh(v));
    case UnaryOp::kCosh:
      return SaturatingCast<T>(std::cosh(v));
    case UnaryOp::kAsinh:
      return SaturatingCast<T>(std::asinh(v));
    case UnaryOp::kAcosh:
      return SaturatingCast<T>(std::acosh(v));
    case UnaryOp::kAtanh:
      return SaturatingCast<T>(std::atanh(v));
    case UnaryOp::kSoftplus:
      return SaturatingCast<T>(std::log1p(std::exp(-std::abs(v))) + std::max(v, F(0)));
    case UnaryOp::kSoftsign:
      return SaturatingCast<T>(v / (F(1) + std::abs(v)));
    case UnaryOp::kElu:
      return SaturatingCast<T>(v >= 0 ? v : F(p.alpha) * (std::exp(v) - F(1)));
    case UnaryOp::kSelu:
      return SaturatingCast<T>(F(p.gamma) * (v > 0 ? v : F(p.alpha) * (std::exp(v) - F(1))));
    case UnaryOp::kCelu:
      return SaturatingCast<T>(std::max(F(0), v) +
                               std::min(F(0), F(p.alpha) * (std::exp(v / F(p.alpha)) - F(1))));
    case UnaryOp::kLeakyRelu:
      return SaturatingCast<T>(v >= 0 ? v : F(p.alpha) * v);
    case UnaryOp::kThresholdedRelu:
      return SaturatingCast<T>(v > F(p.alpha) ? v : F(0));
    case UnaryOp::kHardSigmoid:
      return SaturatingCast<T>(std::clamp(F(p.alpha) * v + F(p.beta), F(0), F(1)));
    case UnaryOp::kHardSwish:
      return SaturatingCast<T>(v * std::clamp(v / F(6) + F(0.5), F(0), F(1)));
    case UnaryOp::kSign:
      return SaturatingCast<T>((v > 0) - (v < 0));
    case UnaryOp::kNot:
      return SaturatingCast<T>(!x);
    case UnaryOp::kGelu:
      if (p.gelu_tanh)
        return SaturatingCast<T>(
            F(0.5) * v * (F(1) + std::tanh(F(0.7978845608028654) * (v + F(0.044715) * v * v * v))));
      return SaturatingCast<T>(F(0.5) * v * (F(1) + std::erf(v * F(0.7071067811865476))));
    case UnaryOp::kMish:
      return SaturatingCast<T>(v *
                               std::tanh(std::log1p(std::exp(-std::abs(v))) + std::max(v, F(0))));
    case UnaryOp::kIsNaN:
      return SaturatingCast<T>(std::isnan(v));
  }
  return x;
}

struct UnaryEntry {
  const char* name;
  UnaryOp op;
  bool int_ok;  // also defined on integer types
};
constexpr UnaryEntry kUnaryOps[] = {
    {"Relu", UnaryOp::kRelu, true},
    {"Sigmoid", UnaryOp::kSigmoid, false},
    {"Tanh", UnaryOp::kTanh, false},
    {"Exp", UnaryOp::kExp, false},
    {"Log", UnaryOp::kLog, false},
    {"Sqrt", UnaryOp::kSqrt, false},
    {"Erf", UnaryOp::kErf, false},
    {"Abs", UnaryOp::kAbs, true},
    {"Neg", UnaryOp::kNeg, true},
    {"Reciprocal", UnaryOp::kReciprocal, false},
    {"Floor", UnaryOp::kFloor, false},
    {"Ceil", UnaryOp::kCeil, false},
    {"Round", UnaryOp::kRound, false},
    {"Sin", UnaryOp::kSin, false},
    {"Cos", UnaryOp::kCos, false},
    {"Tan", UnaryOp::kTan, false},
    {"Asin", UnaryOp::kAsin, false},
    {"Acos", UnaryOp::kAcos, false},
    {"Atan", UnaryOp::kAtan, false},
    {"Sinh", UnaryOp::kSinh, false},
    {"Cosh", UnaryOp::kCosh, false},
    {"Asinh", UnaryOp::kAsinh, false},
    {"Acosh", UnaryOp::kAcosh, false},
    {"Atanh", UnaryOp::kAtanh, false},
    {"Softplus", UnaryOp::kSoftplus, false},
    {"Softsign", UnaryOp::kSoftsign, false},
    {"Elu", UnaryOp::kElu, false},
    {"Selu", UnaryOp::kSelu, false},
    {"Celu", UnaryOp::kCelu, false},
    {"LeakyRelu", UnaryOp::kLeakyRelu, false},
    {"ThresholdedRelu", UnaryOp::kThresholdedRelu, false},
    {"HardSigmoid", UnaryOp::kHardSigmoid, false},
    {"HardSwish", UnaryOp::kHardSwish, false},
    {"Sign", UnaryOp::kSign, true},
    {"Not", UnaryOp::kNot, true},
    {"Gelu", UnaryOp::kGelu, false},
    {"Mish", UnaryOp::kMish, false},
    {"IsNaN", UnaryOp::kIsNaN, false},
};

// Float16/bfloat16 go through float and back.
template <typename Convert>
struct HalfCodec {};

class UnaryKernel : public Kernel {
 public:
  Status Prepare(const KernelPrepareContext& ctx) override {
    const std::string& t = ctx.node->op_type;
    bool found = false;
    for (const auto& e : kUnaryOps) {
      if (t == e.name) {
        op_ = e.op;
        found = true;
        if (!e.int_ok && !IsFloatType(ctx.inputs[0].dtype))
          return ctx.Error(std::string("type ") + DataTypeName(ctx.inputs[0].dtype) +
                           " is not supported");
      }
    }
    if (!found) return ctx.Error("not a unary op");
    const auto& a = ctx.attrs();
    switch (op_) {
      case UnaryOp::kElu:
        p_.alpha = a.GetFloat("alpha", 1.0f);
        break;
      case UnaryOp::kSelu:
        p_.alpha = a.GetFloat("alpha", 1.67326319217681884765625f);
        p_.gamma = a.GetFloat("gamma", 1.05070102214813232421875f);
        break;
      case UnaryOp::kCelu:
        p_.alpha = a.GetFloat("alpha", 1.0f);
        break;
      case UnaryOp::kLeakyRelu:
        p_.alpha = a.GetFloat("alpha", 0.01f);
        break;
      case UnaryOp::kThresholdedRelu:
        p_.alpha = a.GetFloat("alpha", 1.0f);
        break;
      case UnaryOp::kHardSigmoid:
        p_.alpha = a.GetFloat("alpha", 0.2f);
        p_.beta = a.GetFloat("beta", 0.5f);
        break;
      case UnaryOp::kGelu:
        p_.gelu_tanh = a.GetString("approximate", "none") == "tanh";
        break;
      default:
        break;
    }
    in_type_ = ctx.inputs[0].dtype;
    out_type_ = ctx.outputs[0].dtype;
    n_ = ctx.inputs[0].numel();
    return Status::Ok();
  }

  Status Run(const KernelRunContext& ctx) const override {
    const void* x = ctx.inputs[0];
    void* y = ctx.outputs[0];
    if (in_type_ == DataType::kFloat16 || in_type_ == DataType::kBFloat16) {
      const bool bf = in_type_ == DataType::kBFloat16;
      const auto* xs = static_cast<const uint16_t*>(x);
      auto* ys = static_cast<uint16_t*>(y);
      auto* yb = static_cast<uint8_t*>(y);
      const bool to_bool = out_type_ == DataType::kBool;
      ParallelChunks(n_, ctx.num_threads, [&](int64_t b, int64_t e) {
        for (int64_t i = b; i < e; ++i) {
          float v = bf ? BFloat16ToFloat(xs[i]) : HalfToFloat(xs[i]);
          float r = ApplyUnary<float>(op_, v, p_);
          if (to_bool)
            yb[i] = r != 0.0f;
          else
            ys[i] = bf ? FloatToBFloat16(r) : FloatToHalf(r);
        }
      });
      return Status::Ok();
    }
    bool ok = DispatchNumeric(in_type_, [&]<typename T>() {
      const T* xs = static_cast<const T*>(x);
      if (out_type_ == DataType::kBool && in_type_ != DataType::kBool) {
        auto* ys = static_cast<bool*>(y);
        for (int64_t i = 0; i < n_; ++i) ys[i] = ApplyUnary<T>(op_, xs[i], p_) != T(0);
        return;
      }
      T* ys = static_cast<T*>(y);
      const UnaryOp op = op_;
      const UnaryParams p = p_;
      ParallelChunks(n_, ctx.num_threads, [&](int64_t b, int64_t e) {
        if constexpr (std::is_same_v<T, float>) {
          if (op == UnaryOp::kRelu) {
            for (int64_t i = b; i < e; ++i) ys[i] = xs[i] > 0.0f ? xs[i] : 0.0f;
            return;
          }
        }
        for (int64_t i = b; i < e; ++i) ys[i] = ApplyUnary<T>(op, xs[i], p);
      });
    });
    return ok ? Status::Ok() : Unsupported("unary op on unsupported type");
  }

 private:
  UnaryOp op_ = UnaryOp::kRelu;
  UnaryParams p_;
  DataType in_type_ = DataType::kFloat, out_type_ = DataType::kFloat;
  int64_t n_ = 0;
};

}  // namespace

void RegisterElementwiseUnaryKernels(KernelTable& r) {
  for (const auto& e : kUnaryOps)
    r.Add<UnaryKernel>(
        e.name, "",
        e.int_ok ? "all numeric types, float16, bfloat16" : "float32, float64, float16, bfloat16");
}

}  // namespace oc
