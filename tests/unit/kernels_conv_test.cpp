// Convolution kernels of the CPU backend (oneDNN) against the reference backend.
#include "backend_oracle.h"

namespace oc::testing {
namespace {

struct ConvSpec {
  Shape x, w;
  std::vector<int64_t> strides, pads, dilations;
  int64_t group = 1;
  std::string auto_pad;
  bool bias = true;
};

void CheckConv(const ConvSpec& s) {
  OracleCase c;
  c.FloatInput("x", s.x, 7);
  c.b.Const("w", FloatTensor(s.w, Pseudo(static_cast<size_t>(NumElements(s.w)), 8)));
  std::vector<std::string> in = {"x", "w"};
  if (s.bias) {
    c.b.Const("b", FloatTensor({s.w[0]}, Pseudo(static_cast<size_t>(s.w[0]), 9)));
    in.push_back("b");
  }
  Node& n = c.b.Add("Conv", in, {"y"});
  if (!s.strides.empty()) n.attrs.Set("strides", s.strides);
  if (!s.pads.empty()) n.attrs.Set("pads", s.pads);
  if (!s.dilations.empty()) n.attrs.Set("dilations", s.dilations);
  if (s.group != 1) n.attrs.Set("group", s.group);
  if (!s.auto_pad.empty()) n.attrs.Set("auto_pad", s.auto_pad);
  c.b.Output("y");
  c.ExpectAgree(1e-4f);
}

TEST(ConvFamily, Conv2dForms) {
  CheckConv({{1, 3, 9, 9}, {4, 3, 3, 3}, {}, {1, 1, 1, 1}, {}, 1, "", true});
  CheckConv({{2, 4, 10, 7}, {6, 2, 3, 2}, {2, 1}, {1, 0, 0, 1}, {}, 2, "", true});
  // depthwise, dilated
  CheckConv({{1, 4, 11, 11}, {4, 1, 3, 3}, {1, 1}, {2, 2, 2, 2}, {2, 2}, 4, "", true});
  CheckConv({{1, 2, 8, 8}, {3, 2, 3, 3}, {2, 2}, {}, {}, 1, "SAME_UPPER", false});
}

TEST(ConvFamily, Conv1dAnd3d) {
  CheckConv({{1, 3, 20}, {5, 3, 4}, {2}, {1, 2}, {}, 1, "", true});
  CheckConv({{1, 2, 5, 6, 7}, {3, 2, 2, 3, 3}, {1, 2, 1}, {0, 1, 1, 1, 0, 1}, {}, 1, "", true});
}

TEST(ConvFamily, FusedResidualAndActivation) {
  // Conv + Add(residual) + Relu becomes one oc.Conv; both backends run the fused node.
  OracleCase c;
  c.FloatInput("x", {1, 4, 6, 6}, 1);
  c.FloatInput("r", {1, 4, 6, 6}, 2);
  c.b.Const("w", FloatTensor({4, 4, 3, 3}, Pseudo(144, 3)));
  Node& conv = c.b.Add("Conv", {"x", "w"}, {"c"});
  conv.attrs.Set("pads", std::vector<int64_t>{1, 1, 1, 1});
  c.b.Add("Add", {"c", "r"}, {"s"});
  c.b.Add("Relu", {"s"}, {"y"});
  c.b.Output("y");
  Graph compiled;
  auto direct = CompileAndRun(c.b.g, c.inputs, {}, &compiled);
  ASSERT_TRUE(direct.ok()) << direct.status().ToString();
  EXPECT_EQ(CountOps(compiled, "Conv", kOcDomain), 1u);
  c.ExpectAgree(1e-4f);
}

}  // namespace
}  // namespace oc::testing

