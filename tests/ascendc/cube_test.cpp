// The cube path against a float reference: the basic API (Nd2Nz copy, LoadData to L0A/L0B
// with the fractal layouts, Mmad, Fixpipe) and the high-level Matmul over several cores with
// the host tiling, tails and bias; plus the rules they check.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <vector>

#include "kernel_operator.h"
#include "launch_util.h"
#include "lib/matmul_intf.h"
#include "tikicpulib.h"
#include "tiling/tiling_api.h"

using namespace AscendC;

namespace {

std::vector<float> Reference(const half* a, const half* b, int m, int n, int k, const float* bias) {
  std::vector<float> c(size_t(m) * n);
  for (int i = 0; i < m; ++i)
    for (int j = 0; j < n; ++j) {
      float s = 0;
      for (int p = 0; p < k; ++p) s += float(a[i * k + p]) * float(b[p * n + j]);
      c[i * n + j] = s + (bias ? bias[j] : 0.0f);
    }
  return c;
}

void Fill(half* p, size_t n, int seed) {
  for (size_t i = 0; i < n; ++i)
    p[i] = half(static_cast<float>((i * 7 + seed * 13) % 17) / 8.0f - 1.0f);
}

// One core, M = 32, K = 48, N = 32, by hand: GM -> L1 (NZ) -> L0A/L0B -> Mmad -> Fixpipe.
constexpr int kM = 32, kK = 48, kN = 32;

extern "C" __global__ __aicore__ void mmad_basic(GM_ADDR a, GM_ADDR b, GM_ADDR c) {
  TPipe pipe;
  TBuf<TPosition::A1> a1;
  TBuf<TPosition::B1> b1;
  TBuf<TPosition::A2> a2;
  TBuf<TPosition::B2> b2;
  TBuf<TPosition::CO1> c1;
  pipe.InitBuffer(a1, kM * kK * 2);
  pipe.InitBuffer(b1, kK * kN * 2);
  pipe.InitBuffer(a2, kM * kK * 2);
  pipe.InitBuffer(b2, kK * kN * 2);
  pipe.InitBuffer(c1, kM * kN * 4);
  GlobalTensor<half> ga, gb;
  GlobalTensor<float> gc;
  ga.SetGlobalBuffer((__gm__ half*)a, kM * kK);
  gb.SetGlobalBuffer((__gm__ half*)b, kK * kN);
  gc.SetGlobalBuffer((__gm__ float*)c, kM * kN);
  LocalTensor<half> la1 = a1.Get<half>(), lb1 = b1.Get<half>(), la2 = a2.Get<half>(),
                    lb2 = b2.Get<half>();
  DataCopy(la1, ga, Nd2NzParams(1, kM, kK, 0, kK, kM, 1, 0));
  DataCopy(lb1, gb, Nd2NzParams(1, kK, kN, 0, kN, kK, 1, 0));
  SetFlag<HardEvent::MTE2_MTE1>(EVENT_ID0);  // the pipes hand over through flags
  WaitFlag<HardEvent::MTE2_MTE1>(EVENT_ID0);
  const int mb = kM / 16, kb = kK / 16, nb = kN / 16;
  for (int i = 0; i < mb; ++i) {  // each row of A fractals, as the NPU samples do
    LoadData2DParams p;
    p.startIndex = i;
    p.repeatTimes = kb;
    p.srcStride = mb;
    LoadData(la2[i * kb * 256], la1, p);
  }
  for (int i = 0; i < kb; ++i) {  // B transposed per fractal into ZN
    LoadData2DParams p;
    p.startIndex = i;
    p.repeatTimes = nb;
    p.srcStride = kb;
    p.ifTranspose = true;
    LoadData(lb2[i * nb * 256], lb1, p);
  }
  LocalTensor<float> lc = c1.Get<float>();
  SetFlag<HardEvent::MTE1_M>(EVENT_ID0);
  WaitFlag<HardEvent::MTE1_M>(EVENT_ID0);
  Mmad(lc, la2, lb2, MmadParams(kM, kN, kK, false, 0, false, false, false));
  SetFlag<HardEvent::M_FIX>(EVENT_ID0);
  WaitFlag<HardEvent::M_FIX>(EVENT_ID0);
  FixpipeParamsV220 fp;
  fp.mSize = kM;
  fp.nSize = kN;
  fp.srcStride = kM;
  fp.dstStride = kN;
  Fixpipe(gc, lc, fp);
}

// Fixpipe's scalar quantisation of int32 results: DEQF16 (to half) and REQ8 (to int8,
// saturated), the scale from SetFixpipePreQuantFlag; FixpipeParamsV220 brace-initialised in
// CANN's field order. A per-channel mode is refused.
TEST(AscendCCube, FixpipeQuantisesWithTheScalarScale) {
  constexpr int kSide = 16;
  auto* half_out = static_cast<half*>(GmAlloc(kSide * kSide * 2));
  auto* int8_out = static_cast<int8_t*>(GmAlloc(kSide * kSide));
  auto run = [&](QuantMode_t vector_mode) {
    return oc_test::LaunchQuiet(
        "fixpipe_quant", 1,
        [&, vector_mode] {
          TPipe pipe;
          TBuf<TPosition::CO1> c1;
          pipe.InitBuffer(c1, kSide * kSide * 4);
          LocalTensor<int32_t> lc = c1.Get<int32_t>();
          for (int m = 0; m < kSide; ++m)  // NZ with one column block: [m][16]
            for (int n = 0; n < kSide; ++n) lc.SetValue(m * 16 + n, (m - 8) * 40 + n);
          GlobalTensor<half> gh;
          GlobalTensor<int8_t> g8;
          gh.SetGlobalBuffer(half_out, kSide * kSide);
          g8.SetGlobalBuffer(int8_out, kSide * kSide);
          const float half_scale = 0.5f;
          uint32_t bits;
          std::memcpy(&bits, &half_scale, 4);
          SetFixpipePreQuantFlag(bits);
          Fixpipe(gh, lc,
                  FixpipeParamsV220{kSide, kSide, kSide, kSide, false, QuantMode_t::DEQF16, 0, 1, 0,
                                    0, 0});
          Fixpipe(g8, lc,
                  FixpipeParamsV220{kSide, kSide, kSide, kSide, false, QuantMode_t::REQ8, 0, 1, 0,
                                    0, 0});
          if (vector_mode != QuantMode_t::NoQuant)
            Fixpipe(
                g8, lc,
                FixpipeParamsV220{kSide, kSide, kSide, kSide, false, vector_mode, 0, 1, 0, 0, 0});
        },
        KernelMode::AIC_MODE);
  };
  auto r = run(QuantMode_t::NoQuant);
  for (const auto& e : r.errors) ADD_FAILURE() << e;
  ASSERT_TRUE(r.ok);
  for (int m = 0; m < kSide; ++m)
    for (int n = 0; n < kSide; ++n) {
      const int v = (m - 8) * 40 + n;
      EXPECT_EQ(float(half_out[m * kSide + n]), v * 0.5f) << m << " " << n;
      const int q = std::clamp(static_cast<int>(std::nearbyint(v * 0.5)), -128, 127);
      EXPECT_EQ(int8_out[m * kSide + n], q) << m << " " << n;
    }
  auto refused = run(QuantMode_t::VREQ8);
  EXPECT_FALSE(refused.ok);
  ASSERT_FALSE(refused.errors.empty());
  EXPECT_NE(refused.errors[0].find("per-channel quantisation"), std::string::npos)
      << refused.errors[0];
  GmFree(half_out);
  GmFree(int8_out);
}

TEST(AscendCCube, BasicApiWithFractalLayouts) {
  auto* a = static_cast<half*>(GmAlloc(kM * kK * 2));
  auto* b = static_cast<half*>(GmAlloc(kK * kN * 2));
  auto* c = static_cast<float*>(GmAlloc(kM * kN * 4));
  Fill(a, kM * kK, 1);
  Fill(b, kK * kN, 2);
  SetKernelMode(KernelMode::AIC_MODE);
  testing::internal::CaptureStdout();
  const bool ok = ICPU_RUN_KF(mmad_basic, 1, (uint8_t*)a, (uint8_t*)b, (uint8_t*)c);
  const std::string out = testing::internal::GetCapturedStdout();
  SetKernelMode(KernelMode::AIV_MODE);
  ASSERT_TRUE(ok) << out;
  const auto want = Reference(a, b, kM, kN, kK, nullptr);
  for (int i = 0; i < kM * kN; ++i) ASSERT_NEAR(c[i], want[i], 1e-4) << i;
  // 2 x 2 x 3 fractal products of 16 x 16 x 16: 12 cube cycles.
  EXPECT_NE(out.find("Cube                12.0"), std::string::npos) << out;
  GmFree(a);
  GmFree(b);
  GmFree(c);
}

// The high-level API as CANN's matmul sample uses it: each core finds its block.
template <const MatmulConfig& CFG>
void MatmulBody(GM_ADDR a, GM_ADDR b, GM_ADDR bias, GM_ADDR c, GM_ADDR tilingGm) {
  TPipe pipe;
  TCubeTiling tiling;
  std::memcpy(&tiling, tilingGm, sizeof(tiling));
  GlobalTensor<half> aGlobal, bGlobal;
  GlobalTensor<float> cGlobal, biasGlobal;
  aGlobal.SetGlobalBuffer((__gm__ half*)a, tiling.M * tiling.Ka);
  bGlobal.SetGlobalBuffer((__gm__ half*)b, tiling.Kb * tiling.N);
  cGlobal.SetGlobalBuffer((__gm__ float*)c, tiling.M * tiling.N);
  biasGlobal.SetGlobalBuffer((__gm__ float*)bias, tiling.N);
  const int mBlocks = (tiling.M + tiling.singleCoreM - 1) / tiling.singleCoreM;
  const int mIdx = GetBlockIdx() % mBlocks, nIdx = GetBlockIdx() / mBlocks;
  const int offsetA = mIdx * tiling.Ka * tiling.singleCoreM, offsetB = nIdx * tiling.singleCoreN;
  const int offsetC = mIdx * tiling.N * tiling.singleCoreM + nIdx * tiling.singleCoreN;
  Matmul<MatmulType<TPosition::GM, CubeFormat::ND, half>,
         MatmulType<TPosition::GM, CubeFormat::ND, half>,
         MatmulType<TPosition::GM, CubeFormat::ND, float>,
         MatmulType<TPosition::GM, CubeFormat::ND, float>, CFG>
      mm;
  REGIST_MATMUL_OBJ(&pipe, GetSysWorkSpacePtr(), mm, &tiling);
  const int tailM = std::min(tiling.M - mIdx * tiling.singleCoreM, tiling.singleCoreM);
  const int tailN = std::min(tiling.N - nIdx * tiling.singleCoreN, tiling.singleCoreN);
  mm.SetTail(tailM, tailN);
  mm.SetTensorA(aGlobal[offsetA]);
  mm.SetTensorB(bGlobal[offsetB]);
  if (tiling.isBias) mm.SetBias(biasGlobal[offsetB]);
  mm.IterateAll(cGlobal[offsetC]);
  mm.End();
}

extern "C" __global__ __aicore__ void matmul_custom(GM_ADDR a, GM_ADDR b, GM_ADDR bias, GM_ADDR c,
                                                    GM_ADDR, GM_ADDR tilingGm) {
  MatmulBody<CFG_NORM>(a, b, bias, c, tilingGm);
}

extern "C" __global__ __aicore__ void matmul_mdl(GM_ADDR a, GM_ADDR b, GM_ADDR bias, GM_ADDR c,
                                                 GM_ADDR, GM_ADDR tilingGm) {
  MatmulBody<CFG_MDL>(a, b, bias, c, tilingGm);
}

TEST(AscendCCube, HighLevelMatmulOnSeveralCoresWithTailsAndBias) {
  const int M = 200, N = 150, K = 96;
  matmul_tiling::MultiCoreMatmulTiling tiler;
  tiler.SetDim(4);
  tiler.SetAType(matmul_tiling::TPosition::GM, matmul_tiling::CubeFormat::ND,
                 matmul_tiling::DataType::DT_FLOAT16);
  tiler.SetBType(matmul_tiling::TPosition::GM, matmul_tiling::CubeFormat::ND,
                 matmul_tiling::DataType::DT_FLOAT16);
  tiler.SetCType(matmul_tiling::TPosition::GM, matmul_tiling::CubeFormat::ND,
                 matmul_tiling::DataType::DT_FLOAT);
  tiler.SetShape(M, N, K);
  tiler.SetOrgShape(M, N, K);
  tiler.SetBias(true);
  TCubeTiling tiling;
  ASSERT_EQ(tiler.GetTiling(tiling), 0);
  EXPECT_EQ(tiling.usedCoreNum, 4);
  EXPECT_EQ(tiling.isBias, 1);
  tiler.EnableBias(false);  // the newer spelling of SetBias
  TCubeTiling no_bias;
  ASSERT_EQ(tiler.GetTiling(no_bias), 0);
  EXPECT_EQ(no_bias.isBias, 0);
  auto* a = static_cast<half*>(GmAlloc(M * K * 2));
  auto* b = static_cast<half*>(GmAlloc(K * N * 2));
  auto* bias = static_cast<float*>(GmAlloc(N * 4));
  auto* c = static_cast<float*>(GmAlloc(M * N * 4));
  auto* t = static_cast<uint8_t*>(GmAlloc(sizeof(tiling)));
  std::memcpy(t, &tiling, sizeof(tiling));
  Fill(a, M * K, 3);
  Fill(b, K * N, 4);
  for (int j = 0; j < N; ++j) bias[j] = 0.5f * j;
  SetKernelMode(KernelMode::AIC_MODE);
  testing::internal::CaptureStdout();
  const bool ok = ICPU_RUN_KF(matmul_custom, tiling.usedCoreNum, (uint8_t*)a, (uint8_t*)b,
                              (uint8_t*)bias, (uint8_t*)c, nullptr, t);
  const std::string out = testing::internal::GetCapturedStdout();
  SetKernelMode(KernelMode::AIV_MODE);
  ASSERT_TRUE(ok) << out;
  const auto want = Reference(a, b, M, N, K, bias);
  for (int i = 0; i < M * N; ++i) ASSERT_NEAR(c[i], want[i], 1e-3) << i;
  EXPECT_NE(out.find("bound by"), std::string::npos);
  // The MDL schedule computes the same product.
  std::fill(c, c + M * N, -1.0f);
  SetKernelMode(KernelMode::AIC_MODE);
  testing::internal::CaptureStdout();
  const bool mdl_ok = ICPU_RUN_KF(matmul_mdl, tiling.usedCoreNum, (uint8_t*)a, (uint8_t*)b,
                                  (uint8_t*)bias, (uint8_t*)c, nullptr, t);
  const std::string mdl_out = testing::internal::GetCapturedStdout();
  SetKernelMode(KernelMode::AIV_MODE);
  ASSERT_TRUE(mdl_ok) << mdl_out;
  for (int i = 0; i < M * N; ++i) ASSERT_NEAR(c[i], want[i], 1e-3) << i;
  for (void* p : {(void*)a, (void*)b, (void*)bias, (void*)c, (void*)t}) GmFree(p);
}

// The pre-8.0 spelling, as opDev's MatMulInvocation writes it: `matmul::MatmulImpl`,
// `SetSubBlockIdx`, `Init`, and a cube-side body that vector cores skip through g_coreType.
extern "C" __global__ __aicore__ void matmul_pre80(GM_ADDR a, GM_ADDR b, GM_ADDR c,
                                                   GM_ADDR tilingGm) {
  if (g_coreType == AIV) return;
  TPipe pipe;
  TCubeTiling tiling;
  std::memcpy(&tiling, tilingGm, sizeof(tiling));
  if (GetBlockIdx() >= tiling.usedCoreNum) return;
  GlobalTensor<half> aGlobal, bGlobal;
  GlobalTensor<float> cGlobal;
  aGlobal.SetGlobalBuffer((__gm__ half*)a, tiling.M * tiling.Ka);
  bGlobal.SetGlobalBuffer((__gm__ half*)b, tiling.Kb * tiling.N);
  cGlobal.SetGlobalBuffer((__gm__ float*)c, tiling.M * tiling.N);
  using AT = matmul::MatmulType<TPosition::GM, CubeFormat::ND, half>;
  using CT = matmul::MatmulType<TPosition::GM, CubeFormat::ND, float>;
  matmul::MatmulImpl<AT, AT, CT, CT> mm;
  mm.SetSubBlockIdx(0);
  EXPECT_EQ(mm.GetSubBlockIdx(), 0);
  mm.Init(&tiling, &pipe);
  mm.SetTensorA(aGlobal);
  mm.SetTensorB(bGlobal);
  mm.IterateAll(cGlobal);
}

TEST(AscendCCube, PreRelease8MatmulImplWithoutAKernelMode) {
  const int M = 64, N = 48, K = 32;
  matmul_tiling::MatmulApiTiling tiler;
  tiler.SetAType(matmul_tiling::TPosition::GM, matmul_tiling::CubeFormat::ND,
                 matmul_tiling::DataType::DT_FLOAT16);
  tiler.SetBType(matmul_tiling::TPosition::GM, matmul_tiling::CubeFormat::ND,
                 matmul_tiling::DataType::DT_FLOAT16);
  tiler.SetCType(matmul_tiling::TPosition::GM, matmul_tiling::CubeFormat::ND,
                 matmul_tiling::DataType::DT_FLOAT);
  tiler.SetShape(M, N, K);
  tiler.SetOrgShape(M, N, K);
  tiler.SetBias(false);
  TCubeTiling tiling;
  ASSERT_EQ(tiler.GetTiling(tiling), 0);
  tiling.usedCoreNum = 1;
  auto* a = static_cast<half*>(GmAlloc(M * K * 2));
  auto* b = static_cast<half*>(GmAlloc(K * N * 2));
  auto* c = static_cast<float*>(GmAlloc(M * N * 4));
  auto* t = static_cast<uint8_t*>(GmAlloc(sizeof(tiling)));
  std::memcpy(t, &tiling, sizeof(tiling));
  Fill(a, M * K, 5);
  Fill(b, K * N, 6);
  std::fill(c, c + M * N, 0.0f);
  AscendC::detail::ClearKernelMode();  // no SetKernelMode, as the sample's main.cpp
  testing::internal::CaptureStdout();
  const bool ok = ICPU_RUN_KF(matmul_pre80, 1, (uint8_t*)a, (uint8_t*)b, (uint8_t*)c, t);
  const std::string out = testing::internal::GetCapturedStdout();
  ASSERT_TRUE(ok) << out;
  EXPECT_NE(out.find("run in MIX_MODE"), std::string::npos) << out;
  const auto want = Reference(a, b, M, N, K, nullptr);
  for (int i = 0; i < M * N; ++i) ASSERT_NEAR(c[i], want[i], 1e-3) << i;
  for (void* p : {(void*)a, (void*)b, (void*)c, (void*)t}) GmFree(p);
}

TEST(AscendCCube, RulesOfTheCubePath) {
  // Cube instructions on a vector core: the vector cores have no cube unit.
  testing::internal::CaptureStdout();
  SetKernelMode(KernelMode::AIV_MODE);
  bool ok = detail::RunKernel("mmad_on_vector_core", 1, [] {
    TPipe pipe;
    TBuf<TPosition::CO1> c1;
    pipe.InitBuffer(c1, 4096);
    LocalTensor<float> f = c1.Get<float>();
    Mmad(f, f, f, MmadParams(16, 16, 16, false, 0, false, false, false));
  });
  std::string out = testing::internal::GetCapturedStdout();
  EXPECT_FALSE(ok);
  EXPECT_NE(out.find("Mmad: this runs on a cube (AIC) core, and the block is a vector (AIV) core"),
            std::string::npos)
      << out;
  testing::internal::CaptureStdout();
  SetKernelMode(KernelMode::AIC_MODE);
  ok = detail::RunKernel("mmad_wrong_place", 1, [] {
    TPipe pipe;
    TBuf<TPosition::VECCALC> ub;
    pipe.InitBuffer(ub, 4096);
    LocalTensor<half> h = ub.Get<half>();
    LocalTensor<float> f = ub.Get<float>();
    Mmad(f, h, h, MmadParams(16, 16, 16, false, 0, false, false, false));
  });
  out = testing::internal::GetCapturedStdout();
  EXPECT_FALSE(ok);
  SetKernelMode(KernelMode::AIV_MODE);
  EXPECT_NE(out.find("Mmad: destination must be in L0C, it is in UB"), std::string::npos) << out;
  // A tiling whose base block does not fit L0A.
  TCubeTiling big;
  big.M = big.N = big.Ka = big.Kb = 512;
  big.singleCoreM = big.singleCoreN = big.singleCoreK = 512;
  big.baseM = 256, big.baseN = 128, big.baseK = 256;
  testing::internal::CaptureStdout();
  SetKernelMode(KernelMode::MIX_MODE);  // the Matmul API needs the cube core of a mix launch
  ok = detail::RunKernel("matmul_big_base", 1, [&big] {
    TPipe pipe;
    Matmul<MatmulType<TPosition::GM, CubeFormat::ND, half>,
           MatmulType<TPosition::GM, CubeFormat::ND, half>,
           MatmulType<TPosition::GM, CubeFormat::ND, float>>
        mm;
    REGIST_MATMUL_OBJ(&pipe, GetSysWorkSpacePtr(), mm, &big);
  });
  out = testing::internal::GetCapturedStdout();
  EXPECT_FALSE(ok);
  EXPECT_NE(out.find("baseM x baseK (256 x 256) needs 131072 bytes of L0A, which has 65536"),
            std::string::npos)
      << out;
  SetKernelMode(KernelMode::AIV_MODE);
  // The host tiling refuses such splits.
  matmul_tiling::MatmulApiTiling t;
  t.SetShape(512, 512, 512);
  t.SetFixSplit(256, 128, 256);
  TCubeTiling out_tiling;
  EXPECT_EQ(t.GetTiling(out_tiling), -1);
}

}  // namespace

