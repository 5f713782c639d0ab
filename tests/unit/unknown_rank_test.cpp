// Unknown is not zero: every op's shape inference, fed inputs whose rank is unknown at
// compile time, defers to run time (outputs typed, shapes unknown) instead of erroring or
// inventing a rank-0 shape; and the same op with known shapes still infers them.
#include <gtest/gtest.h>

#include "ops/op_schema.h"
#include "ops/shape_rules.h"

namespace oc::testing {
namespace {

TEST(UnknownRank, EveryOpDefersInsteadOfFailing) {
  int ops = 0;
  for (const OpSchema* s : OpRegistry::Global().All()) {
    if (s->min_inputs < 1 || s->domain == kAnyDomain) continue;
    for (DataType dtype : {DataType::kFloat, DataType::kInt64}) {
      Graph g;
      Node n;
      n.name = "n";
      n.op_type = s->op_type;
      n.domain = s->domain;
      for (int i = 0; i < s->min_inputs; ++i) {
        const std::string in = "in" + std::to_string(i);
        ValueInfo vi;
        vi.dtype = dtype;  // has_shape false: the rank is unknown
        g.values[in] = vi;
        g.inputs.push_back(in);
        n.inputs.push_back(in);
      }
      for (int k = 0; k < s->min_outputs; ++k) n.outputs.push_back("out" + std::to_string(k));
      SCOPED_TRACE(s->domain + "::" + s->op_type);
      const Status st = InferNode(g, n);
      ASSERT_TRUE(st.ok()) << st.ToString();
      for (const auto& o : n.outputs) {
        const ValueInfo* vi = g.FindValue(o);
        ASSERT_NE(vi, nullptr);
        if (!s->traits.infers_unknown_rank) {
          EXPECT_FALSE(vi->has_shape) << o;
        }
        EXPECT_NE(vi->dtype, DataType::kUndefined) << o;
      }
    }
    ++ops;
  }
  EXPECT_GT(ops, 150);
}

TEST(UnknownRank, KnownShapesStillInfer) {
  Graph g;
  ValueInfo x;
  x.dtype = DataType::kFloat;
  x.has_shape = true;
  x.shape = {2, 3, 4, 5};
  g.values["x"] = x;
  Node n;
  n.name = "f";
  n.op_type = "Flatten";
  n.inputs = {"x"};
  n.outputs = {"y"};
  n.attrs.Set("axis", int64_t{2});
  ASSERT_TRUE(InferNode(g, n).ok());
  EXPECT_EQ(g.FindValue("y")->shape, (Shape{6, 20}));
  // The Flatten of a swin-like model whose input rank is not known yet: deferred.
  g.values["x"].has_shape = false;
  g.values["x"].shape.clear();
  ASSERT_TRUE(InferNode(g, n).ok());
  EXPECT_FALSE(g.FindValue("y")->has_shape);
  EXPECT_EQ(g.FindValue("y")->dtype, DataType::kFloat);
}

// Unknown dims stay unknown (never 0) and cancel where they can: a dynamic batch copied by
// Reshape's 0 leaves the -1 computable.
TEST(UnknownDims, ReshapeAndSlice) {
  auto r = ReshapeTarget({-1, 3, 4, 14}, {0, -1}, false);
  ASSERT_TRUE(r.ok());
  EXPECT_EQ(*r, (Shape{-1, 168}));
  r = ReshapeTarget({-1, 3, 4, 14}, {-1, 0, 56}, false);  // the batch is not copied: unknown
  ASSERT_TRUE(r.ok());
  EXPECT_EQ(*r, (Shape{-1, 3, 56}));
  r = ReshapeTarget({2, 3, 4}, {0, -1}, false);
  ASSERT_TRUE(r.ok());
  EXPECT_EQ(*r, (Shape{2, 12}));
  r = ReshapeTarget({2, 0, 4}, {0, 0, -1}, true);  // allowzero: 0 is a size, -1 impossible
  EXPECT_FALSE(r.ok());
  EXPECT_FALSE(ReshapeTarget({-1, 3}, {-1, -1}, false).ok());
  EXPECT_FALSE(ReshapeTarget({2, 3}, {4, 2}, false).ok());
  std::vector<int64_t> b, st;
  auto s = SliceBounds({-1, 10}, {0, 2}, {49, 8}, {}, {}, &b, &st);
  ASSERT_TRUE(s.ok());
  EXPECT_EQ(*s, (std::vector<int64_t>{-1, 6}));
}

// Small ranks where an op wants more: every schema, fed inputs of rank 0, 1 or 2 (zero and
// one dims among them) and small constant inputs of every length, gives a shape or an error,
// never an out-of-bounds read (run this under ASan+UBSan: make test-asan). It found Split,
// MaxUnpool, Concat and the quantized convolutions (fixed; NormalizeAxis refuses any axis of
// a scalar).
TEST(SmallRankInputs, EverySchemaRefusesOrInfers) {
  int ops = 0;
  const std::vector<Shape> data_shapes = {{}, {0}, {1}, {3}, {0, 2}, {2, 1}};
  for (const OpSchema* s : OpRegistry::Global().All()) {
    if (s->min_inputs < 1 || s->domain == kAnyDomain) continue;
    for (const Shape& data_shape : data_shapes) {
      for (int constant_len : {-1, 0, 1, 2}) {  // -1: every input is data, else constants
        for (DataType dtype : {DataType::kFloat, DataType::kInt64}) {
          Graph g;
          Node n;
          n.name = "n";
          n.op_type = s->op_type;
          n.domain = s->domain;
          // Data inputs up to min_inputs; with constants, every optional input too.
          const int count = constant_len < 0 ? s->min_inputs : std::min(s->max_inputs, 9);
          for (int i = 0; i < count; ++i) {
            const std::string in = "in" + std::to_string(i);
            ValueInfo vi;
            vi.dtype = dtype;
            vi.has_shape = true;
            vi.shape = data_shape;
            if (i > 0 && constant_len >= 0) {
              vi.shape = {constant_len};
              std::vector<int64_t> values(static_cast<size_t>(constant_len), 1);
              g.initializers[in] = Tensor::FromInt64s(values, vi.shape);
              vi.dtype = DataType::kInt64;
            }
            g.values[in] = vi;
            if (!g.IsInitializer(in)) g.inputs.push_back(in);
            n.inputs.push_back(in);
          }
          for (int k = 0; k < s->min_outputs; ++k) n.outputs.push_back("out" + std::to_string(k));
          SCOPED_TRACE(s->domain + "::" + s->op_type + " " + ShapeToString(data_shape) + " " +
                       std::to_string(constant_len));
          (void)InferNode(g, n);  // ok or an error: either is fine, a crash is not
        }
      }
    }
    ++ops;
  }
  EXPECT_GT(ops, 150);
}

}  // namespace
}  // namespace oc::testing
