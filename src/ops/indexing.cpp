// Index-driven ops: GatherElements, GatherND, ScatterElements/Scatter, ScatterND, OneHot,
// Trilu, CumSum, EyeLike, DepthToSpace, SpaceToDepth, TopK, IsInf, Shrink.
#include "ops/op_families.h"
#include "ops/schema_helpers.h"
#include "ops/shape_rules.h"

namespace oc {
namespace {

Status InferGatherElements(InferContext& c) {
  if (!c.in(1).has_shape) {
    c.SetOutputTypeOnly(0, c.in(0).dtype);
    return Status::Ok();
  }
  if (c.in(0).has_shape && c.in(0).shape.size() != c.in(1).shape.size())
    return c.Error("data and indices must have the same rank");
  c.SetOutput(0, c.in(0).dtype, c.in(1).shape);
  return Status::Ok();
}

Status InferGatherND(InferContext& c) {
  const ValueInfo &d = c.in(0), &i = c.in(1);
  if (!d.has_shape || !i.has_shape || i.shape.empty() || i.shape.back() < 0) {
    c.SetOutputTypeOnly(0, d.dtype);
    return Status::Ok();
  }
  const int64_t b = c.attrs().GetInt("batch_dims", 0);
  const int64_t last = i.shape.back();
  if (b + last > static_cast<int64_t>(d.shape.size())) return c.Error("indices too long");
  Shape out(i.shape.begin(), i.shape.end() - 1);
  out.insert(out.end(), d.shape.begin() + b + last, d.shape.end());
  c.SetOutput(0, d.dtype, out);
  return Status::Ok();
}

Status InferOneHot(InferContext& c) {
  const Tensor* depth = c.constant(1);
  if (!depth || !c.in(0).has_shape) {
    c.SetOutputTypeOnly(0, c.in(2).dtype);
    return Status::Ok();
  }
  const int64_t rank = static_cast<int64_t>(c.in(0).shape.size()) + 1;
  int64_t axis = c.attrs().GetInt("axis", -1);
  if (axis < 0) axis += rank;
  if (axis < 0 || axis >= rank) return c.Error("axis out of range");
  if (depth->numel() != 1) return c.Error("depth must hold one value");
  const double d = depth->GetAsDouble(0);
  if (!(d >= 1 && d < 9.0e18)) return c.Error("depth must be 1 or more");
  Shape out = c.in(0).shape;
  out.insert(out.begin() + axis, static_cast<int64_t>(d));
  c.SetOutput(0, c.in(2).dtype, out);
  return Status::Ok();
}

Status InferDepthToSpace(InferContext& c) {
  const Shape& s = c.in(0).shape;
  if (s.size() != 4) return c.Error("input must be 4-D");
  const int64_t b = c.attrs().GetInt("blocksize", 0);
  // Bounded so that b * b and a dim times b cannot overflow.
  if (b <= 0 || b > (int64_t{1} << 20)) return c.Error("blocksize must be in [1, 2^20]");
  if (c.node->op_type == "DepthToSpace") {
    if (s[1] % (b * b)) return c.Error("channels not divisible by blocksize^2");
    c.SetOutput(0, c.in(0).dtype, {s[0], s[1] / (b * b), s[2] * b, s[3] * b});
  } else {
    if (s[2] % b || s[3] % b) return c.Error("H and W must be divisible by blocksize");
    c.SetOutput(0, c.in(0).dtype, {s[0], s[1] * b * b, s[2] / b, s[3] / b});
  }
  return Status::Ok();
}

Status InferTopK(InferContext& c) {
  const Tensor* k = c.constant(1);
  const ValueInfo& x = c.in(0);
  Shape out = x.shape;
  if (!x.has_shape) {
    c.SetOutputTypeOnly(0, x.dtype);
    c.SetOutputTypeOnly(1, DataType::kInt64);
    return Status::Ok();
  }
  auto axis = NormalizeAxis(c.attrs().GetInt("axis", -1), static_cast<int64_t>(out.size()));
  if (!axis.ok()) return c.Error(axis.status().message());
  if (out.empty()) return c.Error("X must have rank 1 or more");
  if (k && k->numel() != 1) return c.Error("K must hold one value");
  if (!k && c.has_input(1)) {  // K is known only at run time: so is the axis' length
    out[axis.value()] = -1;
    c.SetOutput(0, x.dtype, out);
    c.SetOutput(1, DataType::kInt64, out);
    return Status::Ok();
  }
  if (!k && !c.attrs().Has("k"))
    return c.Error("K is required (the attribute k before opset 10, the second input since)");
  const int64_t kv = k ? k->GetAsInt(0) : c.attrs().GetInt("k", -1);
  if (kv < 0) return c.Error("K must be 0 or more");
  if (kv > out[axis.value()] && out[axis.value()] >= 0) return c.Error("k is larger than the axis");
  out[axis.value()] = kv;
  c.SetOutput(0, x.dtype, out);
  c.SetOutput(1, DataType::kInt64, out);
  return Status::Ok();
}

Status InferEyeLike(InferContext& c) {
  DataType dt = DataType::kUndefined;
  OC_RETURN_IF_ERROR(DtypeAttr(c, "dtype", c.in(0).dtype, &dt));
  c.outputs[0] = c.in(0);
  c.outputs[0].dtype = dt;
  return Status::Ok();
}

}  // namespace

void RegisterIndexingSchemas(OpRegistry& r) {
  r.Register({"GatherElements", "", 2, 2, 1, 1, InferGatherElements});
  r.Register({"GatherND", "", 2, 2, 1, 1, InferGatherND});
  r.Register({"ScatterElements", "", 3, 3, 1, 1, InferSameAsInput});
  r.Register({"Scatter", "", 3, 3, 1, 1, InferSameAsInput});
  r.Register({"ScatterND", "", 3, 3, 1, 1, InferSameAsInput});
  r.Register({"OneHot", "", 3, 3, 1, 1, InferOneHot});
  r.Register({"Trilu", "", 1, 2, 1, 1, InferSameAsInput});
  r.Register({"CumSum", "", 2, 2, 1, 1, InferSameAsInput});
  r.Register({"EyeLike", "", 1, 1, 1, 1, InferEyeLike});
  r.Register({"DepthToSpace", "", 1, 1, 1, 1, InferDepthToSpace});
  r.Register({"SpaceToDepth", "", 1, 1, 1, 1, InferDepthToSpace});
  r.Register({"TopK", "", 1, 2, 2, 2, InferTopK});
  r.SetTraits("", "TopK", NeedsValuesOf({1}));
  r.SetTraits("", "OneHot", NeedsValuesOf({1}));
  r.Register({"IsInf", "", 1, 1, 1, 1, [](InferContext& c) {
                OC_RETURN_IF_ERROR(InferSameAsInput(c));
                c.outputs[0].dtype = DataType::kBool;
                return Status::Ok();
              }});
  r.Register({"Shrink", "", 1, 1, 1, 1, InferSameAsInput});
}

}  // namespace oc
