// The Matmul templates' configuration: MatmulConfig, the Get*Config builders, GetMMConfig with
// its sub-configs, and the compile-time tiling of GetMatmulApiTiling (MatmulApiStaticTiling).
//
// On the NPU these choose schedules (how many base blocks MTE2 loads at once, L1 caching,
// unit flags, ...) that change speed, not the product. The emulation computes the same
// product for all of them; what changes the result or the call sequence is honoured:
// basicM/N/K and singleCoreM/N/K (a constant tiling, checked against the runtime one),
// iterateOrder. The features the emulation does not model (multi-batch IterateNBatch,
// intra-block partial sums, dual-master mix, partial output, anti-quantization) fail to
// compile with a message naming them (matmul_intf.h). Field names and the builders'
// parameters follow CANN's documentation; the order of the fields after basicK is ours.
#pragma once

#include <cstdint>

#include "kernel_tiling/kernel_tiling.h"

namespace AscendC {

enum class BatchMode { NONE = 0, BATCH_LESS_THAN_L1, BATCH_LARGE_THAN_L1, SINGLE_LARGE_THAN_L1 };
enum class BatchOutMode { SINGLE_BATCH = 0, MULTI_BATCH, DYNAMIC };
enum class IterateOrder { ORDER_M = 0, ORDER_N, UNDEF };
enum class ScheduleType { INNER_PRODUCT = 0, OUTER_PRODUCT };
enum IterateMode : uint8_t {
  ITERATE_MODE_NORMAL = 0b00000001,
  ITERATE_MODE_ALL = 0b00000010,
  ITERATE_MODE_BATCH = 0b00000100,
  ITERATE_MODE_N_BATCH = 0b00001000,
  ITERATE_MODE_DEFAULT = 0b11111111,
};

struct MatmulConfig {
  bool doNorm = true;
  bool doBasicBlock = false;
  bool doMultiDataLoad = false;
  // Constant base block (0: from the tiling).
  uint32_t basicM = 0, basicN = 0, basicK = 0;
  bool intrinsicsCheck = false;
  bool isNBatch = false;
  bool enVecND2NZ = false;
  bool doSpecialBasicBlock = false;
  uint32_t doMTE2Preload = 0;
  // Constant single-core shape (0: from the tiling).
  uint32_t singleCoreM = 0, singleCoreN = 0, singleCoreK = 0;
  uint32_t stepM = 0, stepN = 0;
  uint32_t baseMN = 0, singleCoreMN = 0;
  bool enUnitFlag = true;
  bool isPerTensor = false, hasAntiQuantOffset = false;
  bool doIBShareNorm = false, doSpecialMDL = false;
  bool enableInit = true;
  BatchMode batchMode = BatchMode::BATCH_LESS_THAN_L1;
  bool enableEnd = true, enableGetTensorC = true, enableSetOrgShape = true, enableSetBias = true,
       enableSetTail = true, enableQuantVector = true, enableSetDefineData = true;
  uint8_t iterateMode = ITERATE_MODE_DEFAULT;
  bool enableReuse = true, enableUBReuse = false, enableL1CacheUB = false;
  bool intraBlockPartSum = false;
  IterateOrder iterateOrder = IterateOrder::UNDEF;
  ScheduleType scheduleType = ScheduleType::INNER_PRODUCT;
  bool enableDoubleCache = false, isBiasBatch = true, enableStaticPadZeros = false;
  bool isPartialOutput = false, enableMixDualMaster = false, isA2B2Shared = false;
  bool isEnableChannelSplit = false, enableKdimReorderLoad = false;
  BatchOutMode bmmOutMode = BatchOutMode::SINGLE_BATCH;
};

// The templates' builders, parameters as CANN documents them.
constexpr MatmulConfig GetNormalConfig(bool intrinsicsLimit = false, bool batchLoop = false,
                                       bool isVecND2NZ = false,
                                       BatchMode bmmMode = BatchMode::BATCH_LESS_THAN_L1,
                                       bool isMsgReuse = true,
                                       IterateOrder iterateOrder = IterateOrder::UNDEF,
                                       ScheduleType scheduleType = ScheduleType::INNER_PRODUCT,
                                       bool enUnitFlag = true, bool enableMixDualMaster = false,
                                       BatchOutMode bmmOutMode = BatchOutMode::SINGLE_BATCH) {
  MatmulConfig c;
  c.intrinsicsCheck = intrinsicsLimit;
  c.isNBatch = batchLoop;
  c.enVecND2NZ = isVecND2NZ;
  c.batchMode = bmmMode;
  c.enableReuse = isMsgReuse;
  c.iterateOrder = iterateOrder;
  c.scheduleType = scheduleType;
  c.enUnitFlag = enUnitFlag;
  c.enableMixDualMaster = enableMixDualMaster;
  c.bmmOutMode = bmmOutMode;
  return c;
}

constexpr MatmulConfig GetMDLConfig(bool intrinsicsLimit = false, bool batchLoop = false,
                                    uint32_t doMTE2Preload = 0, bool isVecND2NZ = false,
                                    bool isPerTensor = false, bool hasAntiQuantOffset = false,
                                    bool enUnitFlag = false, bool isMsgReuse = true,
                                    bool enableUBReuse = true, bool enableL1CacheUB = false,
                                    bool enableMixDualMaster = false,
                                    bool enableKdimReorderLoad = false) {
  MatmulConfig c;
  c.doNorm = false;
  c.doMultiDataLoad = true;
  c.intrinsicsCheck = intrinsicsLimit;
  c.isNBatch = batchLoop;
  c.doMTE2Preload = doMTE2Preload;
  c.enVecND2NZ = isVecND2NZ;
  c.isPerTensor = isPerTensor;
  c.hasAntiQuantOffset = hasAntiQuantOffset;
  c.enUnitFlag = enUnitFlag;
  c.enableReuse = isMsgReuse;
  c.enableUBReuse = enableUBReuse;
  c.enableL1CacheUB = enableL1CacheUB;
  c.enableMixDualMaster = enableMixDualMaster;
  c.enableKdimReorderLoad = enableKdimReorderLoad;
  return c;
}

constexpr MatmulConfig GetSpecialMDLConfig(bool intrinsicsLimit = false, bool batchLoop = false,
                                           uint32_t doMTE2Preload = 0, bool isVecND2NZ = false,
                                           bool isPerTensor = false,
                                           bool hasAntiQuantOffset = false) {
  MatmulConfig c = GetMDLConfig(intrinsicsLimit, batchLoop, doMTE2Preload, isVecND2NZ, isPerTensor,
                                hasAntiQuantOffset);
  c.doMultiDataLoad = false;
  c.doSpecialMDL = true;
  return c;
}

constexpr MatmulConfig GetIBShareNormConfig(bool intrinsicsLimit = false, bool batchLoop = false,
                                            bool isVecND2NZ = false,
                                            BatchMode bmmMode = BatchMode::BATCH_LESS_THAN_L1,
                                            bool isDoubleCache = false, bool enUnitFlag = true) {
  MatmulConfig c = GetNormalConfig(intrinsicsLimit, batchLoop, isVecND2NZ, bmmMode);
  c.doNorm = false;
  c.doIBShareNorm = true;
  c.enableDoubleCache = isDoubleCache;
  c.enUnitFlag = enUnitFlag;
  return c;
}

constexpr MatmulConfig GetBasicConfig(uint32_t basicM, uint32_t basicN, uint32_t basicK,
                                      bool intrinsicsLimit = false, bool batchLoop = false,
                                      BatchMode bmmMode = BatchMode::BATCH_LESS_THAN_L1) {
  MatmulConfig c = GetNormalConfig(intrinsicsLimit, batchLoop, false, bmmMode);
  c.doNorm = false;
  c.doBasicBlock = true;
  c.basicM = basicM, c.basicN = basicN, c.basicK = basicK;
  return c;
}

constexpr MatmulConfig GetSpecialBasicConfig(uint32_t basicM, uint32_t basicN, uint32_t basicK,
                                             uint32_t singleCoreM, uint32_t singleCoreN,
                                             uint32_t singleCoreK, uint32_t stepM, uint32_t stepN,
                                             bool intrinsicsLimit = false, bool batchLoop = false,
                                             BatchMode bmmMode = BatchMode::BATCH_LESS_THAN_L1) {
  MatmulConfig c = GetBasicConfig(basicM, basicN, basicK, intrinsicsLimit, batchLoop, bmmMode);
  c.doBasicBlock = false;
  c.doSpecialBasicBlock = true;
  c.singleCoreM = singleCoreM, c.singleCoreN = singleCoreN, c.singleCoreK = singleCoreK;
  c.stepM = stepM, c.stepN = stepN;
  return c;
}

inline constexpr MatmulConfig CFG_NORM = GetNormalConfig();
inline constexpr MatmulConfig CFG_MDL = GetMDLConfig();
inline constexpr MatmulConfig CFG_IBSHARE_NORM = GetIBShareNormConfig();
inline constexpr MatmulConfig MM_CFG_BB = GetBasicConfig(128, 128, 128);

// GetMMConfig: a template by name, then any of the sub-configs in any order.
enum class MatmulConfigMode { CONFIG_NORM, CONFIG_MDL, CONFIG_SPECIALMDL, CONFIG_IBSHARE };
struct MatmulShapeParams {
  uint32_t singleCoreM = 0, singleCoreN = 0, singleCoreK = 0;
  uint32_t basicM = 0, basicN = 0, basicK = 0;
};
struct MatmulQuantParams {
  bool isPerTensor = false, hasAntiQuantOffset = false;
};
struct MatmulBatchParams {
  bool isNBatch = false;
  BatchMode batchMode = BatchMode::BATCH_LESS_THAN_L1;
  bool isBiasBatch = true;
  BatchOutMode bmmOutMode = BatchOutMode::SINGLE_BATCH;
};
struct MatmulFuncParams {
  bool intrinsicsCheck = false, enVecND2NZ = false, enableDoubleCache = false,
       enableL1CacheUB = false;
  uint32_t doMTE2Preload = 0;
  IterateOrder iterateOrder = IterateOrder::UNDEF;
  ScheduleType scheduleType = ScheduleType::INNER_PRODUCT;
  bool enableReuse = true, enableUBReuse = false, isPartialOutput = false, isA2B2Shared = false,
       isEnableChannelSplit = false, enableKdimReorderLoad = false;
};

namespace detail {
constexpr void Apply(MatmulConfig& c, const MatmulShapeParams& p) {
  c.singleCoreM = p.singleCoreM, c.singleCoreN = p.singleCoreN, c.singleCoreK = p.singleCoreK;
  c.basicM = p.basicM, c.basicN = p.basicN, c.basicK = p.basicK;
}
constexpr void Apply(MatmulConfig& c, const MatmulQuantParams& p) {
  c.isPerTensor = p.isPerTensor, c.hasAntiQuantOffset = p.hasAntiQuantOffset;
}
constexpr void Apply(MatmulConfig& c, const MatmulBatchParams& p) {
  c.isNBatch = p.isNBatch, c.batchMode = p.batchMode, c.isBiasBatch = p.isBiasBatch,
  c.bmmOutMode = p.bmmOutMode;
}
constexpr void Apply(MatmulConfig& c, const MatmulFuncParams& p) {
  c.intrinsicsCheck = p.intrinsicsCheck, c.enVecND2NZ = p.enVecND2NZ;
  c.enableDoubleCache = p.enableDoubleCache, c.enableL1CacheUB = p.enableL1CacheUB;
  c.doMTE2Preload = p.doMTE2Preload, c.iterateOrder = p.iterateOrder;
  c.scheduleType = p.scheduleType, c.enableReuse = p.enableReuse;
  c.enableUBReuse = p.enableUBReuse, c.isPartialOutput = p.isPartialOutput;
  c.isA2B2Shared = p.isA2B2Shared, c.isEnableChannelSplit = p.isEnableChannelSplit;
  c.enableKdimReorderLoad = p.enableKdimReorderLoad;
}
}  // namespace detail

template <MatmulConfigMode configMode, typename... ArgTypes>
constexpr MatmulConfig GetMMConfig(ArgTypes&&... args) {
  MatmulConfig c = configMode == MatmulConfigMode::CONFIG_MDL          ? GetMDLConfig()
                   : configMode == MatmulConfigMode::CONFIG_SPECIALMDL ? GetSpecialMDLConfig()
                   : configMode == MatmulConfigMode::CONFIG_IBSHARE    ? GetIBShareNormConfig()
                                                                       : GetNormalConfig();
  (detail::Apply(c, args), ...);
  return c;
}

// A tiling fixed at compile time: the TCubeTiling figures GetMatmulApiTiling derives from a
// config with constant base (and single-core) shapes, and the config itself. -1 marks a
// figure the config leaves to the runtime tiling (partial constants).
struct MatmulApiStaticTiling {
  int32_t usedCoreNum = -1;
  int32_t M = -1, N = -1, Ka = -1, Kb = -1;
  int32_t singleCoreM = -1, singleCoreN = -1, singleCoreK = -1;
  int32_t baseM = -1, baseN = -1, baseK = -1;
  int32_t depthA1 = -1, depthB1 = -1, stepM = -1, stepN = -1, stepKa = -1, stepKb = -1;
  int32_t isBias = -1, transLength = -1, iterateOrder = -1;
  int32_t dbL0A = -1, dbL0B = -1, dbL0C = -1;
  MatmulConfig cfg;
};

// L1 per cube core on the 910B chips the emulation models (512 KB).
inline constexpr int32_t L1_SIZE = 512 * 1024;

// The static tiling: base sizes from the config, single-core sizes when given, and L1
// depths that fill at most half of l1Size per matrix with K steps (double-buffered when two
// sets fit). The step and depth figures are OpenCANN's choice; CANN's own may differ, and
// the emulation's product does not depend on them.
template <class A_TYPE, class B_TYPE, class C_TYPE, class BIAS_TYPE>
constexpr MatmulApiStaticTiling GetMatmulApiTiling(const MatmulConfig& mmCFG,
                                                   int32_t l1Size = L1_SIZE) {
  MatmulApiStaticTiling t;
  t.cfg = mmCFG;
  if (!mmCFG.basicM || !mmCFG.basicN || !mmCFG.basicK) return t;  // nothing constant
  t.baseM = int32_t(mmCFG.basicM), t.baseN = int32_t(mmCFG.basicN), t.baseK = int32_t(mmCFG.basicK);
  t.iterateOrder = mmCFG.iterateOrder == IterateOrder::ORDER_N ? 1 : 0;
  t.dbL0A = t.dbL0B = 2, t.dbL0C = 1;
  t.stepM = t.stepN = 1;
  const bool full = mmCFG.singleCoreM && mmCFG.singleCoreN && mmCFG.singleCoreK;
  if (full) {
    t.usedCoreNum = 1;
    t.singleCoreM = int32_t(mmCFG.singleCoreM), t.singleCoreN = int32_t(mmCFG.singleCoreN),
    t.singleCoreK = int32_t(mmCFG.singleCoreK);
    t.M = t.singleCoreM, t.N = t.singleCoreN, t.Ka = t.Kb = t.singleCoreK;
  }
  const int32_t a_block = t.baseM * t.baseK * int32_t(sizeof(typename A_TYPE::T));
  const int32_t b_block = t.baseN * t.baseK * int32_t(sizeof(typename B_TYPE::T));
  const int32_t k_steps = full ? (t.singleCoreK + t.baseK - 1) / t.baseK : 1;
  auto steps = [&](int32_t block) {
    int32_t s = 1;
    while (s < k_steps && (s + 1) * block <= l1Size / 2) ++s;
    return s;
  };
  t.stepKa = steps(a_block), t.stepKb = steps(b_block);
  t.depthA1 = t.stepKa * (2 * t.stepKa * a_block <= l1Size / 2 ? 2 : 1);
  t.depthB1 = t.stepKb * (2 * t.stepKb * b_block <= l1Size / 2 ? 2 : 1);
  t.transLength = t.baseM * t.baseN * int32_t(sizeof(typename C_TYPE::T));
  t.isBias = 0;
  return t;
}

}  // namespace AscendC