// Code inside namespace matmul sees AscendC's names unqualified, as with CANN's headers.
namespace matmul {
[[maybe_unused]] int64_t OcBlockOffset() {
  (void)GetSysWorkSpacePtr;
  constexpr MatmulShapeParams kShape{64, 64, 64, 32, 32, 32};
  return static_cast<int64_t>(GetBlockIdx()) * kShape.singleCoreM;
}
}  // namespace matmul

// A Matmul API kernel with no kernel type and no SetKernelMode runs in MIX_MODE, CANN's CPU
// debug default (it ran on vector cores before, leaving half a mix kernel's rows unwritten);
// AIV_ONLY, which has no cube core, is refused naming the types that have one.
TEST(AscendCCube, MatmulWithoutAKernelModeRunsInMixMode) {
  const int M = 32, N = 32, K = 32;
  matmul_tiling::MultiCoreMatmulTiling tiler;
  tiler.SetDim(1);
  tiler.SetAType(matmul_tiling::TPosition::GM, matmul_tiling::CubeFormat::ND,
                 matmul_tiling::DataType::DT_FLOAT16);
  tiler.SetBType(matmul_tiling::TPosition::GM, matmul_tiling::CubeFormat::ND,
                 matmul_tiling::DataType::DT_FLOAT16);
  tiler.SetCType(matmul_tiling::TPosition::GM, matmul_tiling::CubeFormat::ND,
                 matmul_tiling::DataType::DT_FLOAT);
  tiler.SetShape(M, N, K);
  tiler.SetOrgShape(M, N, K);
  TCubeTiling tiling;
  ASSERT_EQ(tiler.GetTiling(tiling), 0);
  auto* a = static_cast<half*>(GmAlloc(M * K * 2));
  auto* b = static_cast<half*>(GmAlloc(K * N * 2));
  auto* c = static_cast<float*>(GmAlloc(M * N * 4));
  Fill(a, M * K, 5);
  Fill(b, K * N, 6);
  auto kernel = [&] {
    TPipe pipe;
    Matmul<MatmulType<TPosition::GM, CubeFormat::ND, half>,
           MatmulType<TPosition::GM, CubeFormat::ND, half>,
           MatmulType<TPosition::GM, CubeFormat::ND, float>>
        mm;
    REGIST_MATMUL_OBJ(&pipe, GetSysWorkSpacePtr(), mm, &tiling);
    if (GetSubBlockIdx() != 0) return;  // the first vector core of the pair drives it
    GlobalTensor<half> ga, gb;
    GlobalTensor<float> gc;
    ga.SetGlobalBuffer(a, M * K);
    gb.SetGlobalBuffer(b, K * N);
    gc.SetGlobalBuffer(c, M * N);
    mm.SetTensorA(ga);
    mm.SetTensorB(gb);
    mm.IterateAll(gc);
    mm.End();
  };
  detail::ClearKernelMode();
  testing::internal::CaptureStdout();
  const bool ok = detail::RunKernel("mm_no_mode", 1, kernel);
  const std::string out = testing::internal::GetCapturedStdout();
  ASSERT_TRUE(ok) << out;
  EXPECT_NE(out.find("run in MIX_MODE"), std::string::npos) << out;
  const auto want = Reference(a, b, M, N, K, nullptr);
  for (int i = 0; i < M * N; ++i) ASSERT_NEAR(c[i], want[i], 1e-3) << i;
  SetKernelMode(KernelMode::AIV_MODE);
  testing::internal::CaptureStdout();
  EXPECT_FALSE(detail::RunKernel("mm_aiv_only", 1, kernel));
  const std::string refused = testing::internal::GetCapturedStdout();
  EXPECT_NE(refused.find("the Matmul API needs a cube core"), std::string::npos) << refused;
  for (void* p : {(void*)a, (void*)b, (void*)c}) GmFree(p);
}

