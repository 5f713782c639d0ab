// Scalar bit operations of the basic API, on a uint64_t as the scalar unit computes them.
// Kernels compile as C++17, so no <bit>. The older names (ScalarGetSFFValue, ScalarGetCountOfValue,
// ScalarCountLeadingZero) are kept beside the current ones.
#pragma once

#include <cstdint>

namespace AscendC {

// The position of the first bit equal to `countValue` (0 or 1) from the least significant
// one; -1 when there is none.
template <int countValue>
inline int64_t GetSFFValue(uint64_t valueIn) {
  static_assert(countValue == 0 || countValue == 1, "GetSFFValue looks for a 0 or a 1 bit");
  const uint64_t v = countValue == 1 ? valueIn : ~valueIn;
  return v == 0 ? -1 : __builtin_ctzll(v);
}
// How many bits equal `countValue`.
template <int countValue>
inline int64_t GetBitCount(uint64_t valueIn) {
  static_assert(countValue == 0 || countValue == 1, "GetBitCount counts 0 or 1 bits");
  return countValue == 1 ? __builtin_popcountll(valueIn) : 64 - __builtin_popcountll(valueIn);
}
// The zero bits above the highest 1 (64 for 0).
inline int64_t CountLeadingZero(uint64_t valueIn) {
  return valueIn == 0 ? 64 : __builtin_clzll(valueIn);
}

template <int countValue>
inline int64_t ScalarGetSFFValue(uint64_t valueIn) {
  return GetSFFValue<countValue>(valueIn);
}
template <int countValue>
inline int64_t ScalarGetCountOfValue(uint64_t valueIn) {
  return GetBitCount<countValue>(valueIn);
}
inline int64_t ScalarCountLeadingZero(uint64_t valueIn) { return CountLeadingZero(valueIn); }

}  // namespace AscendC
