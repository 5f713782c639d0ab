// Element-wise kernels: unary math/activations, broadcasting binary ops, comparisons,
// variadic Sum/Max/Min/Mean, Where, Cast, Clip, Identity.
#include <sleef.h>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <type_traits>

#include "backend/kernel.h"
#include "base/half.h"
#include "kernels/cpu/cpu_backend.h"
#include "kernels/cpu/dispatch.h"
#include "kernels/cpu/kernel_families.h"
#include "kernels/cpu/multiversion.h"

namespace oc {
namespace {

constexpr int64_t kGrain = 16384;  // elements per parallel chunk

template <typename F>
void ParallelChunks(int64_t n, int threads, F&& f) {
  const int64_t chunks = (n + kGrain - 1) / kGrain;
  if (chunks <= 1 || threads <= 1) {
    f(int64_t{0}, n);
    return;
  }
#pragma omp parallel for num_threads(threads) schedule(static)
  for (int64_t c = 0; c < chunks; ++c) f(c * kGrain, std::min(n, (c + 1) * kGrain));
}

// ---- Unary ----------------------------------------------------------------------

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
      return static_cast<T>(F(1) / (F(1) + std::exp(-v)));
    case UnaryOp::kTanh:
      if constexpr (std::is_same_v<T, float>)
        return Sleef_tanhf_u10(x);
      else
        return static_cast<T>(std::tanh(v));
    case UnaryOp::kExp:
      if constexpr (std::is_same_v<T, float>)
        return Sleef_expf_u10(x);
      else
        return static_cast<T>(std::exp(v));
    case UnaryOp::kLog:
      return static_cast<T>(std::log(v));
    case UnaryOp::kSqrt:
      return static_cast<T>(std::sqrt(v));
    case UnaryOp::kErf:
      if constexpr (std::is_same_v<T, float>)
        return Sleef_erff_u10(x);
      else
        return static_cast<T>(std::erf(v));
    case UnaryOp::kAbs:
      if constexpr (std::is_unsigned_v<T>)
        return x;
      else
        return x < T(0) ? static_cast<T>(-x) : x;
    case UnaryOp::kNeg:
      return static_cast<T>(-x);
    case UnaryOp::kReciprocal:
      return static_cast<T>(F(1) / v);
    case UnaryOp::kFloor:
      return static_cast<T>(std::floor(v));
    case UnaryOp::kCeil:
      return static_cast<T>(std::ceil(v));
    case UnaryOp::kRound:
      return static_cast<T>(std::nearbyint(v));  // half to even
    case UnaryOp::kSin:
      return static_cast<T>(std::sin(v));
    case UnaryOp::kCos:
      return static_cast<T>(std::cos(v));
    case UnaryOp::kTan:
      return static_cast<T>(std::tan(v));
    case UnaryOp::kAsin:
      return static_cast<T>(std::asin(v));
    case UnaryOp::kAcos:
      return static_cast<T>(std::acos(v));
    case UnaryOp::kAtan:
      return static_cast<T>(std::atan(v));
    case UnaryOp::kSinh:
      return static_cast<T>(std::sinh(v));
    case UnaryOp::kCosh:
      return static_cast<T>(std::cosh(v));
    case UnaryOp::kAsinh:
      return static_cast<T>(std::asinh(v));
    case UnaryOp::kAcosh:
      return static_cast<T>(std::acosh(v));
    case UnaryOp::kAtanh:
      return static_cast<T>(std::atanh(v));
    case UnaryOp::kSoftplus:
      return static_cast<T>(std::log1p(std::exp(-std::abs(v))) + std::max(v, F(0)));
    case UnaryOp::kSoftsign:
      return static_cast<T>(v / (F(1) + std::abs(v)));
    case UnaryOp::kElu:
      return static_cast<T>(v >= 0 ? v : F(p.alpha) * (std::exp(v) - F(1)));
    case UnaryOp::kSelu:
      return static_cast<T>(F(p.gamma) * (v > 0 ? v : F(p.alpha) * (std::exp(v) - F(1))));
    case UnaryOp::kCelu:
      return static_cast<T>(std::max(F(0), v) +
                            std::min(F(0), F(p.alpha) * (std::exp(v / F(p.alpha)) - F(1))));
    case UnaryOp::kLeakyRelu:
      return static_cast<T>(v >= 0 ? v : F(p.alpha) * v);
    case UnaryOp::kThresholdedRelu:
      return static_cast<T>(v > F(p.alpha) ? v : F(0));
    case UnaryOp::kHardSigmoid:
      return static_cast<T>(std::clamp(F(p.alpha) * v + F(p.beta), F(0), F(1)));
    case UnaryOp::kHardSwish:
      return static_cast<T>(v * std::clamp(v / F(6) + F(0.5), F(0), F(1)));
    case UnaryOp::kSign:
      return static_cast<T>((v > 0) - (v < 0));
    case UnaryOp::kNot:
      return static_cast<T>(!x);
    case UnaryOp::kGelu:
      if (p.gelu_tanh)
        return static_cast<T>(
            F(0.5) * v * (F(1) + std::tanh(F(0.7978845608028654) * (v + F(0.044715) * v * v * v))));
      return static_cast<T>(F(0.5) * v * (F(1) + std::erf(v * F(0.7071067811865476))));
    case UnaryOp::kMish:
      return static_cast<T>(v * std::tanh(std::log1p(std::exp(-std::abs(v))) + std::max(v, F(0))));
    case UnaryOp::kIsNaN:
      return static_cast<T>(std::isnan(v));
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

// ---- Binary and variadic ---------------------------------------------------------

enum class BinaryOp {
  kAdd,
  kSub,
  kMul,
  kDiv,
  kPow,
  kMod,
  kFmod,
  kMax,
  kMin,
  kEqual,
  kLess,
  kGreater,
  kLessEq,
  kGreaterEq,
  kAnd,
  kOr,
  kXor,
  kShiftLeft,
  kShiftRight,
  kPRelu,
};

template <typename T>
inline T ApplyArith(BinaryOp op, T a, T b) {
  switch (op) {
    case BinaryOp::kAdd:
      return static_cast<T>(a + b);
    case BinaryOp::kSub:
      return static_cast<T>(a - b);
    case BinaryOp::kMul:
      return static_cast<T>(a * b);
    case BinaryOp::kDiv:
      if constexpr (std::is_integral_v<T>) {
        if (b == T(0)) return T(0);  // defined result instead of a crash
      }
      return static_cast<T>(a / b);
    case BinaryOp::kPow:
      return static_cast<T>(std::pow(static_cast<double>(a), static_cast<double>(b)));
    case BinaryOp::kMod:
      if constexpr (std::is_integral_v<T>) {
        if (b == T(0)) return T(0);
        T r = static_cast<T>(a % b);
        if constexpr (std::is_signed_v<T>) {
          if (r != 0 && ((r < 0) != (b < 0))) r = static_cast<T>(r + b);
        }
        return r;
      } else {
        T r = std::fmod(a, b);
        if (r != 0 && ((r < 0) != (b < 0))) r += b;
        return r;
      }
    case BinaryOp::kFmod:
      if constexpr (std::is_integral_v<T>) {
        return b == T(0) ? T(0) : static_cast<T>(a % b);
      } else {
        return std::fmod(a, b);
      }
    case BinaryOp::kMax:
      return std::isnan(static_cast<double>(a)) ? a : (a > b ? a : b);
    case BinaryOp::kMin:
      return std::isnan(static_cast<double>(a)) ? a : (a < b ? a : b);
    case BinaryOp::kShiftLeft:
      if constexpr (std::is_integral_v<T>)
        return static_cast<T>(b >= T(sizeof(T) * 8) ? 0 : a << b);
      return a;
    case BinaryOp::kShiftRight:
      if constexpr (std::is_integral_v<T>)
        return static_cast<T>(b >= T(sizeof(T) * 8) ? 0 : a >> b);
      return a;
    case BinaryOp::kPRelu:
      return a < T(0) ? static_cast<T>(a * b) : a;
    default:
      return a;
  }
}

template <typename T>
inline bool ApplyCompare(BinaryOp op, T a, T b) {
  switch (op) {
    case BinaryOp::kEqual:
      return a == b;
    case BinaryOp::kLess:
      return a < b;
    case BinaryOp::kGreater:
      return a > b;
    case BinaryOp::kLessEq:
      return a <= b;
    case BinaryOp::kGreaterEq:
      return a >= b;
    case BinaryOp::kAnd:
      return a && b;
    case BinaryOp::kOr:
      return a || b;
    case BinaryOp::kXor:
      return static_cast<bool>(a) != static_cast<bool>(b);
    default:
      return false;
  }
}

bool IsCompare(BinaryOp op) { return op >= BinaryOp::kEqual && op <= BinaryOp::kXor; }

Result<BinaryOp> BinaryOpFor(const Node& n) {
  static const struct {
    const char* name;
    BinaryOp op;
  } kOps[] = {{"Add", BinaryOp::kAdd},
              {"Sub", BinaryOp::kSub},
              {"Mul", BinaryOp::kMul},
              {"Div", BinaryOp::kDiv},
              {"Pow", BinaryOp::kPow},
              {"Max", BinaryOp::kMax},
              {"Min", BinaryOp::kMin},
              {"Sum", BinaryOp::kAdd},
              {"Mean", BinaryOp::kAdd},
              {"Equal", BinaryOp::kEqual},
              {"Less", BinaryOp::kLess},
              {"Greater", BinaryOp::kGreater},
              {"LessOrEqual", BinaryOp::kLessEq},
              {"GreaterOrEqual", BinaryOp::kGreaterEq},
              {"And", BinaryOp::kAnd},
              {"Or", BinaryOp::kOr},
              {"Xor", BinaryOp::kXor},
              {"PRelu", BinaryOp::kPRelu}};
  if (n.op_type == "Mod") return n.attrs.GetInt("fmod", 0) ? BinaryOp::kFmod : BinaryOp::kMod;
  if (n.op_type == "BitShift")
    return n.attrs.GetString("direction", "") == "LEFT" ? BinaryOp::kShiftLeft
                                                        : BinaryOp::kShiftRight;
  for (const auto& e : kOps)
    if (n.op_type == e.name) return e.op;
  return Unsupported("not a binary op: " + n.op_type);
}

// Handles 2-input broadcasting ops and folds variadic ones pairwise into the output.
// Rows [r0, r1) of y = a op b over float rows of `inner` contiguous values, b being one
// row repeated (a per-channel scale over channels-last rows) or rows of its own. Returns
// false for ops without a loop here.
OC_MULTIVERSION bool FloatBinaryRows(BinaryOp op, const float* a, const float* b, float* y,
                                     int64_t r0, int64_t r1, int64_t inner, bool b_repeats) {
  for (int64_t r = r0; r < r1; ++r) {
    const float* pa = a + r * inner;
    const float* pb = b_repeats ? b : b + r * inner;
    float* py = y + r * inner;
    switch (op) {
      case BinaryOp::kAdd:
        for (int64_t i = 0; i < inner; ++i) py[i] = pa[i] + pb[i];
        break;
      case BinaryOp::kSub:
        for (int64_t i = 0; i < inner; ++i) py[i] = pa[i] - pb[i];
        break;
      case BinaryOp::kMul:
        for (int64_t i = 0; i < inner; ++i) py[i] = pa[i] * pb[i];
        break;
      case BinaryOp::kDiv:
        for (int64_t i = 0; i < inner; ++i) py[i] = pa[i] / pb[i];
        break;
      default:
        return false;
    }
  }
  return true;
}

class BinaryKernel : public Kernel {
 public:
  Status Prepare(const KernelPrepareContext& ctx) override {
    OC_ASSIGN_OR_RETURN(op_, BinaryOpFor(*ctx.node));
    type_ = ctx.inputs[0].dtype;
    pow_exp_type_ = ctx.inputs.size() > 1 ? ctx.inputs[1].dtype : type_;
    out_ = ctx.outputs[0].shape;
    for (size_t i = 0; i < ctx.inputs.size(); ++i) {
      if (!ctx.has_input(i)) continue;
      if (ctx.inputs[i].dtype != type_ && op_ != BinaryOp::kPow)
        return ctx.Error("input types differ");
      shapes_.push_back(ctx.inputs[i].shape);
    }
    mean_ = ctx.node->op_type == "Mean";
    for (size_t i = 0; i < ctx.inputs.size(); ++i)
      if (ctx.has_input(i)) input_types_.push_back(ctx.inputs[i].dtype);
    // float16/bfloat16 compute in float and round back once.
    half_ = type_ == DataType::kFloat16 || type_ == DataType::kBFloat16;
    // Opset < 7 PRelu: a 1-D slope of C values applies per channel.
    if (op_ == BinaryOp::kPRelu && shapes_.size() == 2 && !BroadcastPlan::Valid(out_, shapes_) &&
        shapes_[1].size() == 1 && out_.size() > 2 && shapes_[1][0] == out_[1]) {
      Shape slope(out_.size() - 1, 1);
      slope[0] = out_[1];
      shapes_[1] = slope;
    }
    if (!BroadcastPlan::Valid(out_, shapes_))
      return ctx.Error("input shapes do not broadcast to the output shape " + ShapeToString(out_));
    // A channels-last output (layout.cpp): every operand is channels-last or reads the same in
    // both layouts, so broadcasting runs on the shapes as they lie in memory, N,H,W,C.
    if (ctx.output_layout(0) == kLayoutChannelsLast && out_.size() == 4) {
      auto to_nhwc = [](Shape s) {
        while (s.size() < 4) s.insert(s.begin(), 1);
        return Shape{s[0], s[2], s[3], s[1]};
      };
      out_ = to_nhwc(out_);
      for (auto& shape : shapes_) shape = to_nhwc(shape);
    }
    if (shapes_.size() == 1) plans_.push_back(BroadcastPlan::Make(out_, {shapes_[0], shapes_[0]}));
    for (size_t i = 1; i < shapes_.size(); ++i)
      plans_.push_back(BroadcastPlan::Make(out_, {i == 1 ? shapes_[0] : out_, shapes_[i]}));
    return Status::Ok();
  }

