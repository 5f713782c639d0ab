// Symbolic dims and partly known shape values: a dynamic batch N flows through Shape and
// the shape arithmetic as a symbol, what does not depend on N is computed at compile time,
// and what does stays unknown (never a wrong constant).
#include <gtest/gtest.h>

#include "compiler/compiler.h"
#include "ops/op_schema.h"
#include "test_graph.h"

namespace oc {
namespace {

using testing::CountOps;
using testing::GraphBuilder;

Tensor Ints(const std::vector<int64_t>& v, Shape shape) { return Tensor::FromInt64s(v, shape); }

CompileOptions Dynamic() {
  CompileOptions o;
  o.dynamic_inputs = true;
  return o;
}

// Windowed attention's shape chain: H = Shape(x)[1]; pad = (7 - H % 7) % 7. H is known
// although the batch is not, so the padding folds to a constant.
TEST(SymbolicShapes, ShapeOfPartlyKnownTensorFolds) {
  GraphBuilder b;
  b.Input("x", DataType::kFloat, {-1, 54, 54, 8});
  b.Const("one", Ints({1}, {1}));
  b.Const("seven", Ints({7}, {}));
  b.Add("Shape", {"x"}, {"s"});
  b.Add("Gather", {"s", "one"}, {"h"});
  b.Add("Mod", {"h", "seven"}, {"m"});
  b.Add("Sub", {"seven", "m"}, {"d"});
  b.Add("Mod", {"d", "seven"}, {"pad"});
  b.Const("zero1", Ints({0}, {1}));
  b.Const("pad1", Ints({1}, {1}));
  b.Add("Reshape", {"pad", "pad1"}, {"pad_1d"});
  // Begins of the four dims, then ends: H and W grow at their ends.
  b.Add("Concat", {"zero1", "zero1", "zero1", "zero1", "zero1", "pad_1d", "pad_1d", "zero1"},
        {"pads"})
      .attrs.Set("axis", int64_t{0});
  b.Add("Pad", {"x", "pads"}, {"y"});
  b.Output("y");
  auto r = oc::testing::Compile(b.g, Dynamic());
  ASSERT_TRUE(r.ok()) << r.status().ToString();
  const Graph& g = r.value().graph;
  EXPECT_EQ(CountOps(g, "Shape"), 0u) << GraphToString(g);
  EXPECT_EQ(CountOps(g, "Mod"), 0u);
  // (7 - 54 % 7) % 7 = 2: H and W each grow by 2.
  EXPECT_EQ(g.FindValue("y")->shape, (Shape{-1, 56, 56, 8}));
}

// Reshape(x, Concat(Shape(x)[0:1], [-1, 8])): the batch symbol is copied, the -1 is computed.
TEST(SymbolicShapes, ReshapeTargetWithBatchSymbol) {
  GraphBuilder b;
  b.Input("x", DataType::kFloat, {-1, 56, 56, 8});
  b.Const("start", Ints({0}, {1}));
  b.Const("end", Ints({1}, {1}));
  b.Const("rest", Ints({-1, 8}, {2}));
  b.Add("Shape", {"x"}, {"s"});
  b.Add("Slice", {"s", "start", "end"}, {"n"});
  b.Add("Concat", {"n", "rest"}, {"target"}).attrs.Set("axis", int64_t{0});
  b.Add("Reshape", {"x", "target"}, {"y"});
  b.Add("Relu", {"y"}, {"z"});
  b.Output("z");
  auto r = oc::testing::Compile(b.g, Dynamic());
  ASSERT_TRUE(r.ok()) << r.status().ToString();
  EXPECT_EQ(r.value().graph.FindValue("y")->shape, (Shape{-1, 3136, 8}));
  EXPECT_EQ(r.value().graph.FindValue("z")->shape, (Shape{-1, 3136, 8}));
}

// Two inputs whose batch dims a model names alike are one symbol: Expand to the other's
// batch keeps the symbol and the known dims.
TEST(SymbolicShapes, ExpandToComputedShape) {
  GraphBuilder b;
  b.Input("x", DataType::kFloat, {-1, 16});
  b.Input("bias", DataType::kFloat, {1, 16});
  b.Add("Shape", {"x"}, {"s"});
  b.Add("Expand", {"bias", "s"}, {"e"});
  b.Add("Add", {"x", "e"}, {"y"});
  b.Output("y");
  auto r = oc::testing::Compile(b.g, Dynamic());
  ASSERT_TRUE(r.ok()) << r.status().ToString();
  EXPECT_EQ(r.value().graph.FindValue("e")->shape, (Shape{-1, 16}));
  EXPECT_EQ(r.value().graph.FindValue("y")->shape, (Shape{-1, 16}));
}

// What depends on the batch stays unknown: min(N, 4) is not 4, N % 2 is not a constant.
TEST(SymbolicShapes, BatchDependentValuesStayUnknown) {
  GraphBuilder b;
  b.Input("x", DataType::kFloat, {-1, 8});
  b.Const("zero", Ints({0}, {1}));
  b.Const("four", Ints({4}, {1}));
  b.Const("two", Ints({2}, {1}));
  b.Add("Shape", {"x"}, {"s"});
  b.Add("Gather", {"s", "zero"}, {"n"});
  b.Add("Min", {"n", "four"}, {"k"});
  b.Add("Slice", {"x", "zero", "k", "zero"}, {"head"});
  b.Add("Mod", {"n", "two"}, {"odd"});
  b.Output("head");
  b.Output("odd");
  auto r = oc::testing::Compile(b.g, Dynamic());
  ASSERT_TRUE(r.ok()) << r.status().ToString();
  const Graph& g = r.value().graph;
  EXPECT_EQ(g.FindValue("head")->shape, (Shape{-1, 8}));
  EXPECT_FALSE(g.IsInitializer("odd"));
  EXPECT_FALSE(g.IsInitializer("k"));
  EXPECT_EQ(CountOps(g, "Min"), 1u);
}

// The symbols follow the ops' own shape rules: a convolution keeps the batch, Flatten then
// MatMul keep it too, and a Shape of the result names the same symbol.
TEST(SymbolicShapes, SymbolsFollowEveryOp) {
  GraphBuilder b;
  b.Input("x", DataType::kFloat, {-1, 4});
  b.Const("w", testing::FloatTensor({4, 3}, testing::Pseudo(12, 3)));
  b.Add("MatMul", {"x", "w"}, {"m"});
  b.Add("Relu", {"m"}, {"r"});
  b.Add("Shape", {"r"}, {"s"});
  b.Add("Shape", {"x"}, {"sx"});
  b.Output("s");
  b.Output("sx");
  Graph g = b.g;
  for (const auto& n : g.nodes) ASSERT_TRUE(InferNode(g, n).ok());
  const PartialValue* s = g.symbolic.ValueOf("s");
  const PartialValue* sx = g.symbolic.ValueOf("sx");
  ASSERT_NE(s, nullptr);
  ASSERT_NE(sx, nullptr);
  ASSERT_EQ(s->size(), 2u);
  EXPECT_GT((*s)[0].symbol, 0);
  EXPECT_EQ((*s)[0].symbol, (*sx)[0].symbol);
  EXPECT_TRUE((*s)[1].known());
  EXPECT_EQ((*s)[1].value, 3);
}

}  // namespace
}  // namespace oc
