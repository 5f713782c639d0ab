// The high-level Matmul of Ascend C on the CPU: C = A x B (+ bias) for one core's block as
// the TCubeTiling describes it, with half / bfloat16 inputs accumulated in float as the cube
// unit does. The base block sizes are checked against L0A/L0B/L0C, and the cost model
// counts cube, MTE1 (L1 -> L0) and MTE2/MTE3 traffic per base block (docs/ascendc.md).
#pragma once

#include <string>
#include <type_traits>
#include <vector>

#include "kernel_operator.h"
#include "kernel_tiling/kernel_tiling.h"
#include "lib/matmul_config.h"

namespace AscendC {

template <TPosition POSITION, CubeFormat FORMAT, typename TYPE, bool ISTRANS = false>
struct MatmulType {
  static constexpr TPosition pos = POSITION;
  static constexpr CubeFormat format = FORMAT;
  static constexpr bool isTrans = ISTRANS;
  using T = TYPE;
};

// Callbacks that replace the Matmul's own copies (CopyOut, CopyA, CopyB). The emulation
// runs only the default (none).
template <auto DataCopyOut = nullptr, auto CopyA1 = nullptr, auto CopyB1 = nullptr>
struct MatmulCallBackFunc {
  template <auto P>
  static constexpr bool IsNull() {
    if constexpr (std::is_null_pointer_v<decltype(P)>)
      return true;
    else
      return P == nullptr;
  }
  static constexpr bool kNone = IsNull<DataCopyOut>() && IsNull<CopyA1>() && IsNull<CopyB1>();
};

namespace detail {
constexpr MatmulConfig ConfigOf(const MatmulConfig& c) { return c; }
constexpr MatmulConfig ConfigOf(const MatmulApiStaticTiling& t) { return t.cfg; }
}  // namespace detail

template <class A_TYPE, class B_TYPE, class C_TYPE, class BIAS_TYPE = C_TYPE,
          const auto& MM_CFG = CFG_NORM, class MM_CB = MatmulCallBackFunc<>>
class Matmul {
  using A = typename A_TYPE::T;
  using B = typename B_TYPE::T;
  using C = typename C_TYPE::T;
  using Bias = typename BIAS_TYPE::T;
  static constexpr MatmulConfig kCfg = detail::ConfigOf(MM_CFG);
  static_assert(MM_CB::kNone,
                "OpenCANN's emulation does not run Matmul callbacks (MatmulCallBackFunc)");
  static_assert(!kCfg.isNBatch,
                "OpenCANN's emulation does not support multi-batch Matmul (isNBatch, "
                "IterateNBatch)");
  static_assert(!kCfg.intraBlockPartSum, "OpenCANN's emulation does not support intraBlockPartSum");
  static_assert(!kCfg.enableMixDualMaster,
                "OpenCANN's emulation does not support enableMixDualMaster");
  static_assert(!kCfg.isPartialOutput, "OpenCANN's emulation does not support isPartialOutput");
  static_assert(!(sizeof(A) == 2 && sizeof(B) == 1),
                "OpenCANN's emulation does not support the anti-quantized Matmul (half A, "
                "int8 B)");

 public:
  // A config with constant base and single-core shapes needs no runtime tiling.
  static constexpr bool kFullConstant = kCfg.basicM && kCfg.basicN && kCfg.basicK &&
                                        kCfg.singleCoreM && kCfg.singleCoreN && kCfg.singleCoreK;