  Status Run(const KernelRunContext& ctx) const override {
    if (!half_) return RunAs(type_, pow_exp_type_, ctx);
    const size_t n = shapes_.size();
    std::vector<std::vector<float>> converted(n);
    std::vector<const void*> ptrs(n);
    DataType exp_type = pow_exp_type_;
    for (size_t i = 0; i < n; ++i) {
      if (input_types_[i] != DataType::kFloat16 && input_types_[i] != DataType::kBFloat16) {
        ptrs[i] = ctx.inputs[i];
        continue;
      }
      const int64_t count = NumElements(shapes_[i]);
      converted[i].resize(static_cast<size_t>(count));
      const auto* src = static_cast<const uint16_t*>(ctx.inputs[i]);
      for (int64_t k = 0; k < count; ++k)
        converted[i][k] =
            input_types_[i] == DataType::kFloat16 ? HalfToFloat(src[k]) : BFloat16ToFloat(src[k]);
      ptrs[i] = converted[i].data();
      if (i == 1) exp_type = DataType::kFloat;
    }
    std::vector<float> out;
    void* out_ptr = ctx.outputs[0];
    if (!IsCompare(op_)) {
      out.resize(static_cast<size_t>(NumElements(out_)));
      out_ptr = out.data();
    }
    KernelRunContext fctx = ctx;
    fctx.inputs = ptrs.data();
    fctx.outputs = &out_ptr;
    OC_RETURN_IF_ERROR(RunAs(DataType::kFloat, exp_type, fctx));
    if (!IsCompare(op_)) {
      auto* dst = static_cast<uint16_t*>(ctx.outputs[0]);
      for (size_t k = 0; k < out.size(); ++k)
        dst[k] = type_ == DataType::kFloat16 ? FloatToHalf(out[k]) : FloatToBFloat16(out[k]);
    }
    return Status::Ok();
  }

