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

// The advanced API's other tilings, field for field in CANN's order (their host functions
// fill them; the emulation reads the shape fields and keeps the rest as computed).
#define OC_TILING_FIELD(type, name)     \
  type name = 0;                        \
  void set_##name(type v) { name = v; } \
  type get_##name() const { return name; }
#define OC_TILING_BYTES(name)                            \
  size_t GetDataSize() const { return sizeof(name); }    \
  bool SaveToBuffer(void* data, size_t capacity) const { \
    if (!data || capacity < sizeof(name)) return false;  \
    std::memcpy(data, this, sizeof(name));               \
    return true;                                         \
  }
// TopK (112 bytes). tmpLocalSize counts elements of the data type.
struct TopkTiling {
  OC_TILING_FIELD(int32_t, tmpLocalSize)
  OC_TILING_FIELD(int32_t, allDataSize)
  OC_TILING_FIELD(int32_t, innerDataSize)
  OC_TILING_FIELD(uint32_t, sortRepeat)
  OC_TILING_FIELD(int32_t, mrgSortRepeat)
  OC_TILING_FIELD(int32_t, kAlignFourBytes)
  OC_TILING_FIELD(int32_t, kAlignTwoBytes)
  OC_TILING_FIELD(int32_t, maskOffset)
  OC_TILING_FIELD(int32_t, maskVreducev2FourBytes)
  OC_TILING_FIELD(int32_t, maskVreducev2TwoBytes)
  OC_TILING_FIELD(int32_t, mrgSortSrc1offset)
  OC_TILING_FIELD(int32_t, mrgSortSrc2offset)
  OC_TILING_FIELD(int32_t, mrgSortSrc3offset)
  OC_TILING_FIELD(int32_t, mrgSortTwoQueueSrc1Offset)
  OC_TILING_FIELD(int32_t, mrgFourQueueTailPara1)
  OC_TILING_FIELD(int32_t, mrgFourQueueTailPara2)
  OC_TILING_FIELD(int32_t, srcIndexOffset)
  OC_TILING_FIELD(uint32_t, copyUbToUbBlockCount)
  OC_TILING_FIELD(int32_t, topkMrgSrc1MaskSizeOffset)
  OC_TILING_FIELD(int32_t, topkNSmallSrcIndexOffset)
  OC_TILING_FIELD(uint32_t, vreduceValMask0)
  OC_TILING_FIELD(uint32_t, vreduceValMask1)
  OC_TILING_FIELD(uint32_t, vreduceIdxMask0)
  OC_TILING_FIELD(uint32_t, vreduceIdxMask1)
  OC_TILING_FIELD(uint16_t, vreducehalfValMask0)
  OC_TILING_FIELD(uint16_t, vreducehalfValMask1)
  OC_TILING_FIELD(uint16_t, vreducehalfValMask2)
  OC_TILING_FIELD(uint16_t, vreducehalfValMask3)
  OC_TILING_FIELD(uint16_t, vreducehalfValMask4)
  OC_TILING_FIELD(uint16_t, vreducehalfValMask5)
  OC_TILING_FIELD(uint16_t, vreducehalfValMask6)
  OC_TILING_FIELD(uint16_t, vreducehalfValMask7)
  OC_TILING_BYTES(TopkTiling)
};
// LayerNorm over [B, S, H]: lastDimValueBack is 1 / originalHLength.
struct LayerNormTiling {
  OC_TILING_FIELD(uint32_t, bLength)
  OC_TILING_FIELD(uint32_t, sLength)
  OC_TILING_FIELD(uint32_t, hLength)
  OC_TILING_FIELD(uint32_t, originalHLength)
  OC_TILING_FIELD(uint32_t, inputXSize)
  OC_TILING_FIELD(uint32_t, meanVarSize)
  OC_TILING_FIELD(uint32_t, numberOfTmpBuf)
  OC_TILING_FIELD(uint32_t, meanTmpTensorPos)
  OC_TILING_FIELD(uint32_t, meanTmpTensorSize)
  OC_TILING_FIELD(uint32_t, varianceTmpTensorPos)
  OC_TILING_FIELD(uint32_t, varianceTmpTensorSize)
  OC_TILING_FIELD(uint32_t, tmpBufSize)
  OC_TILING_FIELD(uint32_t, oneTmpSize)
  OC_TILING_FIELD(uint32_t, firstTmpStartPos)
  OC_TILING_FIELD(uint32_t, secondTmpStartPos)
  OC_TILING_FIELD(uint32_t, thirdTmpStartPos)
  OC_TILING_FIELD(uint32_t, loopRound)
  OC_TILING_FIELD(uint32_t, inputRoundSize)
  OC_TILING_FIELD(uint32_t, inputTailSize)
  OC_TILING_FIELD(uint32_t, inputTailPos)
  OC_TILING_FIELD(uint32_t, meanVarRoundSize)
  OC_TILING_FIELD(uint32_t, meanVarTailSize)
  OC_TILING_FIELD(uint32_t, meanVarTailPos)
  OC_TILING_FIELD(uint32_t, bshCurLength)
  OC_TILING_FIELD(uint32_t, bsCurLength)
  OC_TILING_FIELD(float, lastDimValueBack)
  OC_TILING_BYTES(LayerNormTiling)
};
// LayerNormGrad: the last two fields hold the bits of the floats 1/H and 2/H.
struct LayerNormGradTiling {
  OC_TILING_FIELD(uint32_t, stackBufferSize)
  OC_TILING_FIELD(uint32_t, bLength)
  OC_TILING_FIELD(uint32_t, sLength)
  OC_TILING_FIELD(uint32_t, hLength)
  OC_TILING_FIELD(uint32_t, originalHLength)
  OC_TILING_FIELD(uint32_t, oneCalSize)
  OC_TILING_FIELD(uint32_t, nohCalSize)
  OC_TILING_FIELD(uint32_t, loopNum)
  OC_TILING_FIELD(uint32_t, tailSize)
  OC_TILING_FIELD(uint32_t, nohTailSize)
  OC_TILING_FIELD(uint32_t, tmpTensorBSHPos)
  OC_TILING_FIELD(uint32_t, tmpTensorBSHSize)
  OC_TILING_FIELD(uint32_t, pdVarTensorPos)
  OC_TILING_FIELD(uint32_t, pdVarTensorSize)
  OC_TILING_FIELD(uint32_t, pdMeanTensorPos)
  OC_TILING_FIELD(uint32_t, pdMeanTensorSize)
  OC_TILING_FIELD(uint32_t, x1TensorPos)
  OC_TILING_FIELD(uint32_t, x1TensorSize)
  OC_TILING_FIELD(uint32_t, x2TensorPos)
  OC_TILING_FIELD(uint32_t, x2TensorSize)
  OC_TILING_FIELD(uint32_t, x3TensorPos)
  OC_TILING_FIELD(uint32_t, x3TensorSize)
  OC_TILING_FIELD(uint32_t, tmpTensorPos)
  OC_TILING_FIELD(uint32_t, tmpTensorSize)
  OC_TILING_FIELD(uint32_t, tmpTensor1Pos)
  OC_TILING_FIELD(uint32_t, tmpTensor1Size)
  OC_TILING_FIELD(uint32_t, tmpTensor2Pos)
  OC_TILING_FIELD(uint32_t, tmpTensor2Size)
  OC_TILING_FIELD(uint32_t, lastDimValueBack)
  OC_TILING_FIELD(uint32_t, lastDimValueBackMulTwo)
  OC_TILING_BYTES(LayerNormGradTiling)
};
// LayerNormGradBeta.
struct LayerNormGradBetaTiling {
  OC_TILING_FIELD(uint32_t, stackBufferSize)
  OC_TILING_FIELD(uint32_t, bLength)
  OC_TILING_FIELD(uint32_t, sLength)
  OC_TILING_FIELD(uint32_t, hLength)
  OC_TILING_FIELD(uint32_t, originalHLength)
  OC_TILING_FIELD(uint32_t, bshLength)
  OC_TILING_FIELD(uint32_t, bsLength)
  OC_TILING_FIELD(uint32_t, oneCalSize)
  OC_TILING_FIELD(uint32_t, numberOfTmpBuf)
  OC_TILING_FIELD(uint32_t, loopRound)
  OC_TILING_FIELD(uint32_t, inputTailSize)
  OC_TILING_FIELD(uint32_t, inputTailPos)
  OC_TILING_FIELD(uint32_t, bsTailSize)
  OC_TILING_FIELD(uint32_t, bshCurLength)
  OC_TILING_FIELD(uint32_t, bsCurLength)
  OC_TILING_FIELD(uint32_t, gammaTempTensorPos)
  OC_TILING_FIELD(uint32_t, betaTempTensorPos)
  OC_TILING_FIELD(uint32_t, inputDyTmpTensorPos)
  OC_TILING_FIELD(uint32_t, resForGammaTmpTensorPos)
  OC_TILING_FIELD(uint32_t, reserved)
  OC_TILING_BYTES(LayerNormGradBetaTiling)
};
#undef OC_TILING_FIELD
#undef OC_TILING_BYTES

// LogSoftMax keeps the same row statistics and split as SoftMax.
using LogSoftMaxTiling = SoftMaxTiling;

namespace optiling {
using LogSoftMaxTiling = ::SoftMaxTiling;
using TCubeTiling = ::TCubeTiling;
using SoftMaxTiling = ::SoftMaxTiling;
using RmsNormTiling = ::RmsNormTiling;
using PadTiling = ::PadTiling;
using UnPadTiling = ::UnPadTiling;
using TopkTiling = ::TopkTiling;
using LayerNormTiling = ::LayerNormTiling;
using LayerNormGradTiling = ::LayerNormGradTiling;
using LayerNormGradBetaTiling = ::LayerNormGradBetaTiling;
}  // namespace optiling

// The newer headers' home of the same structs: kernels take `AscendC::tiling::TCubeTiling`
// by value as a kernel parameter.
namespace AscendC::tiling {
using ::LayerNormGradBetaTiling;
using ::LayerNormGradTiling;
using ::LayerNormTiling;
using ::LogSoftMaxTiling;
using ::PadTiling;
using ::RmsNormTiling;
using ::SoftMaxTiling;
using ::TCubeTiling;
using ::TopkTiling;
using ::UnPadTiling;
}  // namespace AscendC::tiling
