// Kernels compiled as for the NPU (OCANN_NPU_COMPILE: ccec, operator packages,
// ascendc_library): ASSERT expands to nothing as in CANN's device compile, so public kernels
// that write `x ASSERT(...);` build; assert() is still checked. Its own translation unit.
#define OCANN_NPU_COMPILE 1
#include <gtest/gtest.h>

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

}  // namespace
