// TCubeTiling: how a matmul is split (per core and per base block); the host computes it
// with matmul_tiling (tiling/tiling_api.h), the kernel's Matmul reads it.
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstring>

// set_<field>/get_<field> as the host's optiling::TCubeTiling (BEGIN_TILING_DATA_DEF) has.
#define OC_TILING_FIELD_ACCESS(field)        \
  void set_##field(int32_t v) { field = v; } \
  int32_t get_##field() const { return field; }

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
  OC_TILING_FIELD_ACCESS(usedCoreNum)
  OC_TILING_FIELD_ACCESS(M)
  OC_TILING_FIELD_ACCESS(N)
  OC_TILING_FIELD_ACCESS(Ka)
  OC_TILING_FIELD_ACCESS(Kb)
  OC_TILING_FIELD_ACCESS(singleCoreM)
  OC_TILING_FIELD_ACCESS(singleCoreN)
  OC_TILING_FIELD_ACCESS(singleCoreK)
  OC_TILING_FIELD_ACCESS(baseM)
  OC_TILING_FIELD_ACCESS(baseN)
  OC_TILING_FIELD_ACCESS(baseK)
  OC_TILING_FIELD_ACCESS(depthA1)
  OC_TILING_FIELD_ACCESS(depthB1)
  OC_TILING_FIELD_ACCESS(stepM)
  OC_TILING_FIELD_ACCESS(stepN)
  OC_TILING_FIELD_ACCESS(stepKa)
  OC_TILING_FIELD_ACCESS(stepKb)
  OC_TILING_FIELD_ACCESS(isBias)
  OC_TILING_FIELD_ACCESS(transLength)
  OC_TILING_FIELD_ACCESS(iterateOrder)
  OC_TILING_FIELD_ACCESS(shareL1Size)
  OC_TILING_FIELD_ACCESS(shareL0CSize)
  OC_TILING_FIELD_ACCESS(shareUbSize)
  OC_TILING_FIELD_ACCESS(dbL0A)
  OC_TILING_FIELD_ACCESS(dbL0B)
  OC_TILING_FIELD_ACCESS(dbL0C)
  size_t GetDataSize() const { return sizeof(TCubeTiling); }
  // Copies the tiling into a buffer of `capacity` bytes (false, nothing written, when short).
  bool SaveToBuffer(void* data, size_t capacity) const {
    if (!data || capacity < sizeof(TCubeTiling)) return false;
    std::memcpy(data, this, sizeof(TCubeTiling));
    return true;
  }
};

// Pad / UnPad tilings (fields in CANN's order; the emulation uses the shape fields).
struct PadTiling {
  uint32_t srcHeight = 0, srcWidth = 0, srcOriWidth = 0, widthWithoutLastBlock = 0,
           blocksPerRow = 0, heightTiling = 0, heightFractal = 0, heightFractalTail = 0,
           mainLoopOffset = 0, tailBlockOffset = 0, tmpBuffer1BlockNum = 0, tmpBuffer1RowNum = 0,
           tmpBuffer2Offset = 0, widthTiling = 0, widthFractal = 0, widthFractalTail = 0,
           widthFractalTailAlingned = 0, brcbTiling = 0, brcbFractal = 0, brcbFractalTail = 0,
           maxRepeatTimes = 0;
  // As host code uses CANN's tiling data classes: the bytes a kernel receives.
  size_t GetDataSize() const { return sizeof(PadTiling); }
  bool SaveToBuffer(void* data, size_t capacity) const {
    if (!data || capacity < sizeof(PadTiling)) return false;
    std::memcpy(data, this, sizeof(PadTiling));
    return true;
  }
};
struct UnPadTiling {
  uint32_t srcHeight = 0, srcWidth = 0, tmpBuffer1BlockNum = 0, tmpBuffer1RowNum = 0,
           tmpBuffer2Offset = 0, widthTiling = 0, widthFractal = 0, widthFractalTail = 0;
  size_t GetDataSize() const { return sizeof(UnPadTiling); }
  bool SaveToBuffer(void* data, size_t capacity) const {
    if (!data || capacity < sizeof(UnPadTiling)) return false;
    std::memcpy(data, this, sizeof(UnPadTiling));
    return true;
  }
};

// The SoftMax family's tiling (SoftMaxTilingFunc fills it on the host). The emulation reads
// srcM and srcK (the rows and the 32-byte-aligned last axis); the split fields are kept as
// the host computed them.
#define OC_SOFTMAX_FIELD(name)              \
  uint32_t name = 0;                        \
  void set_##name(uint32_t v) { name = v; } \
  uint32_t get_##name() const { return name; }
struct SoftMaxTiling {
  OC_SOFTMAX_FIELD(srcM)
  OC_SOFTMAX_FIELD(srcK)
  OC_SOFTMAX_FIELD(srcSize)
  OC_SOFTMAX_FIELD(outMaxM)
  OC_SOFTMAX_FIELD(outMaxK)
  OC_SOFTMAX_FIELD(outMaxSize)
  OC_SOFTMAX_FIELD(splitM)
  OC_SOFTMAX_FIELD(splitK)
  OC_SOFTMAX_FIELD(splitSize)
  OC_SOFTMAX_FIELD(reduceM)
  OC_SOFTMAX_FIELD(reduceK)
  OC_SOFTMAX_FIELD(reduceSize)
  OC_SOFTMAX_FIELD(rangeM)
  OC_SOFTMAX_FIELD(tailM)
  OC_SOFTMAX_FIELD(tailSplitSize)
  OC_SOFTMAX_FIELD(tailReduceSize)
  size_t GetDataSize() const { return sizeof(SoftMaxTiling); }
  bool SaveToBuffer(void* data, size_t capacity) const {
    if (!data || capacity < sizeof(SoftMaxTiling)) return false;
    std::memcpy(data, this, sizeof(SoftMaxTiling));
    return true;
  }
};
#undef OC_SOFTMAX_FIELD

// RmsNorm's tiling over [B, S, H] (GetRmsNormTilingInfo fills it): the emulation reads the
// lengths and reciprocalOfHLength; the split fields are kept as the host computed them.
struct RmsNormTiling {
  uint32_t bLength = 0, sLength = 0, hLength = 0, originalHLength = 0;
  float reciprocalOfHLength = 0;
  uint32_t mainBshLength = 0, mainBsLength = 0, mainBsLengthAlign = 0, loopRound = 0,
           inputTailPos = 0, tailBshLength = 0, tailBsLength = 0;
  size_t GetDataSize() const { return sizeof(RmsNormTiling); }
  bool SaveToBuffer(void* data, size_t capacity) const {
    if (!data || capacity < sizeof(RmsNormTiling)) return false;
    std::memcpy(data, this, sizeof(RmsNormTiling));
    return true;
  }
};

namespace optiling {
using TCubeTiling = ::TCubeTiling;
using SoftMaxTiling = ::SoftMaxTiling;
using RmsNormTiling = ::RmsNormTiling;
using PadTiling = ::PadTiling;
using UnPadTiling = ::UnPadTiling;
}  // namespace optiling

// The newer headers' home of the same structs: kernels take `AscendC::tiling::TCubeTiling`
// by value as a kernel parameter.
namespace AscendC::tiling {
using ::PadTiling;
using ::RmsNormTiling;
using ::SoftMaxTiling;
using ::TCubeTiling;
using ::UnPadTiling;
}  // namespace AscendC::tiling
