// SoftMax, SimpleSoftMax and RmsNorm against a double-precision reference of the documented formula
// (max per row, exp(x - max), sum, divide), with the host tiling from SoftMaxTilingFunc and
// the statistics laid out as one 32-byte block per row.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <string>
#include <vector>

#include "kernel_operator.h"
#include "launch_util.h"
#include "tikicpulib.h"
#include "tiling/tiling_api.h"

using namespace AscendC;
using oc_test::Launch;

namespace {

constexpr uint32_t kM = 4, kK = 64;

double Ref(const std::vector<float>& x, uint32_t r, uint32_t c, uint32_t valid, double* mx,
           double* sum) {
  *mx = -INFINITY;
  for (uint32_t j = 0; j < valid; ++j) *mx = std::max<double>(*mx, x[r * kK + j]);
  *sum = 0;
  for (uint32_t j = 0; j < valid; ++j) *sum += std::exp(x[r * kK + j] - *mx);
  return std::exp(x[r * kK + c] - *mx) / *sum;
}

TEST(AscendCSoftMax, RowsMatchTheFormulaAndStatisticsFillABlock) {
  std::vector<float> x(kM * kK);
  for (uint32_t i = 0; i < x.size(); ++i) x[i] = std::sin(0.37f * i) * 4.0f;
  optiling::SoftMaxTiling tiling;
  SoftMaxTilingFunc(ge::Shape({kM, kK}), sizeof(float),
                    GetSoftMaxMinTmpSize(ge::Shape({kM, kK}), sizeof(float), false), tiling);
  EXPECT_EQ(tiling.srcM, kM);
  EXPECT_EQ(tiling.srcK, kK);
  EXPECT_EQ(tiling.splitM, 1u);  // the minimum work space holds one row
  std::vector<float> y(kM * kK), sums(kM * 8), maxs(kM * 8), simple(kM * kK), part(kM * kK);
  auto [ok, out] = Launch("softmax", 1, [&] {
    TPipe pipe;
    TBuf<TPosition::VECCALC> b;
    pipe.InitBuffer(b, 8192);
    LocalTensor<float> src = b.GetWithOffset<float>(kM * kK, 0);
    LocalTensor<float> dst = b.GetWithOffset<float>(kM * kK, 1024);
    LocalTensor<float> sum = b.GetWithOffset<float>(kM * 8, 2048);
    LocalTensor<float> max = b.GetWithOffset<float>(kM * 8, 2176);
    LocalTensor<float> dst2 = b.GetWithOffset<float>(kM * kK, 2304);
    for (uint32_t i = 0; i < x.size(); ++i) src.SetValue(i, x[i]);
    SoftMax<float>(dst, sum, max, src, tiling);
    SimpleSoftMax<float>(dst2, sum, max, src, tiling);
    for (uint32_t i = 0; i < y.size(); ++i) y[i] = dst.GetValue(i), simple[i] = dst2.GetValue(i);
    for (uint32_t i = 0; i < sums.size(); ++i) sums[i] = sum.GetValue(i), maxs[i] = max.GetValue(i);
    // Only the first 50 columns are data (SoftMaxShapeInfo.oriSrcK).
    SoftMax<float>(dst, sum, max, src, tiling, SoftMaxShapeInfo{kM, kK, kM, 50});
    for (uint32_t i = 0; i < part.size(); ++i) part[i] = dst.GetValue(i);
  });
  ASSERT_TRUE(ok) << out;
  for (uint32_t r = 0; r < kM; ++r) {
    double mx, sum;
    for (uint32_t c = 0; c < kK; ++c) {
      EXPECT_NEAR(y[r * kK + c], Ref(x, r, c, kK, &mx, &sum), 1e-6) << r << " " << c;
      EXPECT_NEAR(simple[r * kK + c], y[r * kK + c], 1e-7);
    }
    for (uint32_t j = 0; j < 8; ++j) {  // the statistics repeated over the row's 32 bytes
      EXPECT_NEAR(maxs[r * 8 + j], mx, 1e-6);
      EXPECT_NEAR(sums[r * 8 + j], sum, 1e-4);
    }
    for (uint32_t c = 0; c < 50; ++c)
      EXPECT_NEAR(part[r * kK + c], Ref(x, r, c, 50, &mx, &sum), 1e-6) << r << " " << c;
    for (uint32_t c = 50; c < kK; ++c) EXPECT_EQ(part[r * kK + c], 0.0f);
  }
}

TEST(AscendCSoftMax, HalfDataWithFloatStatisticsAndRefusals) {
  std::vector<float> y(kM * kK);
  optiling::SoftMaxTiling tiling;
  SoftMaxTilingFunc(ge::Shape({kM, kK}), 2, 1 << 16, tiling);
  auto [ok, out] = Launch("softmax_half", 1, [&] {
    TPipe pipe;
    TBuf<TPosition::VECCALC> b;
    pipe.InitBuffer(b, 4096);
    LocalTensor<half> src = b.GetWithOffset<half>(kM * kK, 0);
    LocalTensor<half> dst = b.GetWithOffset<half>(kM * kK, 512);
    LocalTensor<float> sum = b.GetWithOffset<float>(kM * 8, 1024);
    LocalTensor<float> max = b.GetWithOffset<float>(kM * 8, 1152);
    for (uint32_t i = 0; i < kM * kK; ++i) src.SetValue(i, half(static_cast<float>(i % kK) / 16));
    SoftMax<half>(dst, sum, max, src, tiling);
    for (uint32_t i = 0; i < y.size(); ++i) y[i] = static_cast<float>(dst.GetValue(i));
  });
  ASSERT_TRUE(ok) << out;
  double sum = 0;
  for (uint32_t c = 0; c < kK; ++c) sum += std::exp(c / 16.0 - (kK - 1) / 16.0);
  for (uint32_t c = 0; c < kK; ++c)
    EXPECT_NEAR(y[c], std::exp(c / 16.0 - (kK - 1) / 16.0) / sum, 1e-3) << c;
  // A tiling nothing filled, and a last axis that is not 32-byte aligned, are refused.
  std::tie(ok, out) = Launch("softmax_no_tiling", 1, [&] {
    TPipe pipe;
    TBuf<TPosition::VECCALC> b;
    pipe.InitBuffer(b, 1024);
    LocalTensor<float> t = b.Get<float>();
    SoftMax<float>(t, t, t, t, optiling::SoftMaxTiling());
  });
  EXPECT_FALSE(ok);
  EXPECT_NE(out.find("no shape"), std::string::npos) << out;
  std::tie(ok, out) = Launch("softmax_unaligned", 1, [&] {
    TPipe pipe;
    TBuf<TPosition::VECCALC> b;
    pipe.InitBuffer(b, 1024);
    LocalTensor<float> t = b.Get<float>();
    SoftMax<float>(t, t, t, t, optiling::SoftMaxTiling(), SoftMaxShapeInfo{2, 10, 2, 10});
  });
  EXPECT_FALSE(ok);
  EXPECT_NE(out.find("not 32-byte aligned"), std::string::npos) << out;
}

TEST(AscendCSoftMax, AdjustSoftMaxResSetsTheRowsWhoseMaxMatches) {
  std::vector<float> res(2 * 8);
  bool adjusted = false, none = true;
  auto [ok, out] = Launch("adjust", 1, [&] {
    TPipe pipe;
    TBuf<TPosition::VECCALC> b;
    pipe.InitBuffer(b, 1024);
    LocalTensor<float> r = b.GetWithOffset<float>(16, 0);
    LocalTensor<float> mx = b.GetWithOffset<float>(16, 256);
    Duplicate(r, 0.5f, 16);
    Duplicate(mx, 3.0f, 8);
    Duplicate(mx[8], -1.0f, 8);
    PipeBarrier<PIPE_ALL>();
    uint32_t bits;
    const float three = 3.0f;
    std::memcpy(&bits, &three, 4);
    adjusted = AdjustSoftMaxRes<float, float>(r, mx, bits, 9.0f, SoftMaxShapeInfo{2, 8, 2, 8});
    none = AdjustSoftMaxRes<float, float>(r, mx, 0x7f800000u, 1.0f, SoftMaxShapeInfo{2, 8, 2, 8});
    for (int i = 0; i < 16; ++i) res[i] = r.GetValue(i);
  });
  ASSERT_TRUE(ok) << out;
  EXPECT_TRUE(adjusted);
  EXPECT_FALSE(none);
  for (int i = 0; i < 8; ++i) EXPECT_EQ(res[i], 9.0f);  // row 0's max was 3
  for (int i = 8; i < 16; ++i) EXPECT_EQ(res[i], 0.5f);
}

}  // namespace

