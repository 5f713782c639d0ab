// Matmul configs: the Get*Config builders and GetMMConfig, a constant tiling from
// GetMatmulApiTiling (full constants with a null tiling, partial constants with the runtime
// one), constants that disagree with the tiling, and iterateOrder from the config.
#include <gtest/gtest.h>

#include <cstring>
#include <vector>

#include "kernel_operator.h"
#include "lib/matmul_intf.h"
#include "tikicpulib.h"
#include "tiling/tiling_api.h"

using namespace AscendC;

namespace {

using AType = MatmulType<TPosition::GM, CubeFormat::ND, half>;
using BType = MatmulType<TPosition::GM, CubeFormat::ND, half>;
using CType = MatmulType<TPosition::GM, CubeFormat::ND, float>;

// What the builders give, checked at compile time.
constexpr MatmulConfig kMdl = GetMMConfig<MatmulConfigMode::CONFIG_MDL>(
    MatmulShapeParams{64, 48, 96, 32, 16, 32}, MatmulFuncParams{false, true});
static_assert(!kMdl.doNorm && kMdl.doMultiDataLoad && kMdl.enVecND2NZ);
static_assert(kMdl.basicM == 32 && kMdl.basicN == 16 && kMdl.basicK == 32);
static_assert(kMdl.singleCoreM == 64 && kMdl.singleCoreN == 48 && kMdl.singleCoreK == 96);
static_assert(GetNormalConfig().doNorm && !CFG_MDL.doNorm && CFG_MDL.doMultiDataLoad);
static_assert(GetBasicConfig(64, 64, 32).doBasicBlock && MM_CFG_BB.basicM == 128);
static_assert(CFG_IBSHARE_NORM.doIBShareNorm && GetSpecialMDLConfig().doSpecialMDL);

constexpr MatmulApiStaticTiling kFull = GetMatmulApiTiling<AType, BType, CType, CType>(kMdl);
static_assert(kFull.baseM == 32 && kFull.baseN == 16 && kFull.baseK == 32);
static_assert(kFull.singleCoreK == 96 && kFull.M == 64 && kFull.N == 48 && kFull.Ka == 96);
static_assert(kFull.stepKa == 3 && kFull.stepKb == 3);  // K = 96 is 3 steps of 32, all in L1
static_assert(kFull.cfg.doMultiDataLoad);

// Partial constants: the base block only; the single-core shape stays with the tiling.
constexpr MatmulConfig kPartialCfg =
    GetMMConfig<MatmulConfigMode::CONFIG_NORM>(MatmulShapeParams{0, 0, 0, 32, 16, 32});
constexpr MatmulApiStaticTiling kPartial =
    GetMatmulApiTiling<AType, BType, CType, CType>(kPartialCfg);
static_assert(kPartial.baseM == 32 && kPartial.singleCoreM == -1);

constexpr MatmulConfig kOrderN = GetMMConfig<MatmulConfigMode::CONFIG_NORM>(
    MatmulFuncParams{false, false, false, false, 0, IterateOrder::ORDER_N});

constexpr int kM = 64, kN = 48, kK = 96;

std::vector<float> Reference(const half* a, const half* b) {
  std::vector<float> c(kM * kN, 0.0f);
  for (int m = 0; m < kM; ++m)
    for (int n = 0; n < kN; ++n) {
      float s = 0;
      for (int k = 0; k < kK; ++k) s += float(a[m * kK + k]) * float(b[k * kN + n]);
      c[m * kN + n] = s;
    }
  return c;
}

// One core computes the whole product with the given config; `tiling` may be null.
template <const auto& CFG>
void Body(GM_ADDR a, GM_ADDR b, GM_ADDR c, const TCubeTiling* tiling) {
  TPipe pipe;
  GlobalTensor<half> ag, bg;
  GlobalTensor<float> cg;
  ag.SetGlobalBuffer((__gm__ half*)a, kM * kK);
  bg.SetGlobalBuffer((__gm__ half*)b, kK * kN);
  cg.SetGlobalBuffer((__gm__ float*)c, kM * kN);
  Matmul<AType, BType, CType, CType, CFG> mm;
  REGIST_MATMUL_OBJ(&pipe, GetSysWorkSpacePtr(), mm, tiling);
  mm.SetTensorA(ag);
  mm.SetTensorB(bg);
  mm.IterateAll(cg);
  mm.End();
}

struct Data {
  half* a = static_cast<half*>(GmAlloc(kM * kK * 2));
  half* b = static_cast<half*>(GmAlloc(kK * kN * 2));
  float* c = static_cast<float*>(GmAlloc(kM * kN * 4));
  Data() {
    for (int i = 0; i < kM * kK; ++i) a[i] = half(float((i * 7) % 11 - 5) / 4);
    for (int i = 0; i < kK * kN; ++i) b[i] = half(float((i * 5) % 13 - 6) / 8);
  }
  ~Data() {
    GmFree(a);
    GmFree(b);
    GmFree(c);
  }
};

TCubeTiling RuntimeTiling(int baseM, int baseN, int baseK) {
  matmul_tiling::MultiCoreMatmulTiling tiler;
  tiler.SetDim(1);
  tiler.SetAType(matmul_tiling::TPosition::GM, matmul_tiling::CubeFormat::ND,
                 matmul_tiling::DataType::DT_FLOAT16);
  tiler.SetBType(matmul_tiling::TPosition::GM, matmul_tiling::CubeFormat::ND,
                 matmul_tiling::DataType::DT_FLOAT16);
  tiler.SetCType(matmul_tiling::TPosition::GM, matmul_tiling::CubeFormat::ND,
                 matmul_tiling::DataType::DT_FLOAT);
  tiler.SetShape(kM, kN, kK);
  tiler.SetOrgShape(kM, kN, kK);
  tiler.SetFixSplit(baseM, baseN, baseK);
  TCubeTiling t;
  EXPECT_EQ(tiler.GetTiling(t), 0);
  return t;
}

std::pair<bool, std::string> RunCube(const std::function<void()>& body) {
  testing::internal::CaptureStdout();
  SetKernelMode(KernelMode::AIC_MODE);
  const bool ok = detail::RunKernel("matmul_cfg", 1, body);
  SetKernelMode(KernelMode::AIV_MODE);
  return {ok, testing::internal::GetCapturedStdout()};
}

TEST(AscendCMatmulConfig, FullConstantsNeedNoTiling) {
  Data d;
  auto [ok, out] = RunCube([&] { Body<kFull>((GM_ADDR)d.a, (GM_ADDR)d.b, (GM_ADDR)d.c, nullptr); });
  ASSERT_TRUE(ok) << out;
  const auto want = Reference(d.a, d.b);
  for (int i = 0; i < kM * kN; ++i) ASSERT_NEAR(d.c[i], want[i], 1e-3) << i;
}

TEST(AscendCMatmulConfig, PartialConstantsUseTheRuntimeTiling) {
  Data d;
  const TCubeTiling t = RuntimeTiling(32, 16, 32);
  auto [ok, out] = RunCube([&] { Body<kPartial>((GM_ADDR)d.a, (GM_ADDR)d.b, (GM_ADDR)d.c, &t); });
  ASSERT_TRUE(ok) << out;
  const auto want = Reference(d.a, d.b);
  for (int i = 0; i < kM * kN; ++i) ASSERT_NEAR(d.c[i], want[i], 1e-3) << i;
  // The same partial config without a tiling cannot know the single-core shape.
  std::tie(ok, out) =
      RunCube([&] { Body<kPartial>((GM_ADDR)d.a, (GM_ADDR)d.b, (GM_ADDR)d.c, nullptr); });
  EXPECT_FALSE(ok);
  EXPECT_NE(out.find("partial constants still need the runtime tiling"), std::string::npos) << out;
}

TEST(AscendCMatmulConfig, ConstantsThatDisagreeWithTheTilingAreRefused) {
  Data d;
  const TCubeTiling t = RuntimeTiling(64, 16, 32);
  auto [ok, out] = RunCube([&] { Body<kPartial>((GM_ADDR)d.a, (GM_ADDR)d.b, (GM_ADDR)d.c, &t); });
  EXPECT_FALSE(ok);
  EXPECT_NE(out.find("the MatmulConfig fixes basicM (baseM) = 32, the tiling has 64"),
            std::string::npos)
      << out;
}

// Blocks of 32 x 16 written one after another (enSequentialWrite); returns the second.
template <const auto& CFG>
std::vector<float> SecondBlock(const Data& d, const TCubeTiling& t) {
  auto [ok, out] = RunCube([&] {
    TPipe pipe;
    GlobalTensor<half> ag, bg;
    GlobalTensor<float> cg;
    ag.SetGlobalBuffer((__gm__ half*)d.a, kM * kK);
    bg.SetGlobalBuffer((__gm__ half*)d.b, kK * kN);
    cg.SetGlobalBuffer((__gm__ float*)d.c, kM * kN);
    Matmul<AType, BType, CType, CType, CFG> mm;
    REGIST_MATMUL_OBJ(&pipe, GetSysWorkSpacePtr(), mm, &t);
    mm.SetTensorA(ag);
    mm.SetTensorB(bg);
    for (int blk = 0; mm.Iterate(); ++blk) mm.GetTensorC(cg[blk * 32 * 16], 0, true);
    mm.End();
  });
  EXPECT_TRUE(ok) << out;
  return std::vector<float>(d.c + 32 * 16, d.c + 2 * 32 * 16);
}

TEST(AscendCMatmulConfig, IterateOrderFromTheConfig) {
  // With ORDER_N the second block is C[0:32, 16:32]; by default (M first) C[32:64, 0:16].
  Data d;
  const TCubeTiling t = RuntimeTiling(32, 16, 32);
  const auto want = Reference(d.a, d.b);
  const auto second_n = SecondBlock<kOrderN>(d, t);
  const auto second_m = SecondBlock<CFG_NORM>(d, t);
  for (int r = 0; r < 32; ++r)
    for (int c = 0; c < 16; ++c) {
      ASSERT_NEAR(second_n[r * 16 + c], want[r * kN + 16 + c], 1e-3) << r << " " << c;
      ASSERT_NEAR(second_m[r * 16 + c], want[(32 + r) * kN + c], 1e-3) << r << " " << c;
    }
}

}  // namespace
