#include <gtest/gtest.h>

#include <cmath>

#include "base/aligned_buffer.h"
#include "base/dtype.h"
#include "base/half.h"
#include "base/shape.h"
#include "ir/memory_planner.h"
#include "ir/tensor.h"

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

TEST(DataType, CannNames) {
  // atc --singleop's JSON names: both spellings of float, and "double" (not float64).
  EXPECT_EQ(DataTypeFromCannName("float"), DataType::kFloat);
  EXPECT_EQ(DataTypeFromCannName("float32"), DataType::kFloat);
  EXPECT_EQ(DataTypeFromCannName("double"), DataType::kDouble);
  EXPECT_EQ(DataTypeFromCannName("bfloat16"), DataType::kBFloat16);
  EXPECT_EQ(DataTypeFromCannName("float64"), DataType::kUndefined);
  EXPECT_EQ(DataTypeFromCannName("string"), DataType::kUndefined);
  EXPECT_EQ(DataTypeFromCannName(""), DataType::kUndefined);
  EXPECT_STREQ(CannDataTypeName(DataType::kFloat), "float");
  EXPECT_EQ(CannDataTypeName(DataType::kString), nullptr);
  EXPECT_EQ(CannDataTypeName(DataType::kUndefined), nullptr);
  // Every named type: the name leads back to it, with the aclDataType and GE numbers CANN uses.
  const struct {
    const char* name;
    int acl, ge;
  } kCann[] = {{"float", 0, 1},     {"float16", 1, 2},  {"int8", 2, 3},     {"int32", 3, 7},
               {"uint8", 4, 4},     {"int16", 6, 5},    {"uint16", 7, 6},   {"uint32", 8, 9},
               {"int64", 9, 8},     {"uint64", 10, 10}, {"double", 11, 12}, {"bool", 12, 11},
               {"bfloat16", 27, 27}};
  for (const auto& c : kCann) {
    const DataType t = DataTypeFromCannName(c.name);
    EXPECT_STREQ(CannDataTypeName(t), c.name);
    EXPECT_EQ(ToAclDataType(t), c.acl) << c.name;
    EXPECT_EQ(ToGeDataType(t), c.ge) << c.name;
  }
}

// A size whose rounding to 64 bytes wraps is refused, never a tiny buffer (issue 30).
TEST(AlignedBuffer, HugeSizesFailInsteadOfWrapping) {
  size_t rounded = 0;
  EXPECT_FALSE(RoundUpTo64(SIZE_MAX, &rounded));
  EXPECT_FALSE(RoundUpTo64(SIZE_MAX - 62, &rounded));
  ASSERT_TRUE(RoundUpTo64(SIZE_MAX - 63, &rounded));
  EXPECT_EQ(rounded % 64, 0u);
  EXPECT_TRUE(RoundUpTo64(65, &rounded));
  EXPECT_EQ(rounded, 128u);
  AlignedBuffer b;
  EXPECT_FALSE(b.Resize(SIZE_MAX));
  EXPECT_EQ(b.data(), nullptr);
  EXPECT_EQ(b.size(), 0u);
  EXPECT_TRUE(b.Resize(100));
  EXPECT_GE(b.size(), 100u);
}

// Element reads of types that hold no numbers, or of values with no integer, are defined
// (a damaged .om can describe a string constant where a number is read): no endless
// GetAsInt <-> GetAsDouble recursion, no undefined float -> int conversion (issue 30).
TEST(Tensor, ReadsOfNonNumbersAreDefined) {
  Tensor s(DataType::kString, {2});
  EXPECT_EQ(s.GetAsInt(0), 0);
  EXPECT_EQ(s.GetAsDouble(1), 0.0);
  Tensor f(DataType::kFloat, {4});
  float* v = static_cast<float*>(f.mutable_data());
  v[0] = std::nanf("");
  v[1] = 1e30f;
  v[2] = -1e30f;
  v[3] = -7.9f;
  EXPECT_EQ(f.GetAsInt(0), 0);
  EXPECT_EQ(f.GetAsInt(1), INT64_MAX);
  EXPECT_EQ(f.GetAsInt(2), INT64_MIN);
  EXPECT_EQ(f.GetAsInt(3), -7);
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