// A and the bias already in UB (MatmulType position VECOUT), as a kernel that computes A on
// the vector core (a dequantised weight, an activation) hands it to the cube; B from GM.
TEST(AscendCCube, MatmulReadsAAndBiasFromUb) {
  const int M = 32, N = 32, K = 64;
  matmul_tiling::MultiCoreMatmulTiling tiler;
  tiler.SetDim(1);
  tiler.SetAType(matmul_tiling::TPosition::VECOUT, matmul_tiling::CubeFormat::ND,
                 matmul_tiling::DataType::DT_FLOAT16);
  tiler.SetBType(matmul_tiling::TPosition::GM, matmul_tiling::CubeFormat::ND,
                 matmul_tiling::DataType::DT_FLOAT16);
  tiler.SetCType(matmul_tiling::TPosition::GM, matmul_tiling::CubeFormat::ND,
                 matmul_tiling::DataType::DT_FLOAT);
  tiler.SetShape(M, N, K);
  tiler.SetOrgShape(M, N, K);
  tiler.SetBias(true);
  TCubeTiling tiling;
  ASSERT_EQ(tiler.GetTiling(tiling), 0);
  auto* a = static_cast<half*>(GmAlloc(M * K * 2));
  auto* b = static_cast<half*>(GmAlloc(K * N * 2));
  auto* bias = static_cast<float*>(GmAlloc(N * 4));
  auto* c = static_cast<float*>(GmAlloc(M * N * 4));
  Fill(a, M * K, 7);
  Fill(b, K * N, 8);
  for (int j = 0; j < N; ++j) bias[j] = 0.25f * j;
  auto kernel = [&] {
    TPipe pipe;
    Matmul<MatmulType<TPosition::VECOUT, CubeFormat::ND, half>,
           MatmulType<TPosition::GM, CubeFormat::ND, half>,
           MatmulType<TPosition::GM, CubeFormat::ND, float>,
           MatmulType<TPosition::VECOUT, CubeFormat::ND, float>>
        mm;
    REGIST_MATMUL_OBJ(&pipe, GetSysWorkSpacePtr(), mm, &tiling);
    if (GetSubBlockIdx() != 0) return;
    TQue<TPosition::VECOUT, 1> qa, qbias;
    pipe.InitBuffer(qa, 1, M * K * sizeof(half));
    pipe.InitBuffer(qbias, 1, N * sizeof(float));
    GlobalTensor<half> ga, gb;
    GlobalTensor<float> gbias, gc;
    ga.SetGlobalBuffer(a, M * K);
    gb.SetGlobalBuffer(b, K * N);
    gbias.SetGlobalBuffer(bias, N);
    gc.SetGlobalBuffer(c, M * N);
    LocalTensor<half> la = qa.AllocTensor<half>();
    LocalTensor<float> lbias = qbias.AllocTensor<float>();
    DataCopy(la, ga, M * K);
    DataCopy(lbias, gbias, N);
    qa.EnQue(la);
    qbias.EnQue(lbias);
    la = qa.DeQue<half>();
    lbias = qbias.DeQue<float>();
    mm.SetTensorA(la);
    mm.SetTensorB(gb);
    mm.SetBias(lbias);
    mm.IterateAll(gc);
    mm.End();
    qa.FreeTensor(la);
    qbias.FreeTensor(lbias);
  };
  SetKernelMode(KernelMode::MIX_MODE);
  testing::internal::CaptureStdout();
  const bool ok = detail::RunKernel("mm_from_ub", 1, kernel);
  const std::string out = testing::internal::GetCapturedStdout();
  SetKernelMode(KernelMode::AIV_MODE);
  ASSERT_TRUE(ok) << out;
  const auto want = Reference(a, b, M, N, K, bias);
  for (int i = 0; i < M * N; ++i) ASSERT_NEAR(c[i], want[i], 1e-3) << i;
  for (void* p : {(void*)a, (void*)b, (void*)bias, (void*)c}) GmFree(p);
}