  void Init(const TCubeTiling* tiling, TPipe* pipe = nullptr) {
    (void)pipe;
    const char* api = "Matmul::Init";
    detail::RequireCubeUnit(api);
    if (tiling) {
      t_ = *tiling;
      CheckConstants(api);
    } else if constexpr (kFullConstant) {
      t_ = TCubeTiling{};
      t_.usedCoreNum = 1;
      t_.baseM = int(kCfg.basicM), t_.baseN = int(kCfg.basicN), t_.baseK = int(kCfg.basicK);
      t_.singleCoreM = int(kCfg.singleCoreM), t_.singleCoreN = int(kCfg.singleCoreN),
      t_.singleCoreK = int(kCfg.singleCoreK);
      t_.M = t_.singleCoreM, t_.N = t_.singleCoreN, t_.Ka = t_.Kb = t_.singleCoreK;
    } else {
      detail::Fault(api,
                    "the tiling is null, and the MatmulConfig does not fix the whole shape "
                    "(basicM/N/K and singleCoreM/N/K): partial constants still need the "
                    "runtime tiling");
    }
    if (kCfg.iterateOrder != IterateOrder::UNDEF)
      t_.iterateOrder = kCfg.iterateOrder == IterateOrder::ORDER_N ? 1 : 0;
    if (t_.baseM <= 0 || t_.baseN <= 0 || t_.baseK <= 0 || t_.singleCoreM <= 0 ||
        t_.singleCoreN <= 0)
      detail::Fault(api, "the tiling has no base or single-core sizes (was GetTiling called?)");
    const auto& soc = detail::CurrentSoc();
    const uint64_t l0a = uint64_t(t_.baseM) * t_.baseK * sizeof(A);
    const uint64_t l0b = uint64_t(t_.baseK) * t_.baseN * sizeof(B);
    const uint64_t l0c = uint64_t(t_.baseM) * t_.baseN * sizeof(float);
    auto cap = [&](detail::Memory m) { return soc.capacity[static_cast<int>(m)]; };
    if (l0a > cap(detail::Memory::kL0A))
      detail::Fault(api, "baseM x baseK (" + std::to_string(t_.baseM) + " x " +
                             std::to_string(t_.baseK) + ") needs " + std::to_string(l0a) +
                             " bytes of L0A, which has " +
                             std::to_string(cap(detail::Memory::kL0A)));
    if (l0b > cap(detail::Memory::kL0B))
      detail::Fault(api, "baseK x baseN needs " + std::to_string(l0b) +
                             " bytes of L0B, which has " +
                             std::to_string(cap(detail::Memory::kL0B)));
    if (l0c > cap(detail::Memory::kL0C))
      detail::Fault(api, "baseM x baseN needs " + std::to_string(l0c) +
                             " bytes of L0C, which has " +
                             std::to_string(cap(detail::Memory::kL0C)));
    rows_ = t_.singleCoreM, cols_ = t_.singleCoreN,
    depth_ = t_.singleCoreK > 0 ? t_.singleCoreK : t_.Ka;
    org_m_ = t_.M, org_n_ = t_.N, org_ka_ = t_.Ka, org_kb_ = t_.Kb;
    inited_ = true;
  }
  void SetOrgShape(int orgM, int orgN, int orgK) { SetOrgShape(orgM, orgN, orgK, orgK); }
  void SetOrgShape(int orgM, int orgN, int orgKa, int orgKb, int = 0) {
    org_m_ = orgM, org_n_ = orgN, org_ka_ = orgKa, org_kb_ = orgKb;
  }
  void SetSingleShape(int m, int n, int k) { rows_ = m, cols_ = n, depth_ = k; }
  void SetTail(int tailM = -1, int tailN = -1, int tailK = -1) {
    if (tailM > 0) rows_ = tailM;
    if (tailN > 0) cols_ = tailN;
    if (tailK > 0) depth_ = tailK;
  }
  // Which vector core of the AI core receives results routed to it (mix mode); results here
  // are written by the cube side itself, so the index is only kept.
  void SetSubBlockIdx(uint8_t idx) { sub_block_idx_ = idx; }
  uint8_t GetSubBlockIdx() const { return sub_block_idx_; }
  void SetTensorA(const GlobalTensor<A>& gm, bool isTransposeA = false) {
    a_ = gm;
    a_local_ = LocalTensor<A>();
    trans_a_ = isTransposeA || A_TYPE::isTrans;
  }
  void SetTensorB(const GlobalTensor<B>& gm, bool isTransposeB = false) {
    b_ = gm;
    b_local_ = LocalTensor<B>();
    trans_b_ = isTransposeB || B_TYPE::isTrans;
  }
  void SetBias(const GlobalTensor<Bias>& gm) {
    bias_ = gm;
    bias_local_ = LocalTensor<Bias>();
    has_bias_ = true;
  }
  // A, B or the bias already on chip (a MatmulType position of VECIN/VECOUT/VECCALC in UB, or
  // TSCM in L1): read there, with the memory's rules (UB belongs to the vector cores).
  void SetTensorA(const LocalTensor<A>& local, bool isTransposeA = false) {
    a_ = GlobalTensor<A>();
    a_local_ = local;
    trans_a_ = isTransposeA || A_TYPE::isTrans;
  }
  void SetTensorB(const LocalTensor<B>& local, bool isTransposeB = false) {
    b_ = GlobalTensor<B>();
    b_local_ = local;
    trans_b_ = isTransposeB || B_TYPE::isTrans;
  }
  void SetBias(const LocalTensor<Bias>& local) {
    bias_ = GlobalTensor<Bias>();
    bias_local_ = local;
    has_bias_ = true;
  }
  void ClearBias() { has_bias_ = false; }

