// The SoftMax family of the advanced API: SoftMax and SimpleSoftMax over [m, k] rows (ND),
// with sum and max kept per row as one 32-byte block of repeated values, as CANN lays them.
#pragma once

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <string>
#include <type_traits>
#include <vector>

#include "ascendc/kernel_reduce.h"
#include "kernel_tiling/kernel_tiling.h"

namespace AscendC {

// The shape the call works on: srcM rows of srcK (32-byte aligned) elements, of which
// oriSrcK are data (0: all). Zeros take the tiling's shape.
struct SoftMaxShapeInfo {
  uint32_t srcM = 0, srcK = 0, oriSrcM = 0, oriSrcK = 0;
};
// SOFTMAX_OUTPUT_WITHOUT_BRC keeps one value per row in the statistics (SoftmaxFlashV2 only)
// instead of a 32-byte block of repeats.
enum class SoftmaxMode { SOFTMAX_NORMAL = 0, SOFTMAX_OUTPUT_WITHOUT_BRC = 1 };
struct SoftmaxConfig {
  bool isCheckTiling = true;
  uint32_t oriSrcM = 0, oriSrcK = 0;
  SoftmaxMode mode = SoftmaxMode::SOFTMAX_NORMAL;
};
inline constexpr SoftmaxConfig SOFTMAX_DEFAULT_CFG = {};
using ::SoftMaxTiling;

namespace detail {

struct SoftMaxShape {
  uint32_t m, k, valid;
};

template <typename T>
SoftMaxShape SoftMaxShapeOf(const SoftMaxTiling& tiling, const SoftMaxShapeInfo& info,
                            const char* api) {
  SoftMaxShape s{info.srcM ? info.srcM : tiling.srcM, info.srcK ? info.srcK : tiling.srcK, 0};
  s.valid = info.oriSrcK ? info.oriSrcK : s.k;
  if (s.m == 0 || s.k == 0)
    Fault(api,
          "no shape: the tiling's srcM/srcK are 0 (fill it with SoftMaxTilingFunc) and no "
          "SoftMaxShapeInfo gives one");
  if (s.k * sizeof(T) % 32 != 0)
    Fault(api, "the last axis of " + std::to_string(s.k) + " elements is not 32-byte aligned");
  if (s.valid > s.k)
    Fault(api, "oriSrcK " + std::to_string(s.valid) + " is more than srcK " + std::to_string(s.k));
  return s;
}

// Per row: max and the sum of exp(x - max) over the data columns (computed in double, as
// the emulation's reductions are), then dst = exp(x - max) / sum. With `given`, sum and max
// are inputs (SimpleSoftMax).
template <typename T, typename U>
void SoftMaxRows(const LocalTensor<T>& dst, const LocalTensor<U>& sum, const LocalTensor<U>& max,
                 const LocalTensor<T>& src, const SoftMaxShape& s, bool given, const char* api) {
  const uint32_t stat = 32 / sizeof(U);  // one 32-byte block of repeated values per row
  const uint64_t n = uint64_t(s.m) * s.k;
  CheckVector(src, n, api, "source");
  if (given) {
    CheckVector(sum, uint64_t(s.m) * stat, api, "source (sum)");
    CheckVector(max, uint64_t(s.m) * stat, api, "source (max)");
  }
  CheckVector(dst, n, api, "destination");
  if (!given) {
    CheckVector(sum, uint64_t(s.m) * stat, api, "destination (sum)");
    CheckVector(max, uint64_t(s.m) * stat, api, "destination (max)");
  }
  const T* x = src.GetPhyAddr();
  std::vector<double> e(s.valid);
  for (uint32_t r = 0; r < s.m; ++r) {
    const T* row = x + uint64_t(r) * s.k;
    double mx, sm = 0;
    if (given) {
      mx = AsDouble(max.GetPhyAddr()[uint64_t(r) * stat]);
      sm = AsDouble(sum.GetPhyAddr()[uint64_t(r) * stat]);
      for (uint32_t c = 0; c < s.valid; ++c) e[c] = std::exp(AsDouble(row[c]) - mx);
    } else {
      mx = -std::numeric_limits<double>::infinity();
      for (uint32_t c = 0; c < s.valid; ++c) mx = std::max(mx, AsDouble(row[c]));
      for (uint32_t c = 0; c < s.valid; ++c) sm += (e[c] = std::exp(AsDouble(row[c]) - mx));
      for (uint32_t j = 0; j < stat; ++j) {
        max.GetPhyAddr()[uint64_t(r) * stat + j] = static_cast<U>(static_cast<float>(mx));
        sum.GetPhyAddr()[uint64_t(r) * stat + j] = static_cast<U>(static_cast<float>(sm));
      }
    }
    T* out = dst.GetPhyAddr() + uint64_t(r) * s.k;
    for (uint32_t c = 0; c < s.valid; ++c) out[c] = static_cast<T>(static_cast<float>(e[c] / sm));
    for (uint32_t c = s.valid; c < s.k; ++c) out[c] = static_cast<T>(0.0f);
  }
  // Reduce max, subtract, exp, reduce sum, divide: five passes over the data.
  CountCycles(n * sizeof(T) * 5);
}

}  // namespace detail

// SoftMax: dst = softmax of each row of src; sum and max receive the row statistics.
template <typename T, bool isReuseSource = false, bool isBasicBlock = false,
          bool isDataFormatNZ = false, const SoftmaxConfig& config = SOFTMAX_DEFAULT_CFG>
void SoftMax(const LocalTensor<T>& dst, const LocalTensor<T>& sum, const LocalTensor<T>& max,
             const LocalTensor<T>& src, const SoftMaxTiling& tiling,
             const SoftMaxShapeInfo& shapeInfo = {}) {
  static_assert(!isDataFormatNZ, "OpenCANN's SoftMax takes ND data; the NZ format is not modelled");
  detail::SoftMaxRows(dst, sum, max, src, detail::SoftMaxShapeOf<T>(tiling, shapeInfo, "SoftMax"),
                      false, "SoftMax");
}
template <typename T, bool isReuseSource = false, bool isBasicBlock = false,
          bool isDataFormatNZ = false, const SoftmaxConfig& config = SOFTMAX_DEFAULT_CFG>
void SoftMax(const LocalTensor<T>& dst, const LocalTensor<T>& sum, const LocalTensor<T>& max,
             const LocalTensor<T>& src, const LocalTensor<uint8_t>& sharedTmpBuffer,
             const SoftMaxTiling& tiling, const SoftMaxShapeInfo& shapeInfo = {}) {
  (void)sharedTmpBuffer;  // the emulation computes without it
  SoftMax<T, isReuseSource, isBasicBlock, isDataFormatNZ, config>(dst, sum, max, src, tiling,
                                                                  shapeInfo);
}
// half data with float statistics.
template <typename T, bool isReuseSource = false, bool isBasicBlock = false,
          bool isDataFormatNZ = false, const SoftmaxConfig& config = SOFTMAX_DEFAULT_CFG>
void SoftMax(const LocalTensor<half>& dst, const LocalTensor<float>& sum,
             const LocalTensor<float>& max, const LocalTensor<half>& src,
             const SoftMaxTiling& tiling, const SoftMaxShapeInfo& shapeInfo = {}) {
  static_assert(!isDataFormatNZ, "OpenCANN's SoftMax takes ND data; the NZ format is not modelled");
  detail::SoftMaxRows(dst, sum, max, src,
                      detail::SoftMaxShapeOf<half>(tiling, shapeInfo, "SoftMax"), false, "SoftMax");
}
template <typename T, bool isReuseSource = false, bool isBasicBlock = false,
          bool isDataFormatNZ = false, const SoftmaxConfig& config = SOFTMAX_DEFAULT_CFG>
void SoftMax(const LocalTensor<half>& dst, const LocalTensor<float>& sum,
             const LocalTensor<float>& max, const LocalTensor<half>& src,
             const LocalTensor<uint8_t>& sharedTmpBuffer, const SoftMaxTiling& tiling,
             const SoftMaxShapeInfo& shapeInfo = {}) {
  (void)sharedTmpBuffer;
  SoftMax<T, isReuseSource, isBasicBlock, isDataFormatNZ, config>(dst, sum, max, src, tiling,
                                                                  shapeInfo);
}

// SimpleSoftMax: the same with sum and max given (from an earlier SoftMax).
template <typename T, bool isReuseSource = false, bool isBasicBlock = false,
          bool isDataFormatNZ = false, const SoftmaxConfig& config = SOFTMAX_DEFAULT_CFG>
void SimpleSoftMax(const LocalTensor<T>& dst, const LocalTensor<T>& inSum,
                   const LocalTensor<T>& inMax, const LocalTensor<T>& src,
                   const SoftMaxTiling& tiling, const SoftMaxShapeInfo& shapeInfo = {}) {
  static_assert(!isDataFormatNZ, "OpenCANN's SimpleSoftMax takes ND data");
  detail::SoftMaxRows(dst, inSum, inMax, src,
                      detail::SoftMaxShapeOf<T>(tiling, shapeInfo, "SimpleSoftMax"), true,
                      "SimpleSoftMax");
}
template <typename T, bool isReuseSource = false, bool isBasicBlock = false,
          bool isDataFormatNZ = false, const SoftmaxConfig& config = SOFTMAX_DEFAULT_CFG>
void SimpleSoftMax(const LocalTensor<T>& dst, const LocalTensor<T>& inSum,
                   const LocalTensor<T>& inMax, const LocalTensor<T>& src,
                   const LocalTensor<uint8_t>& sharedTmpBuffer, const SoftMaxTiling& tiling,
                   const SoftMaxShapeInfo& shapeInfo = {}) {
  (void)sharedTmpBuffer;
  SimpleSoftMax<T, isReuseSource, isBasicBlock, isDataFormatNZ, config>(dst, inSum, inMax, src,
                                                                        tiling, shapeInfo);
}

// LogSoftMax: dst = log10(softmax(src)) per row — base 10, as CANN defines it — with max and
// the sum of exp(x - max) kept as for SoftMax (one 32-byte block per row). The shape comes
// from SoftMaxShapeInfo when it gives one (CANN's sample passes a default-constructed tiling).
using ::LogSoftMaxTiling;
template <typename T, bool isReuseSource = false, bool isDataFormatNZ = false>
void LogSoftMax(const LocalTensor<T>& dst, const LocalTensor<T>& sumTensor,
                const LocalTensor<T>& maxTensor, const LocalTensor<T>& src,
                const LocalTensor<uint8_t>& sharedTmpBuffer, const LogSoftMaxTiling& tiling,
                const SoftMaxShapeInfo& softmaxShapeInfo = {}) {
  static_assert(!isDataFormatNZ, "OpenCANN's LogSoftMax takes ND data; NZ is not modelled");
  (void)sharedTmpBuffer;
  const char* api = "LogSoftMax";
  const detail::SoftMaxShape s = detail::SoftMaxShapeOf<T>(tiling, softmaxShapeInfo, api);
  const uint32_t stat = 32 / sizeof(T);
  const uint64_t n = uint64_t(s.m) * s.k;
  detail::CheckVector(src, n, api, "source");
  detail::CheckVector(dst, n, api, "destination");
  detail::CheckVector(sumTensor, uint64_t(s.m) * stat, api, "destination (sum)");
  detail::CheckVector(maxTensor, uint64_t(s.m) * stat, api, "destination (max)");
  std::vector<double> row(s.k);
  for (uint32_t r = 0; r < s.m; ++r) {
    for (uint32_t c = 0; c < s.k; ++c)
      row[c] = detail::AsDouble(src.GetPhyAddr()[uint64_t(r) * s.k + c]);
    double mx = -std::numeric_limits<double>::infinity(), sm = 0;
    for (uint32_t c = 0; c < s.valid; ++c) mx = std::max(mx, row[c]);
    for (uint32_t c = 0; c < s.valid; ++c) sm += std::exp(row[c] - mx);
    const double log_sum = std::log10(sm);
    T* y = dst.GetPhyAddr() + uint64_t(r) * s.k;
    for (uint32_t c = 0; c < s.k; ++c)
      y[c] = c < s.valid
                 ? static_cast<T>(static_cast<float>((row[c] - mx) / std::log(10.0) - log_sum))
                 : static_cast<T>(0.0f);
    for (uint32_t j = 0; j < stat; ++j) {
      maxTensor.GetPhyAddr()[uint64_t(r) * stat + j] = static_cast<T>(static_cast<float>(mx));
      sumTensor.GetPhyAddr()[uint64_t(r) * stat + j] = static_cast<T>(static_cast<float>(sm));
    }
  }
  detail::CountCycles(n * sizeof(T) * 6);
}

// SoftmaxGrad: per row, d = sum(grad * src) over the data columns; with isFront, dst holds d
// as one 32-byte block per row, else dst = (grad - d) * src. SoftmaxGradFront is the isFront
// form. dst may be src or grad: each row is read before it is written.
namespace detail {
template <typename T>
void SoftmaxGradRows(const LocalTensor<T>& dst, const LocalTensor<T>& grad,
                     const LocalTensor<T>& src, const SoftMaxShape& s, bool front,
                     const char* api) {
  const uint32_t stat = 32 / sizeof(T);
  const uint64_t n = uint64_t(s.m) * s.k;
  CheckVector(grad, n, api, "source (grad)");
  CheckVector(src, n, api, "source");
  CheckVector(dst, front ? uint64_t(s.m) * stat : n, api, "destination");
  std::vector<double> g(s.k), y(s.k);
  for (uint32_t r = 0; r < s.m; ++r) {
    double d = 0;
    for (uint32_t c = 0; c < s.k; ++c) {
      g[c] = AsDouble(grad.GetPhyAddr()[uint64_t(r) * s.k + c]);
      y[c] = AsDouble(src.GetPhyAddr()[uint64_t(r) * s.k + c]);
      if (c < s.valid) d += g[c] * y[c];
    }
    if (front) {
      for (uint32_t j = 0; j < stat; ++j)
        dst.GetPhyAddr()[uint64_t(r) * stat + j] = static_cast<T>(static_cast<float>(d));
      continue;
    }
    for (uint32_t c = 0; c < s.k; ++c)
      dst.GetPhyAddr()[uint64_t(r) * s.k + c] =
          static_cast<T>(static_cast<float>(c < s.valid ? (g[c] - d) * y[c] : 0.0));
  }
  CountCycles(n * sizeof(T) * (front ? 3 : 5));
}
}  // namespace detail

template <typename T, bool isReuseSource = false, bool isDataFormatNZ = false>
void SoftmaxGrad(const LocalTensor<T>& dstTensor, const LocalTensor<T>& gradTensor,
                 const LocalTensor<T>& srcTensor, const SoftMaxTiling& tiling, bool isFront = false,
                 const SoftMaxShapeInfo& softmaxShapeInfo = {}) {
  static_assert(!isDataFormatNZ, "OpenCANN's SoftmaxGrad takes ND data; NZ is not modelled");
  detail::SoftmaxGradRows(dstTensor, gradTensor, srcTensor,
                          detail::SoftMaxShapeOf<T>(tiling, softmaxShapeInfo, "SoftmaxGrad"),
                          isFront, "SoftmaxGrad");
}
template <typename T, bool isReuseSource = false, bool isDataFormatNZ = false>
void SoftmaxGrad(const LocalTensor<T>& dstTensor, const LocalTensor<T>& gradTensor,
                 const LocalTensor<T>& srcTensor, const LocalTensor<uint8_t>& sharedTmpBuffer,
                 const SoftMaxTiling& tiling, bool isFront = false,
                 const SoftMaxShapeInfo& softmaxShapeInfo = {}) {
  (void)sharedTmpBuffer;
  SoftmaxGrad<T, isReuseSource, isDataFormatNZ>(dstTensor, gradTensor, srcTensor, tiling, isFront,
                                                softmaxShapeInfo);
}
template <typename T, bool isBasicBlock = false, bool isDataFormatNZ = false>
void SoftmaxGradFront(const LocalTensor<T>& dstTensor, const LocalTensor<T>& gradTensor,
                      const LocalTensor<T>& srcTensor, const SoftMaxTiling& tiling,
                      const SoftMaxShapeInfo& softmaxShapeInfo = {}) {
  static_assert(!isDataFormatNZ, "OpenCANN's SoftmaxGradFront takes ND data; NZ is not modelled");
  detail::SoftmaxGradRows(dstTensor, gradTensor, srcTensor,
                          detail::SoftMaxShapeOf<T>(tiling, softmaxShapeInfo, "SoftmaxGradFront"),
                          true, "SoftmaxGradFront");
}
template <typename T, bool isBasicBlock = false, bool isDataFormatNZ = false>
void SoftmaxGradFront(const LocalTensor<T>& dstTensor, const LocalTensor<T>& gradTensor,
                      const LocalTensor<T>& srcTensor, const LocalTensor<uint8_t>& sharedTmpBuffer,
                      const SoftMaxTiling& tiling, const SoftMaxShapeInfo& softmaxShapeInfo = {}) {
  (void)sharedTmpBuffer;
  SoftmaxGradFront<T, isBasicBlock, isDataFormatNZ>(dstTensor, gradTensor, srcTensor, tiling,
                                                    softmaxShapeInfo);
}

// AdjustSoftMaxRes: rows whose max equals `from` (the max's bits: a float's 32, a half's 16)
// are set to `to` across the row's srcK elements. True when a row was adjusted. The max is
// read once per 32-byte block (stepSizeMode 0) or once per element (any other mode).
template <typename T1, typename T2, bool isDataFormatNZ = false, uint8_t stepSizeMode = 0>
bool AdjustSoftMaxRes(const LocalTensor<T1>& softMaxRes, const LocalTensor<T2>& maxTensor,
                      const uint32_t from, const T1 to, const SoftMaxShapeInfo& shapeInfo) {
  static_assert(!isDataFormatNZ, "OpenCANN's AdjustSoftMaxRes takes ND data");
  const char* api = "AdjustSoftMaxRes";
  const uint32_t m = shapeInfo.srcM, k = shapeInfo.srcK;
  const uint32_t step = stepSizeMode == 0 ? 32 / sizeof(T2) : 1;
  detail::CheckVector(maxTensor, uint64_t(m) * step, api, "source (max)");
  detail::CheckVector(softMaxRes, uint64_t(m) * k, api, "destination");
  bool adjusted = false;
  for (uint32_t r = 0; r < m; ++r) {
    uint32_t bits = 0;
    std::memcpy(&bits, maxTensor.GetPhyAddr() + uint64_t(r) * step, sizeof(T2));
    if (bits != from) continue;
    adjusted = true;
    for (uint32_t c = 0; c < k; ++c) softMaxRes.GetPhyAddr()[uint64_t(r) * k + c] = to;
  }
  detail::CountCycles(uint64_t(m) * k * sizeof(T1));
  return adjusted;
}

}  // namespace AscendC
