// Pooling kernels of the CPU backend against the reference backend.
#include "backend_oracle.h"

namespace oc::testing {
namespace {

void CheckPool(const char* op, const Shape& x, std::vector<int64_t> kernel,
               std::vector<int64_t> strides, std::vector<int64_t> pads, int64_t ceil_mode,
               int64_t count_include_pad = 0) {
  SCOPED_TRACE(std::string(op) + " " + ShapeToString(x));
  OracleCase c;
  c.FloatInput("x", x, 5);
  Node& n = c.b.Add(op, {"x"}, {"y"});
  n.attrs.Set("kernel_shape", kernel);
  if (!strides.empty()) n.attrs.Set("strides", strides);
  if (!pads.empty()) n.attrs.Set("pads", pads);
  if (ceil_mode) n.attrs.Set("ceil_mode", ceil_mode);
  if (count_include_pad) n.attrs.Set("count_include_pad", count_include_pad);
  c.b.Output("y");
  c.ExpectAgree(1e-6f);
}

TEST(PoolFamily, MaxAndAverageForms) {
  CheckPool("MaxPool", {1, 3, 9, 9}, {3, 3}, {2, 2}, {1, 1, 1, 1}, 0);
  CheckPool("MaxPool", {2, 2, 8, 7}, {2, 2}, {2, 2}, {}, 1);
  CheckPool("AveragePool", {1, 3, 9, 9}, {3, 3}, {2, 2}, {1, 1, 1, 1}, 0, 0);
  CheckPool("AveragePool", {1, 3, 9, 9}, {3, 3}, {2, 2}, {1, 1, 1, 1}, 0, 1);
  CheckPool("AveragePool", {1, 2, 10, 10}, {3, 3}, {3, 3}, {}, 1, 0);
  CheckPool("MaxPool", {1, 2, 12}, {3}, {2}, {1, 1}, 0);
  // ceil_mode's overhang past the padded input is never counted, pads or not (oneDNN
  // counted it as padding: found by the Caffe frontend's torch comparison).
  CheckPool("AveragePool", {1, 3, 8, 8}, {3, 3}, {2, 2}, {1, 1, 1, 1}, 1, 1);
  CheckPool("AveragePool", {1, 3, 8, 8}, {3, 3}, {2, 2}, {1, 1, 1, 1}, 1, 0);
}

TEST(PoolFamily, GlobalPools) {
  for (const char* op : {"GlobalAveragePool", "GlobalMaxPool"}) {
    OracleCase c;
    c.FloatInput("x", {2, 5, 7, 3}, 9);
    c.b.Add(op, {"x"}, {"y"});
    c.b.Output("y");
    c.ExpectAgree(1e-6f);
  }
}

}  // namespace
}  // namespace oc::testing
