// Ascend C on the CPU: qualifiers, scalar types and enums. Part of OpenCANN's emulation of
// CANN's kernel_operator.h; kernels written for the NPU compile unchanged with g++.
#pragma once

#include <cmath>
#include <cstdint>
#include <cstring>
#include <type_traits>

// On the NPU these place code and data; on the CPU they mean nothing.
#ifndef __aicore__
#define __aicore__
#endif
#ifndef __global__
#define __global__
#endif
#ifndef __gm__
#define __gm__
#endif
#ifndef __ubuf__
#define __ubuf__
#endif
#ifndef __inline__
#define __inline__ inline
#endif
#ifndef GM_ADDR
#define GM_ADDR uint8_t*
#endif

namespace AscendC {
namespace detail {

// float -> 16-bit float with a rounding mode applied at the target precision.
enum class Rounding { kNearestEven, kFloor, kCeil, kNearestAway, kTrunc, kOdd };

inline uint32_t FloatBits(float f) {
  uint32_t u;
  std::memcpy(&u, &f, 4);
  return u;
}
inline float BitsFloat(uint32_t u) {
  float f;
  std::memcpy(&f, &u, 4);
  return f;
}

// Rounds the magnitude `m` (an integer holding `drop` extra low bits) per the mode.
inline uint32_t RoundDropped(uint32_t m, int drop, bool negative, Rounding r) {
  if (drop <= 0) return m << (-drop);
  if (drop > 31) {
    const bool nonzero = m != 0;
    switch (r) {
      case Rounding::kFloor:
        return negative && nonzero ? 1 : 0;
      case Rounding::kCeil:
        return !negative && nonzero ? 1 : 0;
      case Rounding::kOdd:
        return nonzero ? 1 : 0;
      default:
        return 0;
    }
  }
  const uint32_t kept = m >> drop, rest = m & ((1u << drop) - 1), half = 1u << (drop - 1);
  switch (r) {
    case Rounding::kNearestEven:
      return kept + ((rest > half || (rest == half && (kept & 1))) ? 1 : 0);
    case Rounding::kNearestAway:
      return kept + (rest >= half ? 1 : 0);
    case Rounding::kTrunc:
      return kept;
    case Rounding::kFloor:
      return kept + (negative && rest ? 1 : 0);
    case Rounding::kCeil:
      return kept + (!negative && rest ? 1 : 0);
    case Rounding::kOdd:
      return rest ? (kept | 1) : kept;
  }
  return kept;
}

inline uint16_t FloatToHalfBits(float f, Rounding r = Rounding::kNearestEven) {
  const uint32_t u = FloatBits(f);
  const uint16_t sign = static_cast<uint16_t>((u >> 16) & 0x8000);
  const bool neg = sign != 0;
  const int32_t exp = static_cast<int32_t>((u >> 23) & 0xff);
  uint32_t mant = u & 0x7fffff;
  if (exp == 0xff) return static_cast<uint16_t>(sign | 0x7c00 | (mant ? 0x200 | (mant >> 13) : 0));
  // Overflow goes to infinity unless the mode rounds toward zero on that side.
  auto overflow = [&]() -> uint16_t {
    const bool to_max = r == Rounding::kTrunc || r == Rounding::kOdd ||
                        (r == Rounding::kFloor && !neg) || (r == Rounding::kCeil && neg);
    return static_cast<uint16_t>(sign | (to_max ? 0x7bff : 0x7c00));
  };
  if (exp == 0 && mant == 0) return sign;
  int32_t e = exp - 127 + 15;
  uint32_t full = exp ? (mant | 0x800000) : mant;  // 24-bit significand
  if (!exp) e += 1;
  if (e >= 31) return overflow();
  uint32_t h;
  if (e <= 0) {
    // Subnormal half: value = full * 2^(exp-150); half subnormal unit 2^-24.
    const int drop = 13 + (1 - e);
    h = RoundDropped(full, drop, neg, r);  // may round up into the normal range: fine
  } else {
    const uint32_t m = RoundDropped(full, 13, neg, r);  // 11 bits (+carry)
    h = (static_cast<uint32_t>(e) << 10) + (m - 0x400);
    if (m >= 0x800) h = (static_cast<uint32_t>(e + 1) << 10);
    if ((h >> 10) >= 31) return overflow();
  }
  return static_cast<uint16_t>(sign | h);
}

inline float HalfBitsToFloat(uint16_t h) {
  const uint32_t sign = static_cast<uint32_t>(h & 0x8000) << 16;
  const uint32_t exp = (h >> 10) & 0x1f, mant = h & 0x3ff;
  if (exp == 0x1f) return BitsFloat(sign | 0x7f800000 | (mant << 13));
  if (exp == 0) return (sign ? -1.0f : 1.0f) * std::ldexp(static_cast<float>(mant), -24);
  return BitsFloat(sign | ((exp + 112) << 23) | (mant << 13));
}

inline uint16_t FloatToBf16Bits(float f, Rounding r = Rounding::kNearestEven) {
  const uint32_t u = FloatBits(f);
  if ((u & 0x7f800000) == 0x7f800000 && (u & 0x7fffff))
    return static_cast<uint16_t>((u >> 16) | 0x40);
  const bool neg = (u >> 31) != 0;
  const uint32_t mag = u & 0x7fffffff;
  const uint32_t rounded = RoundDropped(mag, 16, neg, r);
  return static_cast<uint16_t>((neg ? 0x8000 : 0) | rounded);
}

inline float Bf16BitsToFloat(uint16_t b) { return BitsFloat(static_cast<uint32_t>(b) << 16); }

}  // namespace detail

// IEEE binary16 as the NPU stores it; arithmetic goes through float, and each result is
// rounded to nearest-even, as the vector unit does.
struct half {
  uint16_t bits = 0;
  half() = default;
  template <typename T, typename = std::enable_if_t<std::is_arithmetic_v<T>>>
  half(T v) : bits(detail::FloatToHalfBits(static_cast<float>(v))) {}  // NOLINT: implicit
  operator float() const { return detail::HalfBitsToFloat(bits); }     // NOLINT
  static half FromBits(uint16_t b) {
    half h;
    h.bits = b;
    return h;
  }
  half& operator+=(half o) { return *this = half(float(*this) + float(o)); }
  half& operator-=(half o) { return *this = half(float(*this) - float(o)); }
  half& operator*=(half o) { return *this = half(float(*this) * float(o)); }
  half& operator/=(half o) { return *this = half(float(*this) / float(o)); }
  half operator-() const { return FromBits(static_cast<uint16_t>(bits ^ 0x8000)); }
};
inline half operator+(half a, half b) { return half(float(a) + float(b)); }
inline half operator-(half a, half b) { return half(float(a) - float(b)); }
inline half operator*(half a, half b) { return half(float(a) * float(b)); }
inline half operator/(half a, half b) { return half(float(a) / float(b)); }

// bfloat16, rounded to nearest-even from float.
struct bfloat16_t {
  uint16_t bits = 0;
  bfloat16_t() = default;
  template <typename T, typename = std::enable_if_t<std::is_arithmetic_v<T>>>
  bfloat16_t(T v) : bits(detail::FloatToBf16Bits(static_cast<float>(v))) {}  // NOLINT
  operator float() const { return detail::Bf16BitsToFloat(bits); }           // NOLINT
  static bfloat16_t FromBits(uint16_t b) {
    bfloat16_t h;
    h.bits = b;
    return h;
  }
};

enum class TPosition : uint8_t {
  GM,
  A1,
  A2,
  B1,
  B2,
  C1,
  C2,
  CO1,
  CO2,
  VECIN,
  VECOUT,
  VECCALC,
  LCM = VECCALC,
  SPM,
  SHM,
  TSCM,
  C2PIPE2GM,
  C2PIPE2LOCAL,
  MAX
};
using QuePosition = TPosition;

enum class HardEvent : uint8_t {
  MTE2_MTE1,
  MTE1_MTE2,
  MTE1_M,
  M_MTE1,
  MTE2_V,
  V_MTE2,
  MTE3_V,
  V_MTE3,
  M_V,
  V_M,
  V_V,
  MTE3_MTE1,
  MTE1_MTE3,
  MTE1_V,
  MTE2_M,
  M_MTE2,
  V_MTE1,
  M_FIX,
  FIX_M,
  MTE3_MTE2,
  MTE2_MTE3,
  S_V,
  V_S,
  S_MTE2,
  MTE2_S,
  S_MTE3,
  MTE3_S,
  MTE2_FIX,
  FIX_MTE2,
  FIX_S,
  M_S,
  FIX_MTE3,
  MAX
};

enum pipe_t : uint8_t {
  PIPE_S,
  PIPE_V,
  PIPE_M,
  PIPE_MTE1,
  PIPE_MTE2,
  PIPE_MTE3,
  PIPE_ALL,
  PIPE_FIX
};

enum class RoundMode : uint8_t {
  CAST_NONE,
  CAST_RINT,
  CAST_FLOOR,
  CAST_CEIL,
  CAST_ROUND,
  CAST_TRUNC,
  CAST_ODD
};

enum class CMPMODE : uint8_t { LT, GT, EQ, LE, GE, NE };
enum class SELMODE : uint8_t { VSEL_CMPMASK_SPR, VSEL_TENSOR_SCALAR_MODE, VSEL_TENSOR_TENSOR_MODE };
enum class MaskMode : uint8_t { NORMAL, COUNTER };
enum class KernelMode { AIV_MODE, AIC_MODE, MIX_MODE };
enum class CubeFormat { ND, NZ, ZN, ZZ, NN, ND_ALIGN, SCALAR, VECTOR };

// Strides of the repeat forms, in 32-byte blocks.
struct BinaryRepeatParams {
  uint8_t dstBlkStride = 1, src0BlkStride = 1, src1BlkStride = 1;
  uint8_t dstRepStride = 8, src0RepStride = 8, src1RepStride = 8;
  BinaryRepeatParams() = default;
  BinaryRepeatParams(uint8_t db, uint8_t s0b, uint8_t s1b, uint8_t dr, uint8_t s0r, uint8_t s1r)
      : dstBlkStride(db),
        src0BlkStride(s0b),
        src1BlkStride(s1b),
        dstRepStride(dr),
        src0RepStride(s0r),
        src1RepStride(s1r) {}
};
struct UnaryRepeatParams {
  uint16_t dstBlkStride = 1, srcBlkStride = 1;
  uint8_t dstRepStride = 8, srcRepStride = 8;
  UnaryRepeatParams() = default;
  UnaryRepeatParams(uint16_t db, uint16_t sb, uint8_t dr, uint8_t sr)
      : dstBlkStride(db), srcBlkStride(sb), dstRepStride(dr), srcRepStride(sr) {}
};

// DataCopy with strides: lengths and strides in 32-byte blocks.
struct DataCopyParams {
  uint16_t blockCount = 1, blockLen = 0, srcStride = 0, dstStride = 0;
  DataCopyParams() = default;
  DataCopyParams(uint16_t count, uint16_t len, uint16_t src, uint16_t dst)
      : blockCount(count), blockLen(len), srcStride(src), dstStride(dst) {}
};
// DataCopyPad: blockLen and the GM-side stride in bytes, the UB-side stride in blocks.
struct DataCopyExtParams {
  uint16_t blockCount = 1;
  uint32_t blockLen = 0, srcStride = 0, dstStride = 0, rsv = 0;
  DataCopyExtParams() = default;
  DataCopyExtParams(uint16_t count, uint32_t len, uint32_t src, uint32_t dst, uint32_t r)
      : blockCount(count), blockLen(len), srcStride(src), dstStride(dst), rsv(r) {}
};
template <typename T>
struct DataCopyPadExtParams {
  bool isPad = false;
  uint8_t leftPadding = 0, rightPadding = 0;
  T paddingValue{};
  DataCopyPadExtParams() = default;
  DataCopyPadExtParams(bool pad, uint8_t left, uint8_t right, T value)
      : isPad(pad), leftPadding(left), rightPadding(right), paddingValue(value) {}
};

}  // namespace AscendC

using AscendC::bfloat16_t;
using AscendC::half;
