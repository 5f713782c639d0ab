// Host-side matmul tiling (matmul_tiling::MatmulApiTiling / MultiCoreMatmulTiling): splits an
// M x N x K matmul over cores and into base blocks that fit L0A/L0B/L0C of the SoC.
#pragma once

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <vector>

#include "ascendc/sort_types.h"
#include "graph/tensor.h"
#include "kernel_tiling/kernel_tiling.h"
#include "register/tilingdata_base.h"  // BEGIN_TILING_DATA_DEF, as CANN's header brings it
#include "securec.h"
#include "tiling/platform/platform_ascendc.h"

namespace AscendC {
// Pad / UnPad host tiling: the kernel side (kernel_gather_pad.h) reads the shape fields. The
// emulation needs no scratch; the sizes returned are one row block per row, so kernels that
// allocate what these say keep working.
inline void GetPadMaxMinTmpSize(const ge::Shape& srcShape, uint32_t typeSize, uint32_t& maxValue,
                                uint32_t& minValue) {
  const uint64_t rows = srcShape.GetDim(0), row = (srcShape.GetDim(1) * typeSize + 31) / 32 * 32;
  maxValue = minValue = static_cast<uint32_t>(std::max<uint64_t>(rows * row, 32));
}
inline void PadTilingFunc(const ge::Shape srcShape, const ge::Shape oriSrcShape,
                          uint32_t stackBufferSize, uint32_t typeSize, optiling::PadTiling& t) {
  (void)stackBufferSize;
  t.srcHeight = static_cast<uint32_t>(srcShape.GetDim(0));
  t.srcWidth = static_cast<uint32_t>(srcShape.GetDim(1));
  t.srcOriWidth = static_cast<uint32_t>(oriSrcShape.GetDim(1));
  t.blocksPerRow = static_cast<uint32_t>((t.srcWidth * typeSize + 31) / 32);
  t.widthWithoutLastBlock = t.blocksPerRow ? (t.blocksPerRow - 1) * 32 / typeSize : 0;
}
inline void GetUnPadMaxMinTmpSize(const platform_ascendc::PlatformAscendC&,
                                  const ge::Shape& srcShape, uint32_t typeSize, uint32_t& maxValue,
                                  uint32_t& minValue) {
  GetPadMaxMinTmpSize(srcShape, typeSize, maxValue, minValue);
}
inline void UnPadTilingFunc(const ge::Shape srcShape, uint32_t stackBufferSize, uint32_t typeSize,
                            optiling::UnPadTiling& t) {
  (void)stackBufferSize;
  (void)typeSize;
  t.srcHeight = static_cast<uint32_t>(srcShape.GetDim(0));
  t.srcWidth = static_cast<uint32_t>(srcShape.GetDim(1));
}

// The SoftMax family's host side (SoftMax, SimpleSoftMax). The emulation needs no temporary
// buffer; the sizes are OpenCANN's (a float row of work plus 64 bytes per row, all rows at
// most, one at least), not CANN's, which are not published.
inline uint32_t GetSoftMaxMaxTmpSize(const ge::Shape& srcShape, const uint32_t dataTypeSize,
                                     const bool isReuseSource) {
  (void)dataTypeSize;
  (void)isReuseSource;
  const uint64_t k =
      srcShape.GetDimNum() ? static_cast<uint64_t>(srcShape.GetDim(srcShape.GetDimNum() - 1)) : 0;
  const uint64_t m = k ? static_cast<uint64_t>(srcShape.GetShapeSize()) / k : 0;
  return static_cast<uint32_t>(std::min<uint64_t>(m * (k * 4 + 64), UINT32_MAX));
}
inline uint32_t GetSoftMaxMinTmpSize(const ge::Shape& srcShape, const uint32_t dataTypeSize,
                                     const bool isReuseSource) {
  (void)dataTypeSize;
  (void)isReuseSource;
  const uint64_t k =
      srcShape.GetDimNum() ? static_cast<uint64_t>(srcShape.GetDim(srcShape.GetDimNum() - 1)) : 0;
  return static_cast<uint32_t>(std::min<uint64_t>(k * 4 + 64, UINT32_MAX));
}
// [m0, ..., n] is [m, n]: the rows, the last axis, and a split of the rows over the work
// space (how many rows one pass of localWorkSpaceSize holds).
inline void SoftMaxTilingFunc(const ge::Shape& srcShape, const uint32_t dataTypeSize,
                              const uint32_t localWorkSpaceSize, optiling::SoftMaxTiling& t) {
  t = optiling::SoftMaxTiling();
  if (srcShape.GetDimNum() == 0 || dataTypeSize == 0) return;
  const uint64_t k = static_cast<uint64_t>(srcShape.GetDim(srcShape.GetDimNum() - 1));
  const uint64_t m = k ? static_cast<uint64_t>(srcShape.GetShapeSize()) / k : 0;
  const uint64_t per_row = k * 4 + 64;
  const uint64_t split = std::max<uint64_t>(1, std::min<uint64_t>(m, localWorkSpaceSize / per_row));
  const uint32_t block = 32 / dataTypeSize;
  t.srcM = static_cast<uint32_t>(m);
  t.srcK = static_cast<uint32_t>(k);
  t.srcSize = static_cast<uint32_t>(m * k);
  t.outMaxM = t.srcM;
  t.outMaxK = block;
  t.outMaxSize = static_cast<uint32_t>(m * block);
  t.splitM = static_cast<uint32_t>(split);
  t.splitK = t.srcK;
  t.splitSize = static_cast<uint32_t>(split * k);
  t.reduceM = t.splitM;
  t.reduceK = block;
  t.reduceSize = static_cast<uint32_t>(split * block);
  t.rangeM = static_cast<uint32_t>(m / split);
  t.tailM = static_cast<uint32_t>(m % split);
  t.tailSplitSize = static_cast<uint32_t>(t.tailM * k);
  t.tailReduceSize = t.tailM * block;
}

// SoftmaxGrad's host side: SoftMax's sizes and split.
inline uint32_t GetSoftMaxGradMaxTmpSize(const ge::Shape& srcShape, const uint32_t typeSize,
                                         const bool isFront, const bool isReuseSource) {
  (void)isFront;
  return GetSoftMaxMaxTmpSize(srcShape, typeSize, isReuseSource);
}
inline uint32_t GetSoftMaxGradMinTmpSize(const ge::Shape& srcShape, const uint32_t typeSize,
                                         const bool isFront, const bool isReuseSource) {
  (void)isFront;
  return GetSoftMaxMinTmpSize(srcShape, typeSize, isReuseSource);
}
inline void SoftMaxGradTilingFunc(const ge::Shape& srcShape, const uint32_t typeSize,
                                  const uint32_t localWorkSpaceSize, optiling::SoftMaxTiling& t,
                                  const bool isFront = false) {
  (void)isFront;
  SoftMaxTilingFunc(srcShape, typeSize, localWorkSpaceSize, t);
}

// LogSoftMax's host side: SoftMax's sizes and split (the same row statistics).
inline uint32_t GetLogSoftMaxMaxTmpSize(const ge::Shape& srcShape, const uint32_t dataTypeSize,
                                        const bool isReuseSource) {
  return GetSoftMaxMaxTmpSize(srcShape, dataTypeSize, isReuseSource);
}
inline uint32_t GetLogSoftMaxMinTmpSize(const ge::Shape& srcShape, const uint32_t dataTypeSize,
                                        const bool isReuseSource) {
  return GetSoftMaxMinTmpSize(srcShape, dataTypeSize, isReuseSource);
}
inline void LogSoftMaxTilingFunc(const ge::Shape& srcShape, const uint32_t dataTypeSize,
                                 const uint32_t localWorkSpaceSize, optiling::SoftMaxTiling& t) {
  SoftMaxTilingFunc(srcShape, dataTypeSize, localWorkSpaceSize, t);
}

// SoftmaxFlashV2's host side, with CANN's documented sizes. In floats per row of the split:
// e = 32 / dataTypeSize2 (one block of a statistic), and k + 2e + 64 for half data, e + 64
// for float data (the basic block: k + e + 64 for half, 128 in place of 64 when k is 1024).
namespace detail {
struct FlashShape {
  uint64_t m = 0, k = 0;
};
inline FlashShape FlashShapeOf(const ge::Shape& s) {
  FlashShape f;
  if (s.GetDimNum() == 0) return f;
  f.k = static_cast<uint64_t>(s.GetDim(s.GetDimNum() - 1));
  f.m = f.k ? static_cast<uint64_t>(s.GetShapeSize()) / f.k : 0;
  return f;
}
inline uint64_t FlashRowFloats(const FlashShape& f, uint32_t size1, uint32_t size2, bool basic) {
  const uint64_t e = size2 ? 32 / size2 : 8;
  const uint64_t extra = basic && f.k == 1024 ? 128 : 64;
  if (size1 == 2) return (basic ? e : 2 * e) + f.k + extra;
  return e + extra;
}
}  // namespace detail
inline uint32_t GetSoftMaxFlashV2MinTmpSize(const ge::Shape& srcShape, const uint32_t dataTypeSize1,
                                            const uint32_t dataTypeSize2, const bool isUpdate,
                                            const bool isBasicBlock = false,
                                            const bool isFlashOutputBrc = false) {
  (void)isUpdate;
  const detail::FlashShape f = detail::FlashShapeOf(srcShape);
  const bool basic = isBasicBlock && f.k % 64 == 0 && f.m % 8 == 0;
  uint64_t floats = detail::FlashRowFloats(f, dataTypeSize1, dataTypeSize2, basic);
  if (basic) floats *= 8;
  if (isFlashOutputBrc && dataTypeSize1)
    floats *= std::max<uint64_t>(1, std::min<uint64_t>(32 / dataTypeSize1, f.m) / (basic ? 8 : 1));
  return static_cast<uint32_t>(std::min<uint64_t>(floats * 4, UINT32_MAX));
}
inline uint32_t GetSoftMaxFlashV2MaxTmpSize(const ge::Shape& srcShape, const uint32_t dataTypeSize1,
                                            const uint32_t dataTypeSize2, const bool isUpdate,
                                            const bool isBasicBlock = false,
                                            const bool isFlashOutputBrc = false) {
  (void)isUpdate;
  (void)isFlashOutputBrc;
  const detail::FlashShape f = detail::FlashShapeOf(srcShape);
  const bool basic = isBasicBlock && f.k % 64 == 0 && f.m % 8 == 0;
  const uint64_t floats = f.m * detail::FlashRowFloats(f, dataTypeSize1, dataTypeSize2, basic);
  return static_cast<uint32_t>(std::min<uint64_t>(floats * 4, UINT32_MAX));
}
// Splits the rows into passes of what localWorkSpaceSize (bytes) holds; the statistics'
// fields count one 32-byte block per row.
inline void SoftMaxFlashV2TilingFunc(const ge::Shape& srcShape, const uint32_t dataTypeSize1,
                                     const uint32_t dataTypeSize2,
                                     const uint32_t localWorkSpaceSize, optiling::SoftMaxTiling& t,
                                     const bool isUpdate, const bool isBasicBlock = false,
                                     const bool isFlashOutputBrc = false) {
  (void)isUpdate;
  t = optiling::SoftMaxTiling();
  const detail::FlashShape f = detail::FlashShapeOf(srcShape);
  if (f.m == 0 || f.k == 0 || dataTypeSize2 == 0) return;
  const bool basic = isBasicBlock && f.k % 64 == 0 && f.m % 8 == 0;
  const uint64_t e = 32 / dataTypeSize2;
  uint64_t base =
      (localWorkSpaceSize / 4) /
      std::max<uint64_t>(1, detail::FlashRowFloats(f, dataTypeSize1, dataTypeSize2, basic));
  base = std::max<uint64_t>(1, std::min(base, f.m));
  const uint64_t align = isFlashOutputBrc && dataTypeSize1 == 2 ? 16 : 8;
  if (base < f.m && base > align) base = base / align * align;
  if (basic)
    while (base > 1 && (f.m % base != 0 || base * f.k >= 16384)) --base;
  t.srcM = static_cast<uint32_t>(f.m);
  t.srcK = static_cast<uint32_t>(f.k);
  t.srcSize = static_cast<uint32_t>(f.m * f.k);
  t.outMaxM = t.srcM;
  t.outMaxK = static_cast<uint32_t>(e);
  t.outMaxSize = static_cast<uint32_t>(f.m * e);
  t.splitM = static_cast<uint32_t>(base);
  t.splitK = t.srcK;
  t.splitSize = static_cast<uint32_t>(base * f.k);
  t.reduceM = t.splitM;
  t.reduceK = t.outMaxK;
  t.reduceSize = static_cast<uint32_t>(base * e);
  t.rangeM = static_cast<uint32_t>(f.m / base);
  t.tailM = static_cast<uint32_t>(f.m % base);
  t.tailSplitSize = static_cast<uint32_t>(t.tailM * f.k);
  t.tailReduceSize = static_cast<uint32_t>(t.tailM * e);
}
// The first SoftmaxFlash: one data type; the same split.
inline uint32_t GetSoftMaxFlashMaxTmpSize(const ge::Shape& srcShape, const uint32_t dataTypeSize,
                                          const bool isUpdate, const bool isReuseSource) {
  (void)isReuseSource;
  return GetSoftMaxFlashV2MaxTmpSize(srcShape, dataTypeSize, dataTypeSize, isUpdate);
}
inline uint32_t GetSoftMaxFlashMinTmpSize(const ge::Shape& srcShape, const uint32_t dataTypeSize,
                                          const bool isUpdate, const bool isReuseSource) {
  (void)isReuseSource;
  return GetSoftMaxFlashV2MinTmpSize(srcShape, dataTypeSize, dataTypeSize, isUpdate);
}
inline void SoftMaxFlashTilingFunc(const ge::Shape& srcShape, const uint32_t dataTypeSize,
                                   const uint32_t localWorkSpaceSize, optiling::SoftMaxTiling& t,
                                   const bool isUpdate = false) {
  SoftMaxFlashV2TilingFunc(srcShape, dataTypeSize, dataTypeSize, localWorkSpaceSize, t, isUpdate);
}

// The LayerNorm family's host side, as CANN computes it. srcShape is [B, S, H, originalH].
namespace detail {
struct NormDims {
  uint64_t b = 0, s = 0, h = 0, original = 0;
  bool ok = false;
};
inline NormDims NormDimsOf(const ge::Shape& shape) {
  NormDims d;
  if (shape.GetDimNum() != 4) return d;
  d.b = static_cast<uint64_t>(shape.GetDim(0));
  d.s = static_cast<uint64_t>(shape.GetDim(1));
  d.h = static_cast<uint64_t>(shape.GetDim(2));
  d.original = static_cast<uint64_t>(shape.GetDim(3));
  d.ok = d.b && d.s && d.h && d.original && d.original <= d.h;
  return d;
}
inline uint32_t Clamp32(uint64_t v) {
  return static_cast<uint32_t>(std::min<uint64_t>(v, UINT32_MAX));
}
inline uint64_t Align32(uint64_t bytes) { return (bytes + 31) / 32 * 32; }
}  // namespace detail

inline void GetLayerNormMaxMinTmpSize(const ge::Shape& srcShape, const uint32_t typeSize,
                                      const bool isReuseSource, uint32_t& maxValue,
                                      uint32_t& minValue) {
  const detail::NormDims d = detail::NormDimsOf(srcShape);
  maxValue = minValue = 0;
  if (!d.ok) return;
  const uint64_t bufs = isReuseSource && typeSize == 4 ? 2 : 3;
  const uint64_t mean_var = 2 * detail::Align32(d.b * d.s * 4);
  maxValue = detail::Clamp32(bufs * detail::Align32(d.b * d.s * d.h * 4) + mean_var);
  minValue = detail::Clamp32(bufs * detail::Align32(d.h * 4) + mean_var);
}
inline void GetLayerNormNDTilingInfo(const ge::Shape& srcShape, const uint32_t stackBufferSize,
                                     const uint32_t typeSize, const bool isReuseSource,
                                     optiling::LayerNormTiling& t) {
  t = optiling::LayerNormTiling();
  const detail::NormDims d = detail::NormDimsOf(srcShape);
  if (!d.ok) return;
  t.bLength = detail::Clamp32(d.b);
  t.sLength = detail::Clamp32(d.s);
  t.hLength = detail::Clamp32(d.h);
  t.originalHLength = detail::Clamp32(d.original);
  t.inputXSize = detail::Clamp32(d.b * d.s * d.h);
  t.meanVarSize = detail::Clamp32(d.b * d.s);
  t.numberOfTmpBuf = isReuseSource && typeSize == 4 ? 2 : 3;
  t.meanTmpTensorSize = t.varianceTmpTensorSize = (t.meanVarSize + 7) / 8 * 8;
  t.varianceTmpTensorPos = t.meanTmpTensorSize;
  const uint32_t mean_var = typeSize == 2 ? 2 * t.meanTmpTensorSize : 0;
  t.tmpBufSize = stackBufferSize / 4;
  uint64_t one = t.tmpBufSize > mean_var ? (t.tmpBufSize - mean_var) / t.numberOfTmpBuf : 0;
  one = std::min<uint64_t>(one / d.h * d.h, t.inputXSize);
  t.lastDimValueBack = 1.0f / static_cast<float>(d.original);
  if (one == 0) return;  // the stack holds no row: as CANN, the split stays unset
  t.oneTmpSize = static_cast<uint32_t>(one);
  t.firstTmpStartPos = mean_var;
  t.secondTmpStartPos = mean_var + t.oneTmpSize;
  t.thirdTmpStartPos = mean_var + 2 * t.oneTmpSize;
  t.loopRound = t.inputXSize / t.oneTmpSize;
  t.inputRoundSize = t.oneTmpSize;
  t.inputTailSize = t.inputXSize % t.oneTmpSize;
  t.inputTailPos = t.inputXSize - t.inputTailSize;
  t.meanVarRoundSize = t.inputRoundSize / t.hLength;
  t.meanVarTailSize = t.inputTailSize / t.hLength;
  t.meanVarTailPos = t.meanVarSize - t.meanVarTailSize;
  t.bshCurLength = t.inputRoundSize;
  t.bsCurLength = t.meanVarRoundSize;
}
inline void GetLayerNormGradMaxMinTmpSize(const ge::Shape& srcShape, const uint32_t typeSize,
                                          const bool isReuseSource, uint32_t& maxValue,
                                          uint32_t& minValue) {
  const detail::NormDims d = detail::NormDimsOf(srcShape);
  maxValue = minValue = 0;
  if (!d.ok) return;
  const uint64_t bufs = typeSize == 2 ? 9 : isReuseSource ? 4 : 6;
  const uint64_t bsh = d.b * d.s * d.h, hh = d.h * d.h;
  maxValue = detail::Clamp32(bufs * std::max(bsh, hh) * typeSize);
  minValue = detail::Clamp32(bufs * std::min(bsh, hh) * typeSize);
}
inline void GetLayerNormGradNDTilingInfo(const ge::Shape srcShape, const uint32_t stackBufferSize,
                                         const uint32_t typeSize, const bool isReuseSource,
                                         optiling::LayerNormGradTiling& t) {
  t = optiling::LayerNormGradTiling();
  const detail::NormDims d = detail::NormDimsOf(srcShape);
  if (!d.ok) return;
  t.stackBufferSize = stackBufferSize / 4;
  t.bLength = detail::Clamp32(d.b);
  t.sLength = detail::Clamp32(d.s);
  t.hLength = detail::Clamp32(d.h);
  t.originalHLength = detail::Clamp32(d.original);
  const float rec = 1.0f / static_cast<float>(d.original),
              rec2 = 2.0f / static_cast<float>(d.original);
  std::memcpy(&t.lastDimValueBack, &rec, 4);
  std::memcpy(&t.lastDimValueBackMulTwo, &rec2, 4);
  const uint64_t bufs = typeSize == 2 ? 9 : isReuseSource ? 4 : 6;
  const uint64_t bsh = d.b * d.s * d.h;
  uint64_t one = t.stackBufferSize / bufs / d.h * d.h;
  if (one == 0) return;
  const uint64_t align = typeSize == 2 ? 16 : 8;
  uint64_t rows = (one / d.h + align - 1) / align * align;
  one = std::min<uint64_t>(rows * d.h, std::max<uint64_t>(bsh, d.h));
  t.oneCalSize = detail::Clamp32(one);
  t.nohCalSize = detail::Clamp32(rows);
  t.loopNum = detail::Clamp32(bsh / one);
  t.tailSize = detail::Clamp32(bsh % one);
  t.nohTailSize = t.tailSize / t.hLength;
  const uint32_t o = t.oneCalSize;
  t.tmpTensorBSHSize = t.pdVarTensorSize = t.pdMeanTensorSize = t.x1TensorSize = t.x2TensorSize =
      t.x3TensorSize = o;
  t.pdVarTensorPos = o;
  t.pdMeanTensorPos = 2 * o;
  const bool reuse = isReuseSource && typeSize == 4;
  t.x1TensorPos = reuse ? 0 : 3 * o;
  t.x2TensorPos = reuse ? 0 : 4 * o;
  t.x3TensorPos = reuse ? 3 * o : 5 * o;
  if (typeSize == 2) {
    t.tmpTensorSize = t.tmpTensor1Size = t.tmpTensor2Size = o;
    t.tmpTensorPos = t.x3TensorPos + o;
    t.tmpTensor1Pos = t.x3TensorPos + 2 * o;
    t.tmpTensor2Pos = t.x3TensorPos + 3 * o;
  }
}
inline void GetLayerNormGradBetaMaxMinTmpSize(const ge::Shape& srcShape, const uint32_t typeSize,
                                              const bool isReuseSource, uint32_t& maxValue,
                                              uint32_t& minValue) {
  (void)isReuseSource;
  const detail::NormDims d = detail::NormDimsOf(srcShape);
  maxValue = minValue = 0;
  if (!d.ok) return;
  const uint64_t bufs = typeSize == 2 ? 4 : 2;
  maxValue = detail::Clamp32(bufs * d.b * d.s * d.h * 4);
  minValue = detail::Clamp32(bufs * d.h * 4);
}
inline void GetLayerNormGradBetaNDTilingInfo(const ge::Shape srcShape,
                                             const uint32_t stackBufferSize,
                                             const uint32_t typeSize, const bool isReuseSource,
                                             optiling::LayerNormGradBetaTiling& t) {
  (void)isReuseSource;
  t = optiling::LayerNormGradBetaTiling();
  const detail::NormDims d = detail::NormDimsOf(srcShape);
  if (!d.ok) return;
  t.stackBufferSize = stackBufferSize / 4;
  t.bLength = detail::Clamp32(d.b);
  t.sLength = detail::Clamp32(d.s);
  t.hLength = detail::Clamp32(d.h);
  t.originalHLength = detail::Clamp32(d.original);
  t.bshLength = detail::Clamp32(d.b * d.s * d.h);
  t.bsLength = detail::Clamp32(d.b * d.s);
  t.numberOfTmpBuf = typeSize == 2 ? 2 : 1;
  uint64_t one = typeSize == 2
                     ? (t.stackBufferSize > 2 * d.h ? (t.stackBufferSize - 2 * d.h) / 2 : 0)
                     : t.stackBufferSize;
  one = std::min<uint64_t>(one / d.h * d.h, t.bshLength);
  if (one == 0) return;
  t.oneCalSize = detail::Clamp32(one);
  t.loopRound = t.bshLength / t.oneCalSize;
  t.inputTailSize = t.bshLength % t.oneCalSize;
  t.inputTailPos = t.bshLength - t.inputTailSize;
  t.bsTailSize = t.inputTailSize / t.hLength;
  t.bshCurLength = t.oneCalSize;
  t.bsCurLength = t.oneCalSize / t.hLength;
  if (typeSize == 2) {
    t.betaTempTensorPos = t.hLength;
    t.inputDyTmpTensorPos = 2 * t.hLength;
    t.resForGammaTmpTensorPos = 2 * t.hLength + t.oneCalSize;
  }
}

// Welford's host sizes (Atlas A2): WelfordUpdate over {rnLength, abLength}, 256 bytes per
// work buffer (three for half data, one reusing the source, else two) per 64 elements;
// WelfordFinalize over {abLength}, 1 KiB at least.
inline void GetWelfordUpdateMaxMinTmpSize(const ge::Shape& srcShape, const uint32_t typeSizeT,
                                          const uint32_t typeSizeU, const bool isReuseSource,
                                          const bool isInplace, uint32_t& maxValue,
                                          uint32_t& minValue) {
  (void)typeSizeU;
  (void)isInplace;
  maxValue = minValue = 0;
  if (srcShape.GetDimNum() != 2) return;
  const uint64_t n = static_cast<uint64_t>(srcShape.GetDim(0) * srcShape.GetDim(1));
  const uint32_t bufs = typeSizeT == 2 ? 3 : isReuseSource ? 1 : 2;
  minValue = 256 * bufs;
  maxValue = detail::Clamp32((n + 63) / 64 * minValue);
}
inline void GetWelfordFinalizeMaxMinTmpSize(const ge::Shape& srcShape, const uint32_t typeSize,
                                            const bool isReuseSource, uint32_t& maxValue,
                                            uint32_t& minValue) {
  (void)typeSize;
  (void)isReuseSource;
  maxValue = minValue = 0;
  if (srcShape.GetDimNum() != 1) return;
  const uint64_t ab = static_cast<uint64_t>(srcShape.GetDim(0));
  minValue = 1024;
  maxValue = ab <= 64 ? 1024 : detail::Clamp32((128 + 2 * ab) * 4);
}

// TopK's host side (Atlas A2): the tiling's sizes for the merge sort, and the temporary
// buffer: 16 bytes per element of a row (TOPK_NORMAL; 4 more when indices are generated), or
// 8 per element of all rows plus 64 (TOPK_NSMALL; 4 more each for the smallest k and for
// generated indices). False for a shape CANN refuses.
inline bool TopKTilingFunc(const platform_ascendc::PlatformAscendC& ascendcPlatform,
                           const int32_t inner, const int32_t outter, const int32_t k,
                           const uint32_t dataTypeSize, const bool isInitIndex,
                           AscendC::TopKMode mode, const bool isLargest, optiling::TopkTiling& t) {
  (void)ascendcPlatform;
  (void)isLargest;
  t = optiling::TopkTiling();
  const bool small = mode == AscendC::TopKMode::TOPK_NSMALL;
  if (inner <= 0 || inner % 32 != 0 || (small && inner != 32) || outter <= 0 || k < 1 ||
      k > inner || (dataTypeSize != 2 && dataTypeSize != 4))
    return false;
  const int32_t scale = dataTypeSize == 2 ? 2 : 1;
  t.tmpLocalSize = 4 * inner * scale + (isInitIndex ? 0 : inner * scale);
  t.allDataSize = inner * outter;
  t.innerDataSize = 2 * inner * scale;
  t.sortRepeat = static_cast<uint32_t>(inner / 32);
  t.mrgSortRepeat = inner / 4;
  t.kAlignFourBytes = (k + 7) / 8 * 8;
  t.kAlignTwoBytes = (k + 15) / 16 * 16;
  t.maskOffset =
      small ? outter * k : outter * (dataTypeSize == 2 ? t.kAlignTwoBytes : t.kAlignFourBytes);
  t.maskVreducev2FourBytes = 2 * k;
  t.maskVreducev2TwoBytes = 4 * k;
  t.srcIndexOffset = 4 * inner * scale;
  t.copyUbToUbBlockCount = static_cast<uint32_t>(inner * 8 / 32);
  return true;
}
inline bool GetTopKMaxMinTmpSize(const platform_ascendc::PlatformAscendC& ascendcPlatform,
                                 const int32_t inner, const int32_t outter,
                                 const bool isReuseSource, const bool isInitIndex,
                                 AscendC::TopKMode mode, const bool isLargest,
                                 const uint32_t dataTypeSize, uint32_t& maxValue,
                                 uint32_t& minValue) {
  (void)ascendcPlatform;
  (void)isReuseSource;
  const bool small = mode == AscendC::TopKMode::TOPK_NSMALL;
  if (inner <= 0 || inner % 32 != 0 || (small && inner != 32) || outter <= 0 ||
      (dataTypeSize != 2 && dataTypeSize != 4))
    return false;
  uint64_t bytes;
  if (!small) {
    bytes = 16ull * inner + (isInitIndex ? 0 : 4ull * inner);
  } else {
    const uint64_t all = uint64_t(inner) * outter;
    bytes = 8 * all + 64 + (isLargest ? 0 : 4 * all) + (isInitIndex ? 0 : 4 * all);
  }
  maxValue = minValue = detail::Clamp32(bytes);
  return true;
}

// Sort's host sizes. GetSortMaxMinTmpSize belongs to the newer Sort (SortConfig), which CANN
// has on Ascend 950 only; on Atlas A2 CANN logs an error and leaves both values unset.
// OpenCANN says so and gives the 950 sizes, so a sample that goes on anyway has defined ones.
inline void GetSortMaxMinTmpSize(const ge::Shape& srcShape, ge::DataType valueType,
                                 ge::DataType indexType, bool isReuseSource,
                                 const AscendC::SortConfig& config, uint32_t& maxValue,
                                 uint32_t& minValue) {
  std::fprintf(stderr,
               "[WARNING] GetSortMaxMinTmpSize: the SortConfig Sort is an Ascend 950 API; on Atlas "
               "A2 CANN leaves maxValue/minValue unset. OpenCANN gives the 950 sizes.\n");
  const uint64_t n = srcShape.GetDimNum() ? static_cast<uint64_t>(srcShape.GetShapeSize()) : 0;
  const uint64_t value =
      static_cast<uint64_t>(std::max<int64_t>(ge::GetSizeByDataType(valueType), 1));
  const uint64_t index =
      static_cast<uint64_t>(std::max<int64_t>(ge::GetSizeByDataType(indexType), 1));
  uint64_t bytes;
  if (config.type == AscendC::SortType::MERGE_SORT) {
    bytes = 8 * n;
  } else {
    const uint64_t padded = (n + 31) / 32 * 32;
    bytes = 7 * padded + 512;
    if (value != 1 && !isReuseSource) {
      if (config.hasSrcIndex && config.hasDstIndex)
        bytes += padded * (value + index);
      else if (config.hasDstIndex)
        bytes += padded * (4 + value);
      else
        bytes += padded * value;
    }
  }
  maxValue = minValue = detail::Clamp32(bytes);
}
// The Atlas A2 Sort's own sizes: Concat needs none, Sort 8 bytes per element.
inline uint32_t GetConcatTmpSize(const platform_ascendc::PlatformAscendC& ascendcPlatform,
                                 const uint32_t elemCount, const uint32_t dataTypeSize) {
  (void)ascendcPlatform;
  (void)elemCount;
  (void)dataTypeSize;
  return 0;
}
inline uint32_t GetSortTmpSize(const platform_ascendc::PlatformAscendC& ascendcPlatform,
                               const uint32_t elemCount, const uint32_t dataTypeSize) {
  (void)ascendcPlatform;
  (void)dataTypeSize;
  return detail::Clamp32(uint64_t(elemCount) * 8);
}

// Sum's temporary buffer (the emulation needs none): OpenCANN's size, one 32-byte block of
// partial sums per 256-byte repeat of a row, at least one block.
inline void GetSumMaxMinTmpSize(const uint32_t n, const uint32_t typeSize, const bool isReuseSource,
                                uint32_t& maxSize, uint32_t& minSize) {
  (void)isReuseSource;
  const uint64_t repeats = typeSize ? (uint64_t(n) * typeSize + 255) / 256 : 0;
  minSize = maxSize = static_cast<uint32_t>(std::max<uint64_t>(1, repeats) * 32);
}

// The element-wise math and activations need no temporary buffer in the emulation; their
// host sizes are OpenCANN's: a float per element at most, one 256-byte repeat at least.
namespace detail {
inline void MathTmpSize(const ge::Shape& srcShape, uint32_t& maxValue, uint32_t& minValue) {
  const uint64_t n = srcShape.GetDimNum() ? static_cast<uint64_t>(srcShape.GetShapeSize()) : 0;
  minValue = 256;
  maxValue = static_cast<uint32_t>(std::min<uint64_t>(std::max<uint64_t>(n * 4, 256), UINT32_MAX));
}
}  // namespace detail
#define OC_MATH_TMP_SIZE(NAME)                                                             \
  inline void Get##NAME##MaxMinTmpSize(const ge::Shape& srcShape, const uint32_t typeSize, \
                                       const bool isReuseSource, uint32_t& maxValue,       \
                                       uint32_t& minValue) {                               \
    (void)typeSize;                                                                        \
    (void)isReuseSource;                                                                   \
    detail::MathTmpSize(srcShape, maxValue, minValue);                                     \
  }