  // The whole block: C[rows x cols] (row stride N of the original shape). `sync` (and the
  // async forms' later wait) make no difference on the CPU: results are ready on return.
  template <bool sync = true>
  void IterateAll(const GlobalTensor<C>& gm, uint8_t enAtomic = 0, bool = false, bool = false,
                  bool = false) {
    Compute("Matmul::IterateAll");
    for (int m = 0; m < rows_; ++m) Store(gm, m, 0, cols_, enAtomic, "Matmul::IterateAll");
    detail::AddCycles(detail::Pipe::kMTE3,
                      detail::MteCycles(uint64_t(rows_) * cols_ * sizeof(C), rows_));
  }

  void WaitIterateAll() {}
  // Synchronous (Iterate<true>): one base block (baseM x baseN, M direction first) per call;
  // false when done. Asynchronous (Iterate<false>): the call starts the whole single-core
  // matrix, and each GetTensorC<false> then takes the next base block, as CANN documents.
  template <bool sync = true>
  bool Iterate(bool enPartialSum = false) {
    if (enPartialSum)
      detail::Fault("Matmul::Iterate",
                    "enPartialSum (adding into the previous CO1 contents) is not supported by "
                    "OpenCANN's emulation");
    if (!computed_) {
      Compute("Matmul::Iterate");
      block_ = -1;
      async_ = false;
    }
    if constexpr (!sync) {
      if (async_ && block_ + 1 >= Blocks()) {  // every block taken: done
        computed_ = false;
        async_ = false;
        return false;
      }
      async_ = true;
      return true;
    }
    if (++block_ >= Blocks()) {
      computed_ = false;
      return false;
    }
    SelectBlock();
    return true;
  }
  // The current block to its place in C (GM) ...
  template <bool sync = true>
  void GetTensorC(const GlobalTensor<C>& gm, uint8_t enAtomic = 0, bool enSequentialWrite = false) {
    const char* api = "Matmul::GetTensorC";
    if constexpr (!sync) NextAsyncBlock(api);
    if (block_ < 0) detail::Fault(api, "no block: call Iterate() first");
    const int r0 = bm_ * t_.baseM, c0 = bn_ * t_.baseN;
    const int r1 = std::min(rows_, r0 + t_.baseM), c1 = std::min(cols_, c0 + t_.baseN);
    for (int m = r0; m < r1; ++m) {
      if (enSequentialWrite) {
        GlobalTensor<C> seq = gm[uint64_t(m - r0) * (c1 - c0)];
        for (int n = c0; n < c1; ++n) seq.SetValue(n - c0, Convert(acc_[m * cols_ + n]));
      } else {
        Store(gm, m, c0, c1, enAtomic, api);
      }
    }
    detail::AddCycles(detail::Pipe::kMTE3,
                      detail::MteCycles(uint64_t(r1 - r0) * (c1 - c0) * sizeof(C), r1 - r0));
  }
  // ... or into a local tensor, row-major baseM x baseN.
  template <bool sync = true>
  void GetTensorC(const LocalTensor<C>& dst, uint8_t = 0, bool = false) {
    const char* api = "Matmul::GetTensorC";
    if constexpr (!sync) NextAsyncBlock(api);
    if (block_ < 0) detail::Fault(api, "no block: call Iterate() first");
    const int r0 = bm_ * t_.baseM, c0 = bn_ * t_.baseN;
    const int r1 = std::min(rows_, r0 + t_.baseM), c1 = std::min(cols_, c0 + t_.baseN);
    // The whole base block arrives (past a tail the cube's zero padding), and the call
    // returns when it is there (sync), so what follows needs no flag.
    const uint64_t bytes = uint64_t(t_.baseM) * t_.baseN * sizeof(C);
    detail::CheckLocalRange(dst, 0, bytes, api, "destination");
    for (int m = 0; m < t_.baseM; ++m)
      for (int n = 0; n < t_.baseN; ++n)
        dst.GetPhyAddr()[uint64_t(m) * t_.baseN + n] =
            r0 + m < r1 && c0 + n < c1 ? Convert(acc_[(r0 + m) * cols_ + c0 + n]) : C(0);
    detail::AddCycles(detail::Pipe::kMTE2, detail::MteCycles(bytes, t_.baseM));
    detail::SyncAllPipes();
  }
  void End() {
    computed_ = false;
    async_ = false;
  }
  // A VECCALC scratch the NPU's Matmul would use; the emulation needs none, but it must be
  // a UB tensor as on the NPU.
  void SetLocalWorkspace(const LocalTensor<uint8_t>& tmp) {
    if (detail::MemoryOf(tmp.GetPosition()) != detail::Memory::kUB)
      detail::Fault("Matmul::SetLocalWorkspace", "the workspace must be a UB (VECCALC) tensor");
  }
  void SetWorkspace(GM_ADDR, int) {}
  template <typename T>
  void SetWorkspace(const GlobalTensor<T>&) {}

