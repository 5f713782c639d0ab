// Reductions (ReduceMean, ReduceSum, ...) and ArgMax/ArgMin.
#include "ops/op_families.h"
#include "ops/schema_helpers.h"
#include "ops/shape_rules.h"

namespace oc {
namespace {

Status InferReduce(InferContext& c) {
  bool known = false;
  std::vector<int64_t> axes = AxesFromInputOrAttr(c, 1, &known);
  const bool keepdims = c.attrs().GetInt("keepdims", 1) != 0;
  if (!known || !c.in(0).has_shape) {
    c.SetOutputTypeOnly(0, c.in(0).dtype);
    return Status::Ok();
  }
  const Shape& s = c.in(0).shape;
  const int64_t rank = static_cast<int64_t>(s.size());
  std::vector<bool> reduce(s.size(), false);
  if (axes.empty()) {
    const bool noop = c.attrs().GetInt("noop_with_empty_axes", 0) != 0;
    if (noop) {
      c.outputs[0] = c.in(0);
      return Status::Ok();
    }
    reduce.assign(s.size(), true);
  }
  for (int64_t a : axes) {
    auto n = NormalizeAxis(a, rank);
    if (!n.ok()) return c.Error(n.status().message());
    reduce[n.value()] = true;
  }
  Shape out;
  for (size_t i = 0; i < s.size(); ++i) {
    if (!reduce[i])
      out.push_back(s[i]);
    else if (keepdims)
      out.push_back(1);
  }
  c.SetOutput(0, c.in(0).dtype, out);
  return Status::Ok();
}

Status InferArg(InferContext& c) {
  if (!c.in(0).has_shape) {
    c.SetOutputTypeOnly(0, DataType::kInt64);
    return Status::Ok();
  }
  const Shape& s = c.in(0).shape;
  auto axis = NormalizeAxis(c.attrs().GetInt("axis", 0), static_cast<int64_t>(s.size()));
  if (!axis.ok()) return c.Error(axis.status().message());
  Shape out = s;
  if (c.attrs().GetInt("keepdims", 1))
    out[axis.value()] = 1;
  else
    out.erase(out.begin() + axis.value());
  c.SetOutput(0, DataType::kInt64, out);
  return Status::Ok();
}

// oc.ArgMaxV2 / oc.ArgMinV2 (GE's ArgMaxV2 with its axis known only at execution): inputs
// x and the one-value axis; int64 indices with the axis dropped.
Status InferArgV2(InferContext& c) {
  bool known = false;
  const std::vector<int64_t> axes = AxesFromInputOrAttr(c, 1, &known);
  if (!known || !c.in(0).has_shape) {
    c.SetOutputTypeOnly(0, DataType::kInt64);
    return Status::Ok();
  }
  if (axes.size() != 1) return c.Error("the dimension input must hold one axis");
  const Shape& s = c.in(0).shape;
  auto axis = NormalizeAxis(axes[0], static_cast<int64_t>(s.size()));
  if (!axis.ok()) return c.Error(axis.status().message());
  Shape out = s;
  out.erase(out.begin() + axis.value());
  c.SetOutput(0, DataType::kInt64, out);
  return Status::Ok();
}

}  // namespace

void RegisterReductionSchemas(OpRegistry& r) {
  for (const char* op :
       {"ReduceMean", "ReduceSum", "ReduceMax", "ReduceMin", "ReduceProd", "ReduceL1", "ReduceL2",
        "ReduceLogSum", "ReduceLogSumExp", "ReduceSumSquare"}) {
    r.Register({op, "", 1, 2, 1, 1, InferReduce});
  }
  r.Register({"ArgMax", "", 1, 1, 1, 1, InferArg});
  r.Register({"ArgMin", "", 1, 1, 1, 1, InferArg});
  r.Register({"ArgMaxV2", kOcDomain, 2, 2, 1, 1, InferArgV2});
  r.Register({"ArgMinV2", kOcDomain, 2, 2, 1, 1, InferArgV2});
}

}  // namespace oc