OC_MATH_TMP_SIZE(Acos)
OC_MATH_TMP_SIZE(Acosh)
OC_MATH_TMP_SIZE(Asin)
OC_MATH_TMP_SIZE(Asinh)
OC_MATH_TMP_SIZE(Atan)
OC_MATH_TMP_SIZE(Atanh)
OC_MATH_TMP_SIZE(Cos)
OC_MATH_TMP_SIZE(Cosh)
OC_MATH_TMP_SIZE(Sin)
OC_MATH_TMP_SIZE(Sinh)
OC_MATH_TMP_SIZE(Tan)
OC_MATH_TMP_SIZE(Tanh)
OC_MATH_TMP_SIZE(Erf)
OC_MATH_TMP_SIZE(Erfc)
OC_MATH_TMP_SIZE(Ceil)
OC_MATH_TMP_SIZE(Floor)
OC_MATH_TMP_SIZE(Trunc)
OC_MATH_TMP_SIZE(Round)
OC_MATH_TMP_SIZE(Frac)
OC_MATH_TMP_SIZE(Sign)
OC_MATH_TMP_SIZE(Sigmoid)
OC_MATH_TMP_SIZE(Exp)
OC_MATH_TMP_SIZE(Log)
OC_MATH_TMP_SIZE(Clamp)
OC_MATH_TMP_SIZE(Xor)
OC_MATH_TMP_SIZE(Fmod)
OC_MATH_TMP_SIZE(Axpy)
#undef OC_MATH_TMP_SIZE
inline void GetPowerMaxMinTmpSize(const ge::Shape& srcShape1, const ge::Shape& srcShape2,
                                  const bool typeIsInt, const uint32_t typeSize,
                                  const bool isReuseSource, uint32_t& maxValue,
                                  uint32_t& minValue) {
  (void)typeIsInt;
  (void)typeSize;
  (void)isReuseSource;
  const bool first = srcShape1.GetDimNum() && srcShape1.GetShapeSize() >= srcShape2.GetShapeSize();
  detail::MathTmpSize(first ? srcShape1 : srcShape2, maxValue, minValue);
}
inline void GetGeGLUMaxMinTmpSize(const ge::Shape& srcShape, const uint32_t typeSize,
                                  const bool isReuseSource, uint32_t& maxValue,
                                  uint32_t& minValue) {
  (void)typeSize;
  (void)isReuseSource;
  detail::MathTmpSize(srcShape, maxValue, minValue);
}
// (CANN's argument order: the sizes before isReuseSource.)
inline void GetSwiGLUMaxMinTmpSize(const ge::Shape& srcShape, const uint32_t typeSize,
                                   uint32_t& maxValue, uint32_t& minValue,
                                   const bool isReuseSource = false) {
  (void)typeSize;
  (void)isReuseSource;
  detail::MathTmpSize(srcShape, maxValue, minValue);
}
inline void GetCumSumMaxMinTmpSize(const ge::Shape& srcShape, const uint32_t typeSize,
                                   const bool isReuseSource, const bool isLastAxis,
                                   uint32_t& maxValue, uint32_t& minValue) {
  (void)typeSize;
  (void)isReuseSource;
  (void)isLastAxis;
  detail::MathTmpSize(srcShape, maxValue, minValue);
}
inline void GetSwishTmpSize(const ge::Shape& srcShape, const uint32_t typeSize,
                            const bool isReuseSource, uint32_t& maxValue, uint32_t& minValue) {
  (void)typeSize;
  (void)isReuseSource;
  detail::MathTmpSize(srcShape, maxValue, minValue);
}
inline void GetSiluTmpSize(const ge::Shape& srcShape, const uint32_t typeSize,
                           const bool isReuseSource, uint32_t& maxValue, uint32_t& minValue) {
  GetSwishTmpSize(srcShape, typeSize, isReuseSource, maxValue, minValue);
}
inline uint32_t GetGeluMaxTmpSize(const ge::Shape& srcShape, const uint32_t typeSize) {
  uint32_t maxValue = 0, minValue = 0;
  (void)typeSize;
  detail::MathTmpSize(srcShape, maxValue, minValue);
  return maxValue;
}
inline uint32_t GetGeluMinTmpSize(const ge::Shape& srcShape, const uint32_t typeSize) {
  uint32_t maxValue = 0, minValue = 0;
  (void)typeSize;
  detail::MathTmpSize(srcShape, maxValue, minValue);
  return minValue;
}