// Iterate<false>() starts the whole matrix; each GetTensorC<false>() takes the next base
// block (it took the first block every time before: 3 of 4 blocks wrong, success printed).
TEST(AscendCCube, AsyncIterateWalksTheBlocksWithGetTensorC) {
  const int M = 64, N = 64, K = 32;
  matmul_tiling::MultiCoreMatmulTiling tiler;
  tiler.SetDim(1);
  tiler.SetAType(matmul_tiling::TPosition::GM, matmul_tiling::CubeFormat::ND,
                 matmul_tiling::DataType::DT_FLOAT16);
  tiler.SetBType(matmul_tiling::TPosition::GM, matmul_tiling::CubeFormat::ND,
                 matmul_tiling::DataType::DT_FLOAT16);
  tiler.SetCType(matmul_tiling::TPosition::GM, matmul_tiling::CubeFormat::ND,
                 matmul_tiling::DataType::DT_FLOAT);
  tiler.SetShape(M, N, K);
  tiler.SetOrgShape(M, N, K);
  tiler.SetFixSplit(32, 32, -1);  // 2 x 2 base blocks
  TCubeTiling tiling;
  ASSERT_EQ(tiler.GetTiling(tiling), 0);
  ASSERT_EQ(tiling.baseM, 32);
  ASSERT_EQ(tiling.baseN, 32);
  auto* a = static_cast<half*>(GmAlloc(M * K * 2));
  auto* b = static_cast<half*>(GmAlloc(K * N * 2));
  auto* c = static_cast<float*>(GmAlloc(M * N * 4));
  Fill(a, M * K, 7);
  Fill(b, K * N, 8);
  int calls = 4;
  auto kernel = [&] {
    TPipe pipe;
    Matmul<MatmulType<TPosition::GM, CubeFormat::ND, half>,
           MatmulType<TPosition::GM, CubeFormat::ND, half>,
           MatmulType<TPosition::GM, CubeFormat::ND, float>>
        mm;
    REGIST_MATMUL_OBJ(&pipe, GetSysWorkSpacePtr(), mm, &tiling);
    if (GetSubBlockIdx() != 0) return;
    GlobalTensor<half> ga, gb;
    GlobalTensor<float> gc;
    ga.SetGlobalBuffer(a, M * K);
    gb.SetGlobalBuffer(b, K * N);
    gc.SetGlobalBuffer(c, M * N);
    mm.SetTensorA(ga);
    mm.SetTensorB(gb);
    mm.template Iterate<false>();
    for (int i = 0; i < calls; ++i) mm.template GetTensorC<false>(gc);
    mm.End();
  };
  SetKernelMode(KernelMode::MIX_MODE);
  testing::internal::CaptureStdout();
  const bool ok = detail::RunKernel("mm_async", 1, kernel);
  std::string out = testing::internal::GetCapturedStdout();
  ASSERT_TRUE(ok) << out;
  const auto want = Reference(a, b, M, N, K, nullptr);
  for (int i = 0; i < M * N; ++i) ASSERT_NEAR(c[i], want[i], 1e-3) << i;
  calls = 5;  // one more than the blocks: an error, not a silent repeat
  testing::internal::CaptureStdout();
  EXPECT_FALSE(detail::RunKernel("mm_async_extra", 1, kernel));
  out = testing::internal::GetCapturedStdout();
  EXPECT_NE(out.find("more times than the 4 base blocks"), std::string::npos) << out;
  SetKernelMode(KernelMode::AIV_MODE);
  for (void* p : {(void*)a, (void*)b, (void*)c}) GmFree(p);
}

