// Calls public kernels make that the census found missing: Axpy (same type and half into
// float), Log/Log2/Log10, and TBuf's queue-style AllocTensor/FreeTensor; against numpy-style
// values computed here in double.
#include <gtest/gtest.h>

#include <cmath>
#include <vector>

#include "kernel_operator.h"
#include "launch_util.h"
#include "tikicpulib.h"

using namespace AscendC;

namespace {

TEST(AscendCWildApi, AxpyAccumulatesScaledSource) {
  std::vector<float> same, mixed;
  auto r = oc_test::LaunchQuiet(
      "axpy", 1,
      [&] {
        TPipe pipe;
        TBuf<TPosition::VECCALC> a, b, c;
        pipe.InitBuffer(a, 256);
        pipe.InitBuffer(b, 256);
        pipe.InitBuffer(c, 256);
        LocalTensor<float> dst = a.Get<float>(), src = b.Get<float>();
        LocalTensor<half> hsrc = c.Get<half>();
        for (int i = 0; i < 64; ++i) {
          dst.SetValue(i, float(i));
          src.SetValue(i, 0.5f * float(i) - 3.0f);
          hsrc.SetValue(i, half(float(i % 7) - 2.5f));
        }
        Axpy(dst, src, 2.0f, 64);  // dst = 2 * src + dst
        for (int i = 0; i < 64; ++i) same.push_back(dst.GetValue(i));
        Axpy(dst, hsrc, half(-1.5f), 64);  // half source accumulated into float
        for (int i = 0; i < 64; ++i) mixed.push_back(dst.GetValue(i));
      },
      KernelMode::AIV_MODE);
  for (const auto& e : r.errors) ADD_FAILURE() << e;
  ASSERT_TRUE(r.ok);
  for (int i = 0; i < 64; ++i) {
    const double want = 2.0 * (0.5 * i - 3.0) + i;
    EXPECT_EQ(same[i], float(want)) << i;
    EXPECT_EQ(mixed[i], float(want - 1.5 * ((i % 7) - 2.5))) << i;
  }
}

TEST(AscendCWildApi, AxpyReadsItsDestination) {
  // The destination is an operand: accumulating into bytes nothing wrote is reported.
  auto r = oc_test::LaunchQuiet(
      "axpy_uninit", 1,
      [&] {
        TPipe pipe;
        TBuf<TPosition::VECCALC> a, b;
        pipe.InitBuffer(a, 256);
        pipe.InitBuffer(b, 256);
        LocalTensor<float> dst = a.Get<float>(), src = b.Get<float>();
        Duplicate(src, 1.0f, 64);
        Axpy(dst, src, 1.0f, 64);
      },
      KernelMode::AIV_MODE);
  bool reported = false;
  for (const auto& w : r.warnings) reported |= w.find("Axpy") != std::string::npos;
  for (const auto& e : r.errors) reported |= e.find("Axpy") != std::string::npos;
  EXPECT_TRUE(reported);
}

TEST(AscendCWildApi, LogarithmsAndTBufQueueCalls) {
  std::vector<float> ln, l2, l10;
  auto r = oc_test::LaunchQuiet(
      "logs", 1,
      [&] {
        TPipe pipe;
        TBuf<TPosition::VECCALC> a, b, tmp;
        pipe.InitBuffer(a, 128);
        pipe.InitBuffer(b, 128);
        pipe.InitBuffer(tmp, 256);
        LocalTensor<float> x = a.AllocTensor<float>(), y = b.AllocTensor<float>();
        for (int i = 0; i < 32; ++i) x.SetValue(i, 0.25f * float(i + 1));
        Log(y, x, 32);
        for (int i = 0; i < 32; ++i) ln.push_back(y.GetValue(i));
        Log2(y, x, tmp.Get<uint8_t>(), 32);
        for (int i = 0; i < 32; ++i) l2.push_back(y.GetValue(i));
        Log10(y, x, 32);
        for (int i = 0; i < 32; ++i) l10.push_back(y.GetValue(i));
        a.FreeTensor(x);
        b.FreeTensor(y);
      },
      KernelMode::AIV_MODE);
  for (const auto& e : r.errors) ADD_FAILURE() << e;
  ASSERT_TRUE(r.ok);
  for (int i = 0; i < 32; ++i) {
    const double x = 0.25 * (i + 1);
    EXPECT_FLOAT_EQ(ln[i], float(std::log(x)));
    EXPECT_FLOAT_EQ(l2[i], float(std::log2(x)));
    EXPECT_FLOAT_EQ(l10[i], float(std::log10(x)));
  }
}

TEST(AscendCWildApi, CompareScalarAndOneValueVectorMask) {
  std::vector<uint8_t> bits;
  uint64_t counter_mask[2] = {0, 0}, normal_mask[2] = {0, 0};
  auto r = oc_test::LaunchQuiet(
      "cmp_scalar", 1,
      [&] {
        TPipe pipe;
        TBuf<TPosition::VECCALC> a, b;
        pipe.InitBuffer(a, 256);
        pipe.InitBuffer(b, 32);
        LocalTensor<float> x = a.Get<float>();
        LocalTensor<uint8_t> m = b.Get<uint8_t>();
        for (int i = 0; i < 64; ++i) x.SetValue(i, float(i % 5) - 2.0f);
        CompareScalar(m, x, 0.0f, CMPMODE::LE, 64);
        for (int i = 0; i < 8; ++i) bits.push_back(m.GetValue(i));
        SetVectorMask<float, MaskMode::COUNTER>(300);
        counter_mask[0] = detail::Mask().mask[0];
        counter_mask[1] = detail::Mask().mask[1];
        SetVectorMask<float, MaskMode::NORMAL>(70);
        normal_mask[0] = detail::Mask().mask[0];
        normal_mask[1] = detail::Mask().mask[1];
        ResetMask();
      },
      KernelMode::AIV_MODE);
  for (const auto& e : r.errors) ADD_FAILURE() << e;
  ASSERT_TRUE(r.ok);
  for (int i = 0; i < 64; ++i)
    EXPECT_EQ((bits[i / 8] >> (i % 8)) & 1, (i % 5) - 2 <= 0 ? 1 : 0) << i;
  EXPECT_EQ(counter_mask[0], 300u);
  EXPECT_EQ(counter_mask[1], 0u);
  EXPECT_EQ(normal_mask[0], ~0ull);
  EXPECT_EQ(normal_mask[1], 0x3Full);
}

TEST(AscendCWildApi, ReductionResultsNeedOnlyElementAlignment) {
  // A layer norm writes each row's sum to sums[row]: 4-byte steps into UB are legal for a
  // reduction's result (CANN documents element alignment for it).
  std::vector<float> sums;
  auto r = oc_test::LaunchQuiet(
      "reduce_rows", 1,
      [&] {
        TPipe pipe;
        TBuf<TPosition::VECCALC> a, b, w;
        pipe.InitBuffer(a, 3 * 64 * 4);
        pipe.InitBuffer(b, 32);
        pipe.InitBuffer(w, 256);
        LocalTensor<float> x = a.Get<float>(), out = b.Get<float>(), work = w.Get<float>();
        for (int i = 0; i < 3 * 64; ++i) x.SetValue(i, float(i / 64 + 1));
        for (int row = 0; row < 3; ++row) ReduceSum(out[row], x[row * 64], work, 64);
        for (int row = 0; row < 3; ++row) sums.push_back(out.GetValue(row));
      },
      KernelMode::AIV_MODE);
  for (const auto& e : r.errors) ADD_FAILURE() << e;
  ASSERT_TRUE(r.ok);
  EXPECT_EQ(sums, (std::vector<float>{64, 128, 192}));
  // The sources still need 32 bytes.
  r = oc_test::LaunchQuiet(
      "reduce_unaligned_src", 1,
      [&] {
        TPipe pipe;
        TBuf<TPosition::VECCALC> a, b, w;
        pipe.InitBuffer(a, 512);
        pipe.InitBuffer(b, 32);
        pipe.InitBuffer(w, 256);
        LocalTensor<float> x = a.Get<float>(), out = b.Get<float>(), work = w.Get<float>();
        Duplicate(x, 1.0f, 128);
        ReduceSum(out, x[1], work, 64);
      },
      KernelMode::AIV_MODE);
  EXPECT_FALSE(r.ok);
}

TEST(AscendCWildApi, MaskPlaceholderUsesTheMaskSetVectorMaskSet) {
  // isSetMask = false with MASK_PLACEHOLDER: counter mode takes SetVectorMask's count (a
  // reduce sample sums 4096 floats this way; every sum past the first was left unwritten),
  // normal mode its bits.
  std::vector<float> sums, added;
  auto r = oc_test::LaunchQuiet(
      "placeholder", 1,
      [&] {
        TPipe pipe;
        TBuf<TPosition::VECCALC> a, b, c;
        pipe.InitBuffer(a, 4096 * 4);
        pipe.InitBuffer(b, 256);
        pipe.InitBuffer(c, 256);
        LocalTensor<float> x = a.Get<float>(), y = b.Get<float>(), z = c.Get<float>();
        for (int i = 0; i < 4096; ++i) x.SetValue(i, float(i / 64));
        Duplicate(y, -1.0f, 64);
        SetMaskCount();
        SetVectorMask<float, MaskMode::COUNTER>(0, 4096);
        WholeReduceSum<float, false>(y, x, MASK_PLACEHOLDER, 1, 1, 1, 8);
        SetMaskNorm();
        for (int i = 0; i < 64; ++i) sums.push_back(y.GetValue(i));
        Duplicate(z, -5.0f, 64);
        LocalTensor<float> w = x[64];                     // all 1
        SetVectorMask<float, MaskMode::NORMAL>(0, 0xFF);  // lanes 0..7
        Add<float, false>(z, w, w, MASK_PLACEHOLDER, 1, {1, 1, 1, 8, 8, 8});
        ResetMask();
        for (int i = 0; i < 16; ++i) added.push_back(z.GetValue(i));
      },
      KernelMode::AIV_MODE);
  for (const auto& e : r.errors) ADD_FAILURE() << e;
  ASSERT_TRUE(r.ok);
  for (int i = 0; i < 64; ++i) EXPECT_EQ(sums[i], 64.0f * i) << i;
  for (int i = 0; i < 16; ++i) EXPECT_EQ(added[i], i < 8 ? 2.0f : -5.0f) << i;
  // Counter mode without a count is refused, not silently empty.
  r = oc_test::LaunchQuiet(
      "placeholder_nocount", 1,
      [&] {
        TPipe pipe;
        TBuf<TPosition::VECCALC> a;
        pipe.InitBuffer(a, 512);
        LocalTensor<float> x = a.Get<float>();
        Duplicate(x, 1.0f, 128);
        SetMaskCount();
        SetVectorMask<float, MaskMode::COUNTER>(0, 0);
        Add<float, false>(x, x, x, MASK_PLACEHOLDER, 1, {1, 1, 1, 8, 8, 8});
      },
      KernelMode::AIV_MODE);
  EXPECT_FALSE(r.ok);
}

TEST(AscendCWildApi, InitSocStateResetsMaskAndAtomicModes) {
  uint64_t mask[2] = {0, 0};
  bool counter = true;
  auto r = oc_test::LaunchQuiet(
      "init_soc", 1,
      [&] {
        SetMaskCount();
        SetVectorMask<float, MaskMode::NORMAL>(0, 0xF);
        SetAtomicAdd<float>();
        InitSocState();
        mask[0] = detail::Mask().mask[0];
        mask[1] = detail::Mask().mask[1];
        counter = detail::Mask().counter;
      },
      KernelMode::AIV_MODE);
  ASSERT_TRUE(r.ok);
  EXPECT_EQ(mask[0], ~0ull);
  EXPECT_EQ(mask[1], ~0ull);
  EXPECT_FALSE(counter);
}

TEST(AscendCWildApi, ScalarMinMaxBuiltins) {
  // Kernels call the CCE compiler's scalar min/max unqualified.
  const uint32_t rows = 7, cols = 5;
  EXPECT_EQ(min(rows, cols), 5u);
  EXPECT_EQ(max(int64_t{-3}, int64_t{2}), 2);
  EXPECT_EQ(min(1.5f, -2.0f), -2.0f);
  {
    using namespace std;  // NOLINT: an exact match still picks the builtin, no ambiguity
    EXPECT_EQ(max(rows, cols), 7u);
  }
}

}  // namespace
