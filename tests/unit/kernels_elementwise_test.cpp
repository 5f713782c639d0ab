// Element-wise kernels of the CPU backend against the reference backend.
#include "backend_oracle.h"

namespace oc::testing {
namespace {

TEST(ElementwiseFamily, UnaryActivationsAgree) {
  for (const char* op : {"Relu", "Sigmoid", "Tanh", "Exp", "Abs", "Neg", "Erf", "Floor", "Ceil",
                         "Softplus", "LeakyRelu", "Elu", "HardSigmoid", "HardSwish", "Gelu"}) {
    SCOPED_TRACE(op);
    OracleCase c;
    c.FloatInput("x", {2, 3, 17}, 11);
    Node& n = c.b.Add(op, {"x"}, {"y"});
    if (std::string(op) == "LeakyRelu") n.attrs.Set("alpha", 0.2f);
    c.b.Output("y");
    c.ExpectAgree(2e-5f);
  }
}

TEST(ElementwiseFamily, ClipWithConstantBounds) {
  OracleCase c;
  c.opset = 13;
  c.FloatInput("x", {4, 9}, 3);
  c.b.Const("lo", FloatTensor({}, {-0.25f}));
  c.b.Const("hi", FloatTensor({}, {0.5f}));
  c.b.Add("Clip", {"x", "lo", "hi"}, {"y"});
  c.b.Output("y");
  c.ExpectAgree(0);
}

TEST(ElementwiseFamily, BroadcastingBinaryAndVariadic) {
  for (const char* op : {"Add", "Sub", "Mul", "Div", "Max", "Min", "Sum", "Mean"}) {
    SCOPED_TRACE(op);
    OracleCase c;
    c.FloatInput("a", {2, 1, 5}, 1);
    c.FloatInput("b", {3, 1}, 2);
    c.b.Add(op, {"a", "b"}, {"y"});
    c.b.Output("y");
    c.ExpectAgree(1e-5f);
  }
  OracleCase three;
  three.FloatInput("a", {4, 6}, 4);
  three.FloatInput("b", {6}, 5);
  three.FloatInput("c", {4, 1}, 6);
  three.b.Add("Sum", {"a", "b", "c"}, {"y"});
  three.b.Output("y");
  three.ExpectAgree(1e-6f);
}

TEST(ElementwiseFamily, ReferenceMatchesHandValues) {
  OracleCase c;
  c.b.Input("x", DataType::kFloat, {4});
  c.inputs = {{-2.0f, -0.5f, 0.0f, 3.0f}};
  c.b.Add("HardSigmoid", {"x"}, {"y"});
  c.b.Output("y");
  auto bytes = CompileToOm(c.b.g);
  ASSERT_TRUE(bytes.ok());
  auto out = RunOmOn(bytes.value(), "reference", c.inputs);
  ASSERT_TRUE(out.ok()) << out.status().ToString();
  const std::vector<float> want = {0.1f, 0.4f, 0.5f, 1.0f};  // max(0, min(1, 0.2x + 0.5))
  for (size_t i = 0; i < want.size(); ++i) EXPECT_NEAR((*out)[0][i], want[i], 1e-6f);
}

}  // namespace
}  // namespace oc::testing