 private:
  static C Convert(float v) { return static_cast<C>(v); }

  int Blocks() const {
    return ((rows_ + t_.baseM - 1) / t_.baseM) * ((cols_ + t_.baseN - 1) / t_.baseN);
  }
  // bm_, bn_ of block_ (iterateOrder 0: M first; 1: N first, the host's SetTraverse(FIRSTN)).
  void SelectBlock() {
    const int mb = (rows_ + t_.baseM - 1) / t_.baseM, nb = (cols_ + t_.baseN - 1) / t_.baseN;
    bm_ = t_.iterateOrder == 1 ? block_ / nb : block_ % mb;
    bn_ = t_.iterateOrder == 1 ? block_ % nb : block_ / mb;
  }
  // GetTensorC<false> after Iterate<false>: the next base block of the started matrix.
  void NextAsyncBlock(const char* api) {
    if (!async_) {
      detail::Fault(api, "GetTensorC<false> needs Iterate<false>() first (the asynchronous form)");
      return;
    }
    if (block_ + 1 >= Blocks()) {
      detail::Fault(api, "GetTensorC<false> called more times than the " +
                             std::to_string(Blocks()) + " base blocks Iterate<false>() started");
      return;
    }
    ++block_;
    SelectBlock();
  }

  // CANN requires a config's constants to agree with the runtime tiling; on the NPU the
  // kernel computes with the constants, so a mismatch gives wrong tiles.
  void CheckConstants(const char* api) const {
    auto check = [&](uint32_t constant, int tiled, const char* name) {
      if (constant && int(constant) != tiled)
        detail::Fault(api, std::string("the MatmulConfig fixes ") + name + " = " +
                               std::to_string(constant) + ", the tiling has " +
                               std::to_string(tiled) + " (they must agree)");
    };
    check(kCfg.basicM, t_.baseM, "basicM (baseM)");
    check(kCfg.basicN, t_.baseN, "basicN (baseN)");
    check(kCfg.basicK, t_.baseK, "basicK (baseK)");
    check(kCfg.singleCoreM, t_.singleCoreM, "singleCoreM");
    check(kCfg.singleCoreN, t_.singleCoreN, "singleCoreN");
    check(kCfg.singleCoreK, t_.singleCoreK, "singleCoreK");
  }

  // C's row stride in GM: N, or N rounded up to 32 bytes for an ND_ALIGN C.
  uint64_t CRowStride() const {
    if constexpr (C_TYPE::format == CubeFormat::ND_ALIGN)
      return (uint64_t(org_n_) * sizeof(C) + 31) / 32 * 32 / sizeof(C);
    else
      return uint64_t(org_n_);
  }
  void Store(const GlobalTensor<C>& gm, int m, int c0, int c1, uint8_t atomic, const char* api) {
    const uint64_t stride = CRowStride();
    detail::CheckGlobalRange(gm, (uint64_t(m) * stride + c0) * sizeof(C),
                             uint64_t(c1 - c0) * sizeof(C), api, atomic ? "atomic C" : "C");
    C* row = gm.GetPhyAddr() + uint64_t(m) * stride;
    if (atomic) detail::LockAtomics();
    for (int n = c0; n < c1; ++n) {
      const float v = acc_[m * cols_ + n];
      row[n] = atomic ? Convert(detail::AsFloat(row[n]) + v) : Convert(v);
    }
    if (atomic) detail::UnlockAtomics();
  }

