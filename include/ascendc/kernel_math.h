// The advanced API's element-wise math and activations (lib/math, lib/activation): each
// computed in float from the element's value (half widened, the result rounded to nearest)
// with the C library's functions. The NPU evaluates them with its own polynomial
// approximations, so the last bits may differ from CANN's; the tolerances of CANN's samples
// (1e-3 relative) hold.
#pragma once

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <string>
#include <type_traits>

#include "ascendc/kernel_reduce.h"

namespace AscendC {

namespace detail {
// dst[i] = f(src[i]) for count elements (all of src when count is -1).
template <typename T, typename F>
void MathUnary(const LocalTensor<T>& dst, const LocalTensor<T>& src, int64_t count, F f,
               const char* api) {
  if (count < 0) count = std::min<int64_t>(src.GetSize(), dst.GetSize());
  CheckVector(src, uint64_t(count), api, "source");
  CheckVector(dst, uint64_t(count), api, "destination");
  for (int64_t i = 0; i < count; ++i) {
    const double x = AsDouble(src.GetPhyAddr()[i]);
    dst.GetPhyAddr()[i] = Convert<T>(static_cast<float>(f(x)), RoundMode::CAST_ROUND);
  }
  CountCycles(uint64_t(count) * sizeof(T) * 4);
}
// dst[i] = f(src0[i], src1[i]).
template <typename T, typename F>
void MathBinary(const LocalTensor<T>& dst, const LocalTensor<T>& src0, const LocalTensor<T>& src1,
                int64_t count, F f, const char* api) {
  if (count < 0) count = std::min<int64_t>(src0.GetSize(), dst.GetSize());
  CheckVector(src0, uint64_t(count), api, "source 0");
  CheckVector(src1, uint64_t(count), api, "source 1");
  CheckVector(dst, uint64_t(count), api, "destination");
  for (int64_t i = 0; i < count; ++i) {
    if constexpr (std::is_integral_v<T>) {
      dst.GetPhyAddr()[i] = static_cast<T>(f(src0.GetPhyAddr()[i], src1.GetPhyAddr()[i]));
    } else {
      const double a = AsDouble(src0.GetPhyAddr()[i]), b = AsDouble(src1.GetPhyAddr()[i]);
      dst.GetPhyAddr()[i] = Convert<T>(static_cast<float>(f(a, b)), RoundMode::CAST_ROUND);
    }
  }
  CountCycles(uint64_t(count) * sizeof(T) * 4);
}
inline double Sigmoid(double x) { return 1.0 / (1.0 + std::exp(-x)); }
}  // namespace detail

// Four forms each, as CANN declares them: with or without the temporary buffer (not needed
// here), with a count or the whole source.
#define OC_ASCENDC_MATH_UNARY(NAME, EXPR)                                                    \
  template <typename T, bool isReuseSource = false>                                          \
  void NAME(const LocalTensor<T>& dst, const LocalTensor<T>& src,                            \
            const LocalTensor<uint8_t>& sharedTmpBuffer, const uint32_t calCount) {          \
    (void)sharedTmpBuffer;                                                                   \
    detail::MathUnary(                                                                       \
        dst, src, calCount, [](double x) { return EXPR; }, #NAME);                           \
  }                                                                                          \
  template <typename T, bool isReuseSource = false>                                          \
  void NAME(const LocalTensor<T>& dst, const LocalTensor<T>& src,                            \
            const LocalTensor<uint8_t>& sharedTmpBuffer) {                                   \
    (void)sharedTmpBuffer;                                                                   \
    detail::MathUnary(                                                                       \
        dst, src, -1, [](double x) { return EXPR; }, #NAME);                                 \
  }                                                                                          \
  template <typename T, bool isReuseSource = false>                                          \
  void NAME(const LocalTensor<T>& dst, const LocalTensor<T>& src, const uint32_t calCount) { \
    detail::MathUnary(                                                                       \
        dst, src, calCount, [](double x) { return EXPR; }, #NAME);                           \
  }                                                                                          \
  template <typename T, bool isReuseSource = false>                                          \
  void NAME(const LocalTensor<T>& dst, const LocalTensor<T>& src) {                          \
    detail::MathUnary(                                                                       \
        dst, src, -1, [](double x) { return EXPR; }, #NAME);                                 \
  }

OC_ASCENDC_MATH_UNARY(Acos, std::acos(x))
OC_ASCENDC_MATH_UNARY(Acosh, std::acosh(x))
OC_ASCENDC_MATH_UNARY(Asin, std::asin(x))
OC_ASCENDC_MATH_UNARY(Asinh, std::asinh(x))
OC_ASCENDC_MATH_UNARY(Atan, std::atan(x))
OC_ASCENDC_MATH_UNARY(Atanh, std::atanh(x))
OC_ASCENDC_MATH_UNARY(Cos, std::cos(x))
OC_ASCENDC_MATH_UNARY(Cosh, std::cosh(x))
OC_ASCENDC_MATH_UNARY(Sin, std::sin(x))
OC_ASCENDC_MATH_UNARY(Sinh, std::sinh(x))
OC_ASCENDC_MATH_UNARY(Tan, std::tan(x))
OC_ASCENDC_MATH_UNARY(Tanh, std::tanh(x))
OC_ASCENDC_MATH_UNARY(Erf, std::erf(x))
OC_ASCENDC_MATH_UNARY(Erfc, std::erfc(x))
OC_ASCENDC_MATH_UNARY(Ceil, std::ceil(x))
OC_ASCENDC_MATH_UNARY(Floor, std::floor(x))
OC_ASCENDC_MATH_UNARY(Trunc, std::trunc(x))
OC_ASCENDC_MATH_UNARY(Round, std::nearbyint(x))  // halves to even
OC_ASCENDC_MATH_UNARY(Frac, x - std::trunc(x))
OC_ASCENDC_MATH_UNARY(Sign, x > 0 ? 1.0 : x < 0 ? -1.0 : 0.0)
OC_ASCENDC_MATH_UNARY(Sigmoid, detail::Sigmoid(x))
#undef OC_ASCENDC_MATH_UNARY

// Gelu, in its tanh form as CANN documents it: x / (1 + exp(-1.5958 (x + 0.044715 x^3))).
template <typename T, bool highPrecision = false, bool highPerformance = false>
void Gelu(const LocalTensor<T>& dst, const LocalTensor<T>& src,
          const LocalTensor<uint8_t>& sharedTmpBuffer, const uint32_t dataSize) {
  (void)sharedTmpBuffer;
  detail::MathUnary(
      dst, src, dataSize,
      [](double x) {
        return x / (1.0 + std::exp(-1.5957691216057308 * (x + 0.044715 * x * x * x)));
      },
      "Gelu");
}
template <typename T, bool highPrecision = false, bool highPerformance = false>
void Gelu(const LocalTensor<T>& dst, const LocalTensor<T>& src, const uint32_t dataSize) {
  Gelu<T, highPrecision, highPerformance>(dst, src, LocalTensor<uint8_t>(), dataSize);
}

// Swish: x * sigmoid(beta * x). Silu is Swish with beta 1.
template <typename T, bool isReuseSource = false>
void Swish(const LocalTensor<T>& dst, const LocalTensor<T>& src, uint32_t dataSize,
           const T& scalarValue) {
  const double beta = detail::AsDouble(scalarValue);
  detail::MathUnary(
      dst, src, dataSize, [beta](double x) { return x * detail::Sigmoid(beta * x); }, "Swish");
}
template <typename T, bool isReuseSource = false>
void Silu(const LocalTensor<T>& dst, const LocalTensor<T>& src, uint32_t dataSize) {
  detail::MathUnary(
      dst, src, dataSize, [](double x) { return x * detail::Sigmoid(x); }, "Silu");
}

// ClampMin / ClampMax: max(x, scalar) / min(x, scalar).
template <typename T, bool isReuseSource = false>
void ClampMin(const LocalTensor<T>& dst, const LocalTensor<T>& src,
              const LocalTensor<uint8_t>& sharedTmpBuffer, const T scalar,
              const uint32_t calCount) {
  (void)sharedTmpBuffer;
  const double s = detail::AsDouble(scalar);
  detail::MathUnary(
      dst, src, calCount, [s](double x) { return x < s ? s : x; }, "ClampMin");
}
template <typename T, bool isReuseSource = false>
void ClampMin(const LocalTensor<T>& dst, const LocalTensor<T>& src, const T scalar,
              const uint32_t calCount) {
  ClampMin<T, isReuseSource>(dst, src, LocalTensor<uint8_t>(), scalar, calCount);
}
template <typename T, bool isReuseSource = false>
void ClampMax(const LocalTensor<T>& dst, const LocalTensor<T>& src,
              const LocalTensor<uint8_t>& sharedTmpBuffer, const T scalar,
              const uint32_t calCount) {
  (void)sharedTmpBuffer;
  const double s = detail::AsDouble(scalar);
  detail::MathUnary(
      dst, src, calCount, [s](double x) { return x > s ? s : x; }, "ClampMax");
}
template <typename T, bool isReuseSource = false>
void ClampMax(const LocalTensor<T>& dst, const LocalTensor<T>& src, const T scalar,
              const uint32_t calCount) {
  ClampMax<T, isReuseSource>(dst, src, LocalTensor<uint8_t>(), scalar, calCount);
}

// Binary: Xor (integers), Fmod (the remainder with the dividend's sign).
#define OC_ASCENDC_MATH_BINARY(NAME, EXPR)                                                       \
  template <typename T, bool isReuseSource = false>                                              \
  void NAME(const LocalTensor<T>& dst, const LocalTensor<T>& src0, const LocalTensor<T>& src1,   \
            const LocalTensor<uint8_t>& sharedTmpBuffer, const uint32_t calCount) {              \
    (void)sharedTmpBuffer;                                                                       \
    detail::MathBinary(                                                                          \
        dst, src0, src1, calCount, [](auto a, auto b) { return EXPR; }, #NAME);                  \
  }                                                                                              \
  template <typename T, bool isReuseSource = false>                                              \
  void NAME(const LocalTensor<T>& dst, const LocalTensor<T>& src0, const LocalTensor<T>& src1,   \
            const LocalTensor<uint8_t>& sharedTmpBuffer) {                                       \
    (void)sharedTmpBuffer;                                                                       \
    detail::MathBinary(                                                                          \
        dst, src0, src1, -1, [](auto a, auto b) { return EXPR; }, #NAME);                        \
  }                                                                                              \
  template <typename T, bool isReuseSource = false>                                              \
  void NAME(const LocalTensor<T>& dst, const LocalTensor<T>& src0, const LocalTensor<T>& src1,   \
            const uint32_t calCount) {                                                           \
    detail::MathBinary(                                                                          \
        dst, src0, src1, calCount, [](auto a, auto b) { return EXPR; }, #NAME);                  \
  }                                                                                              \
  template <typename T, bool isReuseSource = false>                                              \
  void NAME(const LocalTensor<T>& dst, const LocalTensor<T>& src0, const LocalTensor<T>& src1) { \
    detail::MathBinary(                                                                          \
        dst, src0, src1, -1, [](auto a, auto b) { return EXPR; }, #NAME);                        \
  }
OC_ASCENDC_MATH_BINARY(Xor, a ^ b)
#undef OC_ASCENDC_MATH_BINARY

enum class FmodAlgo { NORMAL = 0, ITERATION_COMPENSATION };
inline constexpr uint32_t FMOD_ITERATION_NUM_MAX = 11;
struct FmodConfig {
  FmodAlgo algo = FmodAlgo::NORMAL;
  uint32_t iterationNum = FMOD_ITERATION_NUM_MAX;
};
inline constexpr FmodConfig DEFAULT_FMOD_CONFIG = {};
template <typename T, bool isReuseSource = false, const FmodConfig& config = DEFAULT_FMOD_CONFIG>
void Fmod(const LocalTensor<T>& dst, const LocalTensor<T>& src0, const LocalTensor<T>& src1,
          const LocalTensor<uint8_t>& sharedTmpBuffer, const uint32_t calCount) {
  (void)sharedTmpBuffer;
  detail::MathBinary(
      dst, src0, src1, calCount, [](double a, double b) { return std::fmod(a, b); }, "Fmod");
}
template <typename T, bool isReuseSource = false, const FmodConfig& config = DEFAULT_FMOD_CONFIG>
void Fmod(const LocalTensor<T>& dst, const LocalTensor<T>& src0, const LocalTensor<T>& src1,
          const LocalTensor<uint8_t>& sharedTmpBuffer) {
  (void)sharedTmpBuffer;
  detail::MathBinary(
      dst, src0, src1, -1, [](double a, double b) { return std::fmod(a, b); }, "Fmod");
}
template <typename T, bool isReuseSource = false, const FmodConfig& config = DEFAULT_FMOD_CONFIG>
void Fmod(const LocalTensor<T>& dst, const LocalTensor<T>& src0, const LocalTensor<T>& src1,
          const uint32_t calCount) {
  detail::MathBinary(
      dst, src0, src1, calCount, [](double a, double b) { return std::fmod(a, b); }, "Fmod");
}
template <typename T, bool isReuseSource = false, const FmodConfig& config = DEFAULT_FMOD_CONFIG>
void Fmod(const LocalTensor<T>& dst, const LocalTensor<T>& src0, const LocalTensor<T>& src1) {
  detail::MathBinary(
      dst, src0, src1, -1, [](double a, double b) { return std::fmod(a, b); }, "Fmod");
}

// Exp of the advanced API: taylorExpandLevel picks the NPU's Taylor expansion of the
// fraction part; the emulation computes exp directly.
template <typename T, uint8_t taylorExpandLevel, bool isReuseSource = false>
void Exp(const LocalTensor<T>& dst, const LocalTensor<T>& src,
         const LocalTensor<uint8_t>& sharedTmpBuffer, const uint32_t calCount) {
  (void)sharedTmpBuffer;
  if (taylorExpandLevel != 0)
    detail::Warn("Exp", "taylorExpandLevel " + std::to_string(taylorExpandLevel) +
                            " selects the NPU's Taylor expansion, which OpenCANN does not "
                            "emulate: exp is computed directly (the last bits may differ)");
  detail::MathUnary(
      dst, src, calCount, [](double x) { return std::exp(x); }, "Exp");
}
template <typename T, uint8_t taylorExpandLevel, bool isReuseSource = false>
void Exp(const LocalTensor<T>& dst, const LocalTensor<T>& src, const uint32_t calCount) {
  Exp<T, taylorExpandLevel, isReuseSource>(dst, src, LocalTensor<uint8_t>(), calCount);
}

// Power: base ** exponent element-wise, with either side a tensor or a scalar. PowerConfig
// chooses the Ascend 950's algorithm; the emulation computes pow directly.
enum class PowerAlgo { INTRINSIC = 0, DOUBLE_FLOAT_TECH };
struct PowerConfig {
  PowerAlgo algo = PowerAlgo::INTRINSIC;
};
inline constexpr PowerConfig DEFAULT_POWER_CONFIG = {};
namespace detail {
template <typename T>
T PowerOf(double base, double exponent) {
  const double r = std::pow(base, exponent);
  if constexpr (std::is_integral_v<T>)
    return static_cast<T>(r);
  else
    return Convert<T>(static_cast<float>(r), RoundMode::CAST_ROUND);
}
template <typename T, typename B, typename E>
void PowerAll(const LocalTensor<T>& dst, const B& base, const E& exponent, int64_t count) {
  const char* api = "Power";
  constexpr bool base_tensor =
      !std::is_arithmetic_v<B> && !std::is_same_v<B, half> && !std::is_same_v<B, bfloat16_t>;
  constexpr bool exp_tensor =
      !std::is_arithmetic_v<E> && !std::is_same_v<E, half> && !std::is_same_v<E, bfloat16_t>;
  if (count < 0) {
    if constexpr (base_tensor)
      count = base.GetSize();
    else if constexpr (exp_tensor)
      count = exponent.GetSize();
  }
  if constexpr (base_tensor) CheckVector(base, uint64_t(count), api, "source (base)");
  if constexpr (exp_tensor) CheckVector(exponent, uint64_t(count), api, "source (exponent)");
  CheckVector(dst, uint64_t(count), api, "destination");
  for (int64_t i = 0; i < count; ++i) {
    double b, e;
    if constexpr (base_tensor)
      b = AsDouble(base.GetPhyAddr()[i]);
    else
      b = AsDouble(static_cast<T>(base));
    if constexpr (exp_tensor)
      e = AsDouble(exponent.GetPhyAddr()[i]);
    else
      e = AsDouble(static_cast<T>(exponent));
    dst.GetPhyAddr()[i] = PowerOf<T>(b, e);
  }
  CountCycles(uint64_t(count) * sizeof(T) * 6);
}
}  // namespace detail
#define OC_ASCENDC_POWER(BASE, EXP)                                                     \
  template <typename T, bool isReuseSource = false,                                     \
            const PowerConfig& config = DEFAULT_POWER_CONFIG>                           \
  void Power(const LocalTensor<T>& dst, BASE src0, EXP src1,                            \
             const LocalTensor<uint8_t>& sharedTmpBuffer, const uint32_t calCount) {    \
    (void)sharedTmpBuffer;                                                              \
    detail::PowerAll(dst, src0, src1, calCount);                                        \
  }                                                                                     \
  template <typename T, bool isReuseSource = false,                                     \
            const PowerConfig& config = DEFAULT_POWER_CONFIG>                           \
  void Power(const LocalTensor<T>& dst, BASE src0, EXP src1,                            \
             const LocalTensor<uint8_t>& sharedTmpBuffer) {                             \
    (void)sharedTmpBuffer;                                                              \
    detail::PowerAll(dst, src0, src1, -1);                                              \
  }                                                                                     \
  template <typename T, bool isReuseSource = false,                                     \
            const PowerConfig& config = DEFAULT_POWER_CONFIG>                           \
  void Power(const LocalTensor<T>& dst, BASE src0, EXP src1, const uint32_t calCount) { \
    detail::PowerAll(dst, src0, src1, calCount);                                        \
  }                                                                                     \
  template <typename T, bool isReuseSource = false,                                     \
            const PowerConfig& config = DEFAULT_POWER_CONFIG>                           \
  void Power(const LocalTensor<T>& dst, BASE src0, EXP src1) {                          \
    detail::PowerAll(dst, src0, src1, -1);                                              \
  }
OC_ASCENDC_POWER(const LocalTensor<T>&, const LocalTensor<T>&)
OC_ASCENDC_POWER(const LocalTensor<T>&, const T&)
OC_ASCENDC_POWER(const T&, const LocalTensor<T>&)
#undef OC_ASCENDC_POWER

// The gated activations: GeGLU = src0 * gelu(src1) (Gelu's tanh form), SwiGLU =
// src0 * swish(src1, beta).
namespace detail {
inline double GeluTanh(double x) {
  return x / (1.0 + std::exp(-1.5957691216057308 * (x + 0.044715 * x * x * x)));
}
}  // namespace detail
template <typename T, bool isReuseSource = false>
void GeGLU(const LocalTensor<T>& dstTensor, const LocalTensor<T>& srcTensor0,
           const LocalTensor<T>& srcTensor1, const LocalTensor<uint8_t>& sharedTmpBuffer,
           uint32_t calCount) {
  (void)sharedTmpBuffer;
  detail::MathBinary(
      dstTensor, srcTensor0, srcTensor1, calCount,
      [](double a, double b) { return a * detail::GeluTanh(b); }, "GeGLU");
}
template <typename T, bool isReuseSource = false>
void GeGLU(const LocalTensor<T>& dstTensor, const LocalTensor<T>& srcTensor0,
           const LocalTensor<T>& srcTensor1, const LocalTensor<uint8_t>& sharedTmpBuffer) {
  (void)sharedTmpBuffer;
  detail::MathBinary(
      dstTensor, srcTensor0, srcTensor1, -1,
      [](double a, double b) { return a * detail::GeluTanh(b); }, "GeGLU");
}
template <typename T, bool isReuseSource = false>
void GeGLU(const LocalTensor<T>& dstTensor, const LocalTensor<T>& srcTensor0,
           const LocalTensor<T>& srcTensor1, uint32_t calCount) {
  detail::MathBinary(
      dstTensor, srcTensor0, srcTensor1, calCount,
      [](double a, double b) { return a * detail::GeluTanh(b); }, "GeGLU");
}
template <typename T, bool isReuseSource = false>
void GeGLU(const LocalTensor<T>& dstTensor, const LocalTensor<T>& srcTensor0,
           const LocalTensor<T>& srcTensor1) {
  detail::MathBinary(
      dstTensor, srcTensor0, srcTensor1, -1,
      [](double a, double b) { return a * detail::GeluTanh(b); }, "GeGLU");
}
template <typename T, bool isReuseSource = false>
void SwiGLU(const LocalTensor<T>& dstTensor, const LocalTensor<T>& srcTensor0,
            const LocalTensor<T>& srcTensor1, const float& scalarValue,
            const LocalTensor<uint8_t>& sharedTmpBuffer, const uint32_t calCount) {
  (void)sharedTmpBuffer;
  const double beta = scalarValue;
  detail::MathBinary(
      dstTensor, srcTensor0, srcTensor1, calCount,
      [beta](double a, double b) { return a * b * detail::Sigmoid(beta * b); }, "SwiGLU");
}
template <typename T, bool isReuseSource = false>
void SwiGLU(const LocalTensor<T>& dstTensor, const LocalTensor<T>& srcTensor0,
            const LocalTensor<T>& srcTensor1, const float& scalarValue,
            const LocalTensor<uint8_t>& sharedTmpBuffer) {
  SwiGLU<T, isReuseSource>(dstTensor, srcTensor0, srcTensor1, scalarValue, sharedTmpBuffer,
                           std::min(srcTensor0.GetSize(), dstTensor.GetSize()));
}
template <typename T, bool isReuseSource = false>
void SwiGLU(const LocalTensor<T>& dstTensor, const LocalTensor<T>& srcTensor0,
            const LocalTensor<T>& srcTensor1, const float& scalarValue, const uint32_t calCount) {
  SwiGLU<T, isReuseSource>(dstTensor, srcTensor0, srcTensor1, scalarValue, LocalTensor<uint8_t>(),
                           calCount);
}
template <typename T, bool isReuseSource = false>
void SwiGLU(const LocalTensor<T>& dstTensor, const LocalTensor<T>& srcTensor0,
            const LocalTensor<T>& srcTensor1, const float& scalarValue) {
  SwiGLU<T, isReuseSource>(dstTensor, srcTensor0, srcTensor1, scalarValue, LocalTensor<uint8_t>(),
                           std::min(srcTensor0.GetSize(), dstTensor.GetSize()));
}

// Axpy of the advanced API: the basic Axpy with a temporary buffer (not needed here).
template <typename T, typename U, typename S>
void Axpy(const LocalTensor<T>& dst, const LocalTensor<U>& src, const S scalarValue,
          const LocalTensor<uint8_t>& sharedTmpBuffer, const uint32_t calCount) {
  (void)sharedTmpBuffer;
  Axpy(dst, src, scalarValue, static_cast<int32_t>(calCount));
}

// CumSum: running sums of an [outter, inner] tensor down the rows (first axis) or along each
// row (last axis), added in the element type one step at a time (the line-by-line algorithm;
// Sklansky's pairs in another order and may differ in the last bits); outputLastRow also
// copies the result's last row to lastRowTensor.
enum class CumSumAlgorithm { CUMSUM_ALGORITHM_LINEBYLINE = 0, CUMSUM_ALGORITHM_SKLANSKY = 1 };
struct CumSumConfig {
  bool isLastAxis{true};
  bool isReuseSource{false};
  bool outputLastRow{false};
  CumSumAlgorithm algorithm{CumSumAlgorithm::CUMSUM_ALGORITHM_LINEBYLINE};
};
inline constexpr CumSumConfig defaultCumSumConfig = {};
struct CumSumInfo {
  uint32_t outter{0};
  uint32_t inner{0};
};
template <typename T, const CumSumConfig& config = defaultCumSumConfig>
void CumSum(LocalTensor<T>& dstTensor, LocalTensor<T>& lastRowTensor,
            const LocalTensor<T>& srcTensor, LocalTensor<uint8_t>& sharedTmpBuffer,
            const CumSumInfo& cumSumInfo) {
  (void)sharedTmpBuffer;
  const char* api = "CumSum";
  if (config.algorithm == CumSumAlgorithm::CUMSUM_ALGORITHM_SKLANSKY)
    detail::Warn(api,
                 "the Sklansky algorithm adds in another order, which OpenCANN does not "
                 "emulate: sums are added line by line (the last bits may differ)");
  const uint32_t rows = cumSumInfo.outter, cols = cumSumInfo.inner;
  if (rows == 0 || cols == 0 || cols * sizeof(T) % 32 != 0)
    detail::Fault(api, "CumSumInfo: outter " + std::to_string(rows) + " and inner " +
                           std::to_string(cols) + " (32-byte aligned) must be positive");
  const uint64_t n = uint64_t(rows) * cols;
  detail::CheckVector(srcTensor, n, api, "source");
  detail::CheckVector(dstTensor, n, api, "destination");
  if (config.outputLastRow) detail::CheckVector(lastRowTensor, cols, api, "destination (last row)");
  using C = detail::Calc<T>;
  const T* x = srcTensor.GetPhyAddr();
  T* y = dstTensor.GetPhyAddr();
  if (config.isLastAxis) {
    for (uint32_t r = 0; r < rows; ++r) {
      C acc = 0;
      for (uint32_t c = 0; c < cols; ++c) {
        acc = static_cast<C>(static_cast<T>(acc + static_cast<C>(x[uint64_t(r) * cols + c])));
        y[uint64_t(r) * cols + c] = static_cast<T>(acc);
      }
    }
  } else {
    for (uint32_t c = 0; c < cols; ++c) {
      C acc = 0;
      for (uint32_t r = 0; r < rows; ++r) {
        acc = static_cast<C>(static_cast<T>(acc + static_cast<C>(x[uint64_t(r) * cols + c])));
        y[uint64_t(r) * cols + c] = static_cast<T>(acc);
      }
    }
  }
  if (config.outputLastRow)
    for (uint32_t c = 0; c < cols; ++c)
      lastRowTensor.GetPhyAddr()[c] = y[uint64_t(rows - 1) * cols + c];
  detail::CountCycles(n * sizeof(T) * 2);
}
template <typename T, const CumSumConfig& config = defaultCumSumConfig>
void CumSum(LocalTensor<T>& dstTensor, LocalTensor<T>& lastRowTensor,
            const LocalTensor<T>& srcTensor, const CumSumInfo& cumSumInfo) {
  LocalTensor<uint8_t> none;
  CumSum<T, config>(dstTensor, lastRowTensor, srcTensor, none, cumSumInfo);
}

}  // namespace AscendC
