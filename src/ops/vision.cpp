// Detection and sampling ops: NonMaxSuppression, GridSample, RoiAlign.
#include "ops/op_families.h"
#include "ops/schema_helpers.h"

namespace oc {
namespace {

Status InferNms(InferContext& c) {
  c.SetOutput(0, DataType::kInt64, {-1, 3});  // the count depends on the values
  return Status::Ok();
}

Status InferGridSample(InferContext& c) {
  const ValueInfo &x = c.in(0), &g = c.in(1);
  if (!x.has_shape || !g.has_shape || x.shape.size() != 4 || g.shape.size() != 4)
    return c.Error("X must be [N,C,H,W] and grid [N,Ho,Wo,2]");
  c.SetOutput(0, x.dtype, {x.shape[0], x.shape[1], g.shape[1], g.shape[2]});
  return Status::Ok();
}

Status InferRoiAlign(InferContext& c) {
  const ValueInfo &x = c.in(0), &rois = c.in(1);
  const int64_t h = c.attrs().GetInt("output_height", 1), w = c.attrs().GetInt("output_width", 1);
  c.SetOutput(0, x.dtype, {rois.shape[0], x.shape[1], h, w});
  return Status::Ok();
}

}  // namespace

void RegisterVisionSchemas(OpRegistry& r) {
  r.Register({"NonMaxSuppression", "", 2, 5, 1, 1, InferNms});
  r.SetTraits("", "NonMaxSuppression", ValuesDecideOutputShapes());
  r.Register({"GridSample", "", 2, 2, 1, 1, InferGridSample});
  r.Register({"RoiAlign", "", 3, 3, 1, 1, InferRoiAlign});
}

}  // namespace oc
