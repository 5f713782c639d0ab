// Core types and mix launches: which blocks run, what GetBlockIdx/GetSubBlockIdx/
// GetTaskRation say on each core, SyncAll across core types, cross-core flags, and the
// errors for instructions on the wrong core type.
#include <gtest/gtest.h>

#include <algorithm>
#include <chrono>
#include <string>
#include <thread>
#include <tuple>
#include <vector>

#include "kernel_operator.h"
#include "launch_util.h"
#include "tikicpulib.h"

using namespace AscendC;
using oc_test::Launch;

namespace {

// Each block writes (core type, block idx, sub idx, block num, task ratio) to its row.
struct Seen {
  int32_t core, idx, sub, num, ratio, pad[3];
};

std::vector<std::tuple<int, int, int, int, int>> Rows(const Seen* rows, int n) {
  std::vector<std::tuple<int, int, int, int, int>> out;
  for (int i = 0; i < n; ++i)
    if (rows[i].num)
      out.emplace_back(rows[i].core, rows[i].idx, rows[i].sub, rows[i].num, rows[i].ratio);
  std::sort(out.begin(), out.end());
  return out;
}

void Record(Seen* rows, bool declare, int type) {
  if (declare) KERNEL_TASK_TYPE_DEFAULT(type);
  const int slot = ASCEND_IS_AIC ? static_cast<int>(GetBlockIdx()) : 16 + GetBlockIdx();
  GlobalTensor<int32_t> g;
  g.SetGlobalBuffer(reinterpret_cast<int32_t*>(rows + slot), 8);
  g.SetValue(0, ASCEND_IS_AIV ? AIV : AIC);
  g.SetValue(1, static_cast<int32_t>(GetBlockIdx()));
  g.SetValue(2, static_cast<int32_t>(GetSubBlockIdx()));
  g.SetValue(3, static_cast<int32_t>(GetBlockNum()));
  g.SetValue(4, static_cast<int32_t>(GetTaskRation()));
}

TEST(AscendCMix, DeclaredOneToTwoRunsACubeAndTwoVectorCoresPerBlock) {
  auto* rows = static_cast<Seen*>(GmAlloc(sizeof(Seen) * 32));
  auto [ok, out] = Launch("mix12", 3, [&] { Record(rows, true, KERNEL_TYPE_MIX_AIC_1_2); });
  ASSERT_TRUE(ok) << out;
  using R = std::tuple<int, int, int, int, int>;
  // AIC: idx 0..2, sub 0, ratio 1; AIV: idx 0..5, sub idx % 2, ratio 2; num 3 on both.
  const std::vector<R> want = {{AIC, 0, 0, 3, 1}, {AIC, 1, 0, 3, 1}, {AIC, 2, 0, 3, 1},
                               {AIV, 0, 0, 3, 2}, {AIV, 1, 1, 3, 2}, {AIV, 2, 0, 3, 2},
                               {AIV, 3, 1, 3, 2}, {AIV, 4, 0, 3, 2}, {AIV, 5, 1, 3, 2}};
  EXPECT_EQ(Rows(rows, 32), want);
  EXPECT_HAS(out, "3 blocks (3 AIC + 6 AIV, KERNEL_TYPE_MIX_AIC_1_2) exit success");
  GmFree(rows);
}

TEST(AscendCMix, LayoutsOfEachKernelType) {
  using R = std::tuple<int, int, int, int, int>;
  auto* rows = static_cast<Seen*>(GmAlloc(sizeof(Seen) * 32));
  auto run = [&](bool declare, int type) {
    std::fill(reinterpret_cast<char*>(rows), reinterpret_cast<char*>(rows + 32), 0);
    auto [ok, out] = Launch("layout", 2, [&] { Record(rows, declare, type); });
    EXPECT_TRUE(ok) << out;
    return Rows(rows, 32);
  };
  EXPECT_EQ(
      run(true, KERNEL_TYPE_MIX_AIC_1_1),
      (std::vector<R>{{AIC, 0, 0, 2, 1}, {AIC, 1, 0, 2, 1}, {AIV, 0, 0, 2, 1}, {AIV, 1, 0, 2, 1}}));
  EXPECT_EQ(run(true, KERNEL_TYPE_AIC_ONLY),
            (std::vector<R>{{AIC, 0, 0, 2, 1}, {AIC, 1, 0, 2, 1}}));
  EXPECT_EQ(run(true, KERNEL_TYPE_AIV_ONLY),
            (std::vector<R>{{AIV, 0, 0, 2, 1}, {AIV, 1, 0, 2, 1}}));
  // Without a declaration SetKernelMode decides: MIX_MODE is 1:2 on Atlas A2.
  SetKernelMode(KernelMode::MIX_MODE);
  EXPECT_EQ(run(false, 0).size(), 6u);
  SetKernelMode(KernelMode::AIC_MODE);
  EXPECT_EQ(run(false, 0), (std::vector<R>{{AIC, 0, 0, 2, 1}, {AIC, 1, 0, 2, 1}}));
  SetKernelMode(KernelMode::AIV_MODE);
  EXPECT_EQ(run(false, 0), (std::vector<R>{{AIV, 0, 0, 2, 1}, {AIV, 1, 0, 2, 1}}));
  GmFree(rows);
}

TEST(AscendCMix, KernelTypePerTilingKey) {
  auto* rows = static_cast<Seen*>(GmAlloc(sizeof(Seen) * 32));
  ICPU_SET_TILING_KEY(2);
  auto [ok, out] = Launch("keyed", 1, [&] {
    KERNEL_TASK_TYPE_DEFAULT(KERNEL_TYPE_AIV_ONLY);
    KERNEL_TASK_TYPE(2, KERNEL_TYPE_MIX_AIC_1_2);
    Record(rows, false, 0);
  });
  ICPU_SET_TILING_KEY(0);
  ASSERT_TRUE(ok) << out;
  EXPECT_EQ(Rows(rows, 32).size(), 3u);  // key 2: one cube and two vector cores
  GmFree(rows);
}

TEST(AscendCMix, CrossCoreFlagsOrderCubeAndVectorWork) {
  // The cube core writes a value per AI core, sets flag 3 (mode 2); each vector core
  // waits, reads it, adds its sub-block index, and answers on flag 4; the cube core waits
  // for both and writes a done mark. Mode 1 then orders the two vector cores.
  auto* gm = static_cast<int32_t*>(GmAlloc(sizeof(int32_t) * 64));
  auto [ok, out] = Launch("cross", 2, [&] {
    KERNEL_TASK_TYPE_DEFAULT(KERNEL_TYPE_MIX_AIC_1_2);
    GlobalTensor<int32_t> g;
    g.SetGlobalBuffer(gm, 64);
    if ASCEND_IS_AIC {
      g.SetValue(GetBlockIdx(), 100 * (GetBlockIdx() + 1));
      CrossCoreSetFlag<2, PIPE_FIX>(3);
      CrossCoreWaitFlag(4);
      g.SetValue(40 + GetBlockIdx(),
                 g.GetValue(8 + 2 * GetBlockIdx()) + g.GetValue(8 + 2 * GetBlockIdx() + 1));
    }
    if ASCEND_IS_AIV {
      CrossCoreWaitFlag<2>(3);
      const int64_t core = GetBlockIdx() / 2;
      g.SetValue(8 + GetBlockIdx(), g.GetValue(core) + static_cast<int32_t>(GetSubBlockIdx()));
      CrossCoreSetFlag<2, PIPE_MTE3>(4);
      // Mode 1: sub-block 1 writes first, sub-block 0 reads it after the flag.
      if (GetSubBlockIdx() == 1) {
        g.SetValue(20 + core, 7);
        CrossCoreSetFlag<1, PIPE_MTE3>(5);
      } else {
        CrossCoreWaitFlag<1>(5);
        g.SetValue(24 + core, g.GetValue(20 + core) * 2);
      }
    }
  });
  ASSERT_TRUE(ok) << out;
  EXPECT_EQ(gm[0], 100);
  EXPECT_EQ(gm[1], 200);
  EXPECT_EQ(gm[8], 100);
  EXPECT_EQ(gm[9], 101);
  EXPECT_EQ(gm[10], 200);
  EXPECT_EQ(gm[11], 201);
  EXPECT_EQ(gm[40], 201);
  EXPECT_EQ(gm[41], 401);
  EXPECT_EQ(gm[24], 14);
  EXPECT_EQ(gm[25], 14);
  GmFree(gm);
}

TEST(AscendCMix, CrossCoreMode0SyncsAllVectorCores) {
  auto* gm = static_cast<int32_t*>(GmAlloc(sizeof(int32_t) * 16));
  auto [ok, out] = Launch("mode0", 2, [&] {
    KERNEL_TASK_TYPE_DEFAULT(KERNEL_TYPE_MIX_AIC_1_2);
    if ASCEND_IS_AIV {
      GlobalTensor<int32_t> g;
      g.SetGlobalBuffer(gm, 16);
      g.SetValue(GetBlockIdx(), static_cast<int32_t>(GetBlockIdx()) + 1);
      CrossCoreSetFlag<0, PIPE_MTE3>(1);
      CrossCoreWaitFlag<0>(1);
      int32_t sum = 0;
      for (int i = 0; i < 4; ++i) sum += g.GetValue(i);
      g.SetValue(8 + GetBlockIdx(), sum);
    }
  });
  ASSERT_TRUE(ok) << out;
  for (int i = 0; i < 4; ++i) EXPECT_EQ(gm[8 + i], 10) << i;
  GmFree(gm);
}

TEST(AscendCMix, SyncAllOfEveryCore) {
  auto* gm = static_cast<int32_t*>(GmAlloc(sizeof(int32_t) * 16));
  auto [ok, out] = Launch("sync_all", 2, [&] {
    KERNEL_TASK_TYPE_DEFAULT(KERNEL_TYPE_MIX_AIC_1_2);
    GlobalTensor<int32_t> g;
    g.SetGlobalBuffer(gm, 16);
    if ASCEND_IS_AIC
      g.SetValue(GetBlockIdx(), 5);
    SyncAll<false>();
    if ASCEND_IS_AIV
      g.SetValue(4 + GetBlockIdx(), g.GetValue(GetBlockIdx() / 2) + 1);
  });
  ASSERT_TRUE(ok) << out;
  for (int i = 0; i < 4; ++i) EXPECT_EQ(gm[4 + i], 6) << i;
  GmFree(gm);
}

TEST(AscendCMix, MistakesAreNamed) {
  // A flag that nobody sets.
  auto [ok, out] = Launch("never_set", 1, [] {
    KERNEL_TASK_TYPE_DEFAULT(KERNEL_TYPE_MIX_AIC_1_2);
    if ASCEND_IS_AIV
      CrossCoreWaitFlag<2>(6);
  });
  EXPECT_FALSE(ok);
  EXPECT_HAS(out,
             "CrossCoreWaitFlag: flag 6 (waited in mode 2 (a cube core and its vector "
             "cores))");
  EXPECT_HAS(out, "none will be set (a deadlock");
  // Cross-core flags outside a mix launch.
  std::tie(ok, out) = Launch("not_mix", 1, [] { CrossCoreSetFlag<0, PIPE_MTE3>(1); });
  EXPECT_FALSE(ok);
  EXPECT_HAS(out, "cross-core flags need a mix kernel type");
  // Vector instructions on the cube core.
  std::tie(ok, out) = Launch("vector_on_cube", 1, [] {
    KERNEL_TASK_TYPE_DEFAULT(KERNEL_TYPE_MIX_AIC_1_2);
    TPipe pipe;
    TBuf<TPosition::VECCALC> b;
    pipe.InitBuffer(b, 1024);
    LocalTensor<float> t = b.Get<float>();
    Duplicate(t, 1.0f, 256);
  });
  EXPECT_FALSE(ok);
  EXPECT_HAS(out,
             "[block 0 AIC] Duplicate: this runs on a vector (AIV) core, and the block is a "
             "cube (AIC) core");
  // SyncAll<true> on the cube core of a mix launch.
  std::tie(ok, out) = Launch("sync_on_cube", 1, [] {
    KERNEL_TASK_TYPE_DEFAULT(KERNEL_TYPE_MIX_AIC_1_2);
    SyncAll();
  });
  EXPECT_FALSE(ok);
  EXPECT_HAS(out, "SyncAll<true> syncs the vector cores, and this is a cube core");
  // Coupled-architecture kernel types are refused.
  std::tie(ok, out) = Launch("coupled", 1, [] { KERNEL_TASK_TYPE_DEFAULT(KERNEL_TYPE_AICORE); });
  EXPECT_FALSE(ok);
  EXPECT_HAS(out, "KERNEL_TYPE_AICORE is a kernel type of coupled-architecture chips");
}

TEST(AscendCMix, DeadlockIsReported) {
  // Both sides wait first: each waits for the other forever.
  auto [ok, out] = Launch("deadlock", 1, [] {
    KERNEL_TASK_TYPE_DEFAULT(KERNEL_TYPE_MIX_AIC_1_1);
    CrossCoreWaitFlag<2>(2);
    CrossCoreSetFlag<2, PIPE_MTE3>(2);
  });
  EXPECT_FALSE(ok);
  EXPECT_HAS(out, "a deadlock");
  // A core busy elsewhere for longer than the wait allows is found by the timeout.
  setenv("OCANN_ASCENDC_SYNC_TIMEOUT_S", "0.2", 1);
  std::tie(ok, out) = Launch("slow", 1, [&] {
    KERNEL_TASK_TYPE_DEFAULT(KERNEL_TYPE_MIX_AIC_1_1);
    if ASCEND_IS_AIV
      CrossCoreWaitFlag<2>(2);
    if ASCEND_IS_AIC {
      std::this_thread::sleep_for(std::chrono::milliseconds(600));
      CrossCoreSetFlag<2, PIPE_MTE3>(2);
    }
  });
  unsetenv("OCANN_ASCENDC_SYNC_TIMEOUT_S");
  EXPECT_FALSE(ok);
  EXPECT_HAS(out, "waited 0.2");
}

}  // namespace
