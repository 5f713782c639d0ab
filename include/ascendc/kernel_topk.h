// TopK of the advanced API: the k largest (or smallest) of each row with their indices, as
// Atlas A2 computes it (a stable merge sort of each row).
#pragma once

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <string>
#include <vector>

#include "ascendc/kernel_reduce.h"
#include "ascendc/sort_types.h"
#include "kernel_tiling/kernel_tiling.h"

namespace AscendC {

using ::TopkTiling;

// Every element of the `inner` stored ones takes part (the caller pads rows with the type's
// lowest value for the largest k, its highest for the smallest). Equal values keep their
// order (the earlier position first) and NaN comes first either way, as CANN documents.
// Indices are 0..inner-1 unless isInitIndex (one [inner] row shared by all rows in
// TOPK_NORMAL, one row each in TOPK_NSMALL). With isHasfinish (TOPK_NORMAL only), a row
// whose finish flag is set gets n for each of its k indices; its values stay.
template <typename T, bool isInitIndex = false, bool isHasfinish = false, bool isReuseSrc = false,
          TopKMode topkMode = TopKMode::TOPK_NORMAL>
void TopK(const LocalTensor<T>& dstValueLocal, const LocalTensor<int32_t>& dstIndexLocal,
          const LocalTensor<T>& srcLocal, const LocalTensor<int32_t>& srcIndexLocal,
          const LocalTensor<bool>& finishLocal, const LocalTensor<uint8_t>& tmpLocal,
          const int32_t k, const TopkTiling& tiling, const TopKInfo& topKInfo,
          const bool isLargest = true) {
  static_assert(std::is_same_v<T, float> || std::is_same_v<T, half>, "TopK takes half or float");
  const char* api = "TopK";
  const bool small = topkMode == TopKMode::TOPK_NSMALL;
  const int32_t outter = topKInfo.outter, inner = topKInfo.inner, n = topKInfo.n;
  if (outter < 1 || inner <= 0 || inner % 32 != 0)
    detail::Fault(api, "TopKInfo: outter " + std::to_string(outter) + " and inner " +
                           std::to_string(inner) + " (a positive multiple of 32) are invalid");
  if (small ? inner != 32 : inner > 4096)
    detail::Fault(api, std::string("inner ") + std::to_string(inner) +
                           (small ? " must be 32 in TOPK_NSMALL" : " is more than 4096"));
  if (n < 1 || n > inner)
    detail::Fault(api, "TopKInfo.n " + std::to_string(n) + " is not in 1..inner");
  if (k < 1 || k > n) detail::Fault(api, "k " + std::to_string(k) + " is not in 1..n");
  const int32_t value_pad =
      small ? k
            : (k + int32_t(32 / sizeof(T)) - 1) / int32_t(32 / sizeof(T)) * int32_t(32 / sizeof(T));
  const int32_t index_pad = small ? k : (k + 7) / 8 * 8;
  detail::CheckVector(srcLocal, uint64_t(outter) * inner, api, "source");
  if (isInitIndex)
    detail::CheckVector(srcIndexLocal, small ? uint64_t(outter) * 32 : uint64_t(inner), api,
                        "source (indices)");
  // TOPK_NSMALL has no finish flags: CANN ignores them there, and so does the emulation.
  if (isHasfinish && !small)
    detail::CheckVector(finishLocal, uint64_t(outter), api, "finish flags", 1);
  if (tmpLocal.GetSize() != 0 && tiling.tmpLocalSize > 0 &&
      uint64_t(tmpLocal.GetSize()) < uint64_t(tiling.tmpLocalSize) * sizeof(T))
    detail::Fault(api, "the temporary buffer of " + std::to_string(tmpLocal.GetSize()) +
                           " bytes is smaller than the tiling's " +
                           std::to_string(uint64_t(tiling.tmpLocalSize) * sizeof(T)));
  detail::CheckVector(dstValueLocal, uint64_t(outter) * value_pad, api, "destination (values)");
  detail::CheckVector(dstIndexLocal, uint64_t(outter) * index_pad, api, "destination (indices)");
  std::vector<int32_t> order(inner);
  for (int32_t r = 0; r < outter; ++r) {
    const T* row = srcLocal.GetPhyAddr() + uint64_t(r) * inner;
    for (int32_t i = 0; i < inner; ++i) order[i] = i;
    std::stable_sort(order.begin(), order.end(), [&](int32_t a, int32_t b) {
      const double va = detail::AsDouble(row[a]), vb = detail::AsDouble(row[b]);
      if (std::isnan(va) || std::isnan(vb)) return std::isnan(va) && !std::isnan(vb);
      return isLargest ? va > vb : va < vb;
    });
    const bool finished = isHasfinish && !small && finishLocal.GetPhyAddr()[r];
    for (int32_t j = 0; j < k; ++j) {
      const int32_t at = order[j];
      dstValueLocal.GetPhyAddr()[uint64_t(r) * value_pad + j] = row[at];
      int32_t index = at;
      if (isInitIndex)
        index = srcIndexLocal.GetPhyAddr()[small ? uint64_t(r) * 32 + at : uint64_t(at)];
      dstIndexLocal.GetPhyAddr()[uint64_t(r) * index_pad + j] = finished ? n : index;
    }
    // The smallest k are found by sorting the negated row, and the last step negates the
    // whole value output back, the padding after the k values included.
    if (!isLargest)
      for (int32_t j = k; j < value_pad; ++j) {
        T& v = dstValueLocal.GetPhyAddr()[uint64_t(r) * value_pad + j];
        v = static_cast<T>(-static_cast<float>(detail::AsDouble(v)));
      }
  }
  detail::CountCycles(uint64_t(outter) * inner * sizeof(T) * 8);
}
template <typename T, bool isInitIndex = false, bool isHasfinish = false, bool isReuseSrc = false,
          TopKMode topkMode = TopKMode::TOPK_NORMAL>
void TopK(const LocalTensor<T>& dstValueLocal, const LocalTensor<int32_t>& dstIndexLocal,
          const LocalTensor<T>& srcLocal, const LocalTensor<int32_t>& srcIndexLocal,
          const LocalTensor<bool>& finishLocal, const int32_t k, const TopkTiling& tiling,
          const TopKInfo& topKInfo, const bool isLargest = true) {
  TopK<T, isInitIndex, isHasfinish, isReuseSrc, topkMode>(
      dstValueLocal, dstIndexLocal, srcLocal, srcIndexLocal, finishLocal, LocalTensor<uint8_t>(), k,
      tiling, topKInfo, isLargest);
}

}  // namespace AscendC
