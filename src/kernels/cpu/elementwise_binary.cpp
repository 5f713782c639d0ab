// Element-wise binary kernels: broadcasting arithmetic (Add ... PRelu), comparisons and logic
// (bool out), and the variadic Sum/Max/Min/Mean folded pairwise.
#include <algorithm>
#include <cmath>
#include <cstring>
#include <type_traits>
#include <vector>

#include "backend/kernel.h"
#include "base/half.h"
#include "kernels/cpu/cpu_backend.h"
#include "kernels/cpu/dispatch.h"
#include "kernels/cpu/elementwise.h"
#include "kernels/cpu/multiversion.h"

namespace oc {
namespace {

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
      return WrapAdd(a, b);
    case BinaryOp::kSub:
      return WrapSub(a, b);
    case BinaryOp::kMul:
      return WrapMul(a, b);
    case BinaryOp::kDiv:
      if constexpr (std::is_integral_v<T>) {
        if (b == T(0)) return T(0);  // defined result instead of a crash
        // The lowest value over -1 overflows: it wraps to itself, as the negation does.
        if constexpr (std::is_signed_v<T>)
          if (b == T(-1)) return WrapSub(T(0), a);
      }
      return static_cast<T>(a / b);
    case BinaryOp::kPow:
      return SaturatingCast<T>(std::pow(static_cast<double>(a), static_cast<double>(b)));
    case BinaryOp::kMod:
      if constexpr (std::is_integral_v<T>) {
        if (b == T(0)) return T(0);
        if constexpr (std::is_signed_v<T>)
          if (b == T(-1)) return T(0);  // lowest % -1 is undefined in C++; the remainder is 0
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
        if constexpr (std::is_signed_v<T>)
          if (b == T(-1)) return T(0);
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
            SaturatingCast<T>(std::pow(static_cast<double>(a[off[0] + i * p.inner_step[0]]), e));
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

}  // namespace

void RegisterElementwiseBinaryKernels(KernelTable& r) {
  for (const char* op :
       {"Add", "Sub", "Mul", "Div", "Pow", "Mod", "BitShift", "Max", "Min", "Sum", "Mean", "PRelu"})
    r.Add<BinaryKernel>(op, "", "all numeric types, float16, bfloat16");
  for (const char* op :
       {"Equal", "Less", "Greater", "LessOrEqual", "GreaterOrEqual", "And", "Or", "Xor"})
    r.Add<BinaryKernel>(op, "", "all numeric types and bool in, bool out");
}

}  // namespace oc
