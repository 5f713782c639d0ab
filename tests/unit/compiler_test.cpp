// Passes: each rewrite must keep the numbers and change the graph as intended.
#include <gtest/gtest.h>

#include <cmath>

#include "test_graph.h"

namespace oc {
namespace {

using testing::CompileAndRun;
using testing::CountOps;
using testing::FloatTensor;
using testing::GraphBuilder;
using testing::Pseudo;

// Conv -> BatchNormalization -> Add(residual through an Identity) -> Relu: ResNet's block end.
Graph ConvBnGraph() {
  GraphBuilder b;
  b.Input("x", DataType::kFloat, {1, 3, 6, 6});
  b.Const("w", FloatTensor({3, 3, 3, 3}, Pseudo(81, 1)));
  b.Const("scale", FloatTensor({3}, {1.5f, 0.5f, 2.0f}));
  b.Const("bias", FloatTensor({3}, {0.1f, -0.2f, 0.3f}));
  b.Const("mean", FloatTensor({3}, {0.05f, 0.1f, -0.1f}));
  b.Const("var", FloatTensor({3}, {1.0f, 0.25f, 4.0f}));
  auto& conv = b.Add("Conv", {"x", "w"}, {"c"});
  conv.attrs.Set("pads", std::vector<int64_t>{1, 1, 1, 1});
  b.Add("BatchNormalization", {"c", "scale", "bias", "mean", "var"}, {"bn"});
  b.Add("Identity", {"x"}, {"x_id"});
  b.Add("Add", {"bn", "x_id"}, {"s"});
  b.Add("Relu", {"s"}, {"y"});
  b.Output("y");
  return b.g;
}

TEST(Compiler, FusionsKeepResults) {
  auto x = Pseudo(108, 7);
  CompileOptions off;
  for (const auto& p : PipelinePassNames()) off.disabled_passes.insert(p);
  Graph plain, fused;
  auto ref = CompileAndRun(ConvBnGraph(), {x}, off, &plain);
  ASSERT_TRUE(ref.ok()) << ref.status().ToString();
  auto got = CompileAndRun(ConvBnGraph(), {x}, {}, &fused);
  ASSERT_TRUE(got.ok()) << got.status().ToString();
  ASSERT_EQ(ref.value()[0].size(), got.value()[0].size());
  for (size_t i = 0; i < ref.value()[0].size(); ++i)
    EXPECT_NEAR(ref.value()[0][i], got.value()[0][i], 1e-5);
  // Unfused: Conv, BN, Identity, Add, Relu. Fused: one oc.Conv with sum and relu post-ops.
  EXPECT_EQ(CountOps(plain, "BatchNormalization"), 1u);
  EXPECT_EQ(fused.nodes.size(), 1u) << GraphToString(fused);
  EXPECT_EQ(CountOps(fused, "Conv", kOcDomain), 1u);
  EXPECT_EQ(CountOps(fused, "BatchNormalization"), 0u);
  EXPECT_EQ(CountOps(fused, "Identity"), 0u);
  // The fused node says what it was, for dumps and comparison.
  const auto names = fused.nodes[0].attrs.GetStrings("_datadump_original_op_names");
  EXPECT_EQ(names, (std::vector<std::string>{"Conv_0", "BatchNormalization_1", "Add_3", "Relu_4"}));
}

// NHWC -> NCHW -> NHWC round trips (what a TensorFlow import leaves between two NCHW ops)
// cancel; a Transpose that does change the layout stays.
TEST(Compiler, CancelsTransposePairs) {
  GraphBuilder b;
  b.Input("x", DataType::kFloat, {1, 4, 5, 3});
  auto& t1 = b.Add("Transpose", {"x"}, {"a"});
  t1.attrs.Set("perm", std::vector<int64_t>{0, 3, 1, 2});
  auto& t2 = b.Add("Transpose", {"a"}, {"b"});
  t2.attrs.Set("perm", std::vector<int64_t>{0, 2, 3, 1});
  b.Add("Relu", {"b"}, {"r"});
  auto& t3 = b.Add("Transpose", {"r"}, {"y"});
  t3.attrs.Set("perm", std::vector<int64_t>{0, 3, 1, 2});
  b.Output("y");
  auto x = Pseudo(60, 4);
  CompileOptions off;
  for (const auto& p : PipelinePassNames()) off.disabled_passes.insert(p);
  Graph plain, compiled;
  auto ref = CompileAndRun(b.g, {x}, off, &plain);
  ASSERT_TRUE(ref.ok()) << ref.status().ToString();
  auto got = CompileAndRun(b.g, {x}, {}, &compiled);
  ASSERT_TRUE(got.ok()) << got.status().ToString();
  EXPECT_EQ(ref.value()[0], got.value()[0]);
  EXPECT_EQ(CountOps(plain, "Transpose"), 3u);
  EXPECT_EQ(CountOps(compiled, "Transpose"), 1u) << GraphToString(compiled);
}

TEST(Compiler, FoldsShapeSubgraphs) {
  // Reshape(x, Concat(Shape(x)[0], -1)) folds to a constant shape.
  GraphBuilder b;
  b.Input("x", DataType::kFloat, {2, 3, 4});
  b.Add("Shape", {"x"}, {"s"});
  b.Const("zero", Tensor::FromInt64s({0}, {1}));
  b.Const("one", Tensor::FromInt64s({1}, {1}));
  b.Const("minus1", Tensor::FromInt64s({-1}, {1}));
  b.Add("Slice", {"s", "zero", "one"}, {"n"});
  auto& cat = b.Add("Concat", {"n", "minus1"}, {"shape"});
  cat.attrs.Set("axis", int64_t{0});
  b.Add("Reshape", {"x", "shape"}, {"y"});
  b.Output("y");
  Graph compiled;
  auto x = Pseudo(24, 3);
  auto r = CompileAndRun(b.g, {x}, {}, &compiled);
  ASSERT_TRUE(r.ok()) << r.status().ToString();
  EXPECT_EQ(compiled.nodes.size(), 1u);
  EXPECT_EQ(compiled.values["y"].shape, (Shape{2, 12}));
  EXPECT_EQ(r.value()[0], x);
}

TEST(Compiler, MatMulBiasGeluChainMatches) {
  GraphBuilder b;
  b.Input("x", DataType::kFloat, {2, 3, 4});
  b.Const("w", FloatTensor({4, 5}, Pseudo(20, 11)));
  b.Const("bias", FloatTensor({5}, Pseudo(5, 12)));
  b.Add("MatMul", {"x", "w"}, {"m"});
  b.Add("Add", {"m", "bias"}, {"a"});
  b.Add("Relu", {"a"}, {"y"});
  b.Output("y");
  auto x = Pseudo(24, 5);
  Graph compiled;
  auto r = CompileAndRun(b.g, {x}, {}, &compiled);
  ASSERT_TRUE(r.ok()) << r.status().ToString();
  EXPECT_EQ(compiled.nodes.size(), 1u);
  EXPECT_EQ(compiled.nodes[0].domain, kOcDomain);
  auto w = Pseudo(20, 11), bias = Pseudo(5, 12);
  for (int row = 0; row < 6; ++row)
    for (int j = 0; j < 5; ++j) {
      double acc = bias[j];
      for (int k = 0; k < 4; ++k) acc += x[row * 4 + k] * w[k * 5 + j];
      EXPECT_NEAR(r.value()[0][row * 5 + j], std::max(0.0, acc), 1e-5);
    }
}

TEST(Compiler, UnsupportedOpNamesNodeAndType) {
  GraphBuilder b;
  b.Input("x", DataType::kFloat, {2});
  b.Add("NoSuchOp", {"x"}, {"y"}).name = "my_node";
  b.Output("y");
  auto r = oc::testing::Compile(b.g, {});
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.status().cann_code(), "EZ3003");
  EXPECT_NE(r.status().message().find("[my_node]"), std::string::npos);
  EXPECT_NE(r.status().message().find("NoSuchOp"), std::string::npos);
}

TEST(Compiler, MemoryArenaDoesNotGrow) {
  // A chain of 8 element-wise ops on 1 MiB tensors needs two live buffers at a time.
  GraphBuilder b;
  b.Input("x", DataType::kFloat, {256, 1024});
  std::string prev = "x";
  for (int i = 0; i < 8; ++i) {
    std::string out = i == 7 ? "y" : "t" + std::to_string(i);
    b.Add(i % 2 ? "Relu" : "Neg", {prev}, {out});
    prev = out;
  }
  b.Output("y");
  auto cg = oc::testing::Compile(b.g, {});
  ASSERT_TRUE(cg.ok());
  // Two 1 MiB buffers, each with the NPU layout's 32 bytes of padding.
  EXPECT_LE(cg->plan.arena_size, 2u * (1024 * 1024 + 64));
  CompileOptions no_reuse;
  no_reuse.reuse_memory = false;
  auto cg2 = oc::testing::Compile(ConvBnGraph(), no_reuse);
  ASSERT_TRUE(cg2.ok());
}

TEST(InputShape, ParsesAndRejects) {
  auto ok = ParseInputShapes("input:1,3,224,224;ids:1,128");
  ASSERT_TRUE(ok.ok());
  EXPECT_EQ(ok->size(), 2u);
  EXPECT_EQ((*ok)[1].dims, (Shape{1, 128}));
  EXPECT_EQ(ParseInputShapes("input1,3").status().cann_code(), "E10002");
  EXPECT_EQ(ParseInputShapes("input:1,x").status().cann_code(), "E10002");
  EXPECT_EQ(ParseInputShapes("input:1,-3").status().cann_code(), "E10011");
  EXPECT_TRUE(ParseInputShapes("input:1,0").ok());
  GraphBuilder b;
  b.Input("x", DataType::kFloat, {1, 3});
  b.Add("Relu", {"x"}, {"y"});
  b.Output("y");
  EXPECT_EQ(ApplyInputShapes(b.g, {{"nope", {1, 3}, {}}}).cann_code(), "E10016");
  EXPECT_EQ(ApplyInputShapes(b.g, {{"x", {1, 3, 1}, {}}}).cann_code(), "E10001");
  EXPECT_TRUE(ApplyInputShapes(b.g, {{"x", {1, 3}, {}}}).ok());
  // A dim the model fixes may be set again (CANN's atc allows it); what the model declared
  // past its inputs is forgotten, for inference to compute from the new shape.
  b.g.values["y"] = ValueInfo{DataType::kFloat, {1, 3}, true};
  ASSERT_TRUE(ApplyInputShapes(b.g, {{"x", {4, 3}, {}}}).ok());
  EXPECT_EQ(b.g.values.at("x").shape, (Shape{4, 3}));
  EXPECT_FALSE(b.g.values.at("y").has_shape);
  EXPECT_EQ(b.g.values.at("y").dtype, DataType::kFloat);
}

}  // namespace
}  // namespace oc

