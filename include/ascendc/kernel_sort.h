// Sorting on the vector unit: Sort32 (Atlas A2), 32 scores per repeat into (score, index)
// pairs, largest first.
#pragma once

#include <algorithm>
#include <array>
#include <cstdint>
#include <cstring>
#include <type_traits>

#include "ascendc/kernel_reduce.h"

namespace AscendC {

// Each repeat sorts src0[32r .. 32r+31] (the scores) with src1's uint32 indices into 32
// eight-byte (score, index) pairs at dst's byte 256r: the score in the low bytes (a half's
// two bytes, then two reserved zero bytes), the index in the high four. Equal scores keep
// their order (the earlier one first), as CANN documents. Repeats are not merged.
template <typename T>
void Sort32(const LocalTensor<T>& dst, const LocalTensor<T>& src0,
            const LocalTensor<uint32_t>& src1, const int32_t repeatTimes) {
  static_assert(std::is_same_v<T, float> || std::is_same_v<T, half>, "Sort32 sorts half or float");
  const char* api = "Sort32";
  if (repeatTimes < 0 || repeatTimes > 255)
    detail::Fault(api, "repeatTimes " + std::to_string(repeatTimes) + " is out of 0..255");
  const uint64_t n = uint64_t(repeatTimes) * 32;
  detail::CheckVector(src0, n, api, "source 0");
  detail::CheckVector(src1, n, api, "source 1");
  detail::CheckVector(dst, n * 8 / sizeof(T), api, "destination");
  auto* out = reinterpret_cast<uint8_t*>(dst.GetPhyAddr());
  for (int32_t r = 0; r < repeatTimes; ++r) {
    std::array<uint32_t, 32> order;
    for (uint32_t i = 0; i < 32; ++i) order[i] = i;
    const T* scores = src0.GetPhyAddr() + r * 32;
    std::stable_sort(order.begin(), order.end(), [&](uint32_t a, uint32_t b) {
      return detail::AsDouble(scores[a]) > detail::AsDouble(scores[b]);
    });
    for (uint32_t k = 0; k < 32; ++k) {
      uint8_t pair[8] = {};
      std::memcpy(pair, &scores[order[k]], sizeof(T));
      const uint32_t index = src1.GetPhyAddr()[r * 32 + order[k]];
      std::memcpy(pair + 4, &index, 4);
      std::memcpy(out + uint64_t(r) * 256 + k * 8, pair, 8);
    }
  }
  detail::CountCycles(n * 8);
}

}  // namespace AscendC
