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
  const ValueInfo &x = c.in(0), &rois = c.in(1), &index = c.in(2);
  if (x.shape.size() != 4 || rois.shape.size() != 2 || index.shape.size() != 1)
    return c.Error("X must be [N,C,H,W], rois [R,4] and batch_indices [R]");
  if (rois.shape[1] >= 0 && rois.shape[1] != 4) return c.Error("rois must be [R,4]");
  const int64_t h = c.attrs().GetInt("output_height", 1), w = c.attrs().GetInt("output_width", 1);
  if (h < 1 || w < 1) return c.Error("output_height and output_width must be at least 1");
  if (c.attrs().GetInt("sampling_ratio", 0) < 0) return c.Error("sampling_ratio must be 0 or more");
  const std::string mode = c.attrs().GetString("mode", "avg");
  if (mode != "avg" && mode != "max") return c.Error("mode must be avg or max, not " + mode);
  const std::string ctm = c.attrs().GetString("coordinate_transformation_mode", "half_pixel");
  if (ctm != "half_pixel" && ctm != "output_half_pixel")
    return c.Error("coordinate_transformation_mode must be half_pixel or output_half_pixel, not " +
                   ctm);
  const int64_t r = rois.shape[0] >= 0 ? rois.shape[0] : index.shape[0];
  c.SetOutput(0, x.dtype, {r, x.shape[1], h, w});
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
