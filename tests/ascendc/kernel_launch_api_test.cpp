// Calls the census found in kernel-launch code: SetSysWorkSpace/GetUserWorkspace (the
// system workspace at the front of the kernel's), GetTPipePtr, the CCE intrinsics
// set_flag/wait_flag ordering pipes as SetFlag/WaitFlag do, and code reopening namespace tik2.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstring>
#include <string>
#include <tuple>
#include <vector>

#include "kernel_operator.h"
#include "launch_util.h"
#include "lib/matrix/matmul/matmul.h"  // the pre-8.0 path of the Matmul API
#include "tikicpulib.h"

using namespace AscendC;
using oc_test::Launch;

// tik2-era code adds its own helpers to the namespace.
namespace tik2 {
template <typename T>
inline T Twice(T v) {
  return v * 2;
}
}  // namespace tik2

namespace {

TEST(AscendCKernelLaunchApi, SystemWorkspaceAtTheFrontOfTheKernels) {
  constexpr uint64_t kSys = 16ull * 1024 * 1024;
  auto* ws = static_cast<uint8_t*>(GmAlloc(kSys + 64));
  uint8_t* seen_sys = nullptr;
  uint8_t* seen_user = nullptr;
  auto [ok, out] = Launch("sys_ws", 1, [&] {
    SetSysWorkSpace(ws);
    seen_sys = GetSysWorkSpacePtr();
    seen_user = GetUserWorkspace(ws);
    SetSysWorkspace(ws);  // the spelling older samples use
  });
  ASSERT_TRUE(ok) << out;
  EXPECT_EQ(seen_sys, ws);
  EXPECT_EQ(seen_user, ws + kSys);
  GmFree(ws);
}

TEST(AscendCKernelLaunchApi, GetTPipePtrIsTheBlocksPipe) {
  bool same[2] = {false, false}, inited[2] = {false, false};  // one slot per block
  auto [ok, out] = Launch("tpipe_ptr", 2, [&] {
    TPipe pipe;
    TBuf<TPosition::VECCALC> b;
    GetTPipePtr()->InitBuffer(b, 256);  // helpers that reach the pipe this way
    same[GetBlockIdx()] = GetTPipePtr() == &pipe;
    inited[GetBlockIdx()] = b.Get<float>().GetSize() == 64;
  });
  ASSERT_TRUE(ok) << out;
  for (int i = 0; i < 2; ++i) {
    EXPECT_TRUE(same[i]);
    EXPECT_TRUE(inited[i]);
  }
  EXPECT_EQ(tik2::Twice(21), 42);
}

TEST(AscendCKernelLaunchApi, SetFlagIntrinsicsOrderThePipes) {
  auto* x = static_cast<float*>(GmAlloc(1024 * 4));
  for (int i = 0; i < 1024; ++i) x[i] = static_cast<float>(i);
  auto run = [&](bool flags) {
    return Launch(flags ? "intrinsic_flags" : "no_flags", 1, [&] {
      TPipe pipe;
      TBuf<TPosition::VECCALC> b;
      pipe.InitBuffer(b, 4096);
      GlobalTensor<float> g;
      g.SetGlobalBuffer(x, 1024);
      LocalTensor<float> t = b.Get<float>();
      DataCopy(t, g, 1024);
      if (flags) {
        set_flag(PIPE_MTE2, PIPE_V, EVENT_ID0);
        wait_flag(PIPE_MTE2, PIPE_V, EVENT_ID0);
      }
      Muls(t, t, 2.0f, 1024);
      if (flags) {
        set_flag(PIPE_V, PIPE_MTE3, EVENT_ID0);
        wait_flag(PIPE_V, PIPE_MTE3, EVENT_ID0);
      }
      DataCopy(g, t, 1024);
    });
  };
  auto [racy_ok, racy] = run(false);
  EXPECT_FALSE(racy_ok);
  EXPECT_NE(racy.find("Muls: race (read after write)"), std::string::npos) << racy;
  for (int i = 0; i < 1024; ++i) x[i] = static_cast<float>(i);
  auto [ok, out] = run(true);
  EXPECT_TRUE(ok) << out;
  for (int i = 0; i < 1024; ++i) ASSERT_EQ(x[i], 2.0f * i) << i;
  GmFree(x);
}

}  // namespace

