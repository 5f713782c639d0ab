// ASCENDC_CUBE_ONLY: a mix kernel whose cube core drives the Matmul itself (REGIST_MATMUL_OBJ
// does not end it) and then hands the product to its vector cores with a cross-core flag, as
// CANN's bare-mix sample does. Its own translation unit: the macro precedes the headers.
#define ASCENDC_CUBE_ONLY
#include <gtest/gtest.h>

#include <vector>

#include "kernel_operator.h"
#include "lib/matmul_intf.h"
#include "tikicpulib.h"
#include "tiling/tiling_api.h"

using namespace AscendC;

namespace {

using AType = MatmulType<TPosition::GM, CubeFormat::ND, half>;
using CType = MatmulType<TPosition::GM, CubeFormat::ND, float>;
constexpr int kM = 32, kN = 32, kK = 64;

TCubeTiling Tiling() {
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
  TCubeTiling t;
  EXPECT_EQ(tiler.GetTiling(t), 0);
  return t;
}

TEST(AscendCCubeOnly, CubeCoreDrivesTheMatmulThenFlagsItsVectorCores) {
  half* a = static_cast<half*>(GmAlloc(kM * kK * 2));
  half* b = static_cast<half*>(GmAlloc(kK * kN * 2));
  float* c = static_cast<float*>(GmAlloc(kM * kN * 4));
  float* d = static_cast<float*>(GmAlloc(kM * kN * 4));
  for (int i = 0; i < kM * kK; ++i) a[i] = half(float(i % 5 - 2) / 2);
  for (int i = 0; i < kK * kN; ++i) b[i] = half(float(i % 3 - 1));
  const TCubeTiling tiling = Tiling();
  testing::internal::CaptureStdout();
  const bool ok = detail::RunKernel("cube_only", 1, [&] {
    KERNEL_TASK_TYPE_DEFAULT(KERNEL_TYPE_MIX_AIC_1_2);
    if ASCEND_IS_AIC {
      TPipe pipe;
      GlobalTensor<half> ag, bg;
      GlobalTensor<float> cg;
      ag.SetGlobalBuffer((__gm__ half*)a, kM * kK);
      bg.SetGlobalBuffer((__gm__ half*)b, kK * kN);
      cg.SetGlobalBuffer((__gm__ float*)c, kM * kN);
      Matmul<AType, AType, CType, CType> mm;
      REGIST_MATMUL_OBJ(&pipe, GetSysWorkSpacePtr(), mm, &tiling);
      mm.SetTensorA(ag);
      mm.SetTensorB(bg);
      mm.IterateAll(cg);
      mm.End();
      CrossCoreSetFlag<2, PIPE_FIX>(3);
    }
    if ASCEND_IS_AIV {
      CrossCoreWaitFlag(3);
      // Each vector core doubles its half of the rows of C into D.
      const int rows = kM / 2, first = GetSubBlockIdx() * rows;
      for (int i = first * kN; i < (first + rows) * kN; ++i) d[i] = 2 * c[i];
    }
  });
  const std::string out = testing::internal::GetCapturedStdout();
  ASSERT_TRUE(ok) << out;
  for (int m = 0; m < kM; ++m)
    for (int n = 0; n < kN; ++n) {
      float s = 0;
      for (int k = 0; k < kK; ++k) s += float(a[m * kK + k]) * float(b[k * kN + n]);
      ASSERT_NEAR(d[m * kN + n], 2 * s, 1e-3) << m << "," << n;
    }
  GmFree(a);
  GmFree(b);
  GmFree(c);
  GmFree(d);
}

}  // namespace