  // acc = A x B (+ bias) in float, reading A and B through the checked GM tensors.
  void Compute(const char* api) {
    if (!inited_)
      detail::Fault(api, kCfg.basicM ? "no tiling: REGIST_MATMUL_OBJ had a null one and Init "
                                       "was not called (partial constants still need the "
                                       "runtime tiling)"
                                     : "REGIST_MATMUL_OBJ / Init was not called");
    const bool a_local = !a_local_.empty(), b_local = !b_local_.empty(),
               bias_local = !bias_local_.empty();
    if ((!a_local && !a_.GetPhyAddr()) || (!b_local && !b_.GetPhyAddr()))
      detail::Fault(api, "SetTensorA and SetTensorB first");
    // Every element the block reads must lie inside A and B.
    const uint64_t last_a =
        trans_a_ ? uint64_t(depth_ - 1) * org_m_ + rows_ : uint64_t(rows_ - 1) * org_ka_ + depth_;
    const uint64_t last_b =
        trans_b_ ? uint64_t(cols_ - 1) * org_kb_ + depth_ : uint64_t(depth_ - 1) * org_n_ + cols_;
    if (a_local)
      detail::CheckLocalRange(a_local_, 0, last_a * sizeof(A), api, "source A");
    else
      detail::CheckGlobalRange(a_, 0, last_a * sizeof(A), api, "A");
    if (b_local)
      detail::CheckLocalRange(b_local_, 0, last_b * sizeof(B), api, "source B");
    else
      detail::CheckGlobalRange(b_, 0, last_b * sizeof(B), api, "B");
    if (has_bias_ && bias_local)
      detail::CheckLocalRange(bias_local_, 0, uint64_t(cols_) * sizeof(Bias), api, "source bias");
    else if (has_bias_)
      detail::CheckGlobalRange(bias_, 0, uint64_t(cols_) * sizeof(Bias), api, "bias");
    acc_.assign(size_t(rows_) * cols_, 0.0f);
    const A* a = a_local ? a_local_.GetPhyAddr() : a_.GetPhyAddr();
    const B* b = b_local ? b_local_.GetPhyAddr() : b_.GetPhyAddr();
    const Bias* bias_data = bias_local ? bias_local_.GetPhyAddr() : bias_.GetPhyAddr();
    std::vector<float> bcol(depth_);
    for (int n = 0; n < cols_; ++n) {
      for (int k = 0; k < depth_; ++k)
        bcol[k] =
            detail::AsFloat(b[trans_b_ ? uint64_t(n) * org_kb_ + k : uint64_t(k) * org_n_ + n]);
      const float bias = has_bias_ ? detail::AsFloat(bias_data[n]) : 0.0f;
      for (int m = 0; m < rows_; ++m) {
        float s = 0;
        for (int k = 0; k < depth_; ++k)
          s += detail::AsFloat(a[trans_a_ ? uint64_t(k) * org_m_ + m : uint64_t(m) * org_ka_ + k]) *
               bcol[k];
        acc_[m * cols_ + n] = s + bias;
      }
    }
    // Cost: per base block, A and B tiles to L1 (MTE2) and L0 (MTE1), one cube pass.
    const int mb = (rows_ + t_.baseM - 1) / t_.baseM, nb = (cols_ + t_.baseN - 1) / t_.baseN;
    const double a_bytes = double(rows_) * depth_ * sizeof(A),
                 b_bytes = double(depth_) * cols_ * sizeof(B);
    detail::AddCycles(detail::Pipe::kMTE2,
                      detail::MteCycles(uint64_t(a_bytes + b_bytes * mb), mb + nb));
    detail::AddCycles(detail::Pipe::kMTE1, 50.0 * mb * nb + (a_bytes * nb + b_bytes * mb) / 256.0);
    const double c0 = 32.0 / sizeof(A);
    detail::AddCycles(detail::Pipe::kCube, std::ceil(rows_ / 16.0) * std::ceil(cols_ / 16.0) *
                                               std::ceil(depth_ / c0) * (sizeof(A) == 4 ? 2 : 1));
    computed_ = true;
  }