 private:
  Status RunAs(DataType type, DataType exp_type, const KernelRunContext& ctx) const {
    bool ok = DispatchNumeric(type, [&]<typename T>() {
      if (shapes_.size() == 1) {
        std::memcpy(ctx.outputs[0], ctx.inputs[0], NumElements(out_) * sizeof(T));
        return;
      }
      for (size_t i = 1; i < shapes_.size(); ++i) {
        const void* a = i == 1 ? ctx.inputs[0] : ctx.outputs[0];
        if (op_ == BinaryOp::kPow && exp_type != type) {
          RunPowMixed<T>(plans_[i - 1], static_cast<const T*>(a), ctx.inputs[i], exp_type,
                         static_cast<T*>(ctx.outputs[0]));
        } else if (IsCompare(op_)) {
          RunPair<T, bool>(plans_[i - 1], static_cast<const T*>(a),
                           static_cast<const T*>(ctx.inputs[i]), static_cast<bool*>(ctx.outputs[0]),
                           ctx.num_threads);
        } else {
          RunPair<T, T>(plans_[i - 1], static_cast<const T*>(a),
                        static_cast<const T*>(ctx.inputs[i]), static_cast<T*>(ctx.outputs[0]),
                        ctx.num_threads);
        }
      }
      if (mean_) {
        if constexpr (!std::is_same_v<T, bool>) {
          T* y = static_cast<T*>(ctx.outputs[0]);
          const T n = static_cast<T>(shapes_.size());
          for (int64_t i = 0; i < NumElements(out_); ++i) y[i] = static_cast<T>(y[i] / n);
        }
      }
    });
    return ok ? Status::Ok() : Unsupported("binary op on unsupported type");
  }

