// Every rule the emulation enforces, each broken by a kernel: the launch fails (or warns)
// with the kernel name, block, API call and values; the process keeps running.
#include <gtest/gtest.h>

#include <string>
#include <tuple>

#include "kernel_operator.h"
#include "launch_util.h"
#include "tikicpulib.h"

using namespace AscendC;
using oc_test::Launch;

namespace {

TEST(AscendCChecks, UbCapacityExceeded) {
  auto [ok, out] = Launch("ub_overflow", 2, [] {
    TPipe pipe;
    TQue<QuePosition::VECIN, 2> q;
    pipe.InitBuffer(q, 2, 100 * 1024);  // 200 KiB of a 192 KiB UB
  });
  EXPECT_FALSE(ok);
  // The same error in every block is printed once, with the blocks.
  EXPECT_HAS(out, "[kernel ub_overflow][blocks 0, 1] TPipe::InitBuffer: UB capacity exceeded");
  EXPECT_HAS(out, "(2 blocks)");
  EXPECT_HAS(out, "196608 bytes per core on Ascend910B3");
}

TEST(AscendCChecks, L0AndL1CapacityExceeded) {
  auto [ok, out] = Launch("l0a_overflow", 1, [] {
    TPipe pipe;
    TQue<TPosition::A2, 1> a2;
    pipe.InitBuffer(a2, 1, 64 * 1024 + 512);
  });
  EXPECT_FALSE(ok);
  EXPECT_HAS(out, "L0A capacity exceeded");
  auto [ok1, out1] = Launch("l1_overflow", 1, [] {
    TPipe pipe;
    TBuf<TPosition::A1> b;
    pipe.InitBuffer(b, 600 * 1024);
  });
  EXPECT_FALSE(ok1);
  EXPECT_HAS(out1, "L1 capacity exceeded");
}

TEST(AscendCChecks, UnalignedLocalAddress) {
  auto* x = static_cast<half*>(GmAlloc(1024));
  auto [ok, out] = Launch("unaligned", 1, [x] {
    TPipe pipe;
    TBuf<TPosition::VECCALC> b;
    pipe.InitBuffer(b, 1024);
    GlobalTensor<half> g;
    g.SetGlobalBuffer(x, 512);
    LocalTensor<half> t = b.Get<half>();
    DataCopy(t[3], g, 16);  // 6 bytes into UB
  });
  EXPECT_FALSE(ok);
  EXPECT_HAS(out,
             "DataCopy(GM->local): destination LocalTensor address 6 in UB is not 32-byte aligned");
  GmFree(x);
}

TEST(AscendCChecks, DataCopyLengthNotMultipleOf32WarnsAndTruncates) {
  auto* x = static_cast<float*>(GmAlloc(64 * sizeof(float)));
  auto* y = static_cast<float*>(GmAlloc(64 * sizeof(float)));
  for (int i = 0; i < 64; ++i) x[i] = static_cast<float>(i + 1);
  auto [ok, out] = Launch("short_copy", 1, [x, y] {
    TPipe pipe;
    TBuf<TPosition::VECCALC> b;
    pipe.InitBuffer(b, 256);
    GlobalTensor<float> gx, gy;
    gx.SetGlobalBuffer(x, 64);
    gy.SetGlobalBuffer(y, 64);
    LocalTensor<float> t = b.Get<float>();
    Duplicate(t, 0.0f, 64);
    SetFlag<HardEvent::V_MTE2>(EVENT_ID0);
    WaitFlag<HardEvent::V_MTE2>(EVENT_ID0);
    DataCopy(t, gx, 10);  // 40 bytes: the hardware moves one 32-byte block
    PipeBarrier<PIPE_ALL>();
    DataCopy(gy, t, 16);
  });
  EXPECT_TRUE(ok) << out;
  EXPECT_HAS(out,
             "[WARNING] [kernel short_copy][block 0] DataCopy(GM->local): length 40 bytes is "
             "not a multiple of 32: the hardware copies only 32 bytes");
  EXPECT_EQ(y[7], 8.0f);
  EXPECT_EQ(y[8], 0.0f);  // elements 8 and 9 never arrived, as on the NPU
  GmFree(x);
  GmFree(y);
}

TEST(AscendCChecks, DeQueOfEmptyQueue) {
  auto [ok, out] = Launch("empty_deque", 1, [] {
    TPipe pipe;
    TQue<QuePosition::VECIN, 1> q;
    pipe.InitBuffer(q, 1, 256);
    (void)q.DeQue<float>();
  });
  EXPECT_FALSE(ok);
  EXPECT_HAS(out, "TQue::DeQue: the queue is empty");
}

TEST(AscendCChecks, EnQueBeyondDepth) {
  auto [ok, out] = Launch("deep_enque", 1, [] {
    TPipe pipe;
    TQue<QuePosition::VECIN, 1> q;
    pipe.InitBuffer(q, 2, 256);
    LocalTensor<float> a = q.AllocTensor<float>(), b = q.AllocTensor<float>();
    q.EnQue(a);
    q.EnQue(b);
  });
  EXPECT_FALSE(ok);
  EXPECT_HAS(out, "TQue::EnQue: the queue already holds 1 tensors, its depth is 1");
}

TEST(AscendCChecks, AllocBeyondBuffers) {
  auto [ok, out] = Launch("alloc_twice", 1, [] {
    TPipe pipe;
    TQue<QuePosition::VECOUT, 1> q;
    pipe.InitBuffer(q, 1, 256);
    q.AllocTensor<float>();
    q.AllocTensor<float>();
  });
  EXPECT_FALSE(ok);
  EXPECT_HAS(out, "all 1 buffers of the queue are in use");
}

TEST(AscendCChecks, FreeTensorNotOwned) {
  auto [ok, out] = Launch("foreign_free", 1, [] {
    TPipe pipe;
    TQue<QuePosition::VECIN, 1> q1;
    TQue<QuePosition::VECOUT, 1> q2;
    pipe.InitBuffer(q1, 1, 256);
    pipe.InitBuffer(q2, 1, 256);
    LocalTensor<float> t = q1.AllocTensor<float>();
    q2.FreeTensor(t);
  });
  EXPECT_FALSE(ok);
  EXPECT_HAS(out, "TQue::FreeTensor: the tensor does not belong to this queue");
}

TEST(AscendCChecks, TensorLeakedAtKernelEnd) {
  auto [ok, out] = Launch("leak", 3, [] {
    TPipe pipe;
    TQue<QuePosition::VECIN, 1> q;
    pipe.InitBuffer(q, 1, 256);
    LocalTensor<float> t = q.AllocTensor<float>();
    q.EnQue(t);  // never dequeued nor freed
  });
  // Legal on the NPU (the buffers go with the kernel): a warning, the launch succeeds.
  EXPECT_TRUE(ok) << out;
  EXPECT_HAS(out,
             "[WARNING] [kernel leak][blocks 0, 1, 2] TQue: a tensor of this queue was not freed "
             "by the end of the kernel (still enqueued)");
}

TEST(AscendCChecks, GlobalMemoryOutsideAllocation) {
  auto* x = static_cast<float*>(GmAlloc(100 * sizeof(float)));
  auto [ok, out] = Launch("gm_overflow", 4, [x] {
    TPipe pipe;
    TBuf<TPosition::VECCALC> b;
    pipe.InitBuffer(b, 128);
    GlobalTensor<float> g;
    g.SetGlobalBuffer(x + GetBlockIdx() * 32, 32);  // block 3 reaches element 128 of 100
    DataCopy(b.Get<float>(), g, 32);
  });
  EXPECT_FALSE(ok);
  // The view is a warning; the copy through it is the error.
  EXPECT_HAS(out,
             "[kernel gm_overflow][block 3] GlobalTensor::SetGlobalBuffer: the view 128 bytes "
             "at offset 384 runs past the end of its allocation of 400 bytes");
  EXPECT_HAS(out,
             "[kernel gm_overflow][block 3] DataCopy(GM->local): global memory access of 128 "
             "bytes at offset 384 runs past the end of its allocation of 400 bytes");
  auto [ok2, out2] = Launch("gm_copy_overflow", 1, [x] {
    TPipe pipe;
    TBuf<TPosition::VECCALC> b;
    pipe.InitBuffer(b, 1024);
    GlobalTensor<float> g;
    g.SetGlobalBuffer(x, 64);
    DataCopy(b.Get<float>(), g[32], 64);  // 64 elements from element 32 of a 64-element view
  });
  // Past the view but inside the allocation: the NPU does not check views, so a warning.
  EXPECT_TRUE(ok2) << out2;
  EXPECT_HAS(out2,
             "source GlobalTensor: bytes 128..384 of a 256-byte SetGlobalBuffer are "
             "accessed, 128 bytes past its end (the view starts at element 32); the allocation "
             "holds them, so the NPU accesses them without a fault");
  // Past the 400 bytes asked for, inside what the NPU's allocator lays out (416 + 32): legal
  // there, a warning.
  auto [ok3, out3] = Launch("into_padding", 1, [x] {
    GlobalTensor<float> g;
    g.SetGlobalBuffer(x + 104, 4);  // x holds 100 floats; the NPU allocates 448 bytes
    (void)g.GetValue(3);            // bytes 428..432
  });
  EXPECT_TRUE(ok3) << out3;
  EXPECT_HAS(out3,
             "reaches 32 bytes past the 400 bytes allocated, into the padding the NPU's "
             "allocator adds");
  // A block's offset that lands past the allocation's padding is reported as that.
  auto [ok4, out4] = Launch("past_the_end", 1, [x] {
    GlobalTensor<float> g;
    g.SetGlobalBuffer(x + 110, 4);  // bytes 440..456 of a 448-byte NPU allocation
  });
  // Setting the view accesses nothing: a warning...
  EXPECT_TRUE(ok4) << out4;
  EXPECT_HAS(out4,
             "the view 16 bytes starts at offset 440, 40 bytes past the end of an "
             "allocation of 400 bytes (setting a view accesses nothing on the NPU");
  // ...reading through it is the error.
  std::tie(ok4, out4) = Launch("read_past_the_end", 1, [x] {
    TPipe pipe;
    TBuf<TPosition::VECCALC> b;
    pipe.InitBuffer(b, 32);
    GlobalTensor<float> g;
    g.SetGlobalBuffer(x + 110, 8);
    DataCopy(b.Get<float>(), g, 8);  // bytes 440..472 of a 448-byte NPU allocation
  });
  EXPECT_FALSE(ok4);
  EXPECT_HAS(out4,
             "global memory access of 32 bytes starts at offset 440, 40 bytes past the end "
             "of an allocation of 400 bytes");
  GmFree(x);
}

TEST(AscendCChecks, RepeatOver255AndBadMask) {
  auto [ok, out] = Launch("repeat_overflow", 1, [] {
    TPipe pipe;
    TBuf<TPosition::VECCALC> b;
    pipe.InitBuffer(b, 64 * 1024);
    LocalTensor<float> t = b.Get<float>();
    int repeat = 300;
    Add(t, t, t, 64, repeat, BinaryRepeatParams());
  });
  EXPECT_FALSE(ok);
  EXPECT_HAS(out,
             "Add: repeatTimes 300 is out of 0..255: the 8-bit hardware field would make it 44");
  auto [ok2, out2] = Launch("bad_mask", 1, [] {
    TPipe pipe;
    TBuf<TPosition::VECCALC> b;
    pipe.InitBuffer(b, 1024);
    LocalTensor<float> t = b.Get<float>();
    Relu(t, t, 65, 1, UnaryRepeatParams());  // 64 floats per repeat
  });
  EXPECT_FALSE(ok2);
  EXPECT_HAS(out2, "Relu: mask 65 must be 1..64 for 32-bit elements");
}

TEST(AscendCChecks, VectorAccessBeyondTensor) {
  auto [ok, out] = Launch("vector_overflow", 1, [] {
    TPipe pipe;
    TBuf<TPosition::VECCALC> b;
    pipe.InitBuffer(b, 1024);  // 256 floats
    LocalTensor<float> t = b.Get<float>();
    Adds(t, t, 1.0f, 300);
  });
  EXPECT_FALSE(ok);
  EXPECT_HAS(out, "Adds: destination LocalTensor of 1024 bytes is accessed up to byte 1200");
  auto [ok2, out2] = Launch("stride_overflow", 1, [] {
    TPipe pipe;
    TBuf<TPosition::VECCALC> b;
    pipe.InitBuffer(b, 1024);
    LocalTensor<float> t = b.Get<float>();
    Add(t, t, t, 64, 2, BinaryRepeatParams(1, 1, 1, 8, 8, 32));  // src1 repeat 2 at block 32
  });
  EXPECT_FALSE(ok2);
  EXPECT_HAS(out2, "source 1 element 256");
}

TEST(AscendCChecks, FaultInOneBlockDoesNotHangSyncAll) {
  auto [ok, out] = Launch("sync_fault", 4, [] {
    if (GetBlockIdx() == 1) {
      TPipe pipe;
      TQue<QuePosition::VECIN, 1> q;
      q.DeQue<float>();
    }
    SyncAll();
    SyncAll();
  });
  EXPECT_FALSE(ok);
  EXPECT_HAS(out, "[block 1] TQue::DeQue");
}

}  // namespace