namespace {

TEST(AscendCCube, ShortMmadParamsAndFixpipeLayouts) {
  const MmadParams p{32, 16, 64, 0, false, true};  // {m, n, k, unitFlag, source, initVal}
  EXPECT_EQ(p.m, 32);
  EXPECT_EQ(p.k, 64);
  EXPECT_TRUE(p.cmatrixInitVal);
  EXPECT_FALSE(p.isBias);
  auto* out = static_cast<float*>(GmAlloc(256 * sizeof(float)));
  auto r = oc_test::LaunchQuiet(
      "fixpipe_nz", 1,
      [&] {
        TPipe pipe;
        TBuf<TPosition::CO1> c1;
        pipe.InitBuffer(c1, 1024);
        LocalTensor<float> lc = c1.Get<float>();
        for (int i = 0; i < 256; ++i) lc.SetValue(i, float(i));
        GlobalTensor<float> g;
        g.SetGlobalBuffer(out, 256);
        FixpipeParamsV220 fp{16, 16, 16, 16, false, QuantMode_t::NoQuant, 0, 1, 0, 0, 0};
        Fixpipe<float, float, CFG_ROW_MAJOR>(g, lc, fp);
        Fixpipe<float, float, CFG_NZ>(g, lc, fp);
      },
      KernelMode::AIC_MODE);
  EXPECT_FALSE(r.ok);
  ASSERT_FALSE(r.errors.empty());
  EXPECT_NE(r.errors[0].find("CFG_NZ"), std::string::npos) << r.errors[0];
  for (int i = 0; i < 256; ++i) EXPECT_EQ(out[i], float(i));  // one 16x16 fractal: ND == NZ
  GmFree(out);
}

}  // namespace

