// The sort and top-k API's configuration types, shared by the kernel side and the host
// tiling functions (tiling/tiling_api.h), which must not pull in the kernel API.
#pragma once

#include <cstdint>

namespace AscendC {

// TOPK_NORMAL: rows of `inner` (a multiple of 32, at most 4096) elements, each row's output
// padded to 32 bytes. TOPK_NSMALL: rows of exactly 32, outputs packed k per row.
enum class TopKMode { TOPK_NORMAL, TOPK_NSMALL };
// outter rows, each stored as `inner` elements of which the first n are data.
struct TopKInfo {
  int32_t outter = 1;
  int32_t inner = 0;
  int32_t n = 0;
};

// The newer Sort's configuration (radix or merge sort; CANN has that Sort on Ascend 950).
enum class SortType { RADIX_SORT, MERGE_SORT };
struct SortConfig {
  SortType type = SortType::RADIX_SORT;
  bool isDescend = false;
  bool hasSrcIndex = false;
  bool hasDstIndex = false;
};
inline constexpr SortConfig DEFAULT_SORT_CONFIG = {};

}  // namespace AscendC