namespace {

TEST(AscendCRmsNorm, RowsScaledByTheirRootMeanSquareAndGamma) {
  // [B, S, H] = [2, 3, 16], the last 4 columns padding (originalHLength 12).
  constexpr uint32_t B = 2, S = 3, H = 16, V = 12;
  optiling::RmsNormTiling tiling;
  uint32_t max_tmp = 0, min_tmp = 0;
  ASSERT_TRUE(GetRmsNormMaxMinTmpSize(ge::Shape({B, S, H}), 4, max_tmp, min_tmp));
  EXPECT_LE(min_tmp, max_tmp);
  ASSERT_TRUE(GetRmsNormTilingInfo(ge::Shape({B, S, H}), ge::Shape({B, S, V}), min_tmp, 4, tiling));
  EXPECT_EQ(tiling.hLength, H);
  EXPECT_FLOAT_EQ(tiling.reciprocalOfHLength, 1.0f / V);
  optiling::RmsNormTiling two_axes;
  EXPECT_FALSE(GetRmsNormTilingInfo(ge::Shape({B, H}), ge::Shape({B, V}), min_tmp, 4, two_axes));
  std::vector<float> x(B * S * H), g(H), y(B * S * H);
  for (uint32_t i = 0; i < x.size(); ++i) x[i] = std::cos(0.3f * i) * 2.0f;
  for (uint32_t i = 0; i < H; ++i) g[i] = 0.5f + 0.1f * i;
  const float eps = 1e-5f;
  auto [ok, out] = Launch("rmsnorm", 1, [&] {
    TPipe pipe;
    TBuf<TPosition::VECCALC> b;
    pipe.InitBuffer(b, 2048);
    LocalTensor<float> src = b.GetWithOffset<float>(B * S * H, 0);
    LocalTensor<float> gamma = b.GetWithOffset<float>(H, 512);
    LocalTensor<float> dst = b.GetWithOffset<float>(B * S * H, 1024);
    for (uint32_t i = 0; i < x.size(); ++i) src.SetValue(i, x[i]);
    for (uint32_t i = 0; i < H; ++i) gamma.SetValue(i, g[i]);
    RmsNorm<float>(dst, src, gamma, eps, tiling);
    for (uint32_t i = 0; i < y.size(); ++i) y[i] = dst.GetValue(i);
  });
  ASSERT_TRUE(ok) << out;
  for (uint32_t r = 0; r < B * S; ++r) {
    double sq = 0;
    for (uint32_t c = 0; c < V; ++c) sq += double(x[r * H + c]) * x[r * H + c];
    const double inv = 1.0 / std::sqrt(sq / V + eps);
    for (uint32_t c = 0; c < V; ++c)
      EXPECT_NEAR(y[r * H + c], x[r * H + c] * inv * g[c], 1e-5) << r << " " << c;
    for (uint32_t c = V; c < H; ++c) EXPECT_EQ(y[r * H + c], 0.0f);
  }
}

}  // namespace