namespace {

TEST(AscendCCube, MultiCoreSplitsCannSamplesRelyOn) {
  namespace mt = matmul_tiling;
  auto tile = [](int m, int n, int k, mt::TPosition c_pos, int fix_m, int fix_n, int fix_k) {
    mt::MultiCoreMatmulTiling t;
    t.SetDim(2);
    t.SetAType(mt::TPosition::GM, mt::CubeFormat::ND, mt::DataType::DT_FLOAT16);
    t.SetBType(mt::TPosition::GM, mt::CubeFormat::ND, mt::DataType::DT_FLOAT16);
    t.SetCType(c_pos, mt::CubeFormat::ND, mt::DataType::DT_FLOAT);
    t.SetShape(m, n, k);
    t.SetOrgShape(m, n, k);
    if (fix_m > 0) t.SetFixSplit(fix_m, fix_n, fix_k);
    TCubeTiling out;
    EXPECT_EQ(t.GetTiling(out), 0);
    return out;
  };
  // asc-devkit's matmul_advanced_api: C in GM, split over M.
  const TCubeTiling gm = tile(512, 512, 128, mt::TPosition::GM, -1, -1, -1);
  EXPECT_EQ(gm.usedCoreNum, 2);
  EXPECT_EQ(gm.singleCoreM, 256);
  EXPECT_EQ(gm.singleCoreN, 512);
  // matmul_leakyrelu_advanced_api: C to the vector cores' UB, split over N.
  const TCubeTiling ub = tile(512, 128, 128, mt::TPosition::VECIN, 128, 64, 128);
  EXPECT_EQ(ub.usedCoreNum, 2);
  EXPECT_EQ(ub.singleCoreM, 512);
  EXPECT_EQ(ub.singleCoreN, 64);
}

}  // namespace

