// TCubeTiling: how a matmul is split (per core and per base block); the host computes it
// with matmul_tiling (tiling/tiling_api.h), the kernel's Matmul reads it.
#pragma once

#include <cstdint>

struct TCubeTiling {
  int32_t usedCoreNum = 1;
  int32_t M = 0, N = 0, Ka = 0, Kb = 0;
  int32_t singleCoreM = 0, singleCoreN = 0, singleCoreK = 0;
  int32_t baseM = 0, baseN = 0, baseK = 0;
  int32_t depthA1 = 1, depthB1 = 1, stepM = 1, stepN = 1, stepKa = 1, stepKb = 1;
  int32_t isBias = 0;
  int32_t transLength = 0, iterateOrder = 0;
  int32_t shareL1Size = 0, shareL0CSize = 0, shareUbSize = 0;
  int32_t dbL0A = 2, dbL0B = 2, dbL0C = 1;
};

namespace optiling {
using TCubeTiling = ::TCubeTiling;
}  // namespace optiling
