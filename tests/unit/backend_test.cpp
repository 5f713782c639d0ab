// The backend seam: placement by preference order, split models, refusals, the compiler's
// backends and the two bugs the seam fixed (folding with the model's opset, workspace
// sized on the machine that runs the model).
#include <gtest/gtest.h>

#include <cstdlib>

#include "backend_oracle.h"
#include "ops/op_schema.h"

namespace oc::testing {
namespace {

// Softmax(axis=1) of a [2,3,4] tensor, plus a zero input so the graph has one.
Graph SoftmaxGraph(int64_t opset, bool constant_input, const std::vector<float>& values) {
  GraphBuilder b;
  b.g.opset_version = opset;
  b.Input("zero", DataType::kFloat, {2, 3, 4});
  if (constant_input) {
    b.Const("x", FloatTensor({2, 3, 4}, values));
  } else {
    b.Input("x", DataType::kFloat, {2, 3, 4});
  }
  b.Add("Softmax", {"x"}, {"s"}).attrs.Set("axis", int64_t{1});
  b.Add("Add", {"s", "zero"}, {"y"});
  b.Output("y");
  return b.g;
}

TEST(Backend, ConstantFoldingUsesTheModelsOpset) {
  const std::vector<float> values = Pseudo(24, 3);
  const std::vector<float> zeros(24, 0.0f);
  for (int64_t opset : {11, 13}) {
    SCOPED_TRACE("opset " + std::to_string(opset));
    Graph folded_graph;
    auto folded = CompileAndRun(SoftmaxGraph(opset, true, values), {zeros}, {}, &folded_graph);
    ASSERT_TRUE(folded.ok()) << folded.status().ToString();
    EXPECT_EQ(CountOps(folded_graph, "Softmax"), 0u) << "the constant Softmax was not folded";
    auto fed = CompileAndRun(SoftmaxGraph(opset, false, values), {zeros, values});
    ASSERT_TRUE(fed.ok()) << fed.status().ToString();
    EXPECT_LE(MaxRelativeError((*folded)[0], (*fed)[0]), 1e-6f);
    // Hand check: opset 11 normalises each batch's 12 values together, opset 13 each
    // column of 3 values along axis 1.
    const std::vector<float>& y = (*folded)[0];
    double batch0 = 0, column0 = 0;
    for (int i = 0; i < 12; ++i) batch0 += y[i];
    for (int c = 0; c < 3; ++c) column0 += y[c * 4];
    if (opset == 11) {
      EXPECT_NEAR(batch0, 1.0, 1e-5);
    } else {
      EXPECT_NEAR(column0, 1.0, 1e-5);
    }
  }
}

Graph ConvGraph() {
  GraphBuilder b;
  b.Input("x", DataType::kFloat, {1, 16, 28, 28});
  b.Const("w", FloatTensor({32, 16, 3, 3}, Pseudo(32 * 16 * 9, 1)));
  b.Add("Conv", {"x", "w"}, {"c"}).attrs.Set("pads", std::vector<int64_t>{1, 1, 1, 1});
  b.Add("Relu", {"c"}, {"y"});
  b.Output("y");
  return b.g;
}

TEST(Backend, WorkspaceIsSizedOnTheMachineThatRunsTheModel) {
  auto bytes = [] {
    ScopedConfig one_thread(ConfigWithVariable("OCANN_NUM_THREADS", "1"));
    return CompileToOm(ConvGraph());
  }();
  ASSERT_TRUE(bytes.ok()) << bytes.status().ToString();
  EXPECT_EQ(bytes->find("_oc_workspace_size"), std::string::npos)
      << "a machine-dependent size is stored in the .om";
  for (int threads : {1, 2, 16}) {
    SCOPED_TRACE("threads " + std::to_string(threads));
    LoadOptions lo;
    lo.num_threads = threads;
    size_t work = 0, weight = 0;
    auto file = MappedFile::FromCopy(bytes->data(), bytes->size());
    ASSERT_TRUE(Model::QuerySize(file, &work, &weight, lo).ok());
    auto model = Model::Load(file, lo);
    ASSERT_TRUE(model.ok()) << model.status().ToString();
    EXPECT_EQ(work, model.value()->work_size());
    // aclmdlLoadFromFileWithMem with exactly the queried size must work.
    std::vector<uint8_t> mem(work + 64);
    LoadOptions with_mem = lo;
    with_mem.work_ptr = mem.data();
    with_mem.work_size = work;
    auto in_mem = Model::Load(file, with_mem);
    EXPECT_TRUE(in_mem.ok()) << in_mem.status().ToString();
  }
}

// Conv -> Sin -> Conv -> GlobalAveragePool -> Flatten -> Gemm: the reference backend has
// no Sin, so "reference,cpu" splits the model across the two backends.
Graph MixedGraph() {
  GraphBuilder b;
  b.Input("x", DataType::kFloat, {1, 3, 12, 12});
  b.Const("w1", FloatTensor({8, 3, 3, 3}, Pseudo(8 * 27, 1)));
  b.Const("w2", FloatTensor({8, 8, 3, 3}, Pseudo(8 * 72, 2)));
  b.Const("fc", FloatTensor({8, 5}, Pseudo(40, 3)));
  b.Add("Conv", {"x", "w1"}, {"c1"}).attrs.Set("pads", std::vector<int64_t>{1, 1, 1, 1});
  b.Add("Sin", {"c1"}, {"s"});
  b.Add("Conv", {"s", "w2"}, {"c2"});
  b.Add("Relu", {"c2"}, {"r"});
  b.Add("GlobalAveragePool", {"r"}, {"g"});
  b.Add("Flatten", {"g"}, {"f"});
  b.Add("Gemm", {"f", "fc"}, {"y"});
  b.Output("y");
  return b.g;
}

TEST(Backend, ModelSplitAcrossBackendsMatchesOneBackend) {
  auto bytes = CompileToOm(MixedGraph());
  ASSERT_TRUE(bytes.ok()) << bytes.status().ToString();
  const std::vector<std::vector<float>> in = {Pseudo(3 * 144, 9)};
  std::map<std::string, size_t> cpu_placed, split_placed;
  auto cpu = RunOmOn(*bytes, "cpu", in, &cpu_placed);
  ASSERT_TRUE(cpu.ok()) << cpu.status().ToString();
  auto split = RunOmOn(*bytes, "reference,cpu", in, &split_placed);
  ASSERT_TRUE(split.ok()) << split.status().ToString();
  EXPECT_EQ(cpu_placed.count("reference"), 0u);
  EXPECT_EQ(split_placed["cpu"], 1u);  // Sin
  EXPECT_GE(split_placed["reference"], 4u);
  EXPECT_LE(MaxRelativeError((*split)[0], (*cpu)[0]), 1e-4f);
}

TEST(Backend, ModelThatCannotBePlacedIsRefused) {
  auto bytes = CompileToOm(MixedGraph());
  ASSERT_TRUE(bytes.ok());
  auto r = RunOmOn(*bytes, "reference", {Pseudo(3 * 144, 9)});
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.status().cann_code(), "EZ3003");
  EXPECT_NE(r.status().message().find("Sin"), std::string::npos) << r.status().message();
  EXPECT_NE(r.status().message().find("reference"), std::string::npos);
}

TEST(Backend, CompilerChecksPlacementOnTheBackendsItIsGiven) {
  CompileOptions only_ref;
  only_ref.backends = {BackendRegistry::Global().Find("reference")};
  auto refused = oc::testing::Compile(MixedGraph(), only_ref);
  ASSERT_FALSE(refused.ok());
  EXPECT_EQ(refused.status().cann_code(), "EZ3003");
  auto compiled = oc::testing::Compile(MixedGraph(), {});
  ASSERT_TRUE(compiled.ok()) << compiled.status().ToString();
  CompileOptions ref_first;
  ref_first.backends = BackendRegistry::Global().Order("reference,cpu").value();
  auto mixed = oc::testing::Compile(MixedGraph(), ref_first);
  ASSERT_TRUE(mixed.ok()) << mixed.status().ToString();
  // Placement is decided once, at load, on the application's backends: the compiled graph
  // records none.
  for (const auto& n : mixed->graph.nodes) EXPECT_FALSE(n.attrs.Has("_oc_backend")) << n.name;
  // Without backends the compiler refuses rather than guess.
  auto none = CompileGraph(MixedGraph(), CompileOptions{});
  EXPECT_FALSE(none.ok());
}

TEST(Backend, PreferenceOrder) {
  auto& reg = BackendRegistry::Global();
  auto bad = reg.Order("cpu,tpu");
  ASSERT_FALSE(bad.ok());
  EXPECT_NE(bad.status().message().find("tpu"), std::string::npos);
  EXPECT_NE(bad.status().message().find("reference"), std::string::npos);  // lists known
  auto two = reg.Order(" reference , cpu ");
  ASSERT_TRUE(two.ok());
  // Operator packages' ops run only on the ascendc backend, so it follows every order.
  ASSERT_EQ(two->size(), 3u);
  EXPECT_STREQ((*two)[0]->name(), "reference");
  EXPECT_STREQ((*two)[1]->name(), "cpu");
  EXPECT_STREQ((*two)[2]->name(), "ascendc");
  auto env = [&] {
    ScopedConfig reference(ConfigWithVariable("OCANN_BACKENDS", "reference"));
    return reg.Order();
  }();
  ASSERT_TRUE(env.ok());
  ASSERT_EQ(env->size(), 2u);
  EXPECT_STREQ((*env)[0]->name(), "reference");
  auto def = reg.Order();
  ASSERT_TRUE(def.ok());
  EXPECT_STREQ(def->front()->name(), "cpu");
  std::vector<std::string> names;
  for (const Backend* b : *def) names.push_back(b->name());
  EXPECT_EQ(names, (std::vector<std::string>{"cpu", "ascendc", "reference"}));
}

TEST(Backend, OpTraitsComeFromTheOneRegistration) {
  const auto& r = OpRegistry::Global();
  EXPECT_EQ(r.Find("", "Reshape")->traits.in_place_input, 0);
  EXPECT_EQ(r.Find(kOcDomain, "Conv")->traits.in_place_input, 3);
  EXPECT_EQ(r.Find("", "Conv")->traits.in_place_input, -1);
  EXPECT_EQ(r.Find("", "Relu")->traits.fusable_activation, FusedActivation::kRelu);
  EXPECT_EQ(r.Find("", "Exp")->traits.fusable_activation, FusedActivation::kNone);
  EXPECT_TRUE(r.Find("", "NonZero")->traits.values_decide_output_shapes);
  EXPECT_EQ(r.Find("", "Reshape")->traits.value_inputs, std::vector<int>{1});
  // Every activation a fusion may create is one every backend running fused nodes knows.
  for (const auto* s : r.All()) {
    if (s->traits.fusable_activation == FusedActivation::kNone) continue;
    FusedActivation parsed;
    EXPECT_TRUE(ParseFusedActivation(FusedActivationName(s->traits.fusable_activation), &parsed));
  }
}

}  // namespace
}  // namespace oc::testing
