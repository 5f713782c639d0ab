// CheckSubgraphs is what the compiler and the loader both refuse inside If/Loop/Scan bodies
// (issue 30: atc used to write bodies only the loader refused). And the type a node gets when
// its shapes are settled at run time.
#include <gtest/gtest.h>

#include <memory>

#include "ops/op_schema.h"

namespace oc {
namespace {

// x:[2] -> If(c) with a then/else body whose output is `body_out`, computed by `body_nodes`.
Graph IfGraph(std::vector<Node> body_nodes, std::vector<std::string> body_outputs) {
  auto body = std::make_shared<Graph>();
  body->nodes = std::move(body_nodes);
  body->outputs = std::move(body_outputs);
  for (const Node& n : body->nodes)
    for (const auto& o : n.outputs) body->values[o] = ValueInfo{DataType::kFloat, {2}, true};
  Graph g;
  g.inputs = {"c", "x"};
  g.values["c"] = ValueInfo{DataType::kBool, {}, true};
  g.values["x"] = ValueInfo{DataType::kFloat, {2}, true};
  Node n;
  n.name = "if";
  n.op_type = "If";
  n.inputs = {"c"};
  n.outputs = {"y"};
  n.attrs.Set("then_branch", body);
  n.attrs.Set("else_branch", body);
  g.nodes.push_back(n);
  g.outputs = {"y"};
  return g;
}

Node Unary(const std::string& op, const std::string& in, const std::string& out) {
  Node n;
  n.name = op + "_" + out;
  n.op_type = op;
  n.inputs = {in};
  n.outputs = {out};
  return n;
}

TEST(SubgraphCheck, BodyReadingTheEnclosingGraphPasses) {
  EXPECT_TRUE(CheckSubgraphs(IfGraph({Unary("Neg", "x", "t")}, {"t"})).ok());
  // A body may hand an enclosing value straight back.
  EXPECT_TRUE(CheckSubgraphs(IfGraph({}, {"x"})).ok());
}

TEST(SubgraphCheck, UnknownOpInABodyIsEz3003) {
  Status s = CheckSubgraphs(IfGraph({Unary("relu", "x", "t")}, {"t"}));
  ASSERT_FALSE(s.ok());
  EXPECT_EQ(s.cann_code(), "EZ3003");
  EXPECT_NE(s.message().find("_branch] of node [if]: No supported Ops kernel"), std::string::npos)
      << s.message();
}

TEST(SubgraphCheck, ArityInABodyIsChecked) {
  Node neg = Unary("Neg", "x", "t");
  neg.inputs.push_back("x");
  Status s = CheckSubgraphs(IfGraph({neg}, {"t"}));
  ASSERT_FALSE(s.ok());
  EXPECT_NE(s.message().find("has 2 inputs"), std::string::npos) << s.message();
}

TEST(SubgraphCheck, UnnamedOrUncomputedBodyOutputsAreRefused) {
  Status unnamed = CheckSubgraphs(IfGraph({Unary("Neg", "x", "t")}, {""}));
  ASSERT_FALSE(unnamed.ok());
  EXPECT_NE(unnamed.message().find("output 0 has no name"), std::string::npos);
  Status nowhere = CheckSubgraphs(IfGraph({}, {"sum_out"}));
  ASSERT_FALSE(nowhere.ok());
  EXPECT_NE(nowhere.message().find("[sum_out] is computed neither"), std::string::npos)
      << nowhere.message();
  // A body cannot hand back what its own node computes.
  Status own = CheckSubgraphs(IfGraph({}, {"y"}));
  ASSERT_FALSE(own.ok());
  EXPECT_NE(own.message().find("[y] is computed neither"), std::string::npos) << own.message();
  Status dangling = CheckSubgraphs(IfGraph({Unary("Neg", "nothing", "t")}, {"t"}));
  ASSERT_FALSE(dangling.ok());
  EXPECT_NE(dangling.message().find("input [nothing]"), std::string::npos);
}

TEST(SubgraphCheck, OversizedBodyDescriptionIsRefused) {
  Graph g = IfGraph({Unary("Neg", "x", "t")}, {"t"});
  auto body = std::get<std::shared_ptr<Graph>>(*g.nodes[0].attrs.Find("then_branch"));
  body->values["t"] = ValueInfo{DataType::kFloat, {int64_t{1} << 62}, true};
  Status s = CheckSubgraphs(g);
  ASSERT_FALSE(s.ok());
  EXPECT_NE(s.message().find("value [t]"), std::string::npos) << s.message();
}

TEST(SubgraphCheck, NestingIsBounded) {
  Graph g = IfGraph({Unary("Neg", "x", "t")}, {"t"});
  for (int i = 0; i < 70; ++i) {
    Node outer = g.nodes[0];
    auto body = std::make_shared<Graph>(g);
    body->inputs.clear();
    body->values.erase("c");
    outer.attrs.Set("then_branch", body);
    outer.attrs.Set("else_branch", body);
    g.nodes = {outer};
  }
  Status s = CheckSubgraphs(g);
  ASSERT_FALSE(s.ok());
  EXPECT_NE(s.message().find("nested more than 64"), std::string::npos) << s.message();
}

TEST(SubgraphCheck, EmptyShapesMustFitTheBoundInTheirOtherDims) {
  // [0, 2^62, 90] holds nothing, but kernels multiply 2^62 by 90 for its strides.
  EXPECT_FALSE(TensorBytes({0, int64_t{1} << 62, 90}, 4).ok());
  auto empty = TensorBytes({0, 1024, 90}, 4);
  ASSERT_TRUE(empty.ok());
  EXPECT_EQ(empty.value(), 0u);
}

TEST(SubgraphCheck, RunTimeShapedNodeKeepsItsOwnType) {
  // Equal over float inputs whose shapes contradict for every size tried is settled at run
  // time; its output is still bool (the loader and atc must agree on it), not the input's.
  Graph g;
  g.inputs = {"x", "z"};
  g.values["x"] = ValueInfo{DataType::kFloat, {-1, 4, 3, 2}, true};
  g.values["z"] = ValueInfo{DataType::kFloat, {2, 3}, true};
  Node eq;
  eq.name = "eq";
  eq.op_type = "Equal";
  eq.inputs = {"x", "z"};
  eq.outputs = {"a"};
  ASSERT_TRUE(InferNode(g, eq).ok());
  EXPECT_EQ(g.values.at("a").dtype, DataType::kBool);
}

}  // namespace
}  // namespace oc
