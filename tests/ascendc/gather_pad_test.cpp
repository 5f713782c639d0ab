// GatherMask, Pad/UnPad and the host helpers around them, against values worked out by hand.
#include <gtest/gtest.h>

#include <cstring>
#include <numeric>
#include <vector>

#include "graph/tensor.h"
#include "kernel_operator.h"
#include "launch_util.h"
#include "lib/matmul_intf.h"
#include "tikicpulib.h"
#include "tiling/tiling_api.h"

using namespace AscendC;

namespace {

template <typename F>
bool RunOne(const char* name, F body, KernelMode mode = KernelMode::AIV_MODE) {
  auto r = oc_test::LaunchQuiet(name, 1, body, mode);
  for (const auto& e : r.errors) ADD_FAILURE() << e;
  return r.ok;
}

TEST(AscendCGatherMask, PatternTensorAndFixedPatterns) {
  // 2 repeats of 64 floats (256 bytes each), values 0..127.
  std::vector<float> got;
  uint64_t kept = 0, kept_even = 0, kept_third = 0, kept_counter = 0;
  std::vector<float> even, third, counter;
  ASSERT_TRUE(RunOne("gather", [&] {
    TPipe pipe;
    TBuf<TPosition::VECCALC> src, pat, dst;
    pipe.InitBuffer(src, 512);
    pipe.InitBuffer(pat, 64);
    pipe.InitBuffer(dst, 512);
    LocalTensor<float> s = src.Get<float>(), d = dst.Get<float>();
    LocalTensor<uint32_t> p = pat.Get<uint32_t>();
    for (int i = 0; i < 128; ++i) s.SetValue(i, static_cast<float>(i));
    // Repeat 0 keeps elements 0, 5 and 63; repeat 1 (pattern 32 bytes on) keeps 1 and 40.
    for (int i = 0; i < 16; ++i) p.SetValue(i, 0);
    p.SetValue(0, (1u << 0) | (1u << 5));
    p.SetValue(1, 1u << 31);
    p.SetValue(8, 1u << 1);
    p.SetValue(9, 1u << 8);
    GatherMask(d, s, p, false, 0, GatherMaskParams(1, 2, 8, 1), kept);
    for (uint64_t i = 0; i < kept; ++i) got.push_back(d.GetValue(i));
    GatherMask(d, s, static_cast<uint8_t>(1), false, 0, GatherMaskParams(1, 2, 8, 0), kept_even);
    for (uint64_t i = 0; i < 4; ++i) even.push_back(d.GetValue(i));
    GatherMask(d, s, static_cast<uint8_t>(5), false, 0, GatherMaskParams(1, 1, 8, 0), kept_third);
    for (uint64_t i = 0; i < kept_third; ++i) third.push_back(d.GetValue(i));
    // Counter mode: 10 elements a repeat, all kept: 0..9 then 64..73.
    GatherMask(d, s, static_cast<uint8_t>(7), true, 10, GatherMaskParams(1, 2, 8, 0), kept_counter);
    for (uint64_t i = 0; i < kept_counter; ++i) counter.push_back(d.GetValue(i));
  }));
  EXPECT_EQ(kept, 5u);
  EXPECT_EQ(got, (std::vector<float>{0, 5, 63, 65, 104}));
  EXPECT_EQ(kept_even, 64u);
  EXPECT_EQ(even, (std::vector<float>{0, 2, 4, 6}));
  EXPECT_EQ(kept_third, 16u);  // pattern 5: the third of every 4 (index 2, 6, ...)
  EXPECT_EQ(third.front(), 2.0f);
  EXPECT_EQ(third.back(), 62.0f);
  std::vector<float> want(10);
  std::iota(want.begin(), want.end(), 0.0f);
  for (int i = 0; i < 10; ++i) want.push_back(64.0f + i);
  EXPECT_EQ(counter, want);
}

TEST(AscendCGather, ByteOffsetsCountAndRepeatForms) {
  // Deinterleave as int32 kernels do: CreateVecIndex, times 8 bytes, plus 4 for odd lanes.
  std::vector<int32_t> even, odd, rep;
  auto r = oc_test::LaunchQuiet("gather", 1, [&] {
    TPipe pipe;
    TBuf<TPosition::VECCALC> b;
    pipe.InitBuffer(b, 4 * 1024);
    LocalTensor<int32_t> src = b.GetWithOffset<int32_t>(256, 0);
    LocalTensor<int32_t> idx = b.GetWithOffset<int32_t>(128, 1024);
    LocalTensor<int32_t> off = b.GetWithOffset<int32_t>(128, 1536);
    LocalTensor<int32_t> dst = b.GetWithOffset<int32_t>(256, 2048);
    for (int i = 0; i < 256; ++i) src.SetValue(i, 1000 + i * 3);
    CreateVecIndex(idx, int32_t(0), 128);
    Muls(off, idx, int32_t(8), 128);
    Gather(dst, src, off.ReinterpretCast<uint32_t>(), 0U, 128);
    for (int i = 0; i < 128; ++i) even.push_back(dst.GetValue(i));
    Adds(off, off, int32_t(4), 128);
    Gather(dst, src, off.ReinterpretCast<uint32_t>(), 0U, 128);
    for (int i = 0; i < 128; ++i) odd.push_back(dst.GetValue(i));
    // Two repeats of 64 elements (mask 40 keeps the first 40 of each), destination repeat
    // stride 16 blocks (128 elements), base 64 bytes into the source.
    Duplicate(dst, int32_t(-7), 256);
    Gather(dst, src, off.ReinterpretCast<uint32_t>(), 64U, uint64_t(40), 2, 16);
    for (int i = 0; i < 256; ++i) rep.push_back(dst.GetValue(i));
  });
  for (const auto& e : r.errors) ADD_FAILURE() << e;
  ASSERT_TRUE(r.ok);
  for (int i = 0; i < 128; ++i) {
    EXPECT_EQ(even[i], 1000 + 2 * i * 3) << i;
    EXPECT_EQ(odd[i], 1000 + (2 * i + 1) * 3) << i;
  }
  for (int d = 0; d < 256; ++d) {
    const int rr = d / 128, e = d % 128;
    // offsets now (8i + 4) bytes: element 2i + 1, plus 16 elements of base.
    const int want = e < 40 ? 1000 + (16 + 2 * (rr * 64 + e) + 1) * 3 : -7;
    EXPECT_EQ(rep[d], want) << d;
  }
}

TEST(AscendCGather, OffsetsOutsideTheSourceOrMisalignedAreRefused) {
  auto run = [](uint32_t bad) {
    return oc_test::LaunchQuiet("gather_bad", 1, [bad] {
      TPipe pipe;
      TBuf<TPosition::VECCALC> b;
      pipe.InitBuffer(b, 1024);
      LocalTensor<float> src = b.GetWithOffset<float>(64, 0), dst = b.GetWithOffset<float>(64, 256);
      LocalTensor<uint32_t> off = b.GetWithOffset<uint32_t>(64, 512);
      Duplicate(src, 1.0f, 64);
      Duplicate(off, uint32_t(0), 64);
      off.SetValue(5, bad);
      Gather(dst, src, off, 0U, 64);
    });
  };
  auto r = run(256);
  ASSERT_FALSE(r.ok);
  EXPECT_HAS(r.errors[0], "offset 256 (element 5) with srcBaseAddr 0 reads past the 256 bytes");
  r = run(6);
  ASSERT_FALSE(r.ok);
  EXPECT_HAS(r.errors[0], "offset 6 (element 5) with srcBaseAddr 0 is not a multiple of 4 bytes");
}

TEST(AscendCPad, UnalignedRowsPadLeftAndRightAlignedRowsOverwriteTheTail) {
  // 3 rows of 13 halves (26 bytes, not 32-byte aligned): 1 left and 2 right of -1 make 16.
  optiling::PadTiling t1;
  PadTilingFunc(ge::Shape({3, 13}), ge::Shape({3, 13}), 0, 2, t1);
  uint32_t max_tmp = 0, min_tmp = 0;
  GetPadMaxMinTmpSize(ge::Shape({3, 13}), 2, max_tmp, min_tmp);
  EXPECT_GE(min_tmp, 32u);
  std::vector<float> out1, out2, out3, out4;
  ASSERT_TRUE(RunOne("pad", [&] {
    TPipe pipe;
    TBuf<TPosition::VECCALC> src, dst, tmp;
    pipe.InitBuffer(src, 512);
    pipe.InitBuffer(dst, 512);
    pipe.InitBuffer(tmp, min_tmp);
    LocalTensor<half> s = src.Get<half>(), d = dst.Get<half>();
    for (int i = 0; i < 39; ++i) s.SetValue(i, half(static_cast<float>(i)));
    PadParams p{1, 2, -1};
    Pad(d, s, p, tmp.Get<uint8_t>(), t1);
    for (int i = 0; i < 48; ++i) out1.push_back(float(d.GetValue(i)));
    // 2 rows of 16 halves (aligned) of which 12 are data: 3 right columns of 7.
    optiling::PadTiling t2;
    PadTilingFunc(ge::Shape({2, 16}), ge::Shape({2, 12}), 0, 2, t2);
    PadParams q{0, 3, 7};
    Pad(d, s, q, t2);
    for (int i = 0; i < 32; ++i) out2.push_back(float(d.GetValue(i)));
    // UnPad: 2 rows of 16 back to 2 rows of 13.
    optiling::UnPadTiling u;
    UnPadTilingFunc(ge::Shape({2, 16}), 0, 2, u);
    UnPadParams up{0, 3};
    LocalTensor<uint8_t> scratch = tmp.Get<uint8_t>();
    UnPad(s, d, up, scratch, u);
    for (int i = 0; i < 26; ++i) out3.push_back(float(s.GetValue(i)));
    // The form without a temporary buffer gives the same rows.
    Duplicate(s, half(0.0f), 32);
    UnPad(s, d, up, u);
    for (int i = 0; i < 26; ++i) out4.push_back(float(s.GetValue(i)));
  }));
  for (int r = 0; r < 3; ++r)
    for (int c = 0; c < 16; ++c)
      EXPECT_EQ(out1[r * 16 + c], c == 0 || c >= 14 ? -1.0f : float(r * 13 + c - 1)) << r << c;
  for (int r = 0; r < 2; ++r)
    for (int c = 0; c < 16; ++c)
      EXPECT_EQ(out2[r * 16 + c], c >= 12 && c < 15 ? 7.0f : float(r * 16 + c)) << r << c;
  for (int r = 0; r < 2; ++r)
    for (int c = 0; c < 13; ++c) EXPECT_EQ(out3[r * 13 + c], out2[r * 16 + c]) << r << c;
  EXPECT_EQ(out4, out3);
}

TEST(AscendCPad, PadsThatDoNotFitAreRefused) {
  auto r = oc_test::LaunchQuiet("pad_too_wide", 1, [] {
    TPipe pipe;
    TBuf<TPosition::VECCALC> src, dst;
    pipe.InitBuffer(src, 512);
    pipe.InitBuffer(dst, 512);
    optiling::PadTiling t;
    PadTilingFunc(ge::Shape({2, 13}), ge::Shape({2, 13}), 0, 2, t);
    PadParams p{2, 2, 0};  // 17 halves: past the 16-half block
    LocalTensor<half> s = src.Get<half>(), d = dst.Get<half>();
    Duplicate(s, half(0), 32);
    Pad(d, s, p, t);
  });
  ASSERT_FALSE(r.ok);
  EXPECT_NE(r.errors[0].find("is wider than the row's 16-element 32-byte block"), std::string::npos)
      << r.errors[0];
}

TEST(AscendCHost, PlatformManagerTilingSettersAndSecureCopies) {
  auto* platform = platform_ascendc::PlatformAscendCManager::GetInstance();
  ASSERT_NE(platform, nullptr);
  EXPECT_EQ(platform, platform_ascendc::PlatformAscendCManager::GetInstance("Ascend910B1"));
  EXPECT_EQ(platform->GetCoreNumAic() * 2, platform->GetCoreNumAiv());
  matmul_tiling::MultiCoreMatmulTiling tiler(*platform);
  tiler.SetDim(2);
  tiler.SetAType(matmul_tiling::TPosition::GM, matmul_tiling::CubeFormat::ND,
                 matmul_tiling::DataType::DT_FLOAT16);
  tiler.SetBType(matmul_tiling::TPosition::GM, matmul_tiling::CubeFormat::ND,
                 matmul_tiling::DataType::DT_FLOAT16);
  tiler.SetCType(matmul_tiling::TPosition::GM, matmul_tiling::CubeFormat::ND,
                 matmul_tiling::DataType::DT_FLOAT);
  tiler.SetShape(64, 64, 32);
  tiler.SetOrgShape(64, 64, 32);
  tiler.SetTraverse(matmul_tiling::MatrixTraverse::FIRSTN);
  optiling::TCubeTiling t;
  ASSERT_EQ(tiler.GetTiling(t), 0);
  EXPECT_EQ(t.get_iterateOrder(), 1);
  t.set_usedCoreNum(7);
  t.set_stepM(2);
  EXPECT_EQ(t.usedCoreNum, 7);
  EXPECT_EQ(t.get_stepM(), 2);
  std::vector<uint8_t> raw(t.GetDataSize());
  EXPECT_TRUE(t.SaveToBuffer(raw.data(), raw.size()));
  EXPECT_FALSE(t.SaveToBuffer(raw.data(), raw.size() - 1));
  TCubeTiling back;
  ASSERT_EQ(memcpy_s(&back, sizeof(back), raw.data(), raw.size()), 0);
  EXPECT_EQ(back.usedCoreNum, 7);
  char small[4];
  EXPECT_NE(memcpy_s(small, sizeof(small), raw.data(), 8), 0);  // does not fit: refused
}

TEST(AscendCHost, IterateWalksNFirstWhenTheTilingSaysSo) {
  // C = A x B, 32 x 32 in 16 x 16 base blocks; A's rows are (row block + 1), B's columns
  // (10 x column block + 1), so a base block's value says which it is: 16 (0,0), 176 (0,1),
  // 32 (1,0), 352 (1,1). N first visits (0,0), (0,1), (1,0), (1,1).
  const int M = 32, N = 32, K = 16;
  auto* a = static_cast<half*>(GmAlloc(M * K * 2));
  auto* b = static_cast<half*>(GmAlloc(K * N * 2));
  for (int i = 0; i < M * K; ++i) a[i] = half(float(i / K / 16 + 1));
  for (int i = 0; i < K * N; ++i) b[i] = half(float(10 * (i % N / 16) + 1));
  auto order = [&](matmul_tiling::MatrixTraverse traverse) {
    matmul_tiling::MultiCoreMatmulTiling tiler;
    tiler.SetDim(1);
    tiler.SetShape(M, N, K);
    tiler.SetOrgShape(M, N, K);
    tiler.SetFixSplit(16, 16, 16);
    tiler.SetTraverse(traverse);
    TCubeTiling t;
    EXPECT_EQ(tiler.GetTiling(t), 0);
    std::vector<float> seen;
    EXPECT_TRUE(RunOne(
        "iterate_order",
        [&] {
          GlobalTensor<half> ga, gb;
          ga.SetGlobalBuffer(a, M * K);
          gb.SetGlobalBuffer(b, K * N);
          Matmul<MatmulType<TPosition::GM, CubeFormat::ND, half>,
                 MatmulType<TPosition::GM, CubeFormat::ND, half>,
                 MatmulType<TPosition::VECIN, CubeFormat::ND, float>>
              mm;
          TPipe pipe;
          // The Matmul API needs a mix launch: its cube core serves the vector cores.
          REGIST_MATMUL_OBJ(&pipe, GetSysWorkSpacePtr(), mm, &t);
          TBuf<TPosition::VECCALC> ub;
          pipe.InitBuffer(ub, 16 * 16 * 4);
          mm.SetTensorA(ga);
          mm.SetTensorB(gb);
          LocalTensor<float> block = ub.Get<float>();
          while (mm.template Iterate<true>()) {
            mm.template GetTensorC<true>(block, false, true);
            if (GetBlockIdx() == 0) seen.push_back(block.GetValue(0));  // one of the two AIVs
          }
          mm.End();
        },
        KernelMode::MIX_MODE));
    return seen;
  };
  EXPECT_EQ(order(matmul_tiling::MatrixTraverse::FIRSTN), (std::vector<float>{16, 176, 32, 352}));
  EXPECT_EQ(order(matmul_tiling::MatrixTraverse::FIRSTM), (std::vector<float>{16, 32, 176, 352}));
  GmFree(a);
  GmFree(b);
}

}  // namespace

