// Global bytes written by two blocks are a race only when nothing orders the writes: a
// cross-core flag, SyncAll, or a GM word one core waits on (IBSet/IBWait) orders them, as on
// the NPU. The check keeps reporting the unordered case.
#include <gtest/gtest.h>

#include <atomic>
#include <string>
#include <thread>

#include "kernel_operator.h"
#include "launch_util.h"
#include "tikicpulib.h"

using namespace AscendC;
using oc_test::Launch;

namespace {

constexpr int kRow = 64;

// Writes `value` to 64 ints of `gm` from this core (scalar writes, as Fixpipe or DataCopy
// would reach the same bytes).
void FillRow(int32_t* gm, int32_t value) {
  GlobalTensor<int32_t> g;
  g.SetGlobalBuffer(gm, kRow);
  for (int i = 0; i < kRow; ++i) g.SetValue(i, value);
}

TEST(AscendCOrderedWrites, CubeResultOverwrittenByTheVectorCoreAfterAFlag) {
  // Per AI core: the cube core writes its row and sets flag 1 (mode 2); vector sub-block 0
  // waits, then overwrites the row in place (a matmul result and its activation).
  auto* gm = static_cast<int32_t*>(GmAlloc(sizeof(int32_t) * kRow * 2));
  auto [ok, out] = Launch("in_place_after_flag", 2, [&] {
    KERNEL_TASK_TYPE_DEFAULT(KERNEL_TYPE_MIX_AIC_1_2);
    const int64_t core = ASCEND_IS_AIC ? GetBlockIdx() : GetBlockIdx() / 2;
    if ASCEND_IS_AIC {
      FillRow(gm + core * kRow, 1);
      CrossCoreSetFlag<2, PIPE_FIX>(1);
    }
    if ASCEND_IS_AIV {
      CrossCoreWaitFlag(1);
      if (GetSubBlockIdx() == 0) FillRow(gm + core * kRow, 2);
    }
  });
  EXPECT_TRUE(ok) << out;
  EXPECT_EQ(out.find("both write"), std::string::npos) << out;
  for (int i = 0; i < kRow * 2; ++i) ASSERT_EQ(gm[i], 2) << i;
  GmFree(gm);
}

TEST(AscendCOrderedWrites, TheSameWritesWithoutTheWaitAreStillARace) {
  auto* gm = static_cast<int32_t*>(GmAlloc(sizeof(int32_t) * kRow));
  std::atomic<bool> cube_done{false};  // orders the threads for the test, not the emulation
  auto [ok, out] = Launch("in_place_no_wait", 1, [&] {
    KERNEL_TASK_TYPE_DEFAULT(KERNEL_TYPE_MIX_AIC_1_2);
    if ASCEND_IS_AIC {
      FillRow(gm, 1);
      cube_done.store(true);
      CrossCoreSetFlag<2, PIPE_FIX>(1);
    }
    if ASCEND_IS_AIV {
      if (GetSubBlockIdx() == 0) {  // (an API call first: the emulation's look at the
                                    // kernel's declarations ends there)
        while (!cube_done.load()) std::this_thread::yield();
        FillRow(gm, 2);  // before its wait: nothing orders it
      }
      CrossCoreWaitFlag(1);
    }
  });
  EXPECT_FALSE(ok);
  EXPECT_NE(out.find("both write 256 bytes of global memory"), std::string::npos) << out;
  GmFree(gm);
}

TEST(AscendCOrderedWrites, WritesAfterTheFlagWereConsumedAreNotCovered) {
  // The cube core sets the flag, then writes again: the vector core's wait orders it only
  // after the writes before the set, so its overwrite races with the later one.
  auto* gm = static_cast<int32_t*>(GmAlloc(sizeof(int32_t) * kRow));
  std::atomic<bool> second_done{false};
  auto [ok, out] = Launch("write_after_set", 1, [&] {
    KERNEL_TASK_TYPE_DEFAULT(KERNEL_TYPE_MIX_AIC_1_2);
    if ASCEND_IS_AIC {
      FillRow(gm, 1);
      CrossCoreSetFlag<2, PIPE_FIX>(1);
      FillRow(gm, 3);
      second_done.store(true);
    }
    if ASCEND_IS_AIV {
      CrossCoreWaitFlag(1);
      while (!second_done.load()) std::this_thread::yield();
      if (GetSubBlockIdx() == 0) FillRow(gm, 2);
    }
  });
  EXPECT_FALSE(ok);
  EXPECT_NE(out.find("both write"), std::string::npos) << out;
  GmFree(gm);
}

TEST(AscendCOrderedWrites, SyncAllOrdersTheBlocks) {
  auto* gm = static_cast<int32_t*>(GmAlloc(sizeof(int32_t) * kRow));
  auto [ok, out] = Launch("sync_all_order", 2, [&] {
    KERNEL_TASK_TYPE_DEFAULT(KERNEL_TYPE_AIV_ONLY);
    if (GetBlockIdx() == 0) FillRow(gm, 1);
    SyncAll();
    if (GetBlockIdx() == 1) FillRow(gm, 2);
  });
  EXPECT_TRUE(ok) << out;
  for (int i = 0; i < kRow; ++i) ASSERT_EQ(gm[i], 2) << i;
  GmFree(gm);
}

TEST(AscendCOrderedWrites, IBSetAndIBWaitOrderTheBlocks) {
  auto* ws = static_cast<int32_t*>(GmAlloc(2 * 32 * 2));
  auto* gm = static_cast<int32_t*>(GmAlloc(sizeof(int32_t) * kRow));
  auto [ok, out] = Launch("ib_order", 2, [&] {
    TPipe pipe;
    TBuf<TPosition::VECCALC> ub;
    pipe.InitBuffer(ub, 32);
    GlobalTensor<int32_t> gws;
    gws.SetGlobalBuffer(ws, 32);
    if (GetBlockIdx() == 0) {
      FillRow(gm, 1);
      IBSet(gws, ub.Get<int32_t>(), 0, 0);
    } else {
      IBWait(gws, ub.Get<int32_t>(), 0, 0);
      FillRow(gm, 2);
    }
  });
  EXPECT_TRUE(ok) << out;
  for (int i = 0; i < kRow; ++i) ASSERT_EQ(gm[i], 2) << i;
  GmFree(gm);
  GmFree(ws);
}

}  // namespace