namespace {

TEST(AscendCKernelLaunchApi, ADequeuedTensorMayBeEnqueuedAgain) {
  // A consumer hands the tensor it took out back to the queue (CANN's EnQue takes an
  // allocated or a dequeued buffer); enqueuing it twice without a DeQue stays an error.
  auto [ok, out] = Launch("re_enque", 1, [&] {
    TPipe pipe;
    TQue<QuePosition::VECIN, 1> q;
    pipe.InitBuffer(q, 1, 256);
    LocalTensor<float> t = q.AllocTensor<float>();
    Duplicate(t, 1.0f, 64);
    q.EnQue(t);
    t = q.DeQue<float>();
    Adds(t, t, 1.0f, 64);
    q.EnQue(t);
    t = q.DeQue<float>();
    q.FreeTensor(t);
  });
  EXPECT_TRUE(ok) << out;
  std::tie(ok, out) = Launch("enque_twice", 1, [&] {
    TPipe pipe;
    TQue<QuePosition::VECIN, 2> q;
    pipe.InitBuffer(q, 1, 256);
    LocalTensor<float> t = q.AllocTensor<float>();
    q.EnQue(t);
    q.EnQue(t);
  });
  EXPECT_FALSE(ok);
  EXPECT_NE(out.find("not allocated or dequeued"), std::string::npos) << out;
}

}  // namespace

namespace {

TEST(AscendCKernelLaunchApi, OperatorFormsAndCopy) {
  std::vector<float> got(64), copied(128);
  auto [ok, out] = Launch("operators", 1, [&] {
    TPipe pipe;
    TBuf<TPosition::VECCALC> b;
    pipe.InitBuffer(b, 4096);
    LocalTensor<float> x = b.GetWithOffset<float>(64, 0), y = b.GetWithOffset<float>(64, 256),
                       z = b.GetWithOffset<float>(64, 512);
    for (int i = 0; i < 64; ++i) {
      x.SetValue(i, 1.0f + i);
      y.SetValue(i, 2.0f);
    }
    z = x * y;  // Mul over z's 64 elements
    z = z - y;
    for (int i = 0; i < 64; ++i) got[i] = z.GetValue(i);
    // Copy: two repeats of 64 floats; the second lands one repeat further on.
    LocalTensor<float> src = b.GetWithOffset<float>(128, 1024),
                       dst = b.GetWithOffset<float>(256, 2048);
    for (int i = 0; i < 128; ++i) src.SetValue(i, static_cast<float>(i));
    Duplicate(dst, -1.0f, 256);
    Copy(dst, src, 64, 2, CopyRepeatParams(1, 1, 16, 8));
    for (int i = 0; i < 64; ++i) copied[i] = dst.GetValue(i);
    for (int i = 0; i < 64; ++i) copied[64 + i] = dst.GetValue(128 + i);
    if (dst.GetValue(64) != -1.0f) AscendC::printf("GAP WRITTEN\n");
  });
  ASSERT_TRUE(ok) << out;
  EXPECT_EQ(out.find("GAP WRITTEN"), std::string::npos);
  for (int i = 0; i < 64; ++i) EXPECT_EQ(got[i], 2.0f * (1.0f + i) - 2.0f) << i;
  for (int i = 0; i < 128; ++i) EXPECT_EQ(copied[i], static_cast<float>(i)) << i;
}

}  // namespace

namespace {

TEST(AscendCKernelLaunchApi, Sort32SortsEachRepeatLargestFirst) {
  // Two repeats of float scores with ties; then half scores.
  std::vector<float> scores(64);
  for (int i = 0; i < 64; ++i) scores[i] = static_cast<float>((i * 7) % 13);
  std::vector<uint8_t> pairs(64 * 8), half_pairs(32 * 8);
  auto [ok, out] = Launch("sort32", 1, [&] {
    TPipe pipe;
    TBuf<TPosition::VECCALC> b;
    pipe.InitBuffer(b, 4096);
    LocalTensor<float> s = b.GetWithOffset<float>(64, 0);
    LocalTensor<uint32_t> idx = b.GetWithOffset<uint32_t>(64, 256);
    LocalTensor<float> d = b.GetWithOffset<float>(128, 512);
    for (int i = 0; i < 64; ++i) {
      s.SetValue(i, scores[i]);
      idx.SetValue(i, 1000 + i);
    }
    Sort32(d, s, idx, 2);
    std::memcpy(pairs.data(), d.GetPhyAddr(), pairs.size());
    LocalTensor<half> hs = b.GetWithOffset<half>(32, 1536);
    LocalTensor<half> hd = b.GetWithOffset<half>(128, 2048);
    for (int i = 0; i < 32; ++i) hs.SetValue(i, half(static_cast<float>(i % 5)));
    Sort32(hd, hs, idx, 1);
    std::memcpy(half_pairs.data(), hd.GetPhyAddr(), half_pairs.size());
  });
  ASSERT_TRUE(ok) << out;
  for (int r = 0; r < 2; ++r) {
    // The reference: a stable sort of the repeat's positions by score, largest first.
    std::vector<int> want(32);
    for (int i = 0; i < 32; ++i) want[i] = r * 32 + i;
    std::stable_sort(want.begin(), want.end(), [&](int a, int b) { return scores[a] > scores[b]; });
    for (int k = 0; k < 32; ++k) {
      float score;
      uint32_t index;
      std::memcpy(&score, &pairs[(r * 32 + k) * 8], 4);
      std::memcpy(&index, &pairs[(r * 32 + k) * 8 + 4], 4);
      EXPECT_EQ(score, scores[want[k]]) << r << " " << k;
      EXPECT_EQ(index, 1000u + want[k]) << r << " " << k;
    }
  }
  // half: the score in the low two bytes, two reserved zero bytes, the index above.
  uint16_t first_bits;
  uint32_t first_index;
  std::memcpy(&first_bits, &half_pairs[0], 2);
  std::memcpy(&first_index, &half_pairs[4], 4);
  EXPECT_EQ(first_bits, half(4.0f).bits);
  EXPECT_EQ(first_index, 1004u);  // the first position holding 4
  EXPECT_EQ(half_pairs[2], 0);
  EXPECT_EQ(half_pairs[3], 0);
}

}  // namespace