namespace oc {
namespace {

using testing::CompileAndRun;
using testing::FloatTensor;
using testing::GraphBuilder;
using testing::Pseudo;

// Runs `g` with every pass off and with the default pipeline; results must agree.
void ExpectSameWithAndWithoutPasses(const Graph& g, const std::vector<float>& x, Graph* fused) {
  CompileOptions off;
  for (const auto& p : PipelinePassNames()) off.disabled_passes.insert(p);
  auto ref = CompileAndRun(g, {x}, off);
  ASSERT_TRUE(ref.ok()) << ref.status().ToString();
  auto got = CompileAndRun(g, {x}, {}, fused);
  ASSERT_TRUE(got.ok()) << got.status().ToString();
  for (size_t i = 0; i < ref.value()[0].size(); ++i)
    EXPECT_NEAR(ref.value()[0][i], got.value()[0][i], 1e-5) << i;
}

TEST(Compiler, FusesDecomposedLayerNorm) {
  GraphBuilder b;
  b.Input("x", DataType::kFloat, {2, 3, 8});
  auto& m = b.Add("ReduceMean", {"x"}, {"m"});
  m.attrs.Set("axes", std::vector<int64_t>{-1});
  b.Add("Sub", {"x", "m"}, {"d"});
  b.Const("two", FloatTensor({}, {2.0f}));
  b.Add("Pow", {"d", "two"}, {"p"});
  auto& v = b.Add("ReduceMean", {"p"}, {"v"});
  v.attrs.Set("axes", std::vector<int64_t>{-1});
  b.Const("eps", FloatTensor({}, {1e-5f}));
  b.Add("Add", {"v", "eps"}, {"ve"});
  b.Add("Sqrt", {"ve"}, {"s"});
  b.Add("Div", {"d", "s"}, {"n"});
  b.Const("gamma", FloatTensor({8}, Pseudo(8, 2)));
  b.Const("beta", FloatTensor({8}, Pseudo(8, 3)));
  b.Add("Mul", {"n", "gamma"}, {"g"});
  b.Add("Add", {"g", "beta"}, {"y"});
  b.Output("y");
  b.g.opset_version = 11;
  Graph fused;
  ExpectSameWithAndWithoutPasses(b.g, Pseudo(48, 9), &fused);
  ASSERT_EQ(fused.nodes.size(), 1u) << GraphToString(fused);
  EXPECT_EQ(fused.nodes[0].op_type, "LayerNormalization");
}

TEST(Compiler, FusesErfGeluIntoMatMul) {
  GraphBuilder b;
  b.Input("x", DataType::kFloat, {4, 6});
  b.Const("w", FloatTensor({6, 5}, Pseudo(30, 4)));
  b.Const("bias", FloatTensor({5}, Pseudo(5, 5)));
  b.Add("MatMul", {"x", "w"}, {"mm"});
  b.Add("Add", {"mm", "bias"}, {"h"});
  b.Const("sqrt2", FloatTensor({}, {1.4142135f}));
  b.Const("one", FloatTensor({}, {1.0f}));
  b.Const("half", FloatTensor({}, {0.5f}));
  b.Add("Div", {"h", "sqrt2"}, {"hd"});
  b.Add("Erf", {"hd"}, {"e"});
  b.Add("Add", {"e", "one"}, {"e1"});
  b.Add("Mul", {"h", "e1"}, {"he"});
  b.Add("Mul", {"he", "half"}, {"y"});
  b.Output("y");
  Graph fused;
  ExpectSameWithAndWithoutPasses(b.g, Pseudo(24, 6), &fused);
  ASSERT_EQ(fused.nodes.size(), 1u) << GraphToString(fused);
  EXPECT_EQ(fused.nodes[0].attrs.GetString("activation", ""), "Gelu");
}

}  // namespace
}  // namespace oc