// RmsNorm over [B, S, H] (H 32-byte aligned; originSrcShape's H the data): the emulation
// needs no temporary buffer, so the sizes are OpenCANN's (one float row at least, all rows at
// most); false when the shape is not three axes.
inline bool GetRmsNormMaxMinTmpSize(const ge::Shape& srcShape, const uint32_t typeSize,
                                    uint32_t& maxValue, uint32_t& minValue,
                                    const bool isBasicBlock = false) {
  (void)typeSize;
  (void)isBasicBlock;
  if (srcShape.GetDimNum() != 3) return false;
  const uint64_t h = static_cast<uint64_t>(srcShape.GetDim(2));
  const uint64_t rows = static_cast<uint64_t>(srcShape.GetDim(0) * srcShape.GetDim(1));
  minValue = static_cast<uint32_t>(std::min<uint64_t>(h * 4 + 32, UINT32_MAX));
  maxValue = static_cast<uint32_t>(std::min<uint64_t>(rows * (h * 4 + 32), UINT32_MAX));
  return true;
}
inline bool GetRmsNormTilingInfo(const ge::Shape& srcShape, const ge::Shape& originSrcShape,
                                 const uint32_t stackBufferByteSize, const uint32_t typeSize,
                                 optiling::RmsNormTiling& tiling, const bool isBasicBlock = false) {
  (void)isBasicBlock;
  if (srcShape.GetDimNum() != 3 || originSrcShape.GetDimNum() != 3 || typeSize == 0) return false;
  tiling = optiling::RmsNormTiling();
  tiling.bLength = static_cast<uint32_t>(srcShape.GetDim(0));
  tiling.sLength = static_cast<uint32_t>(srcShape.GetDim(1));
  tiling.hLength = static_cast<uint32_t>(srcShape.GetDim(2));
  tiling.originalHLength = static_cast<uint32_t>(originSrcShape.GetDim(2));
  if (tiling.hLength == 0 || tiling.originalHLength == 0 || tiling.originalHLength > tiling.hLength)
    return false;
  tiling.reciprocalOfHLength = 1.0f / static_cast<float>(tiling.originalHLength);
  const uint32_t bs = tiling.bLength * tiling.sLength;
  const uint32_t per_pass = std::max<uint32_t>(1, stackBufferByteSize / (tiling.hLength * 4 + 32));
  tiling.mainBsLength = std::min(bs, per_pass);
  tiling.mainBsLengthAlign = (tiling.mainBsLength + 7) / 8 * 8;
  tiling.mainBshLength = tiling.mainBsLength * tiling.hLength;
  tiling.loopRound = tiling.mainBsLength ? bs / tiling.mainBsLength : 0;
  tiling.inputTailPos = tiling.loopRound * tiling.mainBshLength;
  tiling.tailBsLength = bs - tiling.loopRound * tiling.mainBsLength;
  tiling.tailBshLength = tiling.tailBsLength * tiling.hLength;
  return true;
}