  template <typename T, typename R>
  void RunPair(const BroadcastPlan& p, const T* a, const T* b, R* y, int threads) const {
    const BinaryOp op = op_;
    const int64_t inner = p.inner;
    const int64_t sa = p.inner_step[0], sb = p.inner_step[1];
    // A per-channel scale over channels-last rows (and the like): no index arithmetic.
    const bool b_const = p.RowsConstant(1);
    const bool simple_rows =
        sa == 1 && p.RowsContiguous(0) && (b_const || (sb == 1 && p.RowsContiguous(1)));
    if constexpr (std::is_same_v<T, float> && std::is_same_v<R, float>) {
      const bool arith = op == BinaryOp::kAdd || op == BinaryOp::kSub || op == BinaryOp::kMul ||
                         op == BinaryOp::kDiv;
      if (simple_rows && sb == 1 && arith) {
        // Chunks of whole rows, about kGrain elements each.
        const int64_t rows = p.outer;
        const int64_t chunk = std::max<int64_t>(1, kGrain / std::max<int64_t>(inner, 1));
        const int64_t chunks = (rows + chunk - 1) / chunk;
#pragma omp parallel for num_threads(threads) schedule(static) if (threads > 1 && chunks > 1)
        for (int64_t c = 0; c < chunks; ++c)
          FloatBinaryRows(op, a, b, y, c * chunk, std::min(rows, (c + 1) * chunk), inner, b_const);
        return;
      }
    }
    auto row_fn = [&](int64_t row) {
      int64_t off[2];
      if (simple_rows) {
        off[0] = row * inner;
        off[1] = b_const ? 0 : row * inner;
      } else {
        p.RowOffsets(row, off);
      }
      const T* pa = a + off[0];
      const T* pb = b + off[1];
      R* py = y + row * inner;
      if constexpr (std::is_same_v<R, bool>) {
        for (int64_t i = 0; i < inner; ++i) py[i] = ApplyCompare<T>(op, pa[i * sa], pb[i * sb]);
      } else if constexpr (std::is_same_v<T, float>) {
        // The hot float cases get loops the compiler vectorises.
        if (sa == 1 && sb == 1) {
          switch (op) {
            case BinaryOp::kAdd:
              for (int64_t i = 0; i < inner; ++i) py[i] = pa[i] + pb[i];
              return;
            case BinaryOp::kSub:
              for (int64_t i = 0; i < inner; ++i) py[i] = pa[i] - pb[i];
              return;
            case BinaryOp::kMul:
              for (int64_t i = 0; i < inner; ++i) py[i] = pa[i] * pb[i];
              return;
            case BinaryOp::kDiv:
              for (int64_t i = 0; i < inner; ++i) py[i] = pa[i] / pb[i];
              return;
            default:
              break;
          }
        } else if (sa == 1 && sb == 0) {
          const float bv = *pb;
          switch (op) {
            case BinaryOp::kAdd:
              for (int64_t i = 0; i < inner; ++i) py[i] = pa[i] + bv;
              return;
            case BinaryOp::kSub:
              for (int64_t i = 0; i < inner; ++i) py[i] = pa[i] - bv;
              return;
            case BinaryOp::kMul:
              for (int64_t i = 0; i < inner; ++i) py[i] = pa[i] * bv;
              return;
            case BinaryOp::kDiv:
              for (int64_t i = 0; i < inner; ++i) py[i] = pa[i] / bv;
              return;
            default:
              break;
          }
        }
        for (int64_t i = 0; i < inner; ++i) py[i] = ApplyArith<T>(op, pa[i * sa], pb[i * sb]);
      } else {
        for (int64_t i = 0; i < inner; ++i) py[i] = ApplyArith<T>(op, pa[i * sa], pb[i * sb]);
      }
    };
    const int64_t rows = p.outer;
    if (threads > 1 && rows * inner >= kGrain && rows > 1) {
#pragma omp parallel for num_threads(threads) schedule(static)
      for (int64_t r = 0; r < rows; ++r) row_fn(r);
    } else {
      for (int64_t r = 0; r < rows; ++r) row_fn(r);
    }
  }