namespace {

TEST(AscendCMaskForms, DuplicateBitMaskAndReduceMaxMinMaskForms) {
  std::vector<float> dup;
  float max_v = 0, min_v = 0;
  uint32_t max_i = 0, min_i = 0;
  ASSERT_TRUE(RunOne("mask_forms", [&] {
    TPipe pipe;
    TBuf<TPosition::VECCALC> a, b, w;
    pipe.InitBuffer(a, 512);
    pipe.InitBuffer(b, 64);
    pipe.InitBuffer(w, 512);
    LocalTensor<float> t = a.Get<float>();
    Duplicate(t, 0.0f, 128);
    // Elements 1 and 63 of each of 2 repeats (64 floats a repeat: mask[1] unused).
    uint64_t mask[2] = {(1ull << 1) | (1ull << 63), 0};
    Duplicate(t, 5.0f, mask, 2, 1, 8);
    for (int i = 0; i < 128; ++i) dup.push_back(t.GetValue(i));
    for (int i = 0; i < 128; ++i) t.SetValue(i, static_cast<float>((i * 37) % 101) - 50.0f);
    // Over the first 10 elements of each of 2 repeats: 0..9 and 64..73.
    LocalTensor<float> d = b.Get<float>();
    ReduceMax(d, t, w.Get<float>(), 10, 2, 8, true);
    max_v = d.GetValue(0);
    max_i = d.ReinterpretCast<uint32_t>().GetValue(1);
    ReduceMin(d, t, w.Get<float>(), 10, 2, 8, true);
    min_v = d.GetValue(0);
    min_i = d.ReinterpretCast<uint32_t>().GetValue(1);
  }));
  for (int i = 0; i < 128; ++i) EXPECT_EQ(dup[i], i % 64 == 1 || i % 64 == 63 ? 5.0f : 0.0f) << i;
  float want_max = -1e9f, want_min = 1e9f;
  uint32_t want_max_i = 0, want_min_i = 0;
  for (uint32_t i :
       {0u, 1u, 2u, 3u, 4u, 5u, 6u, 7u, 8u, 9u, 64u, 65u, 66u, 67u, 68u, 69u, 70u, 71u, 72u, 73u}) {
    const float v = static_cast<float>((i * 37) % 101) - 50.0f;
    if (v > want_max) want_max = v, want_max_i = i;
    if (v < want_min) want_min = v, want_min_i = i;
  }
  EXPECT_EQ(max_v, want_max);
  EXPECT_EQ(max_i, want_max_i);
  EXPECT_EQ(min_v, want_min);
  EXPECT_EQ(min_i, want_min_i);
}

TEST(AscendCMaskForms, SoftSyncAllThroughAGlobalWorkspace) {
  // 4 blocks: each writes its value, soft-syncs, then sums everybody's; twice.
  auto* ws = static_cast<int32_t*>(GmAlloc(4 * 32));
  auto* vals = static_cast<int32_t*>(GmAlloc(64 * 4));
  auto r = oc_test::LaunchQuiet("soft_sync", 4, [&] {
    TPipe pipe;
    TBuf<TPosition::VECCALC> ub;
    pipe.InitBuffer(ub, 4 * 32);
    GlobalTensor<int32_t> gws, gv;
    gws.SetGlobalBuffer(ws, 32);
    gv.SetGlobalBuffer(vals, 64);
    for (int round = 0; round < 2; ++round) {
      gv.SetValue(round * 16 + GetBlockIdx(), static_cast<int32_t>(GetBlockIdx() + 1));
      SyncAll(gws, ub.Get<int32_t>());
      int32_t sum = 0;
      for (int i = 0; i < 4; ++i) sum += gv.GetValue(round * 16 + i);
      gv.SetValue(round * 16 + 8 + GetBlockIdx(), sum);
    }
  });
  for (const auto& e : r.errors) ADD_FAILURE() << e;
  ASSERT_TRUE(r.ok);
  for (int round = 0; round < 2; ++round)
    for (int b = 0; b < 4; ++b) EXPECT_EQ(vals[round * 16 + 8 + b], 10) << round << b;
  GmFree(ws);
  GmFree(vals);
}

}  // namespace

