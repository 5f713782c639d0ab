// The advanced API's element-wise math and activations against the C library's functions
// (the documented formulas: Gelu's tanh form, Swish = x * sigmoid(beta x), Frac = x - trunc x).
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <string>
#include <vector>

#include "kernel_operator.h"
#include "launch_util.h"
#include "tikicpulib.h"
#include "tiling/tiling_api.h"

using namespace AscendC;

namespace {

constexpr int kN = 64;

TEST(AscendCMath, UnaryFunctionsAndActivations) {
  std::vector<float> x(kN);
  for (int i = 0; i < kN; ++i) x[i] = -3.0f + 6.0f * i / (kN - 1);
  std::vector<std::vector<float>> got(9, std::vector<float>(kN));
  auto [ok, out] = oc_test::Launch("math", 1, [&] {
    TPipe pipe;
    TBuf<TPosition::VECCALC> buf;
    pipe.InitBuffer(buf, 2048);
    LocalTensor<float> src = buf.GetWithOffset<float>(kN, 0),
                       dst = buf.GetWithOffset<float>(kN, 512);
    LocalTensor<uint8_t> tmp = buf.GetWithOffset<uint8_t>(512, 1024);
    for (int i = 0; i < kN; ++i) src.SetValue(i, x[i]);
    auto keep = [&](int k) {
      for (int i = 0; i < kN; ++i) got[k][i] = dst.GetValue(i);
    };
    Erf<float, false>(dst, src, tmp, kN);
    keep(0);
    Sigmoid<float, false>(dst, src, kN);
    keep(1);
    Frac<float, false>(dst, src);
    keep(2);
    Gelu(dst, src, kN);
    keep(3);
    Swish(dst, src, kN, 1.5f);
    keep(4);
    ClampMin<float, false>(dst, src, tmp, 0.25f, kN);
    keep(5);
    Exp<float, 12, false>(dst, src, tmp, kN);
    keep(6);
    Tanh<float, false>(dst, src, kN);
    keep(7);
    Ceil<float, false>(dst, src, tmp, kN);
    keep(8);
  });
  ASSERT_TRUE(ok) << out;
  // The Taylor level is the NPU's choice of implementation: recorded in one warning line.
  EXPECT_NE(out.find("taylorExpandLevel 12"), std::string::npos) << out;
  for (int i = 0; i < kN; ++i) {
    const double v = x[i];
    EXPECT_NEAR(got[0][i], std::erf(v), 1e-6);
    EXPECT_NEAR(got[1][i], 1 / (1 + std::exp(-v)), 1e-6);
    EXPECT_NEAR(got[2][i], v - std::trunc(v), 1e-6);
    EXPECT_NEAR(got[3][i], 0.5 * v * (1 + std::tanh(0.7978845608 * (v + 0.044715 * v * v * v))),
                1e-5);
    EXPECT_NEAR(got[4][i], v / (1 + std::exp(-1.5 * v)), 1e-5);
    EXPECT_EQ(got[5][i], std::max(x[i], 0.25f));
    EXPECT_NEAR(got[6][i], std::exp(v), 1e-5 * std::exp(v));
    EXPECT_NEAR(got[7][i], std::tanh(v), 1e-6);
    EXPECT_EQ(got[8][i], std::ceil(x[i]));
  }
  uint32_t max_tmp = 0, min_tmp = 0;
  GetErfMaxMinTmpSize(ge::Shape({kN}), 4, false, max_tmp, min_tmp);
  EXPECT_LE(min_tmp, max_tmp);
}

TEST(AscendCMath, XorFmodAndHalfRounding) {
  std::vector<int16_t> xr(16);
  std::vector<float> fm(16), hf(16);
  auto [ok, out] = oc_test::Launch("math_binary", 1, [&] {
    TPipe pipe;
    TBuf<TPosition::VECCALC> buf;
    pipe.InitBuffer(buf, 1024);
    LocalTensor<int16_t> a = buf.GetWithOffset<int16_t>(16, 0),
                         b = buf.GetWithOffset<int16_t>(16, 32),
                         c = buf.GetWithOffset<int16_t>(16, 64);
    LocalTensor<float> p = buf.GetWithOffset<float>(16, 128), q = buf.GetWithOffset<float>(16, 192),
                       r = buf.GetWithOffset<float>(16, 256);
    LocalTensor<half> h = buf.GetWithOffset<half>(16, 320), hr = buf.GetWithOffset<half>(16, 352);
    for (int i = 0; i < 16; ++i) {
      a.SetValue(i, int16_t(i * 77));
      b.SetValue(i, int16_t(0x5A5A));
      p.SetValue(i, -7.5f + i);
      q.SetValue(i, 2.5f);
      h.SetValue(i, half(0.1f * i));
    }
    Xor<int16_t, false>(c, a, b, 16);
    Fmod<float, false>(r, p, q, 16);
    Sigmoid<half, false>(hr, h, 16);
    for (int i = 0; i < 16; ++i) {
      xr[i] = c.GetValue(i);
      fm[i] = r.GetValue(i);
      hf[i] = float(hr.GetValue(i));
    }
  });
  ASSERT_TRUE(ok) << out;
  for (int i = 0; i < 16; ++i) {
    EXPECT_EQ(xr[i], int16_t((i * 77) ^ 0x5A5A));
    EXPECT_EQ(fm[i], std::fmod(-7.5f + i, 2.5f));
    const float h = float(half(0.1f * i));
    EXPECT_EQ(hf[i], float(half(float(1 / (1 + std::exp(-double(h)))))));  // rounded once
  }
}

TEST(AscendCMath, PowerTensorAndScalarForms) {
  std::vector<float> tt(16), ts(16), st(16);
  std::vector<int32_t> it(16);
  auto [ok, out] = oc_test::Launch("power", 1, [&] {
    TPipe pipe;
    TBuf<TPosition::VECCALC> buf;
    pipe.InitBuffer(buf, 1024);
    LocalTensor<float> b = buf.GetWithOffset<float>(16, 0), e = buf.GetWithOffset<float>(16, 64),
                       d = buf.GetWithOffset<float>(16, 128);
    LocalTensor<int32_t> ib = buf.GetWithOffset<int32_t>(16, 192),
                         ie = buf.GetWithOffset<int32_t>(16, 256),
                         id = buf.GetWithOffset<int32_t>(16, 320);
    LocalTensor<uint8_t> tmp = buf.GetWithOffset<uint8_t>(256, 512);
    for (int i = 0; i < 16; ++i) {
      b.SetValue(i, 0.5f + 0.25f * i);
      e.SetValue(i, -1.0f + 0.5f * i);
      ib.SetValue(i, i - 4);
      ie.SetValue(i, i % 4);
    }
    Power<float, false>(d, b, e, tmp);
    for (int i = 0; i < 16; ++i) tt[i] = d.GetValue(i);
    Power<float, false>(d, b, 2.5f, tmp, 16);
    for (int i = 0; i < 16; ++i) ts[i] = d.GetValue(i);
    Power<float, false>(d, 3.0f, e, 16);
    for (int i = 0; i < 16; ++i) st[i] = d.GetValue(i);
    Power<int32_t, false>(id, ib, ie);
    for (int i = 0; i < 16; ++i) it[i] = id.GetValue(i);
  });
  ASSERT_TRUE(ok) << out;
  for (int i = 0; i < 16; ++i) {
    const double b = 0.5 + 0.25 * i, e = -1.0 + 0.5 * i;
    EXPECT_NEAR(tt[i], std::pow(b, e), 1e-5 * std::pow(b, e));
    EXPECT_NEAR(ts[i], std::pow(b, 2.5), 1e-5 * std::pow(b, 2.5));
    EXPECT_NEAR(st[i], std::pow(3.0, e), 1e-5 * std::pow(3.0, e));
    int32_t want = 1;
    for (int k = 0; k < i % 4; ++k) want *= (i - 4);
    EXPECT_EQ(it[i], want) << i;
  }
  uint32_t max_tmp = 0, min_tmp = 0;
  GetPowerMaxMinTmpSize(ge::Shape({16}), ge::Shape({16}), false, 4, false, max_tmp, min_tmp);
  EXPECT_LE(min_tmp, max_tmp);
}

TEST(AscendCMath, GatedActivations) {
  std::vector<float> a(32), b(32), ge(32), sw(32);
  for (int i = 0; i < 32; ++i) a[i] = -2.0f + 0.125f * i, b[i] = 1.5f - 0.1f * i;
  auto [ok, out] = oc_test::Launch("glu", 1, [&] {
    TPipe pipe;
    TBuf<TPosition::VECCALC> buf;
    pipe.InitBuffer(buf, 1024);
    LocalTensor<float> x = buf.GetWithOffset<float>(32, 0), y = buf.GetWithOffset<float>(32, 128),
                       d = buf.GetWithOffset<float>(32, 256);
    for (int i = 0; i < 32; ++i) x.SetValue(i, a[i]), y.SetValue(i, b[i]);
    GeGLU<float, false>(d, x, y, 32);
    for (int i = 0; i < 32; ++i) ge[i] = d.GetValue(i);
    SwiGLU<float, false>(d, x, y, 0.5f, 32);
    for (int i = 0; i < 32; ++i) sw[i] = d.GetValue(i);
  });
  ASSERT_TRUE(ok) << out;
  for (int i = 0; i < 32; ++i) {
    const double x = a[i], y = b[i];
    // The formula CANN's sample computes its golden with.
    const double gelu = y / (1 + std::exp(-0.0713548162726 * y * (2.2363860002236e1 + y * y)));
    EXPECT_NEAR(ge[i], x * gelu, 1e-5);
    EXPECT_NEAR(sw[i], x * y / (1 + std::exp(-0.5 * y)), 1e-5);
  }
}

constexpr CumSumConfig kDownRows = {false, false, true,
                                    CumSumAlgorithm::CUMSUM_ALGORITHM_LINEBYLINE};
constexpr CumSumConfig kAlongRows = {true, false, false,
                                     CumSumAlgorithm::CUMSUM_ALGORITHM_LINEBYLINE};

TEST(AscendCMath, CumSumDownAndAlongTheRows) {
  constexpr uint32_t rows = 4, cols = 8;
  std::vector<float> down(rows * cols), along(rows * cols), last(cols);
  auto [ok, out] = oc_test::Launch("cumsum", 1, [&] {
    TPipe pipe;
    TBuf<TPosition::VECCALC> buf;
    pipe.InitBuffer(buf, 1024);
    LocalTensor<float> x = buf.GetWithOffset<float>(rows * cols, 0),
                       y = buf.GetWithOffset<float>(rows * cols, 128),
                       l = buf.GetWithOffset<float>(cols, 256);
    for (uint32_t i = 0; i < rows * cols; ++i) x.SetValue(i, float(i % 7) - 2.0f);
    CumSum<float, kDownRows>(y, l, x, CumSumInfo{rows, cols});
    for (uint32_t i = 0; i < rows * cols; ++i) down[i] = y.GetValue(i);
    for (uint32_t i = 0; i < cols; ++i) last[i] = l.GetValue(i);
    CumSum<float, kAlongRows>(y, l, x, CumSumInfo{rows, cols});
    for (uint32_t i = 0; i < rows * cols; ++i) along[i] = y.GetValue(i);
  });
  ASSERT_TRUE(ok) << out;
  auto x = [](uint32_t r, uint32_t c) { return float((r * cols + c) % 7) - 2.0f; };
  for (uint32_t r = 0; r < rows; ++r)
    for (uint32_t c = 0; c < cols; ++c) {
      float d = 0, a = 0;
      for (uint32_t k = 0; k <= r; ++k) d += x(k, c);
      for (uint32_t k = 0; k <= c; ++k) a += x(r, k);
      EXPECT_EQ(down[r * cols + c], d);
      EXPECT_EQ(along[r * cols + c], a);
    }
  for (uint32_t c = 0; c < cols; ++c) EXPECT_EQ(last[c], down[(rows - 1) * cols + c]);
}

}  // namespace
