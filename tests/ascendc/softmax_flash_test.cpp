// SoftmaxFlashV2 and SoftmaxFlash against a double-precision reference of online softmax:
// a row split into two column chunks, the second call updating the first's statistics,
// must give the whole row's max and sum.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <string>
#include <vector>

#include "kernel_operator.h"
#include "launch_util.h"
#include "lib/activation/softmaxflashv2.h"
#include "tikicpulib.h"
#include "tiling/tiling_api.h"

using namespace AscendC;
using oc_test::Launch;

namespace {

constexpr uint32_t kM = 4, kK = 32;  // each chunk: 4 rows of 32 floats

struct RowRef {
  double max1, max, sum;
};
RowRef Reference(const std::vector<float>& a, const std::vector<float>& b, uint32_t r) {
  RowRef ref{-INFINITY, -INFINITY, 0};
  for (uint32_t c = 0; c < kK; ++c) ref.max1 = std::max<double>(ref.max1, a[r * kK + c]);
  ref.max = ref.max1;
  for (uint32_t c = 0; c < kK; ++c) ref.max = std::max<double>(ref.max, b[r * kK + c]);
  for (uint32_t c = 0; c < kK; ++c)
    ref.sum += std::exp(a[r * kK + c] - ref.max) + std::exp(b[r * kK + c] - ref.max);
  return ref;
}

TEST(AscendCSoftmaxFlashV2, TwoChunksGiveTheWholeRowsStatistics) {
  std::vector<float> a(kM * kK), b(kM * kK);
  for (uint32_t i = 0; i < a.size(); ++i) {
    a[i] = std::sin(0.31f * i) * 3.0f;
    b[i] = std::cos(0.17f * i) * 5.0f;  // larger: most rows' max moves in the second chunk
  }
  optiling::SoftMaxTiling tiling;
  const ge::Shape shape({kM, kK});
  const uint32_t tmp = GetSoftMaxFlashV2MinTmpSize(shape, 4, 4, true);
  EXPECT_EQ(tmp, (8 + 64) * 4u);  // e + 64 floats per row for float data
  EXPECT_GE(GetSoftMaxFlashV2MaxTmpSize(shape, 4, 4, true), tmp);
  SoftMaxFlashV2TilingFunc(shape, 4, 4, tmp, tiling, true);
  EXPECT_EQ(tiling.srcM, kM);
  EXPECT_EQ(tiling.srcK, kK);
  EXPECT_EQ(tiling.splitM, 1u);
  EXPECT_EQ(tiling.reduceSize, 8u);
  std::vector<float> first(kM * kK), second(kM * kK), sums(kM * 8), maxs(kM * 8), expmax(kM * 8);
  auto [ok, out] = Launch("flash_v2", 1, [&] {
    TPipe pipe;
    TBuf<TPosition::VECCALC> buf;
    pipe.InitBuffer(buf, 4096);
    LocalTensor<float> x = buf.GetWithOffset<float>(kM * kK, 0);
    LocalTensor<float> sum = buf.GetWithOffset<float>(kM * 8, 1024);
    LocalTensor<float> max = buf.GetWithOffset<float>(kM * 8, 1152);
    LocalTensor<float> em = buf.GetWithOffset<float>(kM * 8, 1280);
    for (uint32_t i = 0; i < a.size(); ++i) x.SetValue(i, a[i]);
    // In place, as CANN's sample calls it: dst is src, the statistics update themselves.
    SoftmaxFlashV2<float, false>(x, sum, max, x, em, sum, max, tiling);
    for (uint32_t i = 0; i < a.size(); ++i) first[i] = x.GetValue(i);
    for (uint32_t i = 0; i < b.size(); ++i) x.SetValue(i, b[i]);
    SoftmaxFlashV2<float, true>(x, sum, max, x, em, sum, max, tiling,
                                SoftMaxShapeInfo{kM, kK, kM, kK});
    for (uint32_t i = 0; i < b.size(); ++i) second[i] = x.GetValue(i);
    for (uint32_t i = 0; i < sums.size(); ++i)
      sums[i] = sum.GetValue(i), maxs[i] = max.GetValue(i), expmax[i] = em.GetValue(i);
  });
  ASSERT_TRUE(ok) << out;
  for (uint32_t r = 0; r < kM; ++r) {
    const RowRef ref = Reference(a, b, r);
    for (uint32_t c = 0; c < kK; ++c) {
      EXPECT_NEAR(first[r * kK + c], std::exp(a[r * kK + c] - ref.max1), 1e-5);
      EXPECT_NEAR(second[r * kK + c], std::exp(b[r * kK + c] - ref.max), 1e-5);
    }
    for (uint32_t j = 0; j < 8; ++j) {  // one 32-byte block of repeats per row
      EXPECT_NEAR(maxs[r * 8 + j], ref.max, 1e-6);
      EXPECT_NEAR(sums[r * 8 + j], ref.sum, 1e-4 * ref.sum);
      EXPECT_NEAR(expmax[r * 8 + j], std::exp(ref.max1 - ref.max), 1e-6);
    }
  }
}

TEST(AscendCSoftmaxFlashV2, HalfDataFloatStatisticsAndPaddedColumns) {
  // 16 data columns of 32 stored: the statistics cover the data, dst all 32 columns.
  optiling::SoftMaxTiling tiling;
  SoftMaxFlashV2TilingFunc(ge::Shape({2, 32}), 2, 4, 4096, tiling, false);
  std::vector<float> x(64), y(64), sums(16), maxs(16);
  for (uint32_t i = 0; i < 64; ++i) x[i] = float(i % 32 < 16 ? (i % 7) * 0.5 : 9.0);
  auto [ok, out] = Launch("flash_v2_half", 1, [&] {
    TPipe pipe;
    TBuf<TPosition::VECCALC> buf;
    pipe.InitBuffer(buf, 4096);
    LocalTensor<half> src = buf.GetWithOffset<half>(64, 0);
    LocalTensor<half> dst = buf.GetWithOffset<half>(64, 256);
    LocalTensor<half> em = buf.GetWithOffset<half>(32, 512);
    LocalTensor<float> sum = buf.GetWithOffset<float>(16, 1024);
    LocalTensor<float> max = buf.GetWithOffset<float>(16, 1152);
    for (uint32_t i = 0; i < 64; ++i) src.SetValue(i, half(x[i]));
    SoftmaxFlashV2<half, false>(dst, sum, max, src, em, sum, max, tiling,
                                SoftMaxShapeInfo{2, 32, 2, 16});
    for (uint32_t i = 0; i < 64; ++i) y[i] = float(dst.GetValue(i));
    for (uint32_t i = 0; i < 16; ++i) sums[i] = sum.GetValue(i), maxs[i] = max.GetValue(i);
  });
  ASSERT_TRUE(ok) << out;
  for (uint32_t r = 0; r < 2; ++r) {
    double mx = -INFINITY, s = 0;
    for (uint32_t c = 0; c < 16; ++c) mx = std::max<double>(mx, x[r * 32 + c]);
    for (uint32_t c = 0; c < 16; ++c) s += std::exp(x[r * 32 + c] - mx);
    EXPECT_NEAR(maxs[r * 8], mx, 1e-6);  // the padding's 9.0 is not the max
    EXPECT_NEAR(sums[r * 8], s, 1e-3 * s);
    for (uint32_t c = 0; c < 32; ++c)
      EXPECT_NEAR(y[r * 32 + c], std::exp(x[r * 32 + c] - mx), 2e-3 * std::exp(x[r * 32 + c] - mx))
          << r << " " << c;
  }
}

TEST(AscendCSoftmaxFlash, TheFirstVersionNormalises) {
  optiling::SoftMaxTiling tiling;
  SoftMaxFlashTilingFunc(ge::Shape({kM, kK}), 4, 8192, tiling);
  std::vector<float> a(kM * kK), y(kM * kK);
  for (uint32_t i = 0; i < a.size(); ++i) a[i] = std::sin(0.7f * i);
  auto [ok, out] = Launch("flash_v1", 1, [&] {
    TPipe pipe;
    TBuf<TPosition::VECCALC> buf;
    pipe.InitBuffer(buf, 4096);
    LocalTensor<float> x = buf.GetWithOffset<float>(kM * kK, 0);
    LocalTensor<float> sum = buf.GetWithOffset<float>(kM * 8, 1024);
    LocalTensor<float> max = buf.GetWithOffset<float>(kM * 8, 1152);
    LocalTensor<float> em = buf.GetWithOffset<float>(kM * 8, 1280);
    for (uint32_t i = 0; i < a.size(); ++i) x.SetValue(i, a[i]);
    SoftmaxFlash<float>(x, sum, max, x, em, sum, max, tiling, false);
    for (uint32_t i = 0; i < a.size(); ++i) y[i] = x.GetValue(i);
  });
  ASSERT_TRUE(ok) << out;
  for (uint32_t r = 0; r < kM; ++r) {
    double total = 0;
    for (uint32_t c = 0; c < kK; ++c) total += y[r * kK + c];
    EXPECT_NEAR(total, 1.0, 1e-5);
  }
}

TEST(AscendCSoftmaxFlashV2, TheReduceMaxFormOutsideItsModeWritesNothingAndSaysSo) {
  optiling::SoftMaxTiling tiling;
  SoftMaxFlashV2TilingFunc(ge::Shape({kM, kK}), 4, 4, 8192, tiling, true);
  float kept = 0;
  auto [ok, out] = Launch("flash_v2_rmax", 1, [&] {
    TPipe pipe;
    TBuf<TPosition::VECCALC> buf;
    pipe.InitBuffer(buf, 4096);
    LocalTensor<float> x = buf.GetWithOffset<float>(kM * kK, 0);
    LocalTensor<float> rmax = buf.GetWithOffset<float>(kM * 8, 1024);
    LocalTensor<float> sum = buf.GetWithOffset<float>(kM * 8, 1152);
    LocalTensor<float> max = buf.GetWithOffset<float>(kM * 8, 1280);
    LocalTensor<float> em = buf.GetWithOffset<float>(kM * 8, 1408);
    Duplicate(x, 1.0f, kM * kK);
    Duplicate(sum, -7.0f, kM * 8);
    Duplicate(max, 0.0f, kM * 8);
    SoftmaxFlashV2<float, true>(x, rmax, sum, max, x, em, sum, max, tiling);
    kept = sum.GetValue(0);
  });
  ASSERT_TRUE(ok) << out;
  EXPECT_EQ(kept, -7.0f);
  EXPECT_NE(out.find("SOFTMAX_OUTPUT_WITHOUT_BRC"), std::string::npos) << out;
}

}  // namespace