namespace oc::testing {
namespace {

// An MBConv block with squeeze-and-excitation (EfficientNet): expand conv, depthwise conv,
// global average pool, two 1x1 convs, sigmoid, the per-channel scale, the projection conv
// and a residual add. On the CPU backend the whole chain stays channels-last (layout.cpp),
// pools and scales included; batch 2 checks the per-sample scale; the reference backend
// (plain NCHW everywhere) is the oracle.
TEST(ConvFamily, SqueezeExcitationBlockChannelsLast) {
  OracleCase c;
  c.FloatInput("x", {2, 8, 9, 9}, 31);
  auto conv = [&](const std::string& in, const std::string& out, int64_t cin, int64_t cout,
                  int64_t k, int64_t group, uint32_t seed) {
    c.b.Const(out + "_w",
              FloatTensor({cout, cin / group, k, k},
                          Pseudo(static_cast<size_t>(cout * cin / group * k * k), seed)));
    c.b.Const(out + "_b", FloatTensor({cout}, Pseudo(static_cast<size_t>(cout), seed + 1)));
    Node& n = c.b.Add("Conv", {in, out + "_w", out + "_b"}, {out});
    n.attrs.Set("group", group);
    if (k == 3) n.attrs.Set("pads", std::vector<int64_t>{1, 1, 1, 1});
  };
  conv("x", "e", 8, 16, 1, 1, 40);
  c.b.Add("Sigmoid", {"e"}, {"es"});
  c.b.Add("Mul", {"e", "es"}, {"silu"});  // SiLU as torch exports it
  conv("silu", "d", 16, 16, 3, 16, 42);
  c.b.Add("Relu", {"d"}, {"dr"});
  c.b.Add("GlobalAveragePool", {"dr"}, {"g"});
  conv("g", "f1", 16, 4, 1, 1, 44);
  c.b.Add("Relu", {"f1"}, {"f1r"});
  conv("f1r", "f2", 4, 16, 1, 1, 46);
  c.b.Add("Sigmoid", {"f2"}, {"s"});
  c.b.Add("Mul", {"dr", "s"}, {"m"});
  conv("m", "p", 16, 8, 1, 1, 48);
  conv("x", "skip", 8, 8, 1, 1, 50);
  c.b.Add("Add", {"p", "skip"}, {"y"});
  c.b.Add("GlobalMaxPool", {"m"}, {"gm"});
  c.b.Const("half", FloatTensor({}, {0.5f}));
  c.b.Add("Mul", {"y", "half"}, {"y2"});
  c.b.Output("y2");
  c.b.Output("gm");
  c.ExpectAgree(1e-4f);
}

}  // namespace
}  // namespace oc::testing

namespace oc::testing {
namespace {

// 3x3 stride-1 convolutions as Winograd (OCANN_CONV_ALGO=winograd uses it wherever oneDNN
// has a kernel; `auto` picks it where it measures faster): a chain that stays channels-last
// between the layers, with bias, a fused residual sum and ReLU, batch 2, against the
// reference backend's direct loops.
TEST(ConvFamily, WinogradAgreesWithDirect) {
  ScopedConfig winograd(ConfigWithVariable("OCANN_CONV_ALGO", "winograd"));
  OracleCase c;
  c.FloatInput("x", {2, 32, 14, 14}, 61);
  for (int i = 0; i < 2; ++i) {
    const std::string w = "w" + std::to_string(i), b = "b" + std::to_string(i);
    c.b.Const(w, FloatTensor({32, 32, 3, 3}, Pseudo(32 * 32 * 9, 62 + i)));
    c.b.Const(b, FloatTensor({32}, Pseudo(32, 64 + i)));
  }
  Node& c0 = c.b.Add("Conv", {"x", "w0", "b0"}, {"c0"});
  c0.attrs.Set("pads", std::vector<int64_t>{1, 1, 1, 1});
  c.b.Add("Relu", {"c0"}, {"r0"});
  Node& c1 = c.b.Add("Conv", {"r0", "w1", "b1"}, {"c1"});
  c1.attrs.Set("pads", std::vector<int64_t>{1, 1, 1, 1});
  c.b.Add("Add", {"c1", "x"}, {"s"});
  c.b.Add("Relu", {"s"}, {"y"});
  c.b.Output("y");
  c.ExpectAgree(1e-4f);
}

}  // namespace
}  // namespace oc::testing

namespace oc::testing {
namespace {

// A misspelt switch is refused when the model loads, naming the variable, instead of
// silently meaning something else.
TEST(ConvFamily, InvalidSwitchValuesAreRefused) {
  GraphBuilder b;
  b.Input("x", DataType::kFloat, {1, 32, 14, 14});
  b.Const("w", FloatTensor({32, 32, 3, 3}, Pseudo(32 * 32 * 9, 71)));
  b.Add("Conv", {"x", "w"}, {"y"}).attrs.Set("pads", std::vector<int64_t>{1, 1, 1, 1});
  b.Output("y");
  auto bytes = CompileToOm(b.g);
  ASSERT_TRUE(bytes.ok()) << bytes.status().ToString();
  const std::vector<std::vector<float>> in = {Pseudo(32 * 14 * 14, 72)};
  for (const char* name : {"OCANN_CONV_ALGO", "OCANN_BF16_COMPUTE"}) {
    ScopedConfig misspelt(ConfigWithVariable(name, "wino"));
    auto r = RunOmOn(bytes.value(), "cpu", in);
    ASSERT_FALSE(r.ok()) << name;
    EXPECT_NE(r.status().message().find(name), std::string::npos) << r.status().ToString();
  }
  EXPECT_TRUE(RunOmOn(bytes.value(), "cpu", in).ok());
}

}  // namespace
}  // namespace oc::testing
