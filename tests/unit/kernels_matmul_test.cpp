// MatMul and Gemm kernels of the CPU backend against the reference backend.
#include "backend_oracle.h"

namespace oc::testing {
namespace {

TEST(MatMulFamily, BatchedBroadcastAndVectors) {
  struct Case {
    Shape a, b;
  };
  for (const Case& k : {Case{{2, 3, 5, 4}, {4, 6}}, Case{{2, 1, 3, 4}, {3, 4, 7}},
                        Case{{4}, {4, 3}}, Case{{5, 4}, {4}}, Case{{1, 7}, {7, 1}}}) {
    SCOPED_TRACE(ShapeToString(k.a) + " x " + ShapeToString(k.b));
    OracleCase c;
    c.FloatInput("a", k.a, 1);
    c.FloatInput("b", k.b, 2);
    c.b.Add("MatMul", {"a", "b"}, {"y"});
    c.b.Output("y");
    c.ExpectAgree(1e-5f);
  }
}

TEST(MatMulFamily, GemmTransposesScalesAndBias) {
  for (int ta = 0; ta < 2; ++ta)
    for (int tb = 0; tb < 2; ++tb) {
      OracleCase c;
      c.FloatInput("a", ta ? Shape{6, 3} : Shape{3, 6}, 1);
      c.b.Const("b", FloatTensor(tb ? Shape{5, 6} : Shape{6, 5}, Pseudo(30, 2)));
      c.b.Const("c", FloatTensor({5}, Pseudo(5, 3)));
      Node& n = c.b.Add("Gemm", {"a", "b", "c"}, {"y"});
      n.attrs.Set("transA", int64_t{ta});
      n.attrs.Set("transB", int64_t{tb});
      n.attrs.Set("alpha", 0.5f);
      n.attrs.Set("beta", 2.0f);
      c.b.Output("y");
      c.ExpectAgree(1e-5f);
    }
}

// K = 0: the product is empty and the result is beta * C (the CPU kernel returned zeros and
// wrote through a null pointer: a Caffe fuzzer finding).
TEST(MatMulFamily, GemmWithEmptyInnerDimensionIsBetaTimesC) {
  for (bool constant_c : {true, false}) {
    OracleCase c;
    c.FloatInput("a", {3, 0}, 1);
    c.b.Const("b", FloatTensor({0, 4}, {}));
    if (constant_c)
      c.b.Const("c", FloatTensor({4}, Pseudo(4, 3)));
    else
      c.FloatInput("c", {4}, 3);
    Node& n = c.b.Add("Gemm", {"a", "b", "c"}, {"y"});
    n.attrs.Set("alpha", 0.5f);
    n.attrs.Set("beta", 2.0f);
    c.b.Output("y");
    c.ExpectAgree(1e-6f);
  }
}

TEST(MatMulFamily, FusedBiasAndGelu) {
  // MatMul + Add(bias) + Gelu: the compiler's oc.MatMul with a post-op.
  OracleCase c;
  c.FloatInput("x", {2, 4, 8}, 1);
  c.b.Const("w", FloatTensor({8, 6}, Pseudo(48, 2)));
  c.b.Const("bias", FloatTensor({6}, Pseudo(6, 3)));
  c.b.Add("MatMul", {"x", "w"}, {"m"});
  c.b.Add("Add", {"m", "bias"}, {"s"});
  c.b.Add("Relu", {"s"}, {"y"});
  c.b.Output("y");
  c.ExpectAgree(1e-5f);
}

}  // namespace
}  // namespace oc::testing
