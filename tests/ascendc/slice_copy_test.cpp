// DataCopy with SliceInfo: the example CANN's documentation draws (axis 0 from 16 to 70 in
// bursts of 3 blocks, 7 elements apart; axis 1 every other row of 3), checked element by
// element against the index arithmetic written out here.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "kernel_operator.h"
#include "launch_util.h"
#include "tikicpulib.h"

using namespace AscendC;
using oc_test::Launch;

namespace {

TEST(AscendCSliceCopy, BurstsOfTheInnerAxisAndStepsOfTheOuterOnes) {
  constexpr uint32_t cols = 87, rows = 3;
  auto* gm = static_cast<float*>(GmAlloc(cols * rows * sizeof(float)));
  auto* back = static_cast<float*>(GmAlloc(cols * rows * sizeof(float)));
  for (uint32_t i = 0; i < cols * rows; ++i) gm[i] = float(i), back[i] = -1.0f;
  std::vector<float> got(96);
  auto [ok, out] = Launch("slice", 1, [&] {
    TPipe pipe;
    TBuf<TPosition::VECCALC> buf;
    pipe.InitBuffer(buf, 96 * sizeof(float));
    LocalTensor<float> ub = buf.Get<float>();
    GlobalTensor<float> src, dst;
    src.SetGlobalBuffer(gm, cols * rows);
    dst.SetGlobalBuffer(back, cols * rows);
    const SliceInfo from[2] = {{16, 70, 7, 3, cols}, {0, 2, 1, 1, rows}};
    const SliceInfo to[2] = {{0, 47, 0, 3, 48}, {0, 1, 0, 1, 2}};  // packed: 2 rows of 48
    DataCopy(ub, src, to, from, 2);
    PipeBarrier<PIPE_ALL>();
    for (uint32_t i = 0; i < 96; ++i) got[i] = ub.GetValue(i);
    DataCopy(dst, ub, from, to, 2);  // and back where it came from
  });
  ASSERT_TRUE(ok) << out;
  std::vector<float> want;
  for (uint32_t r : {0u, 2u})
    for (uint32_t start : {16u, 47u})  // 24 floats a burst, the next 24 + 7 further on
      for (uint32_t c = start; c < start + 24; ++c) want.push_back(float(r * cols + c));
  EXPECT_EQ(got, want);
  for (uint32_t r = 0; r < rows; ++r)
    for (uint32_t c = 0; c < cols; ++c) {
      const bool copied = r != 1 && ((c >= 16 && c < 40) || (c >= 47 && c < 71));
      EXPECT_EQ(back[r * cols + c], copied ? float(r * cols + c) : -1.0f) << r << " " << c;
    }
  GmFree(gm);
  GmFree(back);
}

TEST(AscendCSliceCopy, MismatchedSlicesAreRefused) {
  auto* gm = static_cast<float*>(GmAlloc(256 * sizeof(float)));
  auto [ok, out] = Launch("slice_bad", 1, [&] {
    TPipe pipe;
    TBuf<TPosition::VECCALC> buf;
    pipe.InitBuffer(buf, 1024);
    LocalTensor<float> ub = buf.Get<float>();
    GlobalTensor<float> src;
    src.SetGlobalBuffer(gm, 256);
    const SliceInfo from[1] = {{0, 63, 0, 1, 256}};  // 8 bursts of 8 floats
    const SliceInfo to[1] = {{0, 31, 0, 1, 32}};     // 4
    DataCopy(ub, src, to, from, 1);
  });
  EXPECT_FALSE(ok);
  EXPECT_NE(out.find("bursts"), std::string::npos) << out;
  // An outer axis of four billion indices is refused before anything is walked.
  auto [huge, why] = Launch("slice_huge", 1, [&] {
    TPipe pipe;
    TBuf<TPosition::VECCALC> buf;
    pipe.InitBuffer(buf, 1024);
    LocalTensor<float> ub = buf.Get<float>();
    GlobalTensor<float> src;
    src.SetGlobalBuffer(gm, 256);
    const SliceInfo from[2] = {{0, 7, 0, 1, 8}, {0, 0xFFFFFFF0u, 0, 1, 32}};
    const SliceInfo to[2] = {{0, 7, 0, 1, 8}, {0, 0xFFFFFFF0u, 0, 1, 32}};
    DataCopy(ub, src, to, from, 2);
  });
  EXPECT_FALSE(huge);
  EXPECT_NE(why.find("2^20 bursts"), std::string::npos) << why;
  GmFree(gm);
}

}  // namespace