// AscendQuant / AscendDequant need no temporary buffer here: OpenCANN's sizes, a float per
// element at most and one 32-byte block at least.
inline void GetAscendQuantMaxMinTmpSize(const ge::Shape& srcShape, const uint32_t typeSize,
                                        uint32_t& maxValue, uint32_t& minValue) {
  (void)typeSize;
  const uint64_t n = srcShape.GetDimNum() ? static_cast<uint64_t>(srcShape.GetShapeSize()) : 0;
  maxValue = static_cast<uint32_t>(std::min<uint64_t>(std::max<uint64_t>(n * 4, 32), UINT32_MAX));
  minValue = 32;
}
inline void GetAscendDequantMaxMinTmpSize(const ge::Shape& srcShape, const uint32_t typeSize,
                                          uint32_t& maxValue, uint32_t& minValue) {
  GetAscendQuantMaxMinTmpSize(srcShape, typeSize, maxValue, minValue);
}

// The reductions by pattern (ReduceMax<T, Pattern::Reduce::AR/RA>): no temporary buffer
// here, so OpenCANN's sizes (a float per element at most, one 32-byte block at least).
enum class ReducePattern { AR = 0, RA };
#define OC_REDUCE_TMP_SIZE(NAME)                                                                  \
  inline void NAME(const ge::Shape& srcShape, const ge::DataType dataType,                        \
                   const ReducePattern pattern, const bool isSrcInnerPad,                         \
                   const bool isReuseSource, uint32_t& maxValue, uint32_t& minValue) {            \
    (void)dataType;                                                                               \
    (void)pattern;                                                                                \
    (void)isSrcInnerPad;                                                                          \
    (void)isReuseSource;                                                                          \
    const uint64_t n = srcShape.GetDimNum() ? static_cast<uint64_t>(srcShape.GetShapeSize()) : 0; \
    maxValue =                                                                                    \
        static_cast<uint32_t>(std::min<uint64_t>(std::max<uint64_t>(n * 4, 32), UINT32_MAX));     \
    minValue = 32;                                                                                \
  }
