// The advanced API's Sort/Extract, TopK, LayerNorm (with its gradients) and Welford
// statistics against independent references computed here in double precision with the
// standard library (std::stable_sort, two-pass mean and variance, the analytic gradient).
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <numeric>
#include <string>
#include <vector>

#include "kernel_operator.h"
#include "launch_util.h"
#include "lib/normalization/layernorm.h"
#include "lib/sort/topk.h"
#include "tikicpulib.h"
#include "tiling/tiling_api.h"

using namespace AscendC;
using oc_test::Launch;

namespace {

std::vector<float> Values(size_t n, float scale, float step) {
  std::vector<float> v(n);
  for (size_t i = 0; i < n; ++i) v[i] = std::round(std::sin(step * float(i)) * scale) / 4.0f;
  return v;  // rounded to quarters: many ties, to check the order of equal values
}

TEST(AscendCSort, FullSortMergesTheGroupsAndExtractSplitsTheRecords) {
  constexpr uint32_t n = 96;
  const std::vector<float> x = Values(n, 20.0f, 0.9f);
  std::vector<float> full(n), grouped(n);
  std::vector<uint32_t> full_index(n);
  auto [ok, out] = Launch("sort", 1, [&] {
    TPipe pipe;
    TBuf<TPosition::VECCALC> buf;
    pipe.InitBuffer(buf, 8192);
    LocalTensor<float> src = buf.GetWithOffset<float>(n, 0);
    LocalTensor<uint32_t> index = buf.GetWithOffset<uint32_t>(n, 512);
    LocalTensor<float> sorted = buf.GetWithOffset<float>(GetSortLen<float>(n), 1024);
    LocalTensor<float> tmp = buf.GetWithOffset<float>(GetSortLen<float>(n), 2048);
    LocalTensor<float> values = buf.GetWithOffset<float>(n, 3072);
    LocalTensor<uint32_t> indices = buf.GetWithOffset<uint32_t>(n, 3584);
    for (uint32_t i = 0; i < n; ++i) src.SetValue(i, x[i]), index.SetValue(i, 1000 + i);
    LocalTensor<float> concat;
    Concat(concat, src, tmp, n / 16);
    Sort<float, true>(sorted, concat, index, tmp, n / 32);
    Extract(values, indices, sorted, n / 32);
    for (uint32_t i = 0; i < n; ++i)
      full[i] = values.GetValue(i), full_index[i] = indices.GetValue(i);
    Sort<float, false>(sorted, concat, index, tmp, n / 32);
    Extract(values, indices, sorted, n / 32);
    for (uint32_t i = 0; i < n; ++i) grouped[i] = values.GetValue(i);
  });
  ASSERT_TRUE(ok) << out;
  std::vector<uint32_t> order(n);
  std::iota(order.begin(), order.end(), 0u);
  std::stable_sort(order.begin(), order.end(), [&](uint32_t a, uint32_t b) { return x[a] > x[b]; });
  for (uint32_t i = 0; i < n; ++i) {
    EXPECT_EQ(full[i], x[order[i]]) << i;
    EXPECT_EQ(full_index[i], 1000 + order[i]) << i;  // equal values keep their input order
  }
  for (uint32_t g = 0; g < n / 32; ++g) {  // without isFullSort: each 32 sorted on its own
    std::vector<float> want(x.begin() + g * 32, x.begin() + g * 32 + 32);
    std::sort(want.begin(), want.end(), std::greater<float>());
    for (uint32_t i = 0; i < 32; ++i) EXPECT_EQ(grouped[g * 32 + i], want[i]);
  }
}

TEST(AscendCTopK, LargestAndSmallestWithFinishedRows) {
  constexpr int32_t outter = 3, inner = 64, n = 60, k = 5;
  std::vector<float> x = Values(outter * inner, 40.0f, 0.37f);
  for (int32_t r = 0; r < outter; ++r)
    for (int32_t c = n; c < inner; ++c) x[r * inner + c] = -INFINITY;  // padding for largest
  optiling::TopkTiling tiling;
  platform_ascendc::PlatformAscendC platform;
  ASSERT_TRUE(
      TopKTilingFunc(platform, inner, outter, k, 4, false, TopKMode::TOPK_NORMAL, true, tiling));
  uint32_t max_tmp = 0, min_tmp = 0;
  ASSERT_TRUE(GetTopKMaxMinTmpSize(platform, inner, outter, false, false, TopKMode::TOPK_NORMAL,
                                   true, 4, max_tmp, min_tmp));
  EXPECT_EQ(min_tmp, 20u * inner);
  EXPECT_FALSE(TopKTilingFunc(platform, 40, outter, k, 4, false, TopKMode::TOPK_NORMAL, true,
                              tiling = optiling::TopkTiling()));  // inner not a multiple of 32
  ASSERT_TRUE(
      TopKTilingFunc(platform, inner, outter, k, 4, false, TopKMode::TOPK_NORMAL, true, tiling));
  std::vector<float> big(outter * 8), small(outter * 8);
  std::vector<int32_t> big_i(outter * 8), small_i(outter * 8);
  auto [ok, out] = Launch("topk", 1, [&] {
    TPipe pipe;
    TBuf<TPosition::VECCALC> buf;
    pipe.InitBuffer(buf, 8192);
    LocalTensor<float> src = buf.GetWithOffset<float>(outter * inner, 0);
    LocalTensor<float> values = buf.GetWithOffset<float>(outter * 8, 1024);
    LocalTensor<int32_t> indices = buf.GetWithOffset<int32_t>(outter * 8, 1152);
    LocalTensor<bool> finish = buf.GetWithOffset<bool>(32, 1280);
    LocalTensor<uint8_t> tmp = buf.GetWithOffset<uint8_t>(max_tmp, 2048);
    LocalTensor<int32_t> no_index;
    for (int32_t i = 0; i < outter * inner; ++i) src.SetValue(i, x[i]);
    for (int32_t r = 0; r < outter; ++r) finish.SetValue(r, r == 1);
    TopK<float, false, true>(values, indices, src, no_index, finish, tmp, k, tiling,
                             TopKInfo{outter, inner, n}, true);
    for (int32_t i = 0; i < outter * 8; ++i)
      big[i] = values.GetValue(i), big_i[i] = indices.GetValue(i);
    for (int32_t r = 0; r < outter; ++r)
      for (int32_t c = n; c < inner; ++c) src.SetValue(r * inner + c, INFINITY);  // for smallest
    Duplicate(values, 0.0f, outter * 8);
    TopK<float>(values, indices, src, no_index, finish, k, tiling, TopKInfo{outter, inner, n},
                false);
    for (int32_t i = 0; i < outter * 8; ++i)
      small[i] = values.GetValue(i), small_i[i] = indices.GetValue(i);
  });
  ASSERT_TRUE(ok) << out;
  for (int32_t r = 0; r < outter; ++r) {
    std::vector<int32_t> order(n);
    std::iota(order.begin(), order.end(), 0);
    auto row = [&](int32_t c) { return x[r * inner + c]; };
    std::stable_sort(order.begin(), order.end(), [&](int a, int b) { return row(a) > row(b); });
    for (int32_t j = 0; j < k; ++j) {
      EXPECT_EQ(big[r * 8 + j], row(order[j])) << r << " " << j;
      EXPECT_EQ(big_i[r * 8 + j], r == 1 ? n : order[j]) << r << " " << j;  // row 1 finished
    }
    std::stable_sort(order.begin(), order.end(), [&](int a, int b) { return row(a) < row(b); });
    for (int32_t j = 0; j < k; ++j) {
      EXPECT_EQ(small[r * 8 + j], row(order[j])) << r << " " << j;
      EXPECT_EQ(small_i[r * 8 + j], order[j]) << r << " " << j;  // no finish flags this time
    }
    for (int32_t j = k; j < 8; ++j) EXPECT_TRUE(std::signbit(small[r * 8 + j]));  // -0.0
  }
}

TEST(AscendCLayerNorm, ForwardAndBothGradientsMatchTheAnalyticForm) {
  constexpr uint32_t B = 2, S = 3, H = 16;
  const ge::Shape shape({B, S, H, H});
  uint32_t max1, min1, max2, min2, max3, min3;
  GetLayerNormMaxMinTmpSize(shape, 4, false, max1, min1);
  GetLayerNormGradMaxMinTmpSize(shape, 4, false, max2, min2);
  GetLayerNormGradBetaMaxMinTmpSize(shape, 4, false, max3, min3);
  EXPECT_LE(min1, max1);
  const uint32_t stack = std::max({min1, min2, min3});
  optiling::LayerNormTiling ln;
  optiling::LayerNormGradTiling lng;
  optiling::LayerNormGradBetaTiling lngb;
  GetLayerNormNDTilingInfo(shape, stack, 4, false, ln);
  GetLayerNormGradNDTilingInfo(shape, stack, 4, false, lng);
  GetLayerNormGradBetaNDTilingInfo(shape, stack, 4, false, lngb);
  EXPECT_EQ(ln.hLength, H);
  EXPECT_FLOAT_EQ(ln.lastDimValueBack, 1.0f / H);
  const uint32_t n = B * S * H;
  const std::vector<float> x = Values(n, 30.0f, 0.61f), dy = Values(n, 10.0f, 0.23f),
                           gamma = Values(H, 8.0f, 1.3f), beta = Values(H, 8.0f, 0.7f);
  const float eps = 1e-4f;
  std::vector<float> y(n), mean(B * S), var(B * S), pdx(n), pdg(H), pdb(H);
  auto [ok, out] = Launch("layernorm", 1, [&] {
    TPipe pipe;
    TBuf<TPosition::VECCALC> buf;
    pipe.InitBuffer(buf, 4096);
    LocalTensor<float> tx = buf.GetWithOffset<float>(n, 0), tdy = buf.GetWithOffset<float>(n, 512),
                       ty = buf.GetWithOffset<float>(n, 1024),
                       tpdx = buf.GetWithOffset<float>(n, 1536),
                       tres = buf.GetWithOffset<float>(n, 2048),
                       tg = buf.GetWithOffset<float>(H, 2560),
                       tb = buf.GetWithOffset<float>(H, 2624),
                       tm = buf.GetWithOffset<float>(8, 2688),
                       tv = buf.GetWithOffset<float>(8, 2720),
                       tpg = buf.GetWithOffset<float>(H, 2752),
                       tpb = buf.GetWithOffset<float>(H, 2816);
    for (uint32_t i = 0; i < n; ++i) tx.SetValue(i, x[i]), tdy.SetValue(i, dy[i]);
    for (uint32_t i = 0; i < H; ++i) tg.SetValue(i, gamma[i]), tb.SetValue(i, beta[i]);
    LayerNorm<float>(ty, tm, tv, tx, tg, tb, eps, ln);
    LayerNormGrad<float>(tpdx, tres, tdy, tx, tv, tm, tg, eps, lng);
    LayerNormGradBeta<float>(tpg, tpb, tres, tdy, lngb);
    for (uint32_t i = 0; i < n; ++i) y[i] = ty.GetValue(i), pdx[i] = tpdx.GetValue(i);
    for (uint32_t i = 0; i < B * S; ++i) mean[i] = tm.GetValue(i), var[i] = tv.GetValue(i);
    for (uint32_t i = 0; i < H; ++i) pdg[i] = tpg.GetValue(i), pdb[i] = tpb.GetValue(i);
  });
  ASSERT_TRUE(ok) << out;
  std::vector<double> want_g(H, 0.0), want_b(H, 0.0);
  for (uint32_t r = 0; r < B * S; ++r) {
    double m = 0, v = 0;
    for (uint32_t c = 0; c < H; ++c) m += x[r * H + c];
    m /= H;
    for (uint32_t c = 0; c < H; ++c) v += (x[r * H + c] - m) * (x[r * H + c] - m);
    v /= H;  // biased, as CANN's LayerNorm
    EXPECT_NEAR(mean[r], m, 1e-4);
    EXPECT_NEAR(var[r], v, 1e-3 * v);
    const double rstd = 1.0 / std::sqrt(v + eps);
    // d/dx of gamma * xhat + beta, for the loss sum(dy * y): the standard closed form.
    double sum_g = 0, sum_gx = 0;
    for (uint32_t c = 0; c < H; ++c) {
      const double g = dy[r * H + c] * gamma[c], xh = (x[r * H + c] - m) * rstd;
      sum_g += g;
      sum_gx += g * xh;
      want_g[c] += dy[r * H + c] * xh;
      want_b[c] += dy[r * H + c];
    }
    for (uint32_t c = 0; c < H; ++c) {
      const double xh = (x[r * H + c] - m) * rstd;
      EXPECT_NEAR(y[r * H + c], gamma[c] * xh + beta[c], 1e-3);
      const double g = dy[r * H + c] * gamma[c];
      const double want = rstd * (g - sum_g / H - xh * sum_gx / H);
      EXPECT_NEAR(pdx[r * H + c], want, 1e-3 * (1 + std::fabs(want))) << r << " " << c;
    }
  }
  for (uint32_t c = 0; c < H; ++c) {
    EXPECT_NEAR(pdg[c], want_g[c], 1e-3 * (1 + std::fabs(want_g[c])));
    EXPECT_NEAR(pdb[c], want_b[c], 1e-4 * (1 + std::fabs(want_b[c])));
  }
}

TEST(AscendCWelford, UpdatesThenFinalizeGiveTheMeanAndVariance) {
  // 8 columns of 8 samples each, fed one sample at a time; then the 8 partial results merge.
  constexpr uint32_t ab = 8, samples = 8;
  std::vector<float> data(ab * samples);
  for (uint32_t i = 0; i < data.size(); ++i) data[i] = std::cos(0.5f * i) * 3.0f + 0.1f * i;
  float final_mean = 0, final_var = 0;
  std::vector<float> col_mean(ab), col_m2(ab);
  uint32_t upd_max = 0, upd_min = 0;
  GetWelfordUpdateMaxMinTmpSize(ge::Shape({1, ab}), 4, 4, false, false, upd_max, upd_min);
  EXPECT_EQ(upd_min, 512u);
  auto [ok, out] = Launch("welford", 1, [&] {
    TPipe pipe;
    TBuf<TPosition::VECCALC> buf;
    pipe.InitBuffer(buf, 2048);
    LocalTensor<float> x = buf.GetWithOffset<float>(ab, 0), m = buf.GetWithOffset<float>(ab, 64),
                       v = buf.GetWithOffset<float>(ab, 128), fm = buf.GetWithOffset<float>(8, 192),
                       fv = buf.GetWithOffset<float>(8, 256);
    Duplicate(m, 0.0f, ab);
    Duplicate(v, 0.0f, ab);
    for (uint32_t t = 0; t < samples; ++t) {
      for (uint32_t i = 0; i < ab; ++i) x.SetValue(i, data[t * ab + i]);
      WelfordUpdate<float, float>(m, v, m, v, x, WelfordUpdateParam{1, ab, ab, 1.0f / (t + 1)});
    }
    for (uint32_t i = 0; i < ab; ++i) col_mean[i] = m.GetValue(i), col_m2[i] = v.GetValue(i);
    WelfordFinalizePara para{samples, ab, samples, ab, 0, 0, 1.0f / ab, 1.0f / (ab * samples)};
    WelfordFinalize(fm, fv, m, v, para);
    final_mean = fm.GetValue(0);
    final_var = fv.GetValue(0);
  });
  ASSERT_TRUE(ok) << out;
  double all_mean = 0;
  for (float d : data) all_mean += d;
  all_mean /= data.size();
  double all_var = 0;
  for (float d : data) all_var += (d - all_mean) * (d - all_mean);
  all_var /= data.size();
  for (uint32_t i = 0; i < ab; ++i) {
    double m = 0, m2 = 0;
    for (uint32_t t = 0; t < samples; ++t) m += data[t * ab + i];
    m /= samples;
    for (uint32_t t = 0; t < samples; ++t) m2 += (data[t * ab + i] - m) * (data[t * ab + i] - m);
    EXPECT_NEAR(col_mean[i], m, 1e-5);
    EXPECT_NEAR(col_m2[i], m2, 1e-4 * (1 + m2));
  }
  EXPECT_NEAR(final_mean, all_mean, 1e-5);
  EXPECT_NEAR(final_var, all_var, 1e-4 * (1 + all_var));
}

}  // namespace
