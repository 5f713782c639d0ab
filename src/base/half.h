// IEEE binary16 and bfloat16 conversions, round to nearest even. One implementation for
// the whole project: the one the Ascend C emulation exposes (include/ascendc/kernel_fp16.h).
#pragma once

#include <cstdint>

#include "ascendc/kernel_fp16.h"

namespace oc {

inline uint32_t FloatBits(float f) { return AscendC::detail::FloatBits(f); }
inline float BitsToFloat(uint32_t u) { return AscendC::detail::BitsFloat(u); }
inline uint16_t FloatToHalf(float f) { return AscendC::detail::FloatToHalfBits(f); }
inline float HalfToFloat(uint16_t h) { return AscendC::detail::HalfBitsToFloat(h); }
inline uint16_t FloatToBFloat16(float f) { return AscendC::detail::FloatToBf16Bits(f); }
inline float BFloat16ToFloat(uint16_t b) { return AscendC::detail::Bf16BitsToFloat(b); }

}  // namespace oc
