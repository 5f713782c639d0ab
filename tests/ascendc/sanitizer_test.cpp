// The checks that matter on hardware and pass unnoticed on a CPU: pipes racing on local
// buffers, tensors used after FreeTensor or written after EnQue, reads of local memory
// nothing wrote, blocks writing the same global bytes, flags that do not pair. Each kernel
// commits one; the report names kernel, block, call and values, once.
#include <gtest/gtest.h>

#include <atomic>
#include <cstdio>
#include <string>
#include <thread>

#include "kernel_operator.h"
#include "launch_util.h"
#include "tikicpulib.h"

using namespace AscendC;
using oc_test::Count;
using oc_test::Launch;

namespace {

// x * 2 through one TBuf: copy in, Muls, copy out, with or without the flags between pipes.
void Scale(float* x, float* y, bool flags) {
  TPipe pipe;
  TBuf<TPosition::VECCALC> b;
  pipe.InitBuffer(b, 4096);
  GlobalTensor<float> gx, gy;
  gx.SetGlobalBuffer(x + GetBlockIdx() * 1024, 1024);
  gy.SetGlobalBuffer(y + GetBlockIdx() * 1024, 1024);
  LocalTensor<float> t = b.Get<float>();
  DataCopy(t, gx, 1024);
  if (flags) {
    SetFlag<HardEvent::MTE2_V>(EVENT_ID0);
    WaitFlag<HardEvent::MTE2_V>(EVENT_ID0);
  }
  Muls(t, t, 2.0f, 1024);
  if (flags) {
    SetFlag<HardEvent::V_MTE3>(EVENT_ID0);
    WaitFlag<HardEvent::V_MTE3>(EVENT_ID0);
  }
  DataCopy(gy, t, 1024);
}

TEST(AscendCSanitizer, PipesRacingOnATBufWithoutFlags) {
  auto* x = static_cast<float*>(GmAlloc(4 * 4096));
  auto* y = static_cast<float*>(GmAlloc(4 * 4096));
  auto [ok, out] = Launch("racy_scale", 4, [&] { Scale(x, y, false); });
  EXPECT_FALSE(ok);
  EXPECT_HAS(out,
             "[kernel racy_scale][blocks 0, 1, 2, 3] Muls: race (read after write) on UB "
             "byte 0: Vector here, DataCopy(GM->local) on MTE2 before, with nothing "
             "ordering them (SetFlag/WaitFlag<HardEvent::MTE2_V>");
  EXPECT_HAS(out,
             "DataCopy(local->GM): race (read after write) on UB byte 0: MTE3 here, Muls "
             "on Vector before");
  // Once per kind and call, not once per 32-byte block or per block.
  EXPECT_EQ(Count(out, "Muls: race (read after write)"), 1u) << out;
  // With the flags it is clean.
  std::tie(ok, out) = Launch("flagged_scale", 4, [&] { Scale(x, y, true); });
  EXPECT_TRUE(ok) << out;
  GmFree(x);
  GmFree(y);
}

TEST(AscendCSanitizer, TensorUsedAfterFreeOrWrittenAfterEnQue) {
  auto [ok, out] = Launch("use_after_free", 1, [] {
    TPipe pipe;
    TQue<QuePosition::VECOUT, 1> q;
    pipe.InitBuffer(q, 1, 1024);
    LocalTensor<float> t = q.AllocTensor<float>();
    Duplicate(t, 1.0f, 256);
    q.FreeTensor(t);
    Adds(t, t, 1.0f, 256);
  });
  EXPECT_FALSE(ok);
  EXPECT_HAS(out, "Adds: the tensor was freed (FreeTensor) and is used again");
  // A stale handle stays stale when its buffer is handed out again.
  std::tie(ok, out) = Launch("stale_handle", 1, [] {
    TPipe pipe;
    TQue<QuePosition::VECOUT, 1> q;
    pipe.InitBuffer(q, 1, 1024);
    LocalTensor<float> old = q.AllocTensor<float>();
    q.FreeTensor(old);
    LocalTensor<float> fresh = q.AllocTensor<float>();
    Duplicate(old, 2.0f, 256);
    q.FreeTensor(fresh);
  });
  EXPECT_FALSE(ok);
  EXPECT_HAS(out, "Duplicate: the tensor was freed (FreeTensor) and is used again");
  std::tie(ok, out) = Launch("write_after_enque", 1, [] {
    TPipe pipe;
    TQue<QuePosition::VECOUT, 1> q;
    pipe.InitBuffer(q, 1, 1024);
    LocalTensor<float> t = q.AllocTensor<float>();
    Duplicate(t, 1.0f, 256);
    q.EnQue(t);
    Duplicate(t, 3.0f, 256);  // the consumer may be reading it already
    LocalTensor<float> u = q.DeQue<float>();
    q.FreeTensor(u);
  });
  EXPECT_FALSE(ok);
  EXPECT_HAS(out, "Duplicate: the tensor is written after EnQue");
}

TEST(AscendCSanitizer, ReadOfLocalMemoryNothingWrote) {
  auto [ok, out] = Launch("uninit", 1, [] {
    TPipe pipe;
    TBuf<TPosition::VECCALC> b;
    pipe.InitBuffer(b, 3 * 1024);
    LocalTensor<float> x = b.GetWithOffset<float>(256, 0), y = b.GetWithOffset<float>(256, 1024),
                       z = b.GetWithOffset<float>(256, 2048);
    Duplicate(x, 1.0f, 128);  // half of x
    Add(z, x, y, 256);
  });
  // A computation reading garbage is a warning (it may never leave UB)...
  EXPECT_TRUE(ok) << out;
  EXPECT_HAS(out,
             "Add: reads 1024 bytes of UB at offset 0, of which byte 512 was never written "
             "(uninitialized");
  EXPECT_HAS(out, "an error if it reaches global memory");
  // ...copying never-written bytes out to global memory is an error.
  auto* g = static_cast<float*>(GmAlloc(1024));
  std::tie(ok, out) = Launch("uninit_out", 1, [g] {
    TPipe pipe;
    TBuf<TPosition::VECCALC> b;
    pipe.InitBuffer(b, 1024);
    LocalTensor<float> x = b.Get<float>();
    Duplicate(x, 1.0f, 128);
    PipeBarrier<PIPE_ALL>();
    GlobalTensor<float> gt;
    gt.SetGlobalBuffer(g, 256);
    DataCopy(gt, x, 256);
  });
  EXPECT_FALSE(ok);
  EXPECT_HAS(out, "of which byte 512 was never written");
  EXPECT_HAS(out, "copies it out to global memory");
  GmFree(g);
  // Written first: clean, and the poison does not show.
  std::tie(ok, out) = Launch("init", 1, [] {
    TPipe pipe;
    TBuf<TPosition::VECCALC> b;
    pipe.InitBuffer(b, 2 * 1024);
    LocalTensor<float> x = b.GetWithOffset<float>(256, 0), z = b.GetWithOffset<float>(256, 1024);
    Duplicate(x, 1.0f, 256);
    Adds(z, x, 1.0f, 256);
    EXPECT_EQ(z.GetValue(255), 2.0f);
  });
  EXPECT_TRUE(ok) << out;
}

TEST(AscendCSanitizer, StridedCopiesWithManyBurstsInitializeEveryBurst) {
  // 16 rows of 64 floats from a GM matrix of 128 columns: every burst counts as written (a
  // kernel reading them all is clean), and a row the copy skipped is still reported.
  auto* x = static_cast<float*>(GmAlloc(16 * 128 * 4));
  for (int i = 0; i < 16 * 128; ++i) x[i] = float(i);
  auto body = [x](uint16_t rows) {
    return [x, rows] {
      TPipe pipe;
      TBuf<TPosition::VECCALC> b;
      pipe.InitBuffer(b, 2 * 16 * 64 * 4);
      GlobalTensor<float> xg;
      xg.SetGlobalBuffer(x, 16 * 128);
      LocalTensor<float> t = b.GetWithOffset<float>(16 * 64, 0);
      LocalTensor<float> u = b.GetWithOffset<float>(16 * 64, 16 * 64 * 4);
      DataCopy(t, xg, DataCopyParams(rows, 8, 8, 0));
      PipeBarrier<PIPE_ALL>();
      Adds(u, t, 1.0f, 16 * 64);
      if (rows == 16 && u.GetValue(15 * 64) != 15 * 128 + 1.0f) std::printf("WRONG VALUE\n");
    };
  };
  auto [ok, out] = Launch("many_bursts", 1, body(16));
  EXPECT_TRUE(ok) << out;
  EXPECT_EQ(out.find("WRONG VALUE"), std::string::npos) << out;
  std::tie(ok, out) = Launch("bursts_short", 1, [&] { body(15)(); });
  EXPECT_TRUE(ok) << out;  // a warning: the garbage stays in UB
  EXPECT_HAS(out, "Adds: reads 4096 bytes of UB at offset 0, of which byte 3840 was never written");
  GmFree(x);
}

TEST(AscendCSanitizer, BlocksWritingTheSameGlobalBytes) {
  auto* y = static_cast<float*>(GmAlloc(4096));
  // Block 1 writes after block 0 (so the test itself has no data race for ThreadSanitizer);
  // nothing in the kernel orders them, which is what the check is about.
  std::atomic<bool> first_done{false};
  auto [ok, out] = Launch("overlap", 2, [&] {
    if (GetBlockIdx() == 1)
      while (!first_done.load()) std::this_thread::yield();
    TPipe pipe;
    TQue<QuePosition::VECOUT, 1> q;
    pipe.InitBuffer(q, 1, 1024);
    LocalTensor<float> t = q.AllocTensor<float>();
    Duplicate(t, static_cast<float>(GetBlockIdx()), 256);
    q.EnQue(t);
    t = q.DeQue<float>();
    GlobalTensor<float> g;
    g.SetGlobalBuffer(y + GetBlockIdx() * 128, 256);  // the second half of one meets the other
    DataCopy(g, t, 256);
    q.FreeTensor(t);
    if (GetBlockIdx() == 0) first_done.store(true);
  });
  EXPECT_FALSE(ok);
  EXPECT_HAS(out,
             "[kernel overlap][block 0] and[block 1] both write 512 bytes of global memory "
             "(bytes 512..1024 of an allocation of 4096) without atomics");
  // With atomics the accumulation is the point: clean.
  std::tie(ok, out) = Launch("atomic_overlap", 2, [&] {
    TPipe pipe;
    TQue<QuePosition::VECOUT, 1> q;
    pipe.InitBuffer(q, 1, 1024);
    LocalTensor<float> t = q.AllocTensor<float>();
    Duplicate(t, 1.0f, 256);
    q.EnQue(t);
    t = q.DeQue<float>();
    GlobalTensor<float> g;
    g.SetGlobalBuffer(y, 256);
    SetAtomicAdd<float>();
    DataCopy(g, t, 256);
    SetAtomicNone();
    q.FreeTensor(t);
  });
  EXPECT_TRUE(ok) << out;
  GmFree(y);
}

TEST(AscendCSanitizer, FlagsThatDoNotPair) {
  auto [ok, out] = Launch("wait_without_set", 1, [] { WaitFlag<HardEvent::MTE2_V>(EVENT_ID3); });
  EXPECT_FALSE(ok);
  EXPECT_HAS(out, "WaitFlag<HardEvent::MTE2_V>(3) has no SetFlag before it");
  std::tie(ok, out) = Launch("set_without_wait", 1, [] { SetFlag<HardEvent::V_MTE3>(EVENT_ID1); });
  EXPECT_TRUE(ok);  // a warning, as msSanitizer's synccheck
  EXPECT_HAS(out,
             "[WARNING] [kernel set_without_wait][block 0] SetFlag: "
             "SetFlag<HardEvent::V_MTE3>(1) has no WaitFlag");
  std::tie(ok, out) = Launch("bad_event_id", 1, [] { SetFlag<HardEvent::V_MTE3>(9); });
  EXPECT_FALSE(ok);
  EXPECT_HAS(out, "event id 9 is out of 0..7");
}

}  // namespace
