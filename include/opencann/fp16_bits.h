// float <-> IEEE binary16 / bfloat16 bit conversions with the vector unit's rounding modes.
// Neutral ground for both sides of OpenCANN: the Ascend C emulation (ascendc/kernel_fp16.h)
// and the runtime and compiler (base/half.h) include this one header, so fp16 values agree
// everywhere and neither side depends on the other. Self-contained: C++ standard library only.
#pragma once

#include <cmath>
#include <cstdint>
#include <cstring>

namespace opencann {
namespace fp16 {

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

}  // namespace fp16
}  // namespace opencann
