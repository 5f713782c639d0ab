// Softmax-family kernels of the CPU backend against the reference backend, with both
// opset semantics.
#include "backend_oracle.h"

namespace oc::testing {
namespace {

TEST(SoftmaxFamily, BothOpsetSemantics) {
  for (int64_t opset : {11, 13})
    for (const char* op : {"Softmax", "LogSoftmax"})
      for (int64_t axis : {1, -1}) {
        SCOPED_TRACE(std::string(op) + " opset " + std::to_string(opset) + " axis " +
                     std::to_string(axis));
        OracleCase c;
        c.opset = opset;
        c.FloatInput("x", {2, 3, 4}, 3);
        c.b.Add(op, {"x"}, {"y"}).attrs.Set("axis", axis);
        c.b.Output("y");
        c.ExpectAgree(1e-5f);
      }
}

}  // namespace
}  // namespace oc::testing