namespace {

TEST(AscendCKernelLaunchApi, TBufQueueFormAndDataCacheCleanAndInvalid) {
  auto* g = static_cast<float*>(GmAlloc(64));
  auto [ok, out] = Launch("tbuf_num", 1, [&] {
    TPipe pipe;
    TBuf<TPosition::VECCALC> b;
    pipe.InitBuffer(b, 1, 256);  // the queue form, one buffer
    LocalTensor<float> t = b.Get<float>();
    Duplicate(t, 3.0f, 64);
    GlobalTensor<float> gt;
    gt.SetGlobalBuffer(g, 16);
    gt.SetValue(0, 5.0f);
    // A cache flush after a scalar write: nothing to do on the CPU, and it compiles.
    DataCacheCleanAndInvalid<float, CacheLine::SINGLE_CACHE_LINE, DcciDst::CACHELINE_OUT>(gt);
    DataCacheCleanAndInvalid<float, CacheLine::ENTIRE_DATA_CACHE>(gt);
    if (t.GetSize() != 64) AscendC::printf("WRONG SIZE\n");
  });
  EXPECT_TRUE(ok) << out;
  EXPECT_EQ(out.find("WRONG SIZE"), std::string::npos);
  EXPECT_EQ(g[0], 5.0f);
  std::tie(ok, out) = Launch("tbuf_two", 1, [&] {
    TPipe pipe;
    TBuf<TPosition::VECCALC> b;
    pipe.InitBuffer(b, 2, 256);
  });
  EXPECT_FALSE(ok);
  EXPECT_NE(out.find("a TBuf holds one buffer"), std::string::npos) << out;
  GmFree(g);
}

}  // namespace

namespace {

TEST(AscendCKernelLaunchApi, GatherbGathersBlocksByByteOffset) {
  std::vector<uint32_t> got(128);
  auto [ok, out] = Launch("gatherb", 1, [&] {
    TPipe pipe;
    TBuf<TPosition::VECCALC> b;
    pipe.InitBuffer(b, 4096);
    LocalTensor<uint32_t> src = b.GetWithOffset<uint32_t>(128, 0);
    LocalTensor<uint32_t> offsets = b.GetWithOffset<uint32_t>(16, 512);
    LocalTensor<uint32_t> dst = b.GetWithOffset<uint32_t>(128, 1024);
    for (uint32_t i = 0; i < 128; ++i) src.SetValue(i, i);
    for (uint32_t k = 0; k < 16; ++k) offsets.SetValue(k, (15 - k) * 32);  // blocks reversed
    Gatherb<uint32_t>(dst, src, offsets, 2, GatherRepeatParams{1, 8});
    for (uint32_t i = 0; i < 128; ++i) got[i] = dst.GetValue(i);
  });
  ASSERT_TRUE(ok) << out;
  for (uint32_t k = 0; k < 16; ++k)
    for (uint32_t j = 0; j < 8; ++j) EXPECT_EQ(got[k * 8 + j], (15 - k) * 8 + j) << k << " " << j;
  std::tie(ok, out) = Launch("gatherb_unaligned", 1, [&] {
    TPipe pipe;
    TBuf<TPosition::VECCALC> b;
    pipe.InitBuffer(b, 1024);
    LocalTensor<uint32_t> src = b.GetWithOffset<uint32_t>(64, 0);
    LocalTensor<uint32_t> offsets = b.GetWithOffset<uint32_t>(8, 256);
    LocalTensor<uint32_t> dst = b.GetWithOffset<uint32_t>(64, 512);
    Duplicate(offsets, 4u, 8);
    Gatherb<uint32_t>(dst, src, offsets, 1, GatherRepeatParams{1, 8});
  });
  EXPECT_FALSE(ok);
  EXPECT_NE(out.find("is not 32-byte aligned"), std::string::npos) << out;
}

}  // namespace
