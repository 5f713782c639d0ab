// The advanced API's reductions over a 2-D tile by pattern: ReduceMax/ReduceMin/ReduceSum
// <T, Pattern::Reduce::AR or RA, isReuseSource>(dst, src[, sharedTmpBuffer], srcShape,
// srcInnerPad). AR keeps the first axis and reduces the second (rows to one value each); RA
// reduces the first (columns to one value each). With srcInnerPad the inner axis of src is
// padded to 32 bytes in memory.
#pragma once

#include <algorithm>
#include <cstdint>
#include <string>
#include <type_traits>

#include "ascendc/kernel_reduce.h"

namespace AscendC {

namespace Pattern::Reduce {
struct AR {};
struct RA {};
}  // namespace Pattern::Reduce

namespace detail {

template <typename T, class P, typename Combine>
void ReducePattern(const LocalTensor<T>& dst, const LocalTensor<T>& src, const uint32_t srcShape[],
                   bool srcInnerPad, double init, Combine combine, const char* api) {
  static_assert(std::is_same_v<P, Pattern::Reduce::AR> || std::is_same_v<P, Pattern::Reduce::RA>,
                "the pattern is Pattern::Reduce::AR or Pattern::Reduce::RA");
  const uint32_t outer = srcShape[0], inner = srcShape[1];
  if (outer == 0 || inner == 0) Fault(api, "srcShape has a zero axis");
  const uint32_t per_block = 32 / sizeof(T);
  const uint32_t stride = srcInnerPad ? (inner + per_block - 1) / per_block * per_block : inner;
  if (!srcInnerPad && inner % per_block != 0)
    Fault(api, "the inner axis of " + std::to_string(inner) +
                   " elements is not 32-byte aligned: pass srcInnerPad = true with a padded tile");
  constexpr bool rows = std::is_same_v<P, Pattern::Reduce::AR>;
  const uint32_t kept = rows ? outer : inner, reduced = rows ? inner : outer;
  CheckVector(src, uint64_t(outer) * stride, api, "source");
  CheckVector(dst, kept, api, "destination");
  for (uint32_t k = 0; k < kept; ++k) {
    double acc = init;
    for (uint32_t j = 0; j < reduced; ++j) {
      const uint64_t at = rows ? uint64_t(k) * stride + j : uint64_t(j) * stride + k;
      acc = combine(acc, AsDouble(src.GetPhyAddr()[at]));
    }
    dst.GetPhyAddr()[k] = static_cast<T>(static_cast<Calc<T>>(acc));
  }
  CountCycles(uint64_t(outer) * stride * sizeof(T));
}

}  // namespace detail

#define OC_ASCENDC_REDUCE_PATTERN(NAME, INIT, EXPR)                                             \
  template <class T, class pattern, bool isReuseSource = false>                                 \
  void NAME(const LocalTensor<T>& dst, const LocalTensor<T>& src, const uint32_t srcShape[],    \
            bool srcInnerPad) {                                                                 \
    detail::ReducePattern<T, pattern>(                                                          \
        dst, src, srcShape, srcInnerPad, INIT, [](double a, double b) { return EXPR; }, #NAME); \
  }                                                                                             \
  template <class T, class pattern, bool isReuseSource = false>                                 \
  void NAME(const LocalTensor<T>& dst, const LocalTensor<T>& src,                               \
            const LocalTensor<uint8_t>& sharedTmpBuffer, const uint32_t srcShape[],             \
            bool srcInnerPad) {                                                                 \
    (void)sharedTmpBuffer; /* the emulation computes without it */                              \
    NAME<T, pattern, isReuseSource>(dst, src, srcShape, srcInnerPad);                           \
  }
OC_ASCENDC_REDUCE_PATTERN(ReduceMax, -INFINITY, std::max(a, b))
OC_ASCENDC_REDUCE_PATTERN(ReduceMin, INFINITY, std::min(a, b))
OC_ASCENDC_REDUCE_PATTERN(ReduceSum, 0.0, a + b)
#undef OC_ASCENDC_REDUCE_PATTERN

}  // namespace AscendC