  template <typename T>
  void RunPowMixed(const BroadcastPlan& p, const T* a, const void* b, DataType exp_type,
                   T* y) const {
    Tensor exponent(exp_type, {NumElements(shapes_[1])}, b, nullptr);
    for (int64_t r = 0; r < p.outer; ++r) {
      int64_t off[2];
      p.RowOffsets(r, off);
      for (int64_t i = 0; i < p.inner; ++i) {
        const double e = exponent.GetAsDouble(off[1] + i * p.inner_step[1]);
        y[r * p.inner + i] =
            static_cast<T>(std::pow(static_cast<double>(a[off[0] + i * p.inner_step[0]]), e));
      }
    }
  }

  BinaryOp op_ = BinaryOp::kAdd;
  DataType type_ = DataType::kFloat;
  DataType pow_exp_type_ = DataType::kFloat;
  Shape out_;
  std::vector<Shape> shapes_;
  std::vector<BroadcastPlan> plans_;
  bool mean_ = false, half_ = false;
  std::vector<DataType> input_types_;
};

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
    return Status::Ok();
  }
  Status Run(const KernelRunContext& ctx) const override {
    bool ok = DispatchNumeric(type_, [&]<typename T>() {
      if constexpr (!std::is_same_v<T, bool>) {
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
      }
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
        // Out-of-range and NaN conversions are undefined in C++; saturate instead.
        double v = static_cast<double>(s[i]);
        if (std::isnan(v)) {
          dst[i] = 0;
        } else {
          v = std::clamp(v, static_cast<double>(std::numeric_limits<To>::lowest()),
                         static_cast<double>(std::numeric_limits<To>::max()));
          dst[i] = static_cast<To>(v);
        }
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
    const bool zero_ratio =
        ctx.has_input(1) && ctx.constants[1] && ctx.constants[1]->GetAsDouble(0) == 0.0;
    if (ctx.node->op_type == "Dropout" && ctx.has_input(2) && !zero_ratio &&
        (!ctx.constants[2] || ctx.constants[2]->GetAsInt(0) != 0))
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
  for (const auto& e : kUnaryOps)
    r.Add<UnaryKernel>(
        e.name, "",
        e.int_ok ? "all numeric types, float16, bfloat16" : "float32, float64, float16, bfloat16");
  for (const char* op :
       {"Add", "Sub", "Mul", "Div", "Pow", "Mod", "BitShift", "Max", "Min", "Sum", "Mean", "PRelu"})
    r.Add<BinaryKernel>(op, "", "all numeric types, float16, bfloat16");
  for (const char* op :
       {"Equal", "Less", "Greater", "LessOrEqual", "GreaterOrEqual", "And", "Or", "Xor"})
    r.Add<BinaryKernel>(op, "", "all numeric types and bool in, bool out");
  r.Add<WhereKernel>("Where");
  r.Add<ClipKernel>("Clip");
  r.Add<CastKernel>("Cast");
  r.Add<CastKernel>("CastLike");
  r.Add<CopyKernel>("Identity");
  r.Add<CopyKernel>("Dropout");
}

}  // namespace oc