namespace {

TEST(AscendCRmsNorm, StackBufferAndShapeInfo) {
  uint32_t stack_elems = 0;
  uint32_t dims = 0;
  auto [ok, out] = Launch("stack_buffer", 1, [&] {
    TPipe pipe;
    TBuf<TPosition::VECCALC> b;
    pipe.InitBuffer(b, 1024);
    LocalTensor<uint8_t> stack;
    if (!PopStackBuffer<uint8_t, TPosition::LCM>(stack)) AscendC::printf("NO STACK\n");
    stack_elems = stack.GetSize();
    LocalTensor<float> t = b.Get<float>();
    const uint32_t shape[3] = {2, 4, 32};
    t.SetShapeInfo(ShapeInfo(3, shape, DataFormat::ND));
    dims = t.GetShapeInfo().shapeDim;
  });
  ASSERT_TRUE(ok) << out;
  EXPECT_EQ(out.find("NO STACK"), std::string::npos);
  EXPECT_EQ(stack_elems, 192u * 1024 - 1024);  // the rest of the 192 KiB UB
  EXPECT_EQ(dims, 3u);
}

}  // namespace

namespace {

TEST(AscendCQuant, QuantizeInHalfStepsAndDequantizePerColumn) {
  std::vector<float> x = {0.0f, 0.24f, -1.26f, 100.0f, -100.0f, 0.5f, 1.5f, 2.5f};
  std::vector<int8_t> q(32);
  std::vector<float> dq(16);
  auto [ok, out] = Launch("quant", 1, [&] {
    TPipe pipe;
    TBuf<TPosition::VECCALC> b;
    pipe.InitBuffer(b, 1024);
    LocalTensor<float> src = b.GetWithOffset<float>(32, 0);
    LocalTensor<int8_t> dst = b.GetWithOffset<int8_t>(32, 128);
    Duplicate(src, 0.0f, 32);
    for (uint32_t i = 0; i < x.size(); ++i) src.SetValue(i, x[i]);
    AscendQuant<float>(dst, src, 2.0f, 0.0f, 32);
    for (int i = 0; i < 32; ++i) q[i] = dst.GetValue(i);
    // Dequantise 2 rows of 8 int32 with 4 scales: the first 4 columns of each row.
    LocalTensor<int32_t> ints = b.GetWithOffset<int32_t>(16, 256);
    LocalTensor<float> scales = b.GetWithOffset<float>(8, 384);
    LocalTensor<float> res = b.GetWithOffset<float>(16, 512);
    for (int i = 0; i < 16; ++i) ints.SetValue(i, i - 5);
    for (int i = 0; i < 8; ++i) scales.SetValue(i, 0.5f * (i + 1));
    Duplicate(res, -7.0f, 16);
    AscendDequant<float, float, DeQuantMode::DEQUANT_WITH_MULTI_ROW>(res, ints, scales,
                                                                     DequantParams{2, 8, 4});
    for (int i = 0; i < 16; ++i) dq[i] = res.GetValue(i);
  });
  ASSERT_TRUE(ok) << out;
  // x * 2 rounded half to even and saturated: 0.48 -> 0, -2.52 -> -3, 1 -> 1, 3 -> 3, 5 -> 5.
  const std::vector<int8_t> want = {0, 0, -3, 127, -128, 1, 3, 5};
  for (size_t i = 0; i < want.size(); ++i) EXPECT_EQ(q[i], want[i]) << i;
  for (int r = 0; r < 2; ++r) {
    for (int i = 0; i < 4; ++i) EXPECT_FLOAT_EQ(dq[r * 8 + i], (r * 8 + i - 5) * 0.5f * (i + 1));
    for (int i = 4; i < 8; ++i) EXPECT_EQ(dq[r * 8 + i], -7.0f);  // past calCount: untouched
  }
}

}  // namespace

