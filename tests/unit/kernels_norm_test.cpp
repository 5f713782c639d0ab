// Normalisation kernels of the CPU backend against the reference backend.
#include "backend_oracle.h"

namespace oc::testing {
namespace {

TEST(NormFamily, BatchNormInference) {
  OracleCase c;
  c.FloatInput("x", {2, 3, 4, 5}, 1);
  std::vector<float> var = Pseudo(3, 5);
  for (auto& v : var) v = std::fabs(v) + 0.1f;
  c.b.Const("s", FloatTensor({3}, Pseudo(3, 2)));
  c.b.Const("b", FloatTensor({3}, Pseudo(3, 3)));
  c.b.Const("m", FloatTensor({3}, Pseudo(3, 4)));
  c.b.Const("v", FloatTensor({3}, var));
  c.b.Add("BatchNormalization", {"x", "s", "b", "m", "v"}, {"y"});
  c.b.Output("y");
  c.ExpectAgree(1e-5f);
}

TEST(NormFamily, LayerAndInstanceNorm) {
  {
    OracleCase c;
    c.FloatInput("x", {2, 5, 16}, 1);
    c.b.Const("g", FloatTensor({16}, Pseudo(16, 2)));
    c.b.Const("b", FloatTensor({16}, Pseudo(16, 3)));
    c.b.Add("LayerNormalization", {"x", "g", "b"}, {"y"}).attrs.Set("epsilon", 1e-5f);
    c.b.Output("y");
    c.ExpectAgree(1e-4f);
  }
  {
    OracleCase c;
    c.FloatInput("x", {2, 3, 6, 5}, 4);
    c.b.Const("s", FloatTensor({3}, Pseudo(3, 5)));
    c.b.Const("b", FloatTensor({3}, Pseudo(3, 6)));
    c.b.Add("InstanceNormalization", {"x", "s", "b"}, {"y"});
    c.b.Output("y");
    c.ExpectAgree(1e-4f);
  }
}

}  // namespace
}  // namespace oc::testing