namespace oc {
namespace {

// A residual in plain layout (from MaxPool) summed into a convolution whose output stays
// channels-last for the next convolution, with the planner running the sum in place.
TEST(Compiler, InPlaceResidualAcrossLayouts) {
  using testing::CompileAndRun;
  using testing::FloatTensor;
  using testing::GraphBuilder;
  using testing::Pseudo;
  GraphBuilder b;
  b.Input("x", DataType::kFloat, {1, 8, 8, 8});
  auto& pool = b.Add("MaxPool", {"x"}, {"p"});
  pool.attrs.Set("kernel_shape", std::vector<int64_t>{1, 1});
  b.Const("w1", FloatTensor({8, 8, 3, 3}, Pseudo(576, 21)));
  b.Const("w2", FloatTensor({8, 8, 1, 1}, Pseudo(64, 22)));
  b.Const("w3", FloatTensor({4, 8, 1, 1}, Pseudo(32, 23)));
  b.Add("Conv", {"p", "w1"}, {"c1"}).attrs.Set("pads", std::vector<int64_t>{1, 1, 1, 1});
  b.Add("Add", {"c1", "p"}, {"s"});
  b.Add("Relu", {"s"}, {"r"});
  b.Add("Conv", {"r", "w2"}, {"c2"});
  b.Add("Conv", {"r", "w3"}, {"y2"});
  b.Add("Relu", {"c2"}, {"y"});
  b.Output("y");
  b.Output("y2");
  CompileOptions off;
  for (const auto& p : PipelinePassNames()) off.disabled_passes.insert(p);
  auto x = Pseudo(512, 24);
  auto ref = CompileAndRun(b.g, {x}, off);
  auto got = CompileAndRun(b.g, {x}, {});
  ASSERT_TRUE(ref.ok() && got.ok());
  for (size_t o = 0; o < 2; ++o)
    for (size_t i = 0; i < ref.value()[o].size(); ++i)
      ASSERT_NEAR(ref.value()[o][i], got.value()[o][i], 1e-4) << o << " " << i;
}

TEST(Compiler, InputShapeRangesAndDynamicDims) {
  auto r = ParseInputShapes("x:1~16,3,-1;y:2");
  ASSERT_TRUE(r.ok()) << r.status().ToString();
  EXPECT_EQ((*r)[0].dims, (Shape{-1, 3, -1}));
  ASSERT_EQ((*r)[0].ranges.size(), 3u);
  EXPECT_EQ((*r)[0].ranges[0].min, 1);
  EXPECT_EQ((*r)[0].ranges[0].max, 16);
  EXPECT_EQ((*r)[0].ranges[2].max, -1);
  EXPECT_TRUE((*r)[1].ranges.empty());
  EXPECT_EQ(ParseInputShapes("x:8~4").status().cann_code(), "E10002");
  EXPECT_EQ(ParseInputShapes("x:a~4").status().cann_code(), "E10002");
  // A range with equal ends is a fixed dim.
  EXPECT_EQ(ParseInputShapes("x:4~4")->front().dims, (Shape{4}));
}

TEST(Compiler, GearOptionsParseAndExpand) {
  const std::string batch = "1,2,4", hw = "224,224;320,320", dims = "1,8;2,16";
  auto b = ParseGearOption(&batch, nullptr, nullptr);
  ASSERT_TRUE(b.ok());
  EXPECT_EQ(b->gears, (std::vector<std::vector<int64_t>>{{1}, {2}, {4}}));
  EXPECT_EQ(ParseGearOption(&batch, &hw, nullptr).status().cann_code(), "E10009");
  const std::string one = "4", dup = "2,2", zero = "0,2", odd = "224;320,320";
  EXPECT_EQ(ParseGearOption(&one, nullptr, nullptr).status().cann_code(), "E10001");
  EXPECT_EQ(ParseGearOption(&dup, nullptr, nullptr).status().cann_code(), "E10001");
  EXPECT_EQ(ParseGearOption(&zero, nullptr, nullptr).status().cann_code(), "E10001");
  EXPECT_EQ(ParseGearOption(nullptr, &odd, nullptr).status().cann_code(), "E10001");

  auto shapes = ParseInputShapes("x:-1,3,8,8;m:-1,4").value();
  auto per_gear = ExpandGears(shapes, *b, "NCHW");
  ASSERT_TRUE(per_gear.ok()) << per_gear.status().ToString();
  ASSERT_EQ(per_gear->size(), 3u);
  EXPECT_EQ((*per_gear)[2][0].dims, (Shape{4, 3, 8, 8}));
  EXPECT_EQ((*per_gear)[2][1].dims, (Shape{4, 4}));
  // Batch gears only set dim 0.
  EXPECT_FALSE(ExpandGears(ParseInputShapes("x:1,-1").value(), *b, "ND").ok());
  EXPECT_FALSE(ExpandGears(ParseInputShapes("x:1,3").value(), *b, "ND").ok());

  auto h = ParseGearOption(nullptr, &hw, nullptr);
  auto nhwc = ExpandGears(ParseInputShapes("x:1,-1,-1,3").value(), *h, "NHWC");
  ASSERT_TRUE(nhwc.ok()) << nhwc.status().ToString();
  EXPECT_EQ((*nhwc)[1][0].dims, (Shape{1, 320, 320, 3}));
  EXPECT_FALSE(ExpandGears(ParseInputShapes("x:-1,3,-1,-1").value(), *h, "NCHW").ok());

  auto d = ParseGearOption(nullptr, nullptr, &dims);
  auto nd = ExpandGears(ParseInputShapes("a:-1,4;b:3,-1").value(), *d, "ND");
  ASSERT_TRUE(nd.ok()) << nd.status().ToString();
  EXPECT_EQ((*nd)[1][0].dims, (Shape{2, 4}));
  EXPECT_EQ((*nd)[1][1].dims, (Shape{3, 16}));
  EXPECT_FALSE(ExpandGears(ParseInputShapes("a:-1,4").value(), *d, "ND").ok());  // 2 values, 1 dim
  EXPECT_FALSE(ExpandGears(ParseInputShapes("a:-1,-1").value(), *d, "NCHW").ok());
}

}  // namespace
}  // namespace oc
