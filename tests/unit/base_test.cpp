#include <gtest/gtest.h>

#include <cmath>

#include "base/half.h"
#include "base/shape.h"
#include "ir/memory_planner.h"

namespace oc {
namespace {

TEST(Half, RoundTripsExactValues) {
  EXPECT_EQ(FloatToHalf(1.0f), 0x3c00);
  EXPECT_EQ(FloatToHalf(-2.0f), 0xc000);
  EXPECT_EQ(FloatToHalf(65504.0f), 0x7bff);
  EXPECT_EQ(FloatToHalf(1e6f), 0x7c00);                   // overflow to inf
  EXPECT_EQ(FloatToHalf(std::ldexp(1.0f, -24)), 0x0001);  // smallest subnormal
  EXPECT_EQ(HalfToFloat(0x0001), std::ldexp(1.0f, -24));
  EXPECT_EQ(HalfToFloat(0x3555), 0.333251953125f);
}

TEST(Half, RoundsToNearestEven) {
  // 1 + 2^-11 lies exactly between 1 and 1 + 2^-10: ties go to the even mantissa (1).
  EXPECT_EQ(FloatToHalf(1.0f + std::ldexp(1.0f, -11)), 0x3c00);
  // 1 + 3*2^-11 lies between 1+2^-10 (odd) and 1+2^-9 (even): rounds up to even.
  EXPECT_EQ(FloatToHalf(1.0f + 3 * std::ldexp(1.0f, -11)), 0x3c02);
  EXPECT_EQ(FloatToBFloat16(1.0f + std::ldexp(1.0f, -8)), 0x3f80);
  EXPECT_EQ(FloatToBFloat16(1.0f + 3 * std::ldexp(1.0f, -8)), 0x3f82);
}

TEST(Shape, Broadcasts) {
  EXPECT_EQ(BroadcastShapes({2, 1, 4}, {3, 1}).value(), (Shape{2, 3, 4}));
  EXPECT_EQ(BroadcastShapes({}, {5}).value(), (Shape{5}));
  EXPECT_FALSE(BroadcastShapes({2, 3}, {4}).ok());
  EXPECT_EQ(NormalizeAxis(-1, 4).value(), 3);
  EXPECT_FALSE(NormalizeAxis(4, 4).ok());
}

TEST(MemoryPlanner, ReusesOnlyWhenLifetimesDoNotOverlap) {
  // a: steps 0-1, b: 1-2, c: 2-3. a and c may share; b overlaps both.
  std::vector<BufferRequest> req = {{1000, 0, 1}, {1000, 1, 2}, {1000, 2, 3}};
  size_t arena = 0;
  auto off = PlanBuffers(req, &arena);
  EXPECT_EQ(off[0], off[2]);
  EXPECT_NE(off[0], off[1]);
  EXPECT_EQ(arena, 2 * 1024u);  // 1000 rounded to 64-byte multiples, two live at once
}

TEST(MemoryPlanner, NoReuseGivesDisjointBuffers) {
  std::vector<BufferRequest> req = {{64, 0, 10}, {64, 0, 10}, {64, 0, 10}};
  size_t arena = 0;
  auto off = PlanBuffers(req, &arena);
  EXPECT_EQ(arena, 192u);
  EXPECT_NE(off[0], off[1]);
  EXPECT_NE(off[1], off[2]);
  EXPECT_NE(off[0], off[2]);
}

}  // namespace
}  // namespace oc