OC_REDUCE_TMP_SIZE(GetReduceMaxMaxMinTmpSize)
OC_REDUCE_TMP_SIZE(GetReduceMinMaxMinTmpSize)
OC_REDUCE_TMP_SIZE(GetReduceSumMaxMinTmpSize)
#undef OC_REDUCE_TMP_SIZE
}  // namespace AscendC

namespace matmul_tiling {

// The order Matmul::Iterate walks the base blocks: M first (the default) or N first.
enum class MatrixTraverse { NOSET = 0, FIRSTM = 1, FIRSTN = 2 };

// Where an operand lives (the tiling only records it): LCM is the local cache memory, UB on
// Atlas A2 (a Matmul result that stays on chip for the vector core).
enum class TPosition {
  GM,
  VECIN,
  VECOUT,
  VECCALC,
  A1,
  B1,
  A2,
  B2,
  CO1,
  CO2,
  TSCM,
  LCM,
  C1,
  C2,
  SPM,
  SHM
};
enum class CubeFormat { ND, NZ, ND_ALIGN, SCALAR, VECTOR };
enum class DataType { DT_FLOAT = 0, DT_FLOAT16 = 1, DT_INT8 = 2, DT_INT32 = 3, DT_BF16 = 27 };

inline int32_t SizeOf(DataType t) {
  return t == DataType::DT_FLOAT || t == DataType::DT_INT32 ? 4 : t == DataType::DT_INT8 ? 1 : 2;
}

class MatmulApiTiling {
 public:
  MatmulApiTiling() = default;
  explicit MatmulApiTiling(const platform_ascendc::PlatformAscendC&) {}
  virtual ~MatmulApiTiling() = default;
  int32_t SetTraverse(MatrixTraverse traverse) {
    traverse_ = traverse;
    return 0;
  }
  int32_t SetAType(TPosition, CubeFormat, DataType t, bool isTrans = false) {
    a_ = t;
    trans_a_ = isTrans;
    return 0;
  }
  int32_t SetBType(TPosition, CubeFormat, DataType t, bool isTrans = false) {
    b_ = t;
    trans_b_ = isTrans;
    return 0;
  }
  int32_t SetCType(TPosition pos, CubeFormat, DataType t) {
    c_ = t;
    c_in_ub_ = pos == TPosition::VECIN || pos == TPosition::VECOUT || pos == TPosition::VECCALC ||
               pos == TPosition::LCM;
    return 0;
  }
  int32_t SetBiasType(TPosition, CubeFormat, DataType) { return 0; }
  int32_t SetShape(int32_t m, int32_t n, int32_t k) {
    m_ = m, n_ = n, k_ = k;
    if (!org_m_) org_m_ = m, org_n_ = n, org_ka_ = org_kb_ = k;
    return 0;
  }
  int32_t SetOrgShape(int32_t m, int32_t n, int32_t k) { return SetOrgShape(m, n, k, k); }
  int32_t SetOrgShape(int32_t m, int32_t n, int32_t ka, int32_t kb) {
    org_m_ = m, org_n_ = n, org_ka_ = ka, org_kb_ = kb;
    return 0;
  }
  int32_t SetBias(bool bias = false) {
    bias_ = bias;
    return 0;
  }
  // The newer spelling (CANN 9's samples).
  int32_t EnableBias(bool bias = false) { return SetBias(bias); }
  int32_t SetBufferSpace(int32_t = -1, int32_t = -1, int32_t = -1, int32_t = -1) { return 0; }
  int32_t SetFixSplit(int32_t baseM = -1, int32_t baseN = -1, int32_t baseK = -1) {
    fix_m_ = baseM, fix_n_ = baseN, fix_k_ = baseK;
    return 0;
  }
  // Fills `tiling`; -1 when the shape is unset or the split cannot fit L0 (64 KiB L0A/L0B,
  // 128 KiB L0C).
  virtual int64_t GetTiling(TCubeTiling& t) {
    ResolveShape();
    if (m_ <= 0 || n_ <= 0 || k_ <= 0) return -1;
    Split(1, 1, &t);
    return Check(t) ? 0 : -1;
  }

