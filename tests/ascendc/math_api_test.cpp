// The advanced API's element-wise math and activations against the C library's functions
// (the documented formulas: Gelu's tanh form, Swish = x * sigmoid(beta x), Frac = x - trunc x).
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
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

}  // namespace