namespace {

TEST(AscendCCube, TilingFillsL0AndResolvesMinusOneShapes) {
  namespace mt = matmul_tiling;
  mt::MultiCoreMatmulTiling t;
  t.SetDim(20);
  t.SetAType(mt::TPosition::GM, mt::CubeFormat::ND, mt::DataType::DT_FLOAT16);
  t.SetBType(mt::TPosition::GM, mt::CubeFormat::ND, mt::DataType::DT_FLOAT16);
  t.SetCType(mt::TPosition::GM, mt::CubeFormat::ND, mt::DataType::DT_FLOAT);
  t.SetOrgShape(2560, 2048, 128);
  t.SetShape(2560, 2048, 128);
  t.SetSingleShape(256, 1024, 128);  // asc-devkit's matmul_l0cache: its config fixes 256x128x128
  TCubeTiling out;
  ASSERT_EQ(t.GetTiling(out), 0);
  EXPECT_EQ(out.baseM, 256);
  EXPECT_EQ(out.baseN, 128);
  EXPECT_EQ(out.baseK, 128);
  // SetShape's -1 takes the original shape; GetSingleShape reports what GetTiling chose.
  mt::MultiCoreMatmulTiling u;
  u.SetDim(1);
  u.SetAType(mt::TPosition::GM, mt::CubeFormat::ND, mt::DataType::DT_FLOAT16);
  u.SetBType(mt::TPosition::GM, mt::CubeFormat::ND, mt::DataType::DT_FLOAT16);
  u.SetCType(mt::TPosition::GM, mt::CubeFormat::ND, mt::DataType::DT_FLOAT);
  u.SetOrgShape(64, 96, 32);
  u.SetShape(-1, -1, 32);
  ASSERT_EQ(u.GetTiling(out), 0);
  EXPECT_EQ(out.usedCoreNum, 1);
  int32_t sm = 0, sn = 0, sk = 0;
  u.GetSingleShape(sm, sn, sk);
  EXPECT_EQ(sm, 64);
  EXPECT_EQ(sn, 96);
  EXPECT_EQ(sk, 32);
}

}  // namespace

