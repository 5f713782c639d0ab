// Kernels compiled as for the NPU (OCANN_NPU_COMPILE: ccec, operator packages,
// ascendc_library): ASSERT expands to nothing as in CANN's device compile, so public kernels
// that write `x ASSERT(...);` build; assert() is still checked. Its own translation unit.
#define OCANN_NPU_COMPILE 1
#include <gtest/gtest.h>

#include <cstring>

#include "kernel_operator.h"
#include "launch_util.h"
#include "tikicpulib.h"

namespace {

TEST(AscendCNpuCompile, AssertMacroIsEmptyButAssertStillChecks) {
  int tile = 0;
  auto r = oc_test::LaunchQuiet(
      "npu_assert", 1,
      [&] {
        const int tileNum = 4;
        tile = tileNum ASSERT(tileNum > 100);  // as a census kernel writes it; no check here
      },
      AscendC::KernelMode::AIV_MODE);
  EXPECT_TRUE(r.ok);
  EXPECT_EQ(tile, 4);
  testing::internal::CaptureStdout();
  r = oc_test::LaunchQuiet(
      "npu_assert_lower", 1, [&] { assert(tile > 100); }, AscendC::KernelMode::AIV_MODE);
  testing::internal::GetCapturedStdout();
  EXPECT_FALSE(r.ok);
}

TEST(AscendCNpuCompile, BlockIdxAndBlockNumVariables) {
  int64_t seen[4] = {-1, -1, -1, -1};
  int64_t nums[4] = {0, 0, 0, 0};
  auto r = oc_test::LaunchQuiet(
      "builtin_vars", 4,
      [&] {
        const int64_t i = block_idx;  // the device compiler's built-in variables
        seen[i] = i * 10;
        nums[i] = block_num;
      },
      AscendC::KernelMode::AIV_MODE);
  ASSERT_TRUE(r.ok);
  for (int i = 0; i < 4; ++i) {
    EXPECT_EQ(seen[i], i * 10);
    EXPECT_EQ(nums[i], 4);
  }
  const int block_idx = 7;  // a local of the same name shadows it
  EXPECT_EQ(block_idx, 7);
}

TEST(AscendCNpuCompile, DataCopyPadWithTheOlderParameterForms) {
  using namespace AscendC;
  auto* x = static_cast<float*>(GmAlloc(64));
  auto* y = static_cast<float*>(GmAlloc(64));
  for (int i = 0; i < 5; ++i) x[i] = 1.5f * i;
  auto r = oc_test::LaunchQuiet(
      "pad_old_forms", 1,
      [&] {
        TPipe pipe;
        TBuf<TPosition::VECCALC> b;
        pipe.InitBuffer(b, 64);
        GlobalTensor<float> gx, gy;
        gx.SetGlobalBuffer(x, 5);
        gy.SetGlobalBuffer(y, 5);
        LocalTensor<float> t = b.Get<float>();
        const float pad = -2.0f;
        uint64_t bits = 0;
        std::memcpy(&bits, &pad, sizeof(pad));
        // 5 floats (20 bytes) in; the rest of the 32-byte block padded with -2.
        DataCopyPad(t, gx, {1, 20, 0, 0}, DataCopyPadParams(true, 0, 0, bits));
        PipeBarrier<PIPE_ALL>();
        EXPECT_EQ(t.GetValue(4), 6.0f);
        EXPECT_EQ(t.GetValue(5), -2.0f);
        EXPECT_EQ(t.GetValue(7), -2.0f);
        DataCopyPad(gy, t, {1, 20, 0, 0});  // exactly 20 bytes out
      },
      AscendC::KernelMode::AIV_MODE);
  ASSERT_TRUE(r.ok);
  for (int i = 0; i < 5; ++i) EXPECT_EQ(y[i], 1.5f * i);
  GmFree(x);
  GmFree(y);
}

}  // namespace