namespace {

TEST(AscendCChecks, SyncAllWithMoreBlocksThanCores) {
  SetKernelMode(KernelMode::AIV_MODE);
  auto [ok, out] = Launch("too_many_for_sync", 48, [] { SyncAll(); });
  EXPECT_FALSE(ok);
  EXPECT_HAS(out, "SyncAll: blockDim 48 is more than the 40 vector cores of Ascend910B3");
}

TEST(AscendCChecks, MoreBlocksThanCoresRunInWaves) {
  auto* counter = static_cast<int32_t*>(GmAlloc(32));
  auto [ok, out] = Launch("waves", 100, [counter] {
    TPipe pipe;
    TBuf<TPosition::VECCALC> b;
    pipe.InitBuffer(b, 32);
    LocalTensor<int32_t> one = b.Get<int32_t>();
    Duplicate(one, GetBlockIdx() + 1, 8);
    SetFlag<HardEvent::V_MTE3>(EVENT_ID1);
    WaitFlag<HardEvent::V_MTE3>(EVENT_ID1);
    GlobalTensor<int32_t> g;
    g.SetGlobalBuffer(counter, 8);
    SetAtomicAdd<int32_t>();
    DataCopy(g, one, 8);
    SetAtomicNone();
  });
  EXPECT_TRUE(ok) << out;
  EXPECT_EQ(counter[0], 100 * 101 / 2);  // every block, exactly once
  GmFree(counter);
}

}  // namespace

