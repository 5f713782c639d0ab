// float <-> IEEE binary16 / bfloat16 bit conversions with the vector unit's rounding modes,
// as the Ascend C emulation names them. The code is opencann/fp16_bits.h, which OpenCANN's
// runtime includes too, so fp16 values agree everywhere.
#pragma once

#include "opencann/fp16_bits.h"

namespace AscendC {
namespace detail {

using opencann::fp16::Bf16BitsToFloat;
using opencann::fp16::BitsFloat;
using opencann::fp16::FloatBits;
using opencann::fp16::FloatToBf16Bits;
using opencann::fp16::FloatToHalfBits;
using opencann::fp16::HalfBitsToFloat;
using opencann::fp16::RoundDropped;
using opencann::fp16::Rounding;

}  // namespace detail
}  // namespace AscendC
