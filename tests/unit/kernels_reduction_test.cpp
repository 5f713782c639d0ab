// Reduction kernels of the CPU backend against the reference backend.
#include "backend_oracle.h"

namespace oc::testing {
namespace {

TEST(ReductionFamily, AxesAndKeepdims) {
  for (const char* op : {"ReduceSum", "ReduceMean", "ReduceMax", "ReduceMin", "ReduceProd",
                         "ReduceSumSquare", "ReduceL1", "ReduceL2"})
    for (int64_t keep = 0; keep < 2; ++keep) {
      SCOPED_TRACE(std::string(op) + " keepdims=" + std::to_string(keep));
      OracleCase c;
      c.opset = 13;  // axes attribute for all but ReduceSum, an input for ReduceSum
      c.FloatInput("x", {3, 4, 5}, 2);
      Node* n;
      if (std::string(op) == "ReduceSum") {
        Tensor axes(DataType::kInt64, {2});
        axes.mutable_data_as<int64_t>()[0] = 0;
        axes.mutable_data_as<int64_t>()[1] = -1;
        c.b.Const("axes", std::move(axes));
        n = &c.b.Add(op, {"x", "axes"}, {"y"});
      } else {
        n = &c.b.Add(op, {"x"}, {"y"});
        n->attrs.Set("axes", std::vector<int64_t>{0, -1});
      }
      n->attrs.Set("keepdims", keep);
      c.b.Output("y");
      c.ExpectAgree(1e-5f);
    }
}

TEST(ReductionFamily, AllAxesWhenNoneGiven) {
  OracleCase c;
  c.FloatInput("x", {2, 3, 4}, 7);
  c.b.Add("ReduceMean", {"x"}, {"y"});
  c.b.Output("y");
  c.ExpectAgree(1e-6f);
}

}  // namespace
}  // namespace oc::testing