namespace {

TEST(AscendCMaskForms, SoftSyncAllWithACoreThatNeverArrives) {
  auto* ws = static_cast<int32_t*>(GmAlloc(4 * 32));
  auto r = oc_test::LaunchQuiet("soft_sync_missing", 2, [&] {
    if (GetBlockIdx() == 1) return;  // never syncs
    TPipe pipe;
    TBuf<TPosition::VECCALC> ub;
    pipe.InitBuffer(ub, 2 * 32);
    GlobalTensor<int32_t> gws;
    gws.SetGlobalBuffer(ws, 16);
    SyncAll(gws, ub.Get<int32_t>());
  });
  ASSERT_FALSE(r.ok);
  EXPECT_NE(r.errors[0].find("core 1 finished without reaching sync 1"), std::string::npos)
      << r.errors[0];
  GmFree(ws);
}

}  // namespace

namespace {

TEST(AscendCMaskForms, IBSetAndIBWaitOrderTwoCores) {
  // Core 0 writes 256 values and sets event 0; core 1 waits for core 0, then reads them.
  auto* ws = static_cast<int32_t*>(GmAlloc(2 * 32 * 2));
  auto* data = static_cast<float*>(GmAlloc(512 * 4));
  auto r = oc_test::LaunchQuiet("ib_sync", 2, [&] {
    TPipe pipe;
    TBuf<TPosition::VECCALC> ub, tmp;
    pipe.InitBuffer(ub, 32);
    pipe.InitBuffer(tmp, 1024);
    GlobalTensor<int32_t> gws;
    gws.SetGlobalBuffer(ws, 32);
    GlobalTensor<float> g;
    g.SetGlobalBuffer(data, 512);
    LocalTensor<float> t = tmp.Get<float>();
    if (GetBlockIdx() == 0) {
      Duplicate(t, 7.0f, 256);
      SetFlag<HardEvent::V_MTE3>(EVENT_ID0);
      WaitFlag<HardEvent::V_MTE3>(EVENT_ID0);
      DataCopy(g, t, 256);
      IBSet(gws, ub.Get<int32_t>(), 0, 0);
    } else {
      IBWait(gws, ub.Get<int32_t>(), 0, 0);
      DataCopy(t, g, 256);
      SetFlag<HardEvent::MTE2_V>(EVENT_ID0);
      WaitFlag<HardEvent::MTE2_V>(EVENT_ID0);
      Adds(t, t, 1.0f, 256);
      SetFlag<HardEvent::V_MTE3>(EVENT_ID0);
      WaitFlag<HardEvent::V_MTE3>(EVENT_ID0);
      DataCopy(g[256], t, 256);
    }
  });
  for (const auto& e : r.errors) ADD_FAILURE() << e;
  ASSERT_TRUE(r.ok);
  for (int i = 0; i < 256; ++i) {
    EXPECT_EQ(data[i], 7.0f);
    EXPECT_EQ(data[256 + i], 8.0f);
  }
  // A wait on a core that never sets is reported when that core finishes.
  std::fill(ws, ws + 32, 0);
  r = oc_test::LaunchQuiet("ib_never", 2, [&] {
    if (GetBlockIdx() == 0) return;
    TPipe pipe;
    TBuf<TPosition::VECCALC> ub;
    pipe.InitBuffer(ub, 32);
    GlobalTensor<int32_t> gws;
    gws.SetGlobalBuffer(ws, 32);
    IBWait(gws, ub.Get<int32_t>(), 0, 0);
  });
  ASSERT_FALSE(r.ok);
  EXPECT_NE(r.errors[0].find("core 0 finished without IBSet of event 0"), std::string::npos)
      << r.errors[0];
  GmFree(ws);
  GmFree(data);
}

}  // namespace

