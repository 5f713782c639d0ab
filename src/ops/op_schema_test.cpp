// Shape inference meets inputs only through InferContext::in and CheckArity: an omitted input
// where the op needs one is an error, never a read through a null (issue 30).
#include "ops/op_schema.h"

#include <gtest/gtest.h>

namespace oc {
namespace {

Graph TwoInputGraph() {
  Graph g;
  g.inputs = {"x", "y"};
  g.values["x"] = ValueInfo{DataType::kFloat, {2, 3}, true};
  g.values["y"] = ValueInfo{DataType::kFloat, {2, 3}, true};
  return g;
}

Node MakeNode(const std::string& op, std::vector<std::string> inputs) {
  Node n;
  n.name = "n";
  n.op_type = op;
  n.inputs = std::move(inputs);
  n.outputs = {"out"};
  return n;
}

TEST(OpSchema, OmittedRequiredInputIsRefusedByEveryOp) {
  // Every op with two or more required inputs, its first one omitted: arity refuses it
  // before any schema runs.
  for (const OpSchema* schema : OpRegistry::Global().All()) {
    if (schema->min_inputs < 2 || schema->omittable_inputs & 1u) continue;
    Graph g = TwoInputGraph();
    std::vector<std::string> inputs(static_cast<size_t>(schema->min_inputs), "x");
    inputs[0] = "";
    Node n = MakeNode(schema->op_type, inputs);
    n.domain = schema->domain == kAnyDomain ? "custom" : schema->domain;
    Status s = InferNode(g, n);
    ASSERT_FALSE(s.ok()) << schema->op_type;
    EXPECT_NE(s.message().find("omits input 0"), std::string::npos)
        << schema->op_type << ": " << s.message();
  }
}

TEST(OpSchema, AddWithEmptyFirstInputIsAnError) {
  Graph g = TwoInputGraph();
  Status s = InferNode(g, MakeNode("Add", {"", "y"}));
  ASSERT_FALSE(s.ok());
  EXPECT_EQ(s.code(), StatusCode::kInvalidArgument);
}

TEST(OpSchema, LoopMayOmitTripCountAndCondition) {
  const OpSchema* loop = OpRegistry::Global().Find("", "Loop");
  ASSERT_NE(loop, nullptr);
  Node n = MakeNode("Loop", {"", "", "x"});
  EXPECT_TRUE(CheckArity(*loop, n).ok());
}

TEST(OpSchema, SchemaReadingAnAbsentInputFailsCleanly) {
  // A schema that forgets has_input() reads a stand-in and RunSchema turns the read into an
  // error naming the input, even though the schema itself returned Ok.
  OpSchema schema;
  schema.op_type = "ReadsOptional";
  schema.min_inputs = 1;
  schema.max_inputs = 3;
  schema.infer = [](InferContext& c) {
    c.SetOutput(0, c.in(2).dtype, c.in(0).shape);
    return Status::Ok();
  };
  Node n = MakeNode("ReadsOptional", {"x"});
  ValueInfo x{DataType::kFloat, {4}, true};
  InferContext ctx;
  ctx.node = &n;
  ctx.inputs = {&x, nullptr};
  ctx.const_inputs = {nullptr, nullptr};
  ctx.outputs.resize(1);
  Status s = RunSchema(schema, ctx);
  ASSERT_FALSE(s.ok());
  EXPECT_NE(s.message().find("needs input 2"), std::string::npos) << s.message();

  InferContext past_the_end;
  past_the_end.node = &n;
  EXPECT_EQ(past_the_end.in(5).dtype, DataType::kUndefined);  // a stand-in, no crash
  EXPECT_EQ(past_the_end.absent_input(), 5);
}

TEST(OpSchema, QuantizeLinearWithOmittedInputIsRefused) {
  Graph g = TwoInputGraph();
  g.values["s"] = ValueInfo{DataType::kFloat, {}, true};
  Status s = InferNode(g, MakeNode("QuantizeLinear", {"", "s"}));
  ASSERT_FALSE(s.ok());
  s = InferNode(g, MakeNode("QuantizeLinear", {"x", ""}));
  ASSERT_FALSE(s.ok());
  EXPECT_TRUE(InferNode(g, MakeNode("QuantizeLinear", {"x", "s", ""})).ok());
}

TEST(OpSchema, ElementTypeAttributesAreChecked) {
  // Every dtype an attribute names is one the runtime holds numbers of (issue 30: a switch
  // over an unchecked dtype).
  for (int64_t bad :
       {int64_t{0}, int64_t{8} /* string */, int64_t{999}, int64_t{-3}, int64_t{1} << 40}) {
    Graph g = TwoInputGraph();
    Node eye = MakeNode("EyeLike", {"x"});
    eye.attrs.Set("dtype", bad);
    EXPECT_FALSE(InferNode(g, eye).ok()) << bad;
    Node window = MakeNode("HannWindow", {"x"});
    window.attrs.Set("output_datatype", bad);
    EXPECT_FALSE(InferNode(g, window).ok()) << bad;
  }
  Graph g = TwoInputGraph();
  Node eye = MakeNode("EyeLike", {"x"});
  eye.attrs.Set("dtype", int64_t{7});
  ASSERT_TRUE(InferNode(g, eye).ok());
  EXPECT_EQ(g.values.at("out").dtype, DataType::kInt64);
}

TEST(OpSchema, EmptyListAttributeReadsAsAbsent) {
  // strides: [] is "not given" for the schema and the kernel alike (the kernel once read an
  // empty list the schema had replaced by ones).
  AttributeMap a;
  a.Set("strides", std::vector<int64_t>{});
  EXPECT_EQ(a.GetInts("strides", {1, 1}), (std::vector<int64_t>{1, 1}));
  Graph g;
  g.inputs = {"x", "w"};
  g.values["x"] = ValueInfo{DataType::kFloat, {1, 1, 3, 3}, true};
  g.values["w"] = ValueInfo{DataType::kFloat, {1, 2, 3, 3}, true};
  Node n = MakeNode("ConvTranspose", {"x", "w"});
  n.attrs = a;
  ASSERT_TRUE(InferNode(g, n).ok());
  EXPECT_EQ(g.values.at("out").shape, (Shape{1, 2, 5, 5}));
  for (auto bad : {std::vector<int64_t>{0, 1}, std::vector<int64_t>{-2, 1},
                   std::vector<int64_t>{int64_t{1} << 40, 1}}) {
    n.attrs.Set("strides", bad);
    EXPECT_FALSE(InferNode(g, n).ok()) << bad[0];
  }
  n.attrs.Set("strides", std::vector<int64_t>{1, 1});
  n.attrs.Set("group", int64_t{0});
  EXPECT_FALSE(InferNode(g, n).ok());
}

TEST(OpSchema, DepthToSpaceBlocksizeCannotOverflow) {
  Graph g;
  g.inputs = {"x"};
  g.values["x"] = ValueInfo{DataType::kFloat, {1, 8, 2, 3}, true};
  Node n = MakeNode("DepthToSpace", {"x"});
  n.attrs.Set("blocksize", int64_t{1} << 40);  // its square wrapped to 0: a division by zero
  EXPECT_FALSE(InferNode(g, n).ok());
  n.attrs.Set("blocksize", int64_t{2});
  EXPECT_TRUE(InferNode(g, n).ok());
}

}  // namespace
}  // namespace oc
