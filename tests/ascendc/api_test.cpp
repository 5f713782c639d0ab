// Semantics of the vector API against hand-computed values: repeat/stride/mask forms,
// counter mode, Cast rounding modes, reductions, Compare/Select, DataCopyPad, atomic add,
// and the cost estimate.
#include <gtest/gtest.h>

#include <cmath>
#include <fstream>
#include <regex>
#include <sstream>
#include <vector>

#include "kernel_operator.h"
#include "tikicpulib.h"

using namespace AscendC;

namespace {

// One-block kernel with a 4 KiB UB buffer of floats, filled 0, 1, 2, ...
template <typename F>
void WithUb(F body) {
  testing::internal::CaptureStdout();
  const bool ok = detail::RunKernel("api", 1, [&] {
    TPipe pipe;
    TBuf<TPosition::VECCALC> b;
    pipe.InitBuffer(b, 8192);
    LocalTensor<float> t = b.Get<float>();
    for (uint32_t i = 0; i < t.GetSize(); ++i) t.SetValue(i, static_cast<float>(i));
    body(b, t);
  });
  const std::string out = testing::internal::GetCapturedStdout();
  EXPECT_TRUE(ok) << out;
}

TEST(AscendCApi, BinaryRepeatWithStridesAndContinuousMask) {
  WithUb([](TBuf<TPosition::VECCALC>&, LocalTensor<float> t) {
    LocalTensor<float> dst = t[1024], a = t[0], b = t[512];
    // 2 repeats, 16 elements each (mask 16 = blocks 0-1), dst repeats 8 blocks apart,
    // src0 blocks 2 apart (so elements 0-7 and 16-23), src1 repeat stride 1 block.
    Add(dst, a, b, 16, 2, BinaryRepeatParams(1, 2, 1, 8, 8, 1));
    for (int r = 0; r < 2; ++r)
      for (int e = 0; e < 16; ++e) {
        const int blk = e / 8, w = e % 8;
        const float want = static_cast<float>((r * 8 + blk * 2) * 8 + w) +
                           static_cast<float>(512 + (r * 1 + blk) * 8 + w);
        EXPECT_EQ(dst.GetValue(r * 64 + e), want) << r << " " << e;
      }
    EXPECT_EQ(dst.GetValue(16), 1024 + 16.0f);  // unmasked: untouched
  });
}

TEST(AscendCApi, BitMaskAndCounterMode) {
  WithUb([](TBuf<TPosition::VECCALC>&, LocalTensor<float> t) {
    LocalTensor<float> dst = t[1024];
    const uint64_t mask[2] = {0x8000000000000005ull, 0};  // elements 0, 2 and 63
    Muls(dst, t, 10.0f, mask, 1, UnaryRepeatParams());
    EXPECT_EQ(dst.GetValue(0), 0.0f);
    EXPECT_EQ(dst.GetValue(1), 1025.0f);
    EXPECT_EQ(dst.GetValue(2), 20.0f);
    EXPECT_EQ(dst.GetValue(63), 630.0f);
    // Counter mode: the mask is the total count, repeats follow from it.
    SetMaskCount();
    SetVectorMask<float, MaskMode::COUNTER>(0, 100);
    Adds(dst, t, 1.0f, 100, 1, UnaryRepeatParams());
    SetMaskNorm();
    ResetMask();
    EXPECT_EQ(dst.GetValue(99), 100.0f);
    EXPECT_EQ(dst.GetValue(100), 1124.0f);
  });
}

TEST(AscendCApi, CastRoundModes) {
  WithUb([](TBuf<TPosition::VECCALC>& b, LocalTensor<float> t) {
    const float in[6] = {2.5f, -2.5f, 1.0f + std::ldexp(1.0f, -11), 3.7f, -3.7f, 1e6f};
    for (int i = 0; i < 6; ++i) t.SetValue(i, in[i]);
    LocalTensor<int32_t> ints = t[256].ReinterpretCast<int32_t>();
    const std::vector<std::pair<RoundMode, std::vector<int32_t>>> modes = {
        {RoundMode::CAST_RINT, {2, -2, 1, 4, -4, 1000000}},
        {RoundMode::CAST_FLOOR, {2, -3, 1, 3, -4, 1000000}},
        {RoundMode::CAST_CEIL, {3, -2, 2, 4, -3, 1000000}},
        {RoundMode::CAST_ROUND, {3, -3, 1, 4, -4, 1000000}},
        {RoundMode::CAST_TRUNC, {2, -2, 1, 3, -3, 1000000}}};
    for (const auto& [mode, want] : modes) {
      Cast(ints, t, mode, 8);
      for (int i = 0; i < 6; ++i) EXPECT_EQ(ints.GetValue(i), want[i]) << int(mode) << " " << i;
    }
    LocalTensor<half> h = t[512].ReinterpretCast<half>();
    Cast(h, t, RoundMode::CAST_NONE, 16);   // RNE at half precision
    EXPECT_EQ(h.GetValue(2).bits, 0x3c00);  // 1 + 2^-11 ties to even
    EXPECT_EQ(h.GetValue(5).bits, 0x7c00);  // 1e6 overflows to inf
    Cast(h, t, RoundMode::CAST_CEIL, 16);
    EXPECT_EQ(h.GetValue(2).bits, 0x3c01);
    Cast(h, t, RoundMode::CAST_TRUNC, 16);
    EXPECT_EQ(h.GetValue(5).bits, 0x7bff);  // toward zero saturates at the max half
    Cast(h, t, RoundMode::CAST_ODD, 16);
    EXPECT_EQ(h.GetValue(2).bits, 0x3c01);  // inexact -> odd
    (void)b;
  });
}

TEST(AscendCApi, ReductionsCompareSelect) {
  WithUb([](TBuf<TPosition::VECCALC>&, LocalTensor<float> t) {
    LocalTensor<float> out = t[1024], work = t[1100];
    ReduceSum(out, t, work, 100);
    EXPECT_EQ(out.GetValue(0), 4950.0f);
    t.SetValue(37, 5000.0f);
    ReduceMax(out, t, work, 100, true);
    EXPECT_EQ(out.GetValue(0), 5000.0f);
    uint32_t idx;
    float bits = out.GetValue(1);
    std::memcpy(&idx, &bits, 4);
    EXPECT_EQ(idx, 37u);
    ReduceMin(out, t[8], work, 50, false);
    EXPECT_EQ(out.GetValue(0), 8.0f);
    // WholeReduceSum: two repeats of 64 elements -> 2 sums.
    WholeReduceSum(out, t[128], 64, 2, 1, 1, 8);
    EXPECT_EQ(out.GetValue(0), 64 * 128 + 2016.0f);
    EXPECT_EQ(out.GetValue(1), 64 * 192 + 2016.0f);
    BlockReduceSum(out, t[0], 1, 64, 8, 1, 8);
    EXPECT_EQ(out.GetValue(1), 8 * 8 + 28.0f);
    // Two repeats, dstRepStride 1 (one repeat's 8 results): 16 block sums end to end, as the
    // row sums of a 16 x 8 float tile (t[i] = i).
    Duplicate(out, -1.0f, 64);
    BlockReduceSum(out, t[0], 2, 64, 1, 1, 8);
    for (int b = 0; b < 16; ++b)  // (t[37] holds 5000 since the ReduceMax above)
      EXPECT_EQ(out.GetValue(b), 64.0f * b + 28.0f + (b == 4 ? 5000.0f - 37.0f : 0.0f)) << b;
    EXPECT_EQ(out.GetValue(16), -1.0f);
    // dstRepStride 2 leaves one repeat's length between them.
    BlockReduceSum(out, t[0], 2, 64, 2, 1, 8);
    EXPECT_EQ(out.GetValue(16), 64.0f * 8 + 28.0f);
    // Compare / Select.
    LocalTensor<uint8_t> m = t[1200].ReinterpretCast<uint8_t>();
    Compares(m, t, 10.0f, CMPMODE::LT, 64);
    EXPECT_EQ(m.GetValue(0), 0xff);
    EXPECT_EQ(m.GetValue(1), 0x03);  // elements 8, 9
    Select(out, m, t, -1.0f, SELMODE::VSEL_TENSOR_SCALAR_MODE, 64);
    EXPECT_EQ(out.GetValue(9), 9.0f);
    EXPECT_EQ(out.GetValue(10), -1.0f);
    Duplicate(out, 3.0f, 64);
    Compare(m, t, out, CMPMODE::GE, 64);
    EXPECT_EQ(m.GetValue(0), 0xf8);  // elements 3..7 are >= 3
  });
}

TEST(AscendCApi, DataCopyPadAndAtomicAdd) {
  auto* x = static_cast<float*>(GmAlloc(10 * sizeof(float)));
  auto* y = static_cast<float*>(GmAlloc(10 * sizeof(float)));
  for (int i = 0; i < 10; ++i) x[i] = static_cast<float>(i + 1);
  testing::internal::CaptureStdout();
  const bool ok = detail::RunKernel("pad_atomic", 4, [&] {
    TPipe pipe;
    TBuf<TPosition::VECCALC> b;
    pipe.InitBuffer(b, 256);
    GlobalTensor<float> gx, gy;
    gx.SetGlobalBuffer(x, 10);
    gy.SetGlobalBuffer(y, 10);
    LocalTensor<float> t = b.Get<float>();
    // Two bursts of 5 floats (20 bytes), each padded to a 32-byte block with -1.
    DataCopyPad(t, gx, DataCopyExtParams(2, 20, 0, 0, 0),
                DataCopyPadExtParams<float>(true, 0, 3, -1.0f));
    SetFlag<HardEvent::MTE2_MTE3>(EVENT_ID0);
    WaitFlag<HardEvent::MTE2_MTE3>(EVENT_ID0);
    if (GetBlockIdx() == 0) {
      EXPECT_EQ(t.GetValue(4), 5.0f);
      EXPECT_EQ(t.GetValue(5), -1.0f);
      EXPECT_EQ(t.GetValue(8), 6.0f);
    }
    // Every block adds its bursts into y: 4 blocks -> 4 x.
    SetAtomicAdd<float>();
    DataCopyPad(gy, t, DataCopyExtParams(2, 20, 0, 0, 0));
    SetAtomicNone();
  });
  const std::string out = testing::internal::GetCapturedStdout();
  EXPECT_TRUE(ok) << out;
  for (int i = 0; i < 10; ++i) EXPECT_EQ(y[i], 4.0f * (i + 1)) << i;
  GmFree(x);
  GmFree(y);
}

}  // namespace

