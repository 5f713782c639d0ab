// RNN/GRU/LSTM weights are checked against X, the direction and hidden_size by the schema
// (atc, the loader) and again by the kernel at prepare: a mutated LSTM whose input size
// contradicts W once converted and then read past its weights (issue 30).
#include <gtest/gtest.h>

#include "kernels/cpu/cpu_backend.h"
#include "ops/op_schema.h"
#include "test_graph.h"

namespace oc {
namespace {

using testing::GraphBuilder;

// An LSTM of X [seq 2, batch 1, input 3], hidden 4, one direction; W/R/B as given.
GraphBuilder Lstm(Shape w, Shape r, Shape b, const std::string& direction = "forward") {
  GraphBuilder g;
  g.Input("x", DataType::kFloat, {2, 1, 3});
  g.Const("w", Tensor(DataType::kFloat, w));
  g.Const("r", Tensor(DataType::kFloat, r));
  g.Const("b", Tensor(DataType::kFloat, b));
  Node& n = g.Add("LSTM", {"x", "w", "r", "b"}, {"y", "y_h"});
  n.attrs.Set("hidden_size", int64_t{4});
  n.attrs.Set("direction", direction);
  g.Output("y");
  return g;
}

Status Infer(GraphBuilder& g) { return InferNode(g.g, g.g.nodes[0]); }

TEST(RecurrentShapes, ConsistentWeightsInfer) {
  GraphBuilder g = Lstm({1, 16, 3}, {1, 16, 4}, {1, 32});
  ASSERT_TRUE(Infer(g).ok());
  EXPECT_EQ(g.g.values.at("y").shape, (Shape{2, 1, 1, 4}));
  EXPECT_EQ(g.g.values.at("y_h").shape, (Shape{1, 1, 4}));
}

TEST(RecurrentShapes, EveryContradictionIsRefused) {
  struct Case {
    Shape w, r, b;
    std::string direction, names;
  } cases[] = {
      {{1, 16, 5}, {1, 16, 4}, {1, 32}, "forward", "W"},          // input size 5, X has 3
      {{1, 12, 3}, {1, 12, 4}, {1, 24}, "forward", "W"},          // 3 gates for an LSTM
      {{1, 16, 3}, {1, 16, 2}, {1, 32}, "forward", "R"},          // R's hidden
      {{1, 16, 3}, {1, 16, 4}, {1, 16}, "forward", "B"},          // B holds half the biases
      {{1, 16, 3}, {1, 16, 4}, {1, 32}, "bidirectional", "W"},    // two directions, one W
      {{2, 16, 3}, {2, 16, 4}, {2, 32}, "forward", "W"},          // one direction, two Ws
      {{1, 16, 3}, {1, 16, 4}, {1, 32}, "sideways", "direction"}  // not a direction
  };
  for (const Case& c : cases) {
    GraphBuilder g = Lstm(c.w, c.r, c.b, c.direction);
    Status s = Infer(g);
    ASSERT_FALSE(s.ok()) << ShapeToString(c.w) << " " << c.direction;
    EXPECT_NE(s.message().find(c.names), std::string::npos) << s.message();
  }
}

TEST(RecurrentShapes, HiddenSizeFromRWhenTheAttributeIsAbsent) {
  GraphBuilder g;
  g.Input("x", DataType::kFloat, {2, 1, 3});
  g.Const("w", Tensor(DataType::kFloat, {1, 6, 3}));
  g.Const("r", Tensor(DataType::kFloat, {1, 6, 2}));
  g.Add("GRU", {"x", "w", "r"}, {"y"});
  ASSERT_TRUE(Infer(g).ok());
  EXPECT_EQ(g.g.values.at("y").shape, (Shape{2, 1, 1, 2}));
}

TEST(RecurrentShapes, KernelRefusesContradictingWeightsAtPrepare) {
  // The kernel is reached without the schema here (a backend asked directly): it checks
  // the same rule itself before any Run could read past W.
  GraphBuilder g = Lstm({1, 16, 5}, {1, 16, 4}, {1, 32});
  g.g.values["y"] = ValueInfo{DataType::kFloat, {2, 1, 1, 4}, true};
  g.g.values["y_h"] = ValueInfo{DataType::kFloat, {1, 1, 4}, true};
  KernelPrepareContext ctx = MakePrepareContext(g.g, g.g.nodes[0], nullptr, 1);
  auto kernel = CpuBackend().CreateKernel(ctx);
  ASSERT_FALSE(kernel.ok());
  EXPECT_NE(kernel.status().message().find("W is"), std::string::npos) << kernel.status().message();
}

}  // namespace
}  // namespace oc