namespace {

TEST(AscendCChecks, CrashingKernelIsContained) {
  auto [ok, out] = Launch("wild_pointer", 4, [] {
    if (GetBlockIdx() == 2) {
      volatile uintptr_t address = 16;  // outside every allocation and the API's checks
      *reinterpret_cast<volatile float*>(address) = 1.0f;
    }
  });
  EXPECT_FALSE(ok);
  EXPECT_HAS(out,
             "[kernel wild_pointer][block 2] the kernel crashed: SIGSEGV (invalid memory access) "
             "at address 0x10");
  // The process and the other blocks carry on; a later launch works.
  auto [ok2, out2] = Launch("after_crash", 2, [] {});
  EXPECT_TRUE(ok2) << out2;
}

TEST(AscendCChecks, TilingKeySelectsTheBranch) {
  auto* out = static_cast<int32_t*>(GmAlloc(32));
  for (uint64_t key : {1u, 2u}) {
    ICPU_SET_TILING_KEY(key);
    auto [ok, text] = Launch("tiling_key", 1, [out] {
      GlobalTensor<int32_t> g;
      g.SetGlobalBuffer(out, 8);
      if (TILING_KEY_IS(1))
        g.SetValue(0, 100);
      else if (TILING_KEY_IS(2))
        g.SetValue(0, 200);
    });
    EXPECT_TRUE(ok) << text;
    EXPECT_EQ(out[0], key == 1 ? 100 : 200);
  }
  ICPU_SET_TILING_KEY(0);
  GmFree(out);
}

}  // namespace
