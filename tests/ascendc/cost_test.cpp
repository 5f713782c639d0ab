// The cost model against figures worked out by hand from its rules (docs/ascendc.md):
// pipes overlap as far as the data allows, so double buffering pays; UB bank conflicts cost
// cycles; the pipe timelines come out as a Chrome trace.
#include <gtest/gtest.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>

#include "kernel_operator.h"
#include "launch_util.h"
#include "tikicpulib.h"

using namespace AscendC;

namespace {

detail::LaunchResult Estimate(const char* name, const std::function<void()>& body) {
  return oc_test::LaunchQuiet(name, 1, body);
}

// z = x + y over 8 tiles of 2048 halves (4096 bytes), with `buffers` buffers per queue.
template <int buffers>
void AddTiles(half* x, half* y, half* z) {
  constexpr int kTile = 2048, kTiles = 8;
  TPipe pipe;
  TQue<QuePosition::VECIN, 1> inX, inY;
  TQue<QuePosition::VECOUT, 1> outZ;
  pipe.InitBuffer(inX, buffers, kTile * sizeof(half));
  pipe.InitBuffer(inY, buffers, kTile * sizeof(half));
  pipe.InitBuffer(outZ, buffers, kTile * sizeof(half));
  GlobalTensor<half> gx, gy, gz;
  gx.SetGlobalBuffer(x, kTile * kTiles);
  gy.SetGlobalBuffer(y, kTile * kTiles);
  gz.SetGlobalBuffer(z, kTile * kTiles);
  for (int i = 0; i < kTiles; ++i) {
    LocalTensor<half> a = inX.AllocTensor<half>(), b = inY.AllocTensor<half>();
    DataCopy(a, gx[i * kTile], kTile);
    DataCopy(b, gy[i * kTile], kTile);
    inX.EnQue(a);
    inY.EnQue(b);
    a = inX.DeQue<half>();
    b = inY.DeQue<half>();
    LocalTensor<half> c = outZ.AllocTensor<half>();
    Add(c, a, b, kTile);
    outZ.EnQue(c);
    inX.FreeTensor(a);
    inY.FreeTensor(b);
    c = outZ.DeQue<half>();
    DataCopy(gz[i * kTile], c, kTile);
    outZ.FreeTensor(c);
  }
}

TEST(AscendCCost, DoubleBufferingOverlapsTheCopies) {
  const size_t bytes = 8 * 2048 * sizeof(half);
  auto* x = static_cast<half*>(GmAlloc(bytes));
  auto* y = static_cast<half*>(GmAlloc(bytes));
  auto* z = static_cast<half*>(GmAlloc(bytes));
  const auto single = Estimate("add_single", [&] { AddTiles<1>(x, y, z); });
  const auto dbl = Estimate("add_double", [&] { AddTiles<2>(x, y, z); });
  ASSERT_TRUE(single.ok && dbl.ok);
  // Per tile: each copy a = 200 + 10 + 4096/64 = 274 cycles; the Add 16 repeats of 2 cycles
  // (x and y both start at multiples of 512 bytes, so their rows share bank groups) = 32.
  const double a = 274, v = 32;
  EXPECT_EQ(single.cycles[3], 8 * v);   // busy Vector cycles
  EXPECT_EQ(single.cycles[0], 16 * a);  // busy MTE2
  // One buffer: tile i+1's copy in waits for tile i's Add to release the buffer, and its Add
  // for tile i's copy out: a period of 2a + v, then the last copy out.
  EXPECT_EQ(single.total_cycles, 8 * (2 * a + v) + a);
  // Two buffers: MTE2 streams the 16 copies back to back; the last Add and copy out follow.
  EXPECT_EQ(dbl.total_cycles, 16 * a + v + a);
  EXPECT_LT(dbl.total_cycles, single.total_cycles);
  EXPECT_EQ(dbl.bound, "MTE2");
  EXPECT_EQ(single.bound, "MTE2");
  GmFree(x);
  GmFree(y);
  GmFree(z);
}

TEST(AscendCCost, BankConflictsCostCycles) {
  // Add over 1024 halves (8 repeats) with source 1 in the same bank groups as source 0
  // (8192 bytes apart: 2 rows per group, 2 cycles a repeat) or in the other eight (8448).
  auto add_at = [](uint32_t y_offset) {
    return Estimate("add_banks", [y_offset] {
      TPipe pipe;
      TBuf<TPosition::VECCALC> buf;
      pipe.InitBuffer(buf, 16384);
      LocalTensor<half> x = buf.GetWithOffset<half>(1024, 0);
      LocalTensor<half> z = buf.GetWithOffset<half>(1024, 4096);
      LocalTensor<half> y = buf.GetWithOffset<half>(1024, y_offset);
      Add(z, x, y, 1024);
    });
  };
  EXPECT_EQ(add_at(8192).cycles[3], 16);
  EXPECT_EQ(add_at(8448).cycles[3], 8);
  // A unary repeat form reading 8 blocks with a block stride of 16 (one group: 8 cycles a
  // repeat), 8 (two groups: 4) or 1 (eight groups: 1); 4 repeats each.
  auto relu_stride = [](uint16_t blk) {
    return Estimate("relu_stride", [blk] {
      TPipe pipe;
      TBuf<TPosition::VECCALC> src, dst;
      pipe.InitBuffer(src, 16384);
      pipe.InitBuffer(dst, 1024 + 256);
      Relu(dst.Get<half>(), src.Get<half>(), 128, 4, UnaryRepeatParams(1, blk, 8, 128));
    });
  };
  EXPECT_EQ(relu_stride(16).cycles[3], 32);
  EXPECT_EQ(relu_stride(8).cycles[3], 16);
  EXPECT_EQ(relu_stride(1).cycles[3], 4);
}

TEST(AscendCCost, PipeTimelinesAsAChromeTrace) {
  const auto dir = std::filesystem::temp_directory_path() / "oc_ascendc_trace_test";
  std::filesystem::create_directories(dir);
  setenv("OCANN_ASCENDC_REPORT_DIR", dir.c_str(), 1);
  const size_t bytes = 8 * 2048 * sizeof(half);
  auto* x = static_cast<half*>(GmAlloc(bytes));
  auto* y = static_cast<half*>(GmAlloc(bytes));
  auto* z = static_cast<half*>(GmAlloc(bytes));
  testing::internal::CaptureStdout();
  ASSERT_TRUE(detail::RunKernel("traced_add", 1, [&] { AddTiles<2>(x, y, z); }));
  const std::string out = testing::internal::GetCapturedStdout();
  unsetenv("OCANN_ASCENDC_REPORT_DIR");
  EXPECT_NE(out.find("time 4690.0 cycles per block with the pipes overlapping"), std::string::npos)
      << out;
  std::ifstream f(dir / "traced_add_trace.json");
  std::stringstream ss;
  ss << f.rdbuf();
  const std::string trace = ss.str();
  EXPECT_NE(trace.find("\"traceEvents\""), std::string::npos);
  EXPECT_NE(trace.find("\"name\": \"block 0 AIV\""), std::string::npos) << trace.substr(0, 400);
  EXPECT_NE(trace.find("\"name\": \"MTE2\""), std::string::npos);
  EXPECT_NE(trace.find("\"name\": \"DataCopy(GM->local)\""), std::string::npos)
      << trace.substr(0, 2000);
  // 16 copies in, 8 Adds, 8 copies out.
  size_t events = 0;
  for (size_t at = trace.find("\"ph\": \"X\""); at != std::string::npos;
       at = trace.find("\"ph\": \"X\"", at + 1))
    ++events;
  EXPECT_EQ(events, 32u);
  std::filesystem::remove_all(dir);
  GmFree(x);
  GmFree(y);
  GmFree(z);
}

TEST(AscendCCost, NoCostTableForAFailedLaunch) {
  testing::internal::CaptureStdout();
  EXPECT_FALSE(detail::RunKernel("fails", 2, [] {
    TPipe pipe;
    TQue<QuePosition::VECIN, 1> q;
    q.DeQue<float>();
  }));
  const std::string out = testing::internal::GetCapturedStdout();
  EXPECT_EQ(out.find("Cost ESTIMATE"), std::string::npos) << out;
  EXPECT_EQ(out.find("bound by"), std::string::npos) << out;
  EXPECT_NE(out.find("[blocks 0, 1] TQue::DeQue: the queue is empty"), std::string::npos) << out;
}

}  // namespace
