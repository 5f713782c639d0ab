// The canonical Ascend C kernel (multi-core Add with double buffering), written as CANN's
// samples write it, run through ICPU_RUN_KF and checked against hand-computed values.
#include <gtest/gtest.h>

#include <cmath>
#include <vector>

#include "kernel_operator.h"
#include "tikicpulib.h"

using namespace AscendC;

// The kernel of examples/ascendc_add, exactly as shipped (its main() left out).
#define OC_KERNEL_ONLY
#include "../../examples/ascendc_add/add_custom.cpp"

TEST(AscendC, HalfRoundsToNearestEven) {
  // 1 + 2^-11 lies halfway between 1 and the next half (1 + 2^-10): ties go to even (1).
  EXPECT_EQ(half(1.0f + std::ldexp(1.0f, -11)).bits, 0x3c00);
  EXPECT_EQ(half(1.0f + 3 * std::ldexp(1.0f, -11)).bits, 0x3c02);  // tie -> even mantissa 2
  EXPECT_EQ(half(65520.0f).bits, 0x7c00);                          // rounds to infinity
  EXPECT_EQ(half(65519.0f).bits, 0x7bff);                          // max half
  EXPECT_EQ(half(std::ldexp(1.0f, -25)).bits, 0x0000);             // tie at 0 -> even (0)
  EXPECT_EQ(half(std::ldexp(1.5f, -25)).bits, 0x0001);             // above the tie
  EXPECT_EQ(float(half::FromBits(0x0001)), std::ldexp(1.0f, -24));
  EXPECT_EQ(bfloat16_t(1.0f + std::ldexp(1.0f, -8)).bits, 0x3f80);  // tie -> even
  EXPECT_EQ(bfloat16_t(1.0f + 3 * std::ldexp(1.0f, -8)).bits, 0x3f82);
}

TEST(AscendC, AddCustomMultiCoreDoubleBuffer) {
  const size_t n = 8 * 2048, bytes = n * sizeof(half);
  auto* x = static_cast<half*>(GmAlloc(bytes));
  auto* y = static_cast<half*>(GmAlloc(bytes));
  auto* z = static_cast<half*>(GmAlloc(bytes));
  for (size_t i = 0; i < n; ++i) {
    x[i] = half(static_cast<float>(i % 97) * 0.25f);
    y[i] = half(static_cast<float>(i % 13) - 6.0f);
  }
  SetKernelMode(KernelMode::AIV_MODE);
  EXPECT_TRUE(ICPU_RUN_KF(add_custom, 8, (uint8_t*)x, (uint8_t*)y, (uint8_t*)z));
  for (size_t i = 0; i < n; ++i)
    ASSERT_EQ(float(z[i]), float(half(float(x[i]) + float(y[i])))) << i;
  GmFree(x);
  GmFree(y);
  GmFree(z);
}
