// --precision_mode as the compiler applies it: which ops compute in which dtype, where
// values are rounded, --keep_dtype and --modify_mixlist, and the flag parsers.
#include "compiler/precision.h"

#include <gtest/gtest.h>

#include "test_graph.h"

namespace oc::testing {
namespace {

// x -> Conv -> Softmax -> Sigmoid -> Gemm -> y
Graph SmallNet() {
  GraphBuilder b;
  b.Input("x", DataType::kFloat, {1, 2, 4, 4});
  b.Const("w", FloatTensor({3, 2, 3, 3}, Pseudo(54, 1)));
  b.Const("fc", FloatTensor({48, 5}, Pseudo(240, 2)));
  b.Const("shape", [] {
    Tensor t(DataType::kInt64, {2});
    t.mutable_data_as<int64_t>()[0] = 1;
    t.mutable_data_as<int64_t>()[1] = 48;
    return t;
  }());
  b.Add("Conv", {"x", "w"}, {"c"}).attrs.Set("pads", std::vector<int64_t>{1, 1, 1, 1});
  b.Add("Softmax", {"c"}, {"s"}).attrs.Set("axis", int64_t{1});
  b.Add("Sigmoid", {"s"}, {"g"});
  b.Add("Reshape", {"g", "shape"}, {"f"});
  b.Add("Gemm", {"f", "fc"}, {"y"});
  b.Output("y");
  return b.g;
}

std::map<std::string, std::string> Dtypes(const Graph& g) {
  std::map<std::string, std::string> out;
  for (const auto& n : g.nodes)
    if (n.attrs.Has("_oc_dtype")) out[n.op_type] = n.attrs.GetString("_oc_dtype", "");
  return out;
}

Result<CompiledGraph> CompileWith(const std::string& mode, const std::string& keep = "",
                                  const std::string& mixlist = "") {
  CompileOptions o;
  OC_ASSIGN_OR_RETURN(o.precision, ParsePrecisionMode(mode, false));
  if (!keep.empty()) OC_RETURN_IF_ERROR(ParseKeepDtype(keep, &o.precision));
  if (!mixlist.empty()) OC_RETURN_IF_ERROR(ParseModifyMixlist(mixlist, &o.precision));
  return oc::testing::Compile(SmallNet(), o);
}

TEST(Precision, ModesChooseDtypesPerOp) {
  auto origin = CompileWith("must_keep_origin_dtype");
  ASSERT_TRUE(origin.ok()) << origin.status().ToString();
  EXPECT_EQ(CountOps(origin->graph, "RoundTo", kOcDomain), 0u);
  EXPECT_TRUE(Dtypes(origin->graph).empty());

  auto fp16 = CompileWith("force_fp16");
  ASSERT_TRUE(fp16.ok()) << fp16.status().ToString();
  for (const auto& [op, dt] : Dtypes(fp16->graph)) EXPECT_EQ(dt, "float16") << op;
  // The graph input is rounded once; Conv, Softmax, Sigmoid and Gemm outputs are rounded;
  // Reshape moves values and needs none.
  EXPECT_EQ(CountOps(fp16->graph, "RoundTo", kOcDomain), 5u);

  auto cube = CompileWith("allow_fp32_to_fp16");
  ASSERT_TRUE(cube.ok());
  auto d = Dtypes(cube->graph);
  EXPECT_EQ(d["Conv"], "float16");
  EXPECT_EQ(d["Gemm"], "float16");
  EXPECT_EQ(d["Softmax"], "float32");
  EXPECT_EQ(d["Sigmoid"], "float32");

  auto cube_in = CompileWith("force_fp32");
  ASSERT_TRUE(cube_in.ok());
  EXPECT_EQ(Dtypes(cube_in->graph)["Conv"], "float16 in, float32 out");
  EXPECT_EQ(Dtypes(cube_in->graph)["Softmax"], "float32");

  // Mixed: Conv (allow) fp16; Softmax and Sigmoid are gray and follow the Conv.
  auto mixed = CompileWith("allow_mix_precision");
  ASSERT_TRUE(mixed.ok());
  d = Dtypes(mixed->graph);
  EXPECT_EQ(d["Conv"], "float16");
  EXPECT_EQ(d["Softmax"], "float16");
  EXPECT_EQ(d["Sigmoid"], "float16");
  auto bf16 = CompileWith("allow_mix_precision_bf16");
  ASSERT_TRUE(bf16.ok());
  EXPECT_EQ(Dtypes(bf16->graph)["Conv"], "bfloat16");
}

TEST(Precision, KeepDtypeAndMixlist) {
  auto kept = CompileWith("force_fp16", "# keep the normalisation exact\nOpType::Softmax\n");
  ASSERT_TRUE(kept.ok()) << kept.status().ToString();
  auto d = Dtypes(kept->graph);
  EXPECT_EQ(d["Softmax"], "float32");
  EXPECT_EQ(d["Conv"], "float16");
  // Block Softmax in mixed mode: Sigmoid, gray, now follows an fp32 producer.
  auto blocked =
      CompileWith("allow_mix_precision", "", R"({"black-list": {"to-add": ["Softmax"]}})");
  ASSERT_TRUE(blocked.ok()) << blocked.status().ToString();
  d = Dtypes(blocked->graph);
  EXPECT_EQ(d["Softmax"], "float32");
  EXPECT_EQ(d["Sigmoid"], "float32");
  EXPECT_EQ(d["Gemm"], "float16");
  auto wrong_mode = CompileWith("force_fp16", "", R"({"white-list": {"to-add": ["Relu"]}})");
  ASSERT_FALSE(wrong_mode.ok());
  EXPECT_EQ(wrong_mode.status().cann_code(), "E10001");
  auto bad_json = CompileWith("allow_mix_precision", "", R"({"grey": {}})");
  ASSERT_FALSE(bad_json.ok());
}

TEST(Precision, CustomizeDtypesWinsOverModeAndKeep) {
  CompileOptions o;
  o.precision = ParsePrecisionMode("force_fp16", false).value();
  ASSERT_TRUE(ParseKeepDtype("OpType::Conv\n", &o.precision).ok());
  ASSERT_TRUE(
      ParseCustomizeDtypes("# the conv in bf16, the softmax in fp32\n"
                           "OpType::Conv:InputDtype:bfloat16,bfloat16,OutputDtype:bfloat16\n"
                           "Softmax_1::InputDtype:float32,OutputDtype:float32\n",
                           &o.precision)
          .ok());
  auto c = oc::testing::Compile(SmallNet(), o);
  ASSERT_TRUE(c.ok()) << c.status().ToString();
  auto d = Dtypes(c->graph);
  EXPECT_EQ(d["Conv"], "bfloat16");
  EXPECT_EQ(d["Softmax"], "float32");
  EXPECT_EQ(d["Sigmoid"], "float16");
  // Under the CPU default too.
  CompileOptions origin;
  ASSERT_TRUE(ParseCustomizeDtypes("OpType::Gemm:InputDtype:float16,float16,OutputDtype:float16",
                                   &origin.precision)
                  .ok());
  c = oc::testing::Compile(SmallNet(), origin);
  ASSERT_TRUE(c.ok());
  EXPECT_EQ(Dtypes(c->graph)["Gemm"], "float16");
  PrecisionOptions p;
  for (const char* bad : {"Conv_0::InputDtype:float16,OutputDtype:float32",
                          "Conv_0::InputDtype:int8", "NoSeparator"}) {
    auto s = ParseCustomizeDtypes(bad, &p);
    ASSERT_FALSE(s.ok()) << bad;
    EXPECT_EQ(s.cann_code(), "E10001");
  }
}

// Parameters are not data: Resize's scales keep their value in fp16 mode (rounded, 1.1 would
// become 1.0996 and change nothing here, but the output size comes from it).
TEST(Precision, ParameterInputsKeepTheirValues) {
  GraphBuilder b;
  b.g.opset_version = 13;
  b.Input("x", DataType::kFloat, {1, 1, 10, 10});
  b.Const("roi", FloatTensor({0}, {}));
  b.Const("scales", FloatTensor({4}, {1.0f, 1.0f, 1.1f, 1.1f}));
  Node& r = b.Add("Resize", {"x", "roi", "scales"}, {"y"});
  r.attrs.Set("mode", std::string("nearest"));
  b.Output("y");
  CompileOptions o;
  o.precision = ParsePrecisionMode("force_fp16", false).value();
  auto c = oc::testing::Compile(b.g, o);
  ASSERT_TRUE(c.ok()) << c.status().ToString();
  for (const auto& n : c->graph.nodes)
    if (n.op_type == "Resize") {
      const Tensor* s = c->graph.FindInitializer(n.inputs[2]);
      ASSERT_NE(s, nullptr);
      EXPECT_EQ(s->data_as<float>()[2], 1.1f);  // not the fp16 1.0996094
    }
  EXPECT_EQ(c->graph.FindValue("y")->shape, (Shape{1, 1, 11, 11}));
}

TEST(Precision, FlagValues) {
  EXPECT_EQ(ParsePrecisionMode("mixed_float16", true)->mode, PrecisionMode::kMixedFp16);
  EXPECT_EQ(ParsePrecisionMode("cube_fp16in_fp32out", false)->mode, PrecisionMode::kCubeFp16In);
  EXPECT_EQ(ParsePrecisionMode("allow_fp32_to_bf16", false)->mode, PrecisionMode::kOrigin);
  auto bad = ParsePrecisionMode("fastest", false);
  ASSERT_FALSE(bad.ok());
  EXPECT_EQ(bad.status().cann_code(), "E10001");
  EXPECT_FALSE(ParsePrecisionMode("force_fp16", true).ok());  // a v1 name given to v2
}

TEST(Precision, Fp16ModelRunsAndStaysClose) {
  const std::vector<float> x = Pseudo(32, 9);
  auto ref = CompileAndRun(SmallNet(), {x});
  ASSERT_TRUE(ref.ok()) << ref.status().ToString();
  CompileOptions o;
  o.precision = ParsePrecisionMode("force_fp16", false).value();
  auto half = CompileAndRun(SmallNet(), {x}, o);
  ASSERT_TRUE(half.ok()) << half.status().ToString();
  const float err = MaxRelativeError((*half)[0], (*ref)[0]);
  EXPECT_GT(err, 0.0f);   // fp16 moves the result...
  EXPECT_LT(err, 1e-2f);  // ...by fp16's amount
  // Reproducible: the same bits again, and with other thread counts.
  auto again = CompileAndRun(SmallNet(), {x}, o);
  ASSERT_TRUE(again.ok());
  EXPECT_EQ((*again)[0], (*half)[0]);
  auto bytes = CompileToOm(SmallNet(), o);
  ASSERT_TRUE(bytes.ok());
  for (int threads : {1, 2, 4}) {
    auto t = RunOmOn(*bytes, "", {x}, nullptr, threads);
    ASSERT_TRUE(t.ok()) << t.status().ToString();
    EXPECT_EQ((*t)[0], (*half)[0]) << threads << " threads";
  }
}

}  // namespace
}  // namespace oc::testing