namespace {

TEST(AscendCReducePattern, RowsAndColumnsWithAndWithoutInnerPadding) {
  // A 3 x 5 float tile padded to 8 columns in memory (srcInnerPad), and a 2 x 8 unpadded one.
  std::vector<float> ar(3), ra(5), sum_ra(8);
  auto [ok, out] = Launch("reduce_pattern", 1, [&] {
    TPipe pipe;
    TBuf<TPosition::VECCALC> b;
    pipe.InitBuffer(b, 1024);
    LocalTensor<float> x = b.GetWithOffset<float>(24, 0);
    LocalTensor<float> y = b.GetWithOffset<float>(8, 128);
    LocalTensor<float> z = b.GetWithOffset<float>(16, 256);
    for (int r = 0; r < 3; ++r)
      for (int c = 0; c < 8; ++c)
        x.SetValue(r * 8 + c, c < 5 ? float((r * 7 + c * 3) % 11) : 99.0f);
    const uint32_t ar_shape[2] = {3, 5};
    ReduceMax<float, Pattern::Reduce::AR>(y, x, ar_shape, true);  // a row's max, padding skipped
    for (int i = 0; i < 3; ++i) ar[i] = y.GetValue(i);
    const uint32_t ra_shape[2] = {3, 5};
    ReduceMax<float, Pattern::Reduce::RA>(y, x, ra_shape, true);  // a column's max
    for (int i = 0; i < 5; ++i) ra[i] = y.GetValue(i);
    for (int i = 0; i < 16; ++i) z.SetValue(i, float(i));
    const uint32_t z_shape[2] = {2, 8};
    ReduceSum<float, Pattern::Reduce::RA>(y, z, z_shape, false);
    for (int i = 0; i < 8; ++i) sum_ra[i] = y.GetValue(i);
  });
  ASSERT_TRUE(ok) << out;
  for (int r = 0; r < 3; ++r) {
    float m = -1;
    for (int c = 0; c < 5; ++c) m = std::max(m, float((r * 7 + c * 3) % 11));
    EXPECT_EQ(ar[r], m) << r;
  }
  for (int c = 0; c < 5; ++c) {
    float m = -1;
    for (int r = 0; r < 3; ++r) m = std::max(m, float((r * 7 + c * 3) % 11));
    EXPECT_EQ(ra[c], m) << c;
  }
  for (int c = 0; c < 8; ++c) EXPECT_EQ(sum_ra[c], float(c + 8 + c));
}

TEST(AscendCLogSoftMax, Log10OfTheSoftmaxAsCannDefinesIt) {
  std::vector<float> x(kM * kK), y(kM * kK), sums(kM * 8), maxs(kM * 8);
  for (uint32_t i = 0; i < x.size(); ++i) x[i] = std::cos(0.29f * i) * 6.0f;
  auto [ok, out] = Launch("log_softmax", 1, [&] {
    TPipe pipe;
    TBuf<TPosition::VECCALC> b;
    pipe.InitBuffer(b, 4096);
    LocalTensor<float> src = b.GetWithOffset<float>(kM * kK, 0);
    LocalTensor<float> dst = b.GetWithOffset<float>(kM * kK, 1024);
    LocalTensor<float> sum = b.GetWithOffset<float>(kM * 8, 2048);
    LocalTensor<float> max = b.GetWithOffset<float>(kM * 8, 2176);
    for (uint32_t i = 0; i < x.size(); ++i) src.SetValue(i, x[i]);
    LogSoftMaxTiling tiling;  // CANN's sample passes a default one with the shape info
    LocalTensor<uint8_t> tmp;
    LogSoftMax<float>(dst, sum, max, src, tmp, tiling, SoftMaxShapeInfo{kM, kK, kM, kK});
    for (uint32_t i = 0; i < y.size(); ++i) y[i] = dst.GetValue(i);
    for (uint32_t i = 0; i < sums.size(); ++i) sums[i] = sum.GetValue(i), maxs[i] = max.GetValue(i);
  });
  ASSERT_TRUE(ok) << out;
  for (uint32_t r = 0; r < kM; ++r) {
    double mx, sum;
    for (uint32_t c = 0; c < kK; ++c)
      EXPECT_NEAR(y[r * kK + c], std::log10(Ref(x, r, c, kK, &mx, &sum)), 1e-5) << r << " " << c;
    EXPECT_NEAR(maxs[r * 8 + 7], mx, 1e-6);
    EXPECT_NEAR(sums[r * 8], sum, 1e-4 * sum);
  }
  EXPECT_GT(GetLogSoftMaxMinTmpSize(ge::Shape({kM, kK}), 4, false), 0u);
}

TEST(AscendCSoftmaxGrad, BothFormsAgainstTheDocumentedFormula) {
  std::vector<float> g(kM * kK), y(kM * kK), back(kM * kK), front(kM * 8);
  for (uint32_t i = 0; i < g.size(); ++i) g[i] = std::sin(0.13f * i), y[i] = 0.01f * (i % 50);
  optiling::SoftMaxTiling tiling;
  SoftMaxGradTilingFunc(ge::Shape({kM, kK}), 4,
                        GetSoftMaxGradMinTmpSize(ge::Shape({kM, kK}), 4, false, false), tiling);
  auto [ok, out] = Launch("softmax_grad", 1, [&] {
    TPipe pipe;
    TBuf<TPosition::VECCALC> b;
    pipe.InitBuffer(b, 4096);
    LocalTensor<float> grad = b.GetWithOffset<float>(kM * kK, 0);
    LocalTensor<float> src = b.GetWithOffset<float>(kM * kK, 1024);
    LocalTensor<float> dst = b.GetWithOffset<float>(kM * kK, 2048);
    for (uint32_t i = 0; i < g.size(); ++i) grad.SetValue(i, g[i]), src.SetValue(i, y[i]);
    SoftmaxGrad<float>(dst, grad, src, tiling);
    for (uint32_t i = 0; i < back.size(); ++i) back[i] = dst.GetValue(i);
    SoftmaxGradFront<float>(src, grad, src, tiling);  // in place, as CANN's sample calls it
    for (uint32_t i = 0; i < front.size(); ++i) front[i] = src.GetValue(i);
  });
  ASSERT_TRUE(ok) << out;
  for (uint32_t r = 0; r < kM; ++r) {
    double d = 0;
    for (uint32_t c = 0; c < kK; ++c) d += double(g[r * kK + c]) * y[r * kK + c];
    for (uint32_t c = 0; c < kK; ++c)
      EXPECT_NEAR(back[r * kK + c], (g[r * kK + c] - d) * y[r * kK + c], 1e-5);
    for (uint32_t j = 0; j < 8; ++j) EXPECT_NEAR(front[r * 8 + j], d, 1e-5);
  }
}

}  // namespace
