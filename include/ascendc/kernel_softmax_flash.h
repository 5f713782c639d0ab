// The flash-attention softmaxes of the advanced API: SoftmaxFlashV2 (the running statistics
// of online softmax) and the older SoftmaxFlash, over [m, k] rows (ND).
#pragma once

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>
#include <string>
#include <vector>

#include "ascendc/kernel_softmax.h"

namespace AscendC {

namespace detail {

// Where a row's statistic lives: a 32-byte block of repeats (the default), or one value per
// row (SOFTMAX_OUTPUT_WITHOUT_BRC).
template <typename U>
uint32_t StatLanes(bool compact) {
  return compact ? 1u : static_cast<uint32_t>(32 / sizeof(U));
}

template <typename U>
void PutStat(const LocalTensor<U>& t, uint32_t row, uint32_t lanes, float v) {
  for (uint32_t j = 0; j < lanes; ++j)
    t.GetPhyAddr()[uint64_t(row) * lanes + j] = Convert<U>(v, RoundMode::CAST_ROUND);
}

// One call of online softmax on each row, in float as the NPU computes it (half results
// rounded to nearest). Without update: max = rowmax, dst = exp(x - max), sum = rowsum(dst).
// With update: max = max(inMax, rowmax), dst = exp(x - max), expMax = exp(inMax - max),
// sum = expMax * inSum + rowsum(dst). Reductions cover the oriSrcK data columns; dst is
// written on all srcK columns. `normalise` (SoftmaxFlash v1) then divides dst by sum and
// expMax by sum / inSum. Outputs may alias inputs as CANN allows (dst with src, sum with
// inSum, max with inMax): each row's inputs are read before its outputs are written.
template <typename T, typename U, typename E>
void FlashRows(const LocalTensor<T>& dst, const LocalTensor<U>& sum, const LocalTensor<U>& max,
               const LocalTensor<T>& src, const LocalTensor<E>* expMax, const LocalTensor<U>& inSum,
               const LocalTensor<U>& inMax, const LocalTensor<T>* reduceMax, const SoftMaxShape& s,
               bool update, bool compact, bool normalise, const char* api) {
  const uint32_t lu = StatLanes<U>(compact), le = StatLanes<E>(compact), lt = StatLanes<T>(compact);
  const uint64_t n = uint64_t(s.m) * s.k;
  CheckVector(src, n, api, "source");
  if (update) {
    CheckVector(inSum, uint64_t(s.m) * lu, api, "source (inExpSum)");
    CheckVector(inMax, uint64_t(s.m) * lu, api, "source (inMax)");
    if (expMax) CheckVector(*expMax, uint64_t(s.m) * le, api, "destination (expMax)");
    if (reduceMax) CheckVector(*reduceMax, uint64_t(s.m) * lt, api, "destination (reduceMax)");
  }
  CheckVector(dst, n, api, "destination");
  CheckVector(sum, uint64_t(s.m) * lu, api, "destination (expSum)");
  CheckVector(max, uint64_t(s.m) * lu, api, "destination (max)");
  std::vector<float> row(s.k);
  for (uint32_t r = 0; r < s.m; ++r) {
    const T* x = src.GetPhyAddr() + uint64_t(r) * s.k;
    for (uint32_t c = 0; c < s.k; ++c) row[c] = static_cast<float>(AsDouble(x[c]));
    float row_max = -std::numeric_limits<float>::infinity();
    for (uint32_t c = 0; c < s.valid; ++c) row_max = std::max(row_max, row[c]);
    float in_max = 0, in_sum = 0;
    if (update) {
      in_max = static_cast<float>(AsDouble(inMax.GetPhyAddr()[uint64_t(r) * lu]));
      in_sum = static_cast<float>(AsDouble(inSum.GetPhyAddr()[uint64_t(r) * lu]));
    }
    const float new_max = update ? std::max(in_max, row_max) : row_max;
    float row_sum = 0;
    for (uint32_t c = 0; c < s.k; ++c) {
      row[c] = std::exp(row[c] - new_max);
      if (c < s.valid) row_sum += row[c];
    }
    const float exp_max = update ? std::exp(in_max - new_max) : 1.0f;
    const float new_sum = update ? exp_max * in_sum + row_sum : row_sum;
    T* y = dst.GetPhyAddr() + uint64_t(r) * s.k;
    for (uint32_t c = 0; c < s.k; ++c)
      y[c] = Convert<T>(normalise ? row[c] / new_sum : row[c], RoundMode::CAST_ROUND);
    if (update && expMax) PutStat(*expMax, r, le, normalise ? exp_max * in_sum / new_sum : exp_max);
    if (update && reduceMax) PutStat(*reduceMax, r, lt, row_max);
    PutStat(sum, r, lu, new_sum);
    PutStat(max, r, lu, new_max);
  }
  // Reduce max, subtract, exp, reduce sum (and the update's few row operations).
  CountCycles(n * sizeof(T) * (normalise ? 5 : 4));
}

}  // namespace detail

// SoftmaxFlashV2, the same type for data and statistics.
template <typename T, bool isUpdate = false, bool isReuseSource = false, bool isBasicBlock = false,
          bool isDataFormatNZ = false, const SoftmaxConfig& config = SOFTMAX_DEFAULT_CFG>
void SoftmaxFlashV2(const LocalTensor<T>& dstTensor, const LocalTensor<T>& expSumTensor,
                    const LocalTensor<T>& maxTensor, const LocalTensor<T>& srcTensor,
                    const LocalTensor<T>& expMaxTensor, const LocalTensor<T>& inExpSumTensor,
                    const LocalTensor<T>& inMaxTensor, const SoftMaxTiling& tiling,
                    const SoftMaxShapeInfo& softmaxShapeInfo = {}) {
  static_assert(!isDataFormatNZ,
                "OpenCANN's SoftmaxFlashV2 takes ND data; the NZ format is not modelled");
  const char* api = "SoftmaxFlashV2";
  detail::FlashRows<T, T, T>(dstTensor, expSumTensor, maxTensor, srcTensor, &expMaxTensor,
                             inExpSumTensor, inMaxTensor, nullptr,
                             detail::SoftMaxShapeOf<T>(tiling, softmaxShapeInfo, api), isUpdate,
                             config.mode == SoftmaxMode::SOFTMAX_OUTPUT_WITHOUT_BRC, false, api);
}
template <typename T, bool isUpdate = false, bool isReuseSource = false, bool isBasicBlock = false,
          bool isDataFormatNZ = false, const SoftmaxConfig& config = SOFTMAX_DEFAULT_CFG>
void SoftmaxFlashV2(const LocalTensor<T>& dstTensor, const LocalTensor<T>& expSumTensor,
                    const LocalTensor<T>& maxTensor, const LocalTensor<T>& srcTensor,
                    const LocalTensor<T>& expMaxTensor, const LocalTensor<T>& inExpSumTensor,
                    const LocalTensor<T>& inMaxTensor, const LocalTensor<uint8_t>& sharedTmpBuffer,
                    const SoftMaxTiling& tiling, const SoftMaxShapeInfo& softmaxShapeInfo = {}) {
  (void)sharedTmpBuffer;  // the emulation computes without it
  SoftmaxFlashV2<T, isUpdate, isReuseSource, isBasicBlock, isDataFormatNZ, config>(
      dstTensor, expSumTensor, maxTensor, srcTensor, expMaxTensor, inExpSumTensor, inMaxTensor,
      tiling, softmaxShapeInfo);
}
// half data and expMax with float sum and max.
template <typename T, bool isUpdate = false, bool isReuseSource = false, bool isBasicBlock = false,
          bool isDataFormatNZ = false, const SoftmaxConfig& config = SOFTMAX_DEFAULT_CFG>
void SoftmaxFlashV2(const LocalTensor<half>& dstTensor, const LocalTensor<float>& expSumTensor,
                    const LocalTensor<float>& maxTensor, const LocalTensor<half>& srcTensor,
                    const LocalTensor<half>& expMaxTensor, const LocalTensor<float>& inExpSumTensor,
                    const LocalTensor<float>& inMaxTensor, const SoftMaxTiling& tiling,
                    const SoftMaxShapeInfo& softmaxShapeInfo = {}) {
  static_assert(!isDataFormatNZ,
                "OpenCANN's SoftmaxFlashV2 takes ND data; the NZ format is not modelled");
  const char* api = "SoftmaxFlashV2";
  detail::FlashRows<half, float, half>(
      dstTensor, expSumTensor, maxTensor, srcTensor, &expMaxTensor, inExpSumTensor, inMaxTensor,
      nullptr, detail::SoftMaxShapeOf<half>(tiling, softmaxShapeInfo, api), isUpdate,
      config.mode == SoftmaxMode::SOFTMAX_OUTPUT_WITHOUT_BRC, false, api);
}
template <typename T, bool isUpdate = false, bool isReuseSource = false, bool isBasicBlock = false,
          bool isDataFormatNZ = false, const SoftmaxConfig& config = SOFTMAX_DEFAULT_CFG>
void SoftmaxFlashV2(const LocalTensor<half>& dstTensor, const LocalTensor<float>& expSumTensor,
                    const LocalTensor<float>& maxTensor, const LocalTensor<half>& srcTensor,
                    const LocalTensor<half>& expMaxTensor, const LocalTensor<float>& inExpSumTensor,
                    const LocalTensor<float>& inMaxTensor,
                    const LocalTensor<uint8_t>& sharedTmpBuffer, const SoftMaxTiling& tiling,
                    const SoftMaxShapeInfo& softmaxShapeInfo = {}) {
  (void)sharedTmpBuffer;
  SoftmaxFlashV2<T, isUpdate, isReuseSource, isBasicBlock, isDataFormatNZ, config>(
      dstTensor, expSumTensor, maxTensor, srcTensor, expMaxTensor, inExpSumTensor, inMaxTensor,
      tiling, softmaxShapeInfo);
}
// With this block's row max as a further output (before it is combined with inMax). CANN
// computes it only in SOFTMAX_OUTPUT_WITHOUT_BRC mode and does nothing in the others; the
// emulation does the same and says so.
template <typename T, bool isUpdate = false, bool isReuseSource = false, bool isBasicBlock = false,
          bool isDataFormatNZ = false, const SoftmaxConfig& config = SOFTMAX_DEFAULT_CFG>
void SoftmaxFlashV2(const LocalTensor<T>& dstTensor, const LocalTensor<T>& outReduceMax,
                    const LocalTensor<T>& expSumTensor, const LocalTensor<T>& maxTensor,
                    const LocalTensor<T>& srcTensor, const LocalTensor<T>& expMaxTensor,
                    const LocalTensor<T>& inExpSumTensor, const LocalTensor<T>& inMaxTensor,
                    const SoftMaxTiling& tiling, const SoftMaxShapeInfo& softmaxShapeInfo = {}) {
  static_assert(!isDataFormatNZ,
                "OpenCANN's SoftmaxFlashV2 takes ND data; the NZ format is not modelled");
  const char* api = "SoftmaxFlashV2";
  if (config.mode != SoftmaxMode::SOFTMAX_OUTPUT_WITHOUT_BRC) {
    detail::Warn(api,
                 "the form with outReduceMax does nothing unless config.mode is "
                 "SOFTMAX_OUTPUT_WITHOUT_BRC (as on the NPU): no output was written");
    return;
  }
  detail::FlashRows<T, T, T>(dstTensor, expSumTensor, maxTensor, srcTensor, &expMaxTensor,
                             inExpSumTensor, inMaxTensor, &outReduceMax,
                             detail::SoftMaxShapeOf<T>(tiling, softmaxShapeInfo, api), isUpdate,
                             true, false, api);
}
template <typename T, bool isUpdate = false, bool isReuseSource = false, bool isBasicBlock = false,
          bool isDataFormatNZ = false, const SoftmaxConfig& config = SOFTMAX_DEFAULT_CFG>
void SoftmaxFlashV2(const LocalTensor<T>& dstTensor, const LocalTensor<T>& outReduceMax,
                    const LocalTensor<T>& expSumTensor, const LocalTensor<T>& maxTensor,
                    const LocalTensor<T>& srcTensor, const LocalTensor<T>& expMaxTensor,
                    const LocalTensor<T>& inExpSumTensor, const LocalTensor<T>& inMaxTensor,
                    const LocalTensor<uint8_t>& sharedTmpBuffer, const SoftMaxTiling& tiling,
                    const SoftMaxShapeInfo& softmaxShapeInfo = {}) {
  (void)sharedTmpBuffer;
  SoftmaxFlashV2<T, isUpdate, isReuseSource, isBasicBlock, isDataFormatNZ, config>(
      dstTensor, outReduceMax, expSumTensor, maxTensor, srcTensor, expMaxTensor, inExpSumTensor,
      inMaxTensor, tiling, softmaxShapeInfo);
}

// SoftmaxFlash (the first version): isUpdate is a run-time argument, and dst is normalised
// (dst = exp(x - max) / sum; with update, expMax = exp(inMax - max) * inSum / sum).
template <typename T, bool isReuseSource = false, bool isBasicBlock = false>
void SoftmaxFlash(const LocalTensor<T>& dstTensor, const LocalTensor<T>& sumTensor,
                  const LocalTensor<T>& maxTensor, const LocalTensor<T>& srcTensor,
                  const LocalTensor<T>& expMaxTensor, const LocalTensor<T>& inSumTensor,
                  const LocalTensor<T>& inMaxTensor, const SoftMaxTiling& tiling,
                  bool isUpdate = false, const SoftMaxShapeInfo& softmaxShapeInfo = {}) {
  const char* api = "SoftmaxFlash";
  detail::FlashRows<T, T, T>(
      dstTensor, sumTensor, maxTensor, srcTensor, &expMaxTensor, inSumTensor, inMaxTensor, nullptr,
      detail::SoftMaxShapeOf<T>(tiling, softmaxShapeInfo, api), isUpdate, false, true, api);
}
template <typename T, bool isReuseSource = false, bool isBasicBlock = false>
void SoftmaxFlash(const LocalTensor<T>& dstTensor, const LocalTensor<T>& sumTensor,
                  const LocalTensor<T>& maxTensor, const LocalTensor<T>& srcTensor,
                  const LocalTensor<T>& expMaxTensor, const LocalTensor<T>& inSumTensor,
                  const LocalTensor<T>& inMaxTensor, const LocalTensor<uint8_t>& sharedTmpBuffer,
                  const SoftMaxTiling& tiling, bool isUpdate = false,
                  const SoftMaxShapeInfo& softmaxShapeInfo = {}) {
  (void)sharedTmpBuffer;
  SoftmaxFlash<T, isReuseSource, isBasicBlock>(dstTensor, sumTensor, maxTensor, srcTensor,
                                               expMaxTensor, inSumTensor, inMaxTensor, tiling,
                                               isUpdate, softmaxShapeInfo);
}
template <typename T, bool isReuseSource = false, bool isBasicBlock = false>
void SoftmaxFlash(const LocalTensor<half>& dstTensor, const LocalTensor<float>& sumTensor,
                  const LocalTensor<float>& maxTensor, const LocalTensor<half>& srcTensor,
                  const LocalTensor<half>& expMaxTensor, const LocalTensor<float>& inSumTensor,
                  const LocalTensor<float>& inMaxTensor, const SoftMaxTiling& tiling,
                  bool isUpdate = false, const SoftMaxShapeInfo& softmaxShapeInfo = {}) {
  const char* api = "SoftmaxFlash";
  detail::FlashRows<half, float, half>(
      dstTensor, sumTensor, maxTensor, srcTensor, &expMaxTensor, inSumTensor, inMaxTensor, nullptr,
      detail::SoftMaxShapeOf<half>(tiling, softmaxShapeInfo, api), isUpdate, false, true, api);
}
template <typename T, bool isReuseSource = false, bool isBasicBlock = false>
void SoftmaxFlash(const LocalTensor<half>& dstTensor, const LocalTensor<float>& sumTensor,
                  const LocalTensor<float>& maxTensor, const LocalTensor<half>& srcTensor,
                  const LocalTensor<half>& expMaxTensor, const LocalTensor<float>& inSumTensor,
                  const LocalTensor<float>& inMaxTensor,
                  const LocalTensor<uint8_t>& sharedTmpBuffer, const SoftMaxTiling& tiling,
                  bool isUpdate = false, const SoftMaxShapeInfo& softmaxShapeInfo = {}) {
  (void)sharedTmpBuffer;
  SoftmaxFlash<T, isReuseSource, isBasicBlock>(dstTensor, sumTensor, maxTensor, srcTensor,
                                               expMaxTensor, inSumTensor, inMaxTensor, tiling,
                                               isUpdate, softmaxShapeInfo);
}

}  // namespace AscendC
