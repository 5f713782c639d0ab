// Schemas refuse what their kernels would read past (issue 30, the third fuzzing round): each
// case was a heap overflow in a kernel's Prepare or Run before its schema checked it.
#include <gtest/gtest.h>

#include "ops/op_schema.h"

namespace oc {
namespace {

struct Case {
  Graph g;
  Node n;
};

Case OneNode(const std::string& op, std::vector<std::pair<std::string, Shape>> inputs) {
  Case c;
  for (const auto& [name, shape] : inputs) {
    c.g.inputs.push_back(name);
    c.g.values[name] = ValueInfo{DataType::kFloat, shape, true};
    c.n.inputs.push_back(name);
  }
  c.n.name = "n";
  c.n.op_type = op;
  c.n.outputs = {"y"};
  return c;
}

Status Infer(Case& c) { return InferNode(c.g, c.n); }

TEST(SchemaChecks, PadNeedsItsPads) {
  Case c = OneNode("Pad", {{"x", {2, 3}}});
  Status s = Infer(c);
  ASSERT_FALSE(s.ok());
  EXPECT_NE(s.message().find("pads is required"), std::string::npos) << s.message();
  c.n.attrs.Set("pads", std::vector<int64_t>{0, 1, 0, 1});
  EXPECT_TRUE(Infer(c).ok());
}

TEST(SchemaChecks, TopKNeedsK) {
  Case c = OneNode("TopK", {{"x", {2, 5}}});
  c.n.outputs = {"v", "i"};
  c.g.opset_version = 9;
  Status s = Infer(c);
  ASSERT_FALSE(s.ok());
  EXPECT_NE(s.message().find("K is required"), std::string::npos) << s.message();
  c.n.attrs.Set("k", int64_t{-2});
  EXPECT_FALSE(Infer(c).ok());
  c.n.attrs.Set("k", int64_t{3});
  ASSERT_TRUE(Infer(c).ok());
  EXPECT_EQ(c.g.values.at("v").shape, (Shape{2, 3}));
}

TEST(SchemaChecks, LrnNeedsChannelsAndASize) {
  Case c = OneNode("LRN", {{"x", {8}}});
  c.n.attrs.Set("size", int64_t{3});
  EXPECT_FALSE(Infer(c).ok());  // rank 1: no channel axis
  Case d = OneNode("LRN", {{"x", {1, 8, 4, 4}}});
  EXPECT_FALSE(Infer(d).ok());  // size is required
  d.n.attrs.Set("size", int64_t{0});
  EXPECT_FALSE(Infer(d).ok());
  d.n.attrs.Set("size", int64_t{5});
  EXPECT_TRUE(Infer(d).ok());
}

TEST(SchemaChecks, ConvBiasHoldsOneValuePerOutputChannel) {
  Case c = OneNode("Conv", {{"x", {1, 3, 8, 8}}, {"w", {16, 3, 3, 3}}, {"b", {52, 2}}});
  Status s = Infer(c);
  ASSERT_FALSE(s.ok());
  EXPECT_NE(s.message().find("one value per output channel (16)"), std::string::npos)
      << s.message();
  c.g.values["b"].shape = {16};
  EXPECT_TRUE(Infer(c).ok());
}

TEST(SchemaChecks, ConvKernelShapeMustMatchTheWeight) {
  Case c = OneNode("Conv", {{"x", {1, 3, 8, 8}}, {"w", {16, 3, 3, 3}}});
  c.n.attrs.Set("kernel_shape", std::vector<int64_t>{5, 5});
  Status s = Infer(c);
  ASSERT_FALSE(s.ok());
  EXPECT_NE(s.message().find("kernel_shape does not match"), std::string::npos) << s.message();
  c.n.attrs.Set("kernel_shape", std::vector<int64_t>{3, 3});
  EXPECT_TRUE(Infer(c).ok());
}

TEST(SchemaChecks, ConvTransposeBiasIsCheckedToo) {
  Case c = OneNode("ConvTranspose", {{"x", {1, 3, 4, 4}}, {"w", {3, 6, 3, 3}}, {"b", {3}}});
  EXPECT_FALSE(Infer(c).ok());  // 6 output channels
  c.g.values["b"].shape = {6};
  EXPECT_TRUE(Infer(c).ok());
}

TEST(SchemaChecks, InstanceNormParametersHoldOneValuePerChannel) {
  Case c = OneNode("InstanceNormalization", {{"x", {1, 4, 5}}, {"s", {3}}, {"b", {4}}});
  EXPECT_FALSE(Infer(c).ok());
  c.g.values["s"].shape = {4};
  EXPECT_TRUE(Infer(c).ok());
}

TEST(SchemaChecks, FlattenRefusesAnOverflowingProduct) {
  Case c = OneNode("Flatten", {{"x", {int64_t{1} << 40, int64_t{1} << 40}}});
  c.n.attrs.Set("axis", int64_t{0});
  EXPECT_FALSE(Infer(c).ok());
}

TEST(SchemaChecks, ConstantOfShapeValueIsOneElement) {
  Case c = OneNode("ConstantOfShape", {});
  c.g.initializers["s"] = Tensor::FromInt64s({2, 3}, {2});
  c.g.values["s"] = ValueInfo{DataType::kInt64, {2}, true};
  c.n.inputs = {"s"};
  c.n.attrs.Set("value", Tensor(DataType::kFloat, {0}));
  Status s = Infer(c);
  ASSERT_FALSE(s.ok());
  EXPECT_NE(s.message().find("value must hold one element, it holds 0"), std::string::npos);
  c.n.attrs.Set("value", Tensor(DataType::kInt32, {1}));
  ASSERT_TRUE(Infer(c).ok());
  EXPECT_EQ(c.g.values.at("y").dtype, DataType::kInt32);
}

TEST(SchemaChecks, VariadicListsCountTrailingEmptyNames) {
  // Loop(M, cond, "") and Concat(a, ""): the empty name is an entry of the list, not an
  // optional input left out (the Loop kernel read a state that was not there).
  Node loop;
  loop.name = "l";
  loop.op_type = "Loop";
  loop.inputs = {"m", "c", ""};
  loop.outputs = {"y"};
  Status s = CheckArity(*OpRegistry::Global().Find("", "Loop"), loop);
  ASSERT_FALSE(s.ok());
  EXPECT_NE(s.message().find("omits input 2"), std::string::npos) << s.message();
  loop.inputs = {"", "", "v"};  // M and cond may be omitted
  EXPECT_TRUE(CheckArity(*OpRegistry::Global().Find("", "Loop"), loop).ok());
  Node concat;
  concat.name = "c";
  concat.op_type = "Concat";
  concat.inputs = {"a", ""};
  concat.outputs = {"y"};
  EXPECT_FALSE(CheckArity(*OpRegistry::Global().Find("", "Concat"), concat).ok());
}

}  // namespace
}  // namespace oc