namespace {

TEST(AscendCDetermineCompute, CoresTakeTurnsInBlockOrderEveryRound) {
  // 4 cores, 3 rounds: in its turn each core writes its index at the log position a shared
  // counter gives, then adds 1 to the counter (an atomic add: the one GM word all write).
  constexpr int kCores = 4, kRounds = 3;
  auto* ws = static_cast<int32_t*>(GmAlloc(kCores * 32));
  auto* log = static_cast<int32_t*>(GmAlloc(64 * 4));
  std::fill(ws, ws + kCores * 8, 77);  // Init must zero it
  std::fill(log, log + 56, -1);
  std::fill(log + 56, log + 64, 0);  // log[56]: the counter
  auto r = oc_test::LaunchQuiet("determine", kCores, [&] {
    TPipe pipe;
    TBuf<TPosition::VECCALC> ub, one;
    pipe.InitBuffer(ub, kCores * 32 + 32);
    pipe.InitBuffer(one, 32);
    GlobalTensor<int32_t> gws, glog;
    gws.SetGlobalBuffer(ws, kCores * 8);
    glog.SetGlobalBuffer(log, 64);
    LocalTensor<int32_t> u = ub.Get<int32_t>(), inc = one.Get<int32_t>();
    Duplicate(inc, 0, 8);
    inc.SetValue(0, 1);
    InitDetermineComputeWorkspace(gws, u);
    for (int round = 0; round < kRounds; ++round) {
      WaitPreBlock(gws, u);
      glog.SetValue(glog.GetValue(56), static_cast<int32_t>(GetBlockIdx()));
      SetAtomicAdd<int32_t>();
      SetFlag<HardEvent::S_MTE3>(EVENT_ID0);
      WaitFlag<HardEvent::S_MTE3>(EVENT_ID0);
      DataCopy(glog[56], inc, 8);
      SetAtomicNone();
      PipeBarrier<PIPE_MTE3>();
      NotifyNextBlock(gws, u);
    }
  });
  for (const auto& e : r.errors) ADD_FAILURE() << e;
  ASSERT_TRUE(r.ok);
  for (int i = 0; i < kCores * kRounds; ++i) EXPECT_EQ(log[i], i % kCores) << i;
  GmFree(ws);
  GmFree(log);
}

TEST(AscendCDetermineCompute, MisuseIsReported) {
  auto* ws = static_cast<int32_t*>(GmAlloc(4 * 32));
  auto run = [&](const char* name, uint32_t ub_bytes, uint64_t gm_elems, bool init,
                 bool core1_skips) {
    return oc_test::LaunchQuiet(name, 2, [=] {
      TPipe pipe;
      TBuf<TPosition::VECCALC> ub;
      pipe.InitBuffer(ub, ub_bytes);
      GlobalTensor<int32_t> gws;
      gws.SetGlobalBuffer(ws, gm_elems);
      LocalTensor<int32_t> u = ub.Get<int32_t>();
      if (init) InitDetermineComputeWorkspace(gws, u);
      if (core1_skips && GetBlockIdx() == 1) return;
      WaitPreBlock(gws, u);
      NotifyNextBlock(gws, u);
      WaitPreBlock(gws, u);
      NotifyNextBlock(gws, u);
    });
  };
  auto r = run("no_init", 96, 16, false, false);
  ASSERT_FALSE(r.ok);
  EXPECT_NE(r.errors[0].find("InitDetermineComputeWorkspace was not called"), std::string::npos)
      << r.errors[0];
  r = run("small_ub", 64, 16, true, false);
  ASSERT_FALSE(r.ok);
  EXPECT_NE(r.errors[0].find("the UB workspace has 64 bytes; 2 cores need 96"), std::string::npos)
      << r.errors[0];
  r = run("small_gm", 96, 8, true, false);
  ASSERT_FALSE(r.ok);
  EXPECT_NE(r.errors[0].find("the GM workspace has 32 bytes; 2 cores need 64"), std::string::npos)
      << r.errors[0];
  r = run("core_skips", 96, 16, true, true);
  ASSERT_FALSE(r.ok);
  EXPECT_NE(r.errors[0].find("core 1 finished without NotifyNextBlock for round 2"),
            std::string::npos)
      << r.errors[0];
  GmFree(ws);
}

}  // namespace