 protected:
  // SetShape's -1: that axis of the original shape (SetOrgShape).
  void ResolveShape() {
    if (m_ <= 0) m_ = org_m_;
    if (n_ <= 0) n_ = org_n_;
    if (k_ <= 0) k_ = org_ka_;
  }
  void Split(int32_t m_cores, int32_t n_cores, TCubeTiling* t) const {
    t->M = org_m_, t->N = org_n_, t->Ka = org_ka_, t->Kb = org_kb_;
    t->singleCoreM = (m_ + m_cores - 1) / m_cores;
    t->singleCoreN = (n_ + n_cores - 1) / n_cores;
    t->singleCoreK = k_;
    ChooseBase(t);
    t->usedCoreNum = m_cores * n_cores;
    t->isBias = bias_ ? 1 : 0;
    t->iterateOrder = traverse_ == MatrixTraverse::FIRSTN ? 1 : 0;
  }
  // The base block: SetFixSplit's, else as large as L0 holds — up to 256 rows, the columns
  // L0C's 128 KiB of float leaves, and the depth L0A/L0B's 64 KiB leave — within the single
  // core's shape (CANN's samples that fix a constant MatmulConfig assume this filling).
  void ChooseBase(TCubeTiling* t) const {
    auto round16 = [](int32_t v) { return std::max(16, (v + 15) / 16 * 16); };
    const int32_t in_bytes = std::max(SizeOf(a_), SizeOf(b_));
    t->baseM = fix_m_ > 0 ? fix_m_ : std::min(256, round16(t->singleCoreM));
    t->baseN = fix_n_ > 0 ? fix_n_
                          : std::min(round16(t->singleCoreN),
                                     std::max(16, (32 * 1024 / t->baseM) / 16 * 16));
    const int32_t wide = std::max(t->baseM, t->baseN);
    t->baseK = fix_k_ > 0 ? fix_k_
                          : std::min(round16(t->singleCoreK),
                                     std::max(16, (64 * 1024 / in_bytes / wide) / 16 * 16));
  }
  bool Check(const TCubeTiling& t) const {
    return int64_t(t.baseM) * t.baseK * SizeOf(a_) <= 64 * 1024 &&
           int64_t(t.baseK) * t.baseN * SizeOf(b_) <= 64 * 1024 &&
           int64_t(t.baseM) * t.baseN * 4 <= 128 * 1024;
  }
  DataType a_ = DataType::DT_FLOAT16, b_ = DataType::DT_FLOAT16, c_ = DataType::DT_FLOAT;
  bool trans_a_ = false, trans_b_ = false, bias_ = false;
  bool c_in_ub_ = false;  // C goes to the vector cores' UB (a MIX kernel's Matmul)
  int32_t m_ = 0, n_ = 0, k_ = 0, org_m_ = 0, org_n_ = 0, org_ka_ = 0, org_kb_ = 0;
  int32_t fix_m_ = -1, fix_n_ = -1, fix_k_ = -1;
  MatrixTraverse traverse_ = MatrixTraverse::FIRSTM;
};

// Splits M and N over up to `dim` cores (each core computes singleCoreM x singleCoreN).
class MultiCoreMatmulTiling : public MatmulApiTiling {
 public:
  using MatmulApiTiling::MatmulApiTiling;
  int32_t SetDim(int32_t dim) {
    dim_ = std::max(1, dim);
    return 0;
  }
  int32_t SetSingleShape(int32_t m = -1, int32_t n = -1, int32_t k = -1) {
    single_m_ = m, single_n_ = n, single_k_ = k;
    return 0;
  }
  int64_t GetTiling(TCubeTiling& t) override {
    ResolveShape();
    if (m_ <= 0 || n_ <= 0 || k_ <= 0) return -1;
    // Of the splits that use the most cores (blocks of at least 16 rows and columns), the
    // one that loads the least from GM per core: A once per column of base blocks, B once
    // per row of them. A tie goes to the split over M, or over N when C goes to UB (the
    // splits CANN's samples rely on in both cases; CANN's own rule is not published).
    const int32_t m_blocks = (m_ + 15) / 16, n_blocks = (n_ + 15) / 16;
    int32_t m_cores = 1, n_cores = 1;
    int64_t best_cost = -1;
    for (int32_t mc = 1; mc <= std::min(dim_, m_blocks); ++mc) {
      for (int32_t nc = 1; nc <= std::min(dim_ / mc, n_blocks); ++nc) {
        TCubeTiling c;
        Split(mc, nc, &c);
        const int64_t rows = (int64_t(c.singleCoreM) + c.baseM - 1) / c.baseM;
        const int64_t cols = (int64_t(c.singleCoreN) + c.baseN - 1) / c.baseN;
        const int64_t cost =
            int64_t(c.singleCoreM) * k_ * cols + int64_t(c.singleCoreN) * k_ * rows;
        const bool more_cores = mc * nc > m_cores * n_cores;
        const bool same_cores = mc * nc == m_cores * n_cores;
        if (best_cost < 0 || more_cores ||
            (same_cores && (cost < best_cost ||
                            (cost == best_cost && (c_in_ub_ ? nc > n_cores : mc > m_cores))))) {
          m_cores = mc, n_cores = nc, best_cost = cost;
        }
      }
    }
    Split(m_cores, n_cores, &t);
    if (single_m_ > 0) t.singleCoreM = single_m_;
    if (single_n_ > 0) t.singleCoreN = single_n_;
    if (single_k_ > 0) t.singleCoreK = single_k_;
    if (single_m_ > 0 || single_n_ > 0 || single_k_ > 0) ChooseBase(&t);
    t.usedCoreNum =
        ((m_ + t.singleCoreM - 1) / t.singleCoreM) * ((n_ + t.singleCoreN - 1) / t.singleCoreN);
    last_m_ = t.singleCoreM, last_n_ = t.singleCoreN, last_k_ = t.singleCoreK;
    return Check(t) ? 0 : -1;
  }
  // What SetSingleShape gave, else what the last GetTiling chose.
  int32_t GetSingleShape(int32_t& m, int32_t& n, int32_t& k) const {
    m = single_m_ > 0 ? single_m_ : last_m_;
    n = single_n_ > 0 ? single_n_ : last_n_;
    k = single_k_ > 0 ? single_k_ : last_k_;
    return 0;
  }

 private:
  int32_t dim_ = 1, single_m_ = -1, single_n_ = -1, single_k_ = -1;
  int32_t last_m_ = -1, last_n_ = -1, last_k_ = -1;
};

}  // namespace matmul_tiling