// LeakyReLU with a tiling struct and a ragged tail: the kernel of examples/ascendc_kernels.
#include "../../examples/ascendc_kernels/kernels.cpp"

namespace {

TEST(AscendCApi, LeakyReluWithTilingAndTail) {
  const uint32_t n = 1000;
  auto* x = static_cast<float*>(GmAlloc(n * 4));
  auto* y = static_cast<float*>(GmAlloc(n * 4));
  auto* tiling = static_cast<uint8_t*>(GmAlloc(sizeof(LeakyTiling)));
  for (uint32_t i = 0; i < n; ++i) x[i] = static_cast<float>(static_cast<int>(i) - 500) / 8.0f;
  const LeakyTiling tl{n, 96, 0.1f};
  std::memcpy(tiling, &tl, sizeof(tl));
  testing::internal::CaptureStdout();
  const bool ok = ICPU_RUN_KF(leaky_relu_custom, 3, (uint8_t*)x, (uint8_t*)y, tiling);
  const std::string out = testing::internal::GetCapturedStdout();
  EXPECT_TRUE(ok) << out;
  for (uint32_t i = 0; i < n; ++i) EXPECT_FLOAT_EQ(y[i], x[i] >= 0 ? x[i] : x[i] * 0.1f) << i;
  GmFree(x);
  GmFree(y);
  GmFree(tiling);
}

TEST(AscendCApi, CostEstimateMatchesTheModel) {
  // One block: 2 KiB in (MTE2), 8 Adds over 2 KiB of floats (Vector), 2 KiB out (MTE3).
  if (!std::getenv("OCANN_ASCENDC_REPORT_DIR")) setenv("OCANN_ASCENDC_REPORT_DIR", "/tmp", 1);
  auto* x = static_cast<float*>(GmAlloc(2048));
  testing::internal::CaptureStdout();
  const bool ok = detail::RunKernel("cost_probe", 1, [&] {
    TPipe pipe;
    TBuf<TPosition::VECCALC> b;
    pipe.InitBuffer(b, 2048);
    GlobalTensor<float> g;
    g.SetGlobalBuffer(x, 512);
    LocalTensor<float> t = b.Get<float>();
    DataCopy(t, g, 512);
    SetFlag<HardEvent::MTE2_V>(EVENT_ID0);
    WaitFlag<HardEvent::MTE2_V>(EVENT_ID0);
    for (int i = 0; i < 8; ++i) Add(t, t, t, 512);
    SetFlag<HardEvent::V_MTE3>(EVENT_ID0);
    WaitFlag<HardEvent::V_MTE3>(EVENT_ID0);
    DataCopy(g, t, 512);
    t.GetValue(0);
  });
  const std::string out = testing::internal::GetCapturedStdout();
  ASSERT_TRUE(ok) << out;
  // MTE: 200 latency + 10 per burst + bytes / 64 = 200 + 10 + 32 = 242 cycles each way.
  // Vector: ceil(2048 / 256) = 8 repeats per Add; both sources are the same tensor, so each
  // repeat reads two rows from each of its 8 bank groups: 2 cycles -> 16 per Add, 128 in all.
  // Scalar: 1 GetValue. The copy out needs the last Add: 242 + 128 + 242 = 612 (the GetValue
  // only reads, so it runs beside the copy out).
  EXPECT_TRUE(std::regex_search(out, std::regex("MTE2 +242\\.0 +0\\.134"))) << out;
  EXPECT_TRUE(std::regex_search(out, std::regex("Vector +128\\.0"))) << out;
  EXPECT_TRUE(std::regex_search(out, std::regex("Scalar +1\\.0"))) << out;
  EXPECT_NE(out.find("time 612.0 cycles per block"), std::string::npos) << out;
  EXPECT_NE(out.find("bound by MTE2"), std::string::npos) << out;
  const char* dir = std::getenv("OCANN_ASCENDC_REPORT_DIR");
  std::ifstream f(std::string(dir ? dir : ".") + "/cost_probe_cost.json");
  std::stringstream ss;
  ss << f.rdbuf();
  const std::string json = ss.str();
  EXPECT_NE(json.find("\"estimate\": true"), std::string::npos) << json;
  EXPECT_NE(json.find("\"MTE3\": {\"cycles\": 242, \"us\": 0.134444"), std::string::npos) << json;
  EXPECT_NE(json.find("\"bound\": \"MTE2\""), std::string::npos) << json;
  GmFree(x);
}

}  // namespace