namespace {

TEST(AscendCGroupBarrier, WaitersSeeWhatTheArrivingCoresWroteEachRound) {
  // 6 cores: 0 and 1 arrive, 2..5 wait; two rounds. An arriving core writes round * 10 +
  // its index (one 32-byte block each); a waiting core then sums both values.
  constexpr int kArrive = 2, kWait = 4;
  auto* ws = static_cast<uint8_t*>(GmAlloc(kWait * 512));
  auto* data = static_cast<int32_t*>(GmAlloc(2 * 8 * 4));
  auto* sums = static_cast<int32_t*>(GmAlloc(2 * kWait * 8 * 4));
  auto r = oc_test::LaunchQuiet("group_barrier", kArrive + kWait, [&] {
    GroupBarrier<PipeMode::MTE3_MODE> bar(ws, kArrive, kWait);
    GlobalTensor<int32_t> gd, gs;
    gd.SetGlobalBuffer(data, 16);
    gs.SetGlobalBuffer(sums, 2 * kWait * 8);
    const int id = static_cast<int>(GetBlockIdx());
    for (int round = 1; round <= 2; ++round) {
      if (id < kArrive) {
        gd.SetValue(id * 8, round * 10 + id);
        bar.Arrive(id);
      } else {
        bar.Wait(id - kArrive);
        gs.SetValue(((round - 1) * kWait + id - kArrive) * 8, gd.GetValue(0) + gd.GetValue(8));
      }
      // The arriving cores must not overwrite their values before every waiter has read them.
      SyncAll();
    }
  });
  for (const auto& e : r.errors) ADD_FAILURE() << e;
  ASSERT_TRUE(r.ok);
  for (int w = 0; w < kWait; ++w) {
    EXPECT_EQ(sums[w * 8], 10 + 11) << w;
    EXPECT_EQ(sums[(kWait + w) * 8], 20 + 21) << w;
  }
  GroupBarrier<PipeMode::MTE3_MODE> bar(ws, kArrive, kWait);
  EXPECT_EQ(bar.GetWorkspaceLen(), 2048u);
  GmFree(ws);
  GmFree(data);
  GmFree(sums);
}

TEST(AscendCGroupBarrier, AnArrivalThatNeverComesAndABadIndexAreReported) {
  auto* ws = static_cast<uint8_t*>(GmAlloc(512));
  auto r = oc_test::LaunchQuiet("group_missing", 2, [&] {
    GroupBarrier<PipeMode::MTE3_MODE> bar(ws, 1, 1);
    if (GetBlockIdx() == 1) bar.Wait(0);  // core 0 never arrives
  });
  ASSERT_FALSE(r.ok);
  EXPECT_NE(r.errors[0].find("arriving core 0 never arrived for round 1"), std::string::npos)
      << r.errors[0];
  std::fill(ws, ws + 512, 0);
  r = oc_test::LaunchQuiet("group_index", 1, [&] {
    GroupBarrier<PipeMode::MTE3_MODE> bar(ws, 1, 1);
    bar.Arrive(3);
  });
  ASSERT_FALSE(r.ok);
  EXPECT_NE(r.errors[0].find("arriveIndex 3 is out of 0..0"), std::string::npos) << r.errors[0];
  GmFree(ws);
}

}  // namespace

