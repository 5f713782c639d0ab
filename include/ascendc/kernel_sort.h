// Sorting on the vector unit: Sort32 (Atlas A2), 32 scores per repeat into (score, index)
// pairs, largest first.
#pragma once

#include <algorithm>
#include <array>
#include <cstdint>
#include <cstring>
#include <string>
#include <type_traits>
#include <vector>

#include "ascendc/kernel_reduce.h"
#include "ascendc/sort_types.h"

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

// Where record j of a sorted structure starts, and how long n records are, in elements of T
// (a record is 8 bytes: 2 floats or 4 halves), as Atlas A2 lays them.
template <typename T>
inline uint32_t GetSortOffset(const uint32_t elemOffset) {
  return elemOffset * static_cast<uint32_t>(8 / sizeof(T));
}
template <typename T>
inline uint32_t GetSortLen(const uint32_t elemCount) {
  return elemCount * static_cast<uint32_t>(8 / sizeof(T));
}

// Concat: on Atlas A2 the scores are sorted where they are, so concat becomes a view of src
// (tmp is not used), as CANN does.
template <typename T>
void Concat(LocalTensor<T>& concat, const LocalTensor<T>& src, const LocalTensor<T>& tmp,
            const int32_t repeatTime) {
  (void)tmp;
  if (repeatTime < 0 || repeatTime > 255)
    detail::Fault("Concat", "repeatTime " + std::to_string(repeatTime) + " is out of 0..255");
  concat = src;
}

// Sort: Sort32 on each group of 32 scores; with isFullSort the groups are then merged, so dst
// holds all 32 * repeatTime records largest first (equal scores in input order). tmp is the
// merge's work space: it must hold the records (8 bytes each).
template <typename T, bool isFullSort>
void Sort(const LocalTensor<T>& dst, const LocalTensor<T>& concat,
          const LocalTensor<uint32_t>& index, LocalTensor<T>& tmp, const int32_t repeatTime) {
  static_assert(std::is_same_v<T, float> || std::is_same_v<T, half>, "Sort sorts half or float");
  const char* api = "Sort";
  Sort32(dst, concat, index, repeatTime);
  if (!isFullSort || repeatTime <= 1) return;
  const uint64_t n = uint64_t(repeatTime) * 32;
  detail::CheckVector(tmp, n * 8 / sizeof(T), api, "temporary buffer");
  auto* records = reinterpret_cast<uint8_t*>(dst.GetPhyAddr());
  std::vector<std::array<uint8_t, 8>> all(n);
  for (uint64_t j = 0; j < n; ++j) std::memcpy(all[j].data(), records + j * 8, 8);
  auto score = [](const std::array<uint8_t, 8>& r) {
    T v;
    std::memcpy(&v, r.data(), sizeof(T));
    return detail::AsDouble(v);
  };
  // Each group is sorted already; a stable sort of the concatenation merges them with
  // ties going to the earlier group, as the hardware's merge does.
  std::stable_sort(all.begin(), all.end(),
                   [&](const auto& a, const auto& b) { return score(a) > score(b); });
  for (uint64_t j = 0; j < n; ++j) std::memcpy(records + j * 8, all[j].data(), 8);
  detail::CountCycles(n * 8 * 2);
}

// Extract: the scores and indices of 32 * repeatTime records, in record order.
template <typename T>
void Extract(const LocalTensor<T>& dstValue, const LocalTensor<uint32_t>& dstIndex,
             const LocalTensor<T>& sorted, const int32_t repeatTime) {
  const char* api = "Extract";
  if (repeatTime < 0 || repeatTime > 255)
    detail::Fault(api, "repeatTime " + std::to_string(repeatTime) + " is out of 0..255");
  const uint64_t n = uint64_t(repeatTime) * 32;
  detail::CheckVector(sorted, n * 8 / sizeof(T), api, "source");
  detail::CheckVector(dstValue, n, api, "destination (values)");
  detail::CheckVector(dstIndex, n, api, "destination (indices)");
  const auto* records = reinterpret_cast<const uint8_t*>(sorted.GetPhyAddr());
  for (uint64_t j = 0; j < n; ++j) {
    std::memcpy(&dstValue.GetPhyAddr()[j], records + j * 8, sizeof(T));
    std::memcpy(&dstIndex.GetPhyAddr()[j], records + j * 8 + 4, 4);
  }
  detail::CountCycles(n * 8);
}

}  // namespace AscendC