  TCubeTiling t_;
  bool inited_ = false, computed_ = false, trans_a_ = false, trans_b_ = false, has_bias_ = false;
  bool async_ = false;  // Iterate<false> started: GetTensorC<false> walks the blocks
  int rows_ = 0, cols_ = 0, depth_ = 0, org_m_ = 0, org_n_ = 0, org_ka_ = 0, org_kb_ = 0;
  uint8_t sub_block_idx_ = 0;
  int block_ = -1, bm_ = 0, bn_ = 0;
  GlobalTensor<A> a_;
  GlobalTensor<B> b_;
  LocalTensor<A> a_local_;  // set instead of a_ when A is on chip
  LocalTensor<B> b_local_;
  LocalTensor<Bias> bias_local_;
  GlobalTensor<Bias> bias_;
  std::vector<float> acc_;
};

namespace detail {
// ServedByVector: in a mix launch the Matmul calls come from the vector cores and the cube
// core serves them; the emulation computes them where they are called, so the cube core is
// done at REGIST_MATMUL_OBJ. A kernel that defines ASCENDC_CUBE_ONLY drives the Matmul from
// the cube core itself: that core goes on.
template <bool ServedByVector>
void RegistMatmul(TPipe*, GM_ADDR) {}
template <bool ServedByVector, typename MM, typename... Rest>
void RegistMatmul(TPipe* pipe, GM_ADDR workspace, MM& mm, const TCubeTiling* tiling,
                  Rest&&... rest) {
  RequireCubeUnit("REGIST_MATMUL_OBJ");
  if (ServedByVector && IsMixCube()) EndBlock();
  // A null tiling is complete only for a fully constant config; otherwise mm.Init follows.
  if (tiling || MM::kFullConstant) mm.Init(tiling, pipe);
  RegistMatmul<ServedByVector>(pipe, workspace, rest...);
}
// REGIST_MATMUL_OBJ(&pipe, workspace, mm): the tiling comes later through mm.Init, unless
// the config fixes it.
template <bool ServedByVector, typename MM>
void RegistMatmul(TPipe* pipe, GM_ADDR workspace, MM& mm) {
  RequireCubeUnit("REGIST_MATMUL_OBJ");
  if (ServedByVector && IsMixCube()) EndBlock();
  (void)workspace;
  if constexpr (MM::kFullConstant) mm.Init(nullptr, pipe);
}
}  // namespace detail

}  // namespace AscendC

using AscendC::CubeFormat;
using AscendC::Matmul;
using AscendC::MatmulType;
// The configurations by name, as CANN's samples write them without a namespace.
using AscendC::CFG_IBSHARE_NORM;
using AscendC::CFG_MDL;
using AscendC::CFG_NORM;
using AscendC::MM_CFG_BB;
// So are the configuration types and builders (asc-devkit's Matmul samples define
// `constexpr MatmulConfig GetCustomCFG()` at global scope).
using AscendC::GetBasicConfig;
using AscendC::GetIBShareNormConfig;
using AscendC::GetMatmulApiTiling;
using AscendC::GetMDLConfig;
using AscendC::GetMMConfig;
using AscendC::GetNormalConfig;
using AscendC::GetSpecialBasicConfig;
using AscendC::GetSpecialMDLConfig;
using AscendC::MatmulApiStaticTiling;
using AscendC::MatmulBatchParams;
using AscendC::MatmulConfig;
using AscendC::MatmulConfigMode;
using AscendC::MatmulFuncParams;
using AscendC::MatmulQuantParams;
using AscendC::MatmulShapeParams;
// Kernel code calls it unqualified, as CANN declares it outside the namespace.
using AscendC::GetSysWorkSpacePtr;
// CANN's samples name the types through namespace matmul too, and code written inside it sees
// the AscendC names (GetBlockIdx, GetSysWorkSpacePtr, SyncAll, MatmulShapeParams...) as
// CANN's headers make them visible there.
namespace matmul {
using namespace AscendC;  // NOLINT(build/namespaces)
using AscendC::GetBasicConfig;
using AscendC::GetIBShareNormConfig;
using AscendC::GetMatmulApiTiling;
using AscendC::GetMDLConfig;
using AscendC::GetMMConfig;
using AscendC::GetNormalConfig;
using AscendC::GetSpecialMDLConfig;
using AscendC::Matmul;
using AscendC::MatmulApiStaticTiling;
using AscendC::MatmulConfig;
using AscendC::MatmulType;
// The Matmul class by its name before CANN 8.0.
template <class A_TYPE, class B_TYPE, class C_TYPE, class BIAS_TYPE = C_TYPE,
          const auto& MM_CFG = CFG_NORM, class MM_CB = AscendC::MatmulCallBackFunc<>>
using MatmulImpl = AscendC::Matmul<A_TYPE, B_TYPE, C_TYPE, BIAS_TYPE, MM_CFG, MM_CB>;
}  // namespace matmul

// Read where the kernel includes this header: a kernel defines ASCENDC_CUBE_ONLY first.
#ifdef ASCENDC_CUBE_ONLY
#define OC_MATMUL_SERVED_BY_VECTOR false
#else
#define OC_MATMUL_SERVED_BY_VECTOR true
#endif
#define REGIST_MATMUL_OBJ(tpipe, workspace, ...) \
  ::AscendC::detail::RegistMatmul<OC_MATMUL_SERVED_BY_VECTOR>(tpipe, workspace, __VA_ARGS__)