namespace {

TEST(AscendCCube, NdAlignCKeepsRowsOn32Bytes) {
  // C in ND_ALIGN: 20 floats a row stored 24 apart (rows rounded up to 32 bytes).
  const int M = 16, N = 20, K = 32, kStride = 24;
  matmul_tiling::MatmulApiTiling tiler;
  tiler.SetAType(matmul_tiling::TPosition::GM, matmul_tiling::CubeFormat::ND,
                 matmul_tiling::DataType::DT_FLOAT16);
  tiler.SetBType(matmul_tiling::TPosition::GM, matmul_tiling::CubeFormat::ND,
                 matmul_tiling::DataType::DT_FLOAT16);
  tiler.SetCType(matmul_tiling::TPosition::GM, matmul_tiling::CubeFormat::ND_ALIGN,
                 matmul_tiling::DataType::DT_FLOAT);
  tiler.SetShape(M, N, K);
  tiler.SetOrgShape(M, N, K);
  TCubeTiling tiling;
  ASSERT_EQ(tiler.GetTiling(tiling), 0);
  auto* a = static_cast<half*>(GmAlloc(M * K * 2));
  auto* b = static_cast<half*>(GmAlloc(K * N * 2));
  auto* c = static_cast<float*>(GmAlloc(M * kStride * 4));
  Fill(a, M * K, 9);
  Fill(b, K * N, 10);
  for (int i = 0; i < M * kStride; ++i) c[i] = -1.0f;
  auto r = oc_test::LaunchQuiet(
      "nd_align", 1,
      [&] {
        TPipe pipe;
        Matmul<MatmulType<TPosition::GM, CubeFormat::ND, half>,
               MatmulType<TPosition::GM, CubeFormat::ND, half>,
               MatmulType<TPosition::GM, CubeFormat::ND_ALIGN, float>>
            mm;
        REGIST_MATMUL_OBJ(&pipe, GetSysWorkSpacePtr(), mm, &tiling);
        GlobalTensor<half> ga, gb;
        GlobalTensor<float> gc;
        ga.SetGlobalBuffer(a, M * K);
        gb.SetGlobalBuffer(b, K * N);
        gc.SetGlobalBuffer(c, M * kStride);
        mm.SetTensorA(ga);
        mm.SetTensorB(gb);
        mm.IterateAll(gc);
        mm.End();
      },
      KernelMode::AIC_MODE);
  for (const auto& e : r.errors) ADD_FAILURE() << e;
  ASSERT_TRUE(r.ok);
  const auto want = Reference(a, b, M, N, K, nullptr);
  for (int m = 0; m < M; ++m) {
    for (int n = 0; n < N; ++n) ASSERT_NEAR(c[m * kStride + n], want[m * N + n], 1e-3);
    for (int n = N; n < kStride; ++n) EXPECT_EQ(c[m * kStride + n], -1.0f);  // left alone
  }
  for (void* p : {(void*)a, (void*)b, (void*)c}) GmFree(p);
}

}  // namespace