namespace {

TEST(AscendCApi, PrintfPrefixesTheBlock) {
  testing::internal::CaptureStdout();
  const bool ok = detail::RunKernel("print", 2, [] {
    if (GetBlockIdx() == 1) AscendC::printf("value %d of %lld\n", 7, GetBlockNum());
  });
  const std::string out = testing::internal::GetCapturedStdout();
  EXPECT_TRUE(ok);
  EXPECT_NE(out.find("[block 1] value 7 of 2\n"), std::string::npos) << out;
}

}  // namespace

namespace {

TEST(AscendCApi, BitwiseShiftAndCastRepeatForms) {
  testing::internal::CaptureStdout();
  const bool ok = detail::RunKernel("bitwise", 1, [] {
    TPipe pipe;
    TBuf<TPosition::VECCALC> b;
    pipe.InitBuffer(b, 4096);
    LocalTensor<int16_t> x = b.Get<int16_t>(), y = x[256], z = x[512];
    for (int i = 0; i < 128; ++i) {
      x.SetValue(i, static_cast<int16_t>(i));
      y.SetValue(i, static_cast<int16_t>(0x0f));
    }
    And(z, x, y, 64, 1, BinaryRepeatParams());  // mask form: first 64 of 128 elements
    EXPECT_EQ(z.GetValue(37), 37 & 0x0f);
    Or(z, x, y, 128);
    EXPECT_EQ(z.GetValue(100), 100 | 0x0f);
    Not(z, x, 8);
    EXPECT_EQ(z.GetValue(5), static_cast<int16_t>(~5));
    ShiftLeft(z, x, int16_t(2), 16);
    EXPECT_EQ(z.GetValue(9), 36);
    ShiftRight(z, x, int16_t(1), 16, 1, UnaryRepeatParams());
    EXPECT_EQ(z.GetValue(9), 4);
    // Cast, mask form: 64 floats -> halves in one repeat.
    LocalTensor<float> f = b.Get<float>()[512];
    LocalTensor<half> h = b.Get<half>()[1536];
    for (int i = 0; i < 64; ++i) f.SetValue(i, 0.5f * i + 0.25f);
    Cast(h, f, RoundMode::CAST_FLOOR, 64, 1, UnaryRepeatParams(1, 1, 4, 8));
    EXPECT_EQ(float(h.GetValue(3)), 1.75f);
  });
  const std::string out = testing::internal::GetCapturedStdout();
  EXPECT_TRUE(ok) << out;
}

}  // namespace