namespace {

TEST(AscendCPadTiling, HostCodeSavesTheTilingAsCannsClassesDo) {
  // The opDev AbsPad sample's host code: graph/tensor.h's ge::Shape, then GetDataSize and
  // SaveToBuffer into the buffer the kernel reads.
  const ge::Shape src(std::vector<int64_t>{2, 16}), used(std::vector<int64_t>{2, 13});
  uint32_t max_tmp = 0, min_tmp = 0;
  AscendC::GetPadMaxMinTmpSize(src, sizeof(int16_t), max_tmp, min_tmp);
  optiling::PadTiling pad;
  AscendC::PadTilingFunc(src, used, max_tmp, sizeof(int16_t), pad);
  std::vector<uint8_t> buf(pad.GetDataSize());
  ASSERT_EQ(buf.size(), sizeof(PadTiling));
  EXPECT_TRUE(pad.SaveToBuffer(buf.data(), buf.size()));
  PadTiling back;
  std::memcpy(&back, buf.data(), sizeof(back));
  EXPECT_EQ(back.srcHeight, 2u);
  EXPECT_EQ(back.srcWidth, 16u);
  EXPECT_FALSE(pad.SaveToBuffer(buf.data(), buf.size() - 1));  // too small: nothing written
  optiling::UnPadTiling unpad;
  AscendC::UnPadTilingFunc(src, 0, sizeof(int16_t), unpad);
  EXPECT_EQ(unpad.GetDataSize(), sizeof(UnPadTiling));
}

}  // namespace
