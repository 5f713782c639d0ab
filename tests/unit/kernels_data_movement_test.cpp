// Data-movement kernels of the CPU backend against the reference backend.
#include "backend_oracle.h"

namespace oc::testing {
namespace {

Tensor Int64s(const std::vector<int64_t>& v) {
  Tensor t(DataType::kInt64, {static_cast<int64_t>(v.size())});
  for (size_t i = 0; i < v.size(); ++i) t.mutable_data_as<int64_t>()[i] = v[i];
  return t;
}

TEST(DataMovementFamily, TransposeConcatGather) {
  {
    OracleCase c;
    c.FloatInput("x", {2, 3, 4, 5}, 1);
    c.b.Add("Transpose", {"x"}, {"y"}).attrs.Set("perm", std::vector<int64_t>{0, 2, 3, 1});
    c.b.Output("y");
    c.ExpectAgree(0);
  }
  {
    OracleCase c;
    c.FloatInput("a", {2, 3, 4}, 1);
    c.FloatInput("b", {2, 1, 4}, 2);
    c.b.Add("Concat", {"a", "b"}, {"y"}).attrs.Set("axis", int64_t{1});
    c.b.Output("y");
    c.ExpectAgree(0);
  }
  {
    OracleCase c;
    c.FloatInput("x", {5, 3, 2}, 3);
    c.b.Const("i", Int64s({4, -1, 0, 2}));
    c.b.Add("Gather", {"x", "i"}, {"y"}).attrs.Set("axis", int64_t{0});
    c.b.Output("y");
    c.ExpectAgree(0);
  }
}

TEST(DataMovementFamily, SliceWithStepsAndReshape) {
  OracleCase c;
  c.FloatInput("x", {6, 8}, 4);
  c.b.Const("starts", Int64s({5, 1}));
  c.b.Const("ends", Int64s({0, 8}));
  c.b.Const("axes", Int64s({0, 1}));
  c.b.Const("steps", Int64s({-2, 3}));
  c.b.Add("Slice", {"x", "starts", "ends", "axes", "steps"}, {"s"});
  c.b.Const("shape", Int64s({-1}));
  c.b.Add("Reshape", {"s", "shape"}, {"y"});
  c.b.Output("y");
  c.ExpectAgree(0);
}

}  // namespace
}  // namespace oc::testing
