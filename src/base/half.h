// IEEE binary16 and bfloat16 conversions, round to nearest even. One implementation for
// the whole project, in a header of its own that the Ascend C emulation includes too.
#pragma once

#include <cstdint>

#include "opencann/fp16_bits.h"

namespace oc {

inline uint32_t FloatBits(float f) { return opencann::fp16::FloatBits(f); }
inline float BitsToFloat(uint32_t u) { return opencann::fp16::BitsFloat(u); }
inline uint16_t FloatToHalf(float f) { return opencann::fp16::FloatToHalfBits(f); }
inline float HalfToFloat(uint16_t h) { return opencann::fp16::HalfBitsToFloat(h); }
inline uint16_t FloatToBFloat16(float f) { return opencann::fp16::FloatToBf16Bits(f); }
inline float BFloat16ToFloat(uint16_t b) { return opencann::fp16::Bf16BitsToFloat(b); }

}  // namespace oc
