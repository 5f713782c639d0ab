// Detection and sampling ops: NonMaxSuppression, GridSample, RoiAlign, and oc.DetectionOutput
// (Caffe SSD's decode + per-class NMS + keep_top_k, kernels/cpu/detection_output.cpp).
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

// oc.DetectionOutput: loc [N, P*L*4], conf [N, P*C] (anything after the batch axis is
// flattened, as Caffe does), prior [1, 2, P*4] (boxes, then variances). Output as Caffe's:
// [1, 1, D, 7] rows of (image, label, score, xmin, ymin, xmax, ymax), D decided by the values.
Status InferDetectionOutput(InferContext& c) {
  const AttributeMap& a = c.attrs();
  const int64_t classes = a.GetInt("num_classes", 0);
  if (classes < 1 || classes > (int64_t{1} << 20)) return c.Error("num_classes must be 1..2^20");
  if (a.GetFloat("nms_threshold", 0.3f) < 0) return c.Error("nms_threshold must not be negative");
  const float eta = a.GetFloat("eta", 1.0f);
  if (!(eta > 0 && eta <= 1)) return c.Error("eta must be in (0, 1]");
  const int64_t code = a.GetInt("code_type", 1);
  if (code < 1 || code > 3) return c.Error("code_type must be 1 (CORNER), 2 (CENTER_SIZE) or 3");
  for (size_t i = 0; i < 3; ++i)
    if (c.in(i).dtype != DataType::kFloat) return c.Error("loc, conf and prior must be float32");
  const ValueInfo &loc = c.in(0), &conf = c.in(1), &prior = c.in(2);
  if (prior.has_shape && (prior.shape.size() != 3 || prior.shape[1] != 2 || prior.shape[2] % 4))
    return c.Error("prior must be [1, 2, P*4]");
  auto per_image = [](const ValueInfo& v) -> int64_t {
    if (!v.has_shape || v.shape.size() < 2 || !IsStatic(v.shape)) return -1;
    int64_t n = 1;
    for (size_t i = 1; i < v.shape.size(); ++i) n *= v.shape[i];
    return n;
  };
  const int64_t p = prior.has_shape && IsStatic(prior.shape) ? prior.shape[2] / 4 : -1;
  const int64_t loc_classes = a.GetInt("share_location", 1) ? 1 : classes;
  if (p >= 0 && per_image(loc) >= 0 && per_image(loc) != p * loc_classes * 4)
    return c.Error("loc holds " + std::to_string(per_image(loc)) + " values per image, " +
                   std::to_string(p) + " priors need " + std::to_string(p * loc_classes * 4));
  if (p >= 0 && per_image(conf) >= 0 && per_image(conf) != p * classes)
    return c.Error("conf holds " + std::to_string(per_image(conf)) + " values per image, " +
                   std::to_string(p) + " priors of " + std::to_string(classes) + " classes need " +
                   std::to_string(p * classes));
  if (loc.has_shape && conf.has_shape && !loc.shape.empty() && !conf.shape.empty() &&
      loc.shape[0] >= 0 && conf.shape[0] >= 0 && loc.shape[0] != conf.shape[0])
    return c.Error("loc and conf differ in batch");
  if (c.outputs.size() == 2) {
    // oc.SSDDetectionOutput (CANN's operator): fixed outputs, the count and the box table.
    const int64_t keep = a.GetInt("keep_top_k", 0);
    if (keep < 1 || keep > 1024) return c.Error("keep_top_k must be 1..1024");
    const int64_t n = loc.has_shape && !loc.shape.empty() ? loc.shape[0] : -1;
    c.SetOutput(0, DataType::kInt32, {n, 8});
    c.SetOutput(1, DataType::kFloat, {n, keep, 8});
    return Status::Ok();
  }
  c.SetOutput(0, DataType::kFloat, {1, 1, -1, 7});
  return Status::Ok();
}

// oc.YoloV3DetectionOutput (CANN's operator): three heads' coordinates [N, B*4, H, W],
// objectness [N, B, H, W] and classes [N, B*C, H, W] (oc's Yolo layout), then img_info
// [N, 4]; outputs box_out [N, 6*post_nms_topn] and box_out_num [N, 8] int32.
Status InferYoloV3DetectionOutput(InferContext& c) {
  const AttributeMap& a = c.attrs();
  const int64_t boxes = a.GetInt("boxes", 3), classes = a.GetInt("classes", 80);
  const int64_t post = a.GetInt("post_nms_topn", 1024), pre = a.GetInt("pre_nms_topn", 512);
  if (boxes < 1 || boxes > 64 || classes < 1 || classes > 1024 || post < 1 || post > 1024 ||
      pre < 1 || pre > 1024)
    return c.Error("boxes 1..64, classes 1..1024, pre_nms_topn and post_nms_topn 1..1024");
  for (const char* k : {"biases_low", "biases_mid", "biases_high"})
    if (a.GetFloats(k).size() != static_cast<size_t>(2 * boxes))
      return c.Error(std::string(k) + " must hold 2 values per box");
  int64_t n = -1;
  for (int s = 0; s < 3; ++s) {
    const ValueInfo &coords = c.in(s), &obj = c.in(3 + s), &cls = c.in(6 + s);
    for (const ValueInfo* v : {&coords, &obj, &cls})
      if (v->dtype != DataType::kFloat) return c.Error("the heads must be float32");
    if (!coords.has_shape || !obj.has_shape || !cls.has_shape) continue;
    const Shape &cs = coords.shape, &os = obj.shape, &ks = cls.shape;
    if (cs.size() != 4 || os.size() != 4 || ks.size() != 4)
      return c.Error("head " + std::to_string(s) + ": inputs must be [N, ., H, W]");
    if ((cs[1] >= 0 && cs[1] != boxes * 4) || (os[1] >= 0 && os[1] != boxes) ||
        (ks[1] >= 0 && ks[1] != boxes * classes))
      return c.Error("head " + std::to_string(s) + ": coordinates, objectness and classes must " +
                     "have " + std::to_string(boxes * 4) + ", " + std::to_string(boxes) + " and " +
                     std::to_string(boxes * classes) + " channels");
    n = cs[0];
  }
  const ValueInfo& info = c.in(9);
  if (info.dtype != DataType::kFloat) return c.Error("img_info must be float32");
  if (info.has_shape && (info.shape.size() != 2 || (info.shape[1] >= 0 && info.shape[1] != 4)))
    return c.Error("img_info must be [N, 4]");
  c.SetOutput(0, DataType::kFloat, {n, 6 * post});
  c.SetOutput(1, DataType::kInt32, {n, 8});
  return Status::Ok();
}

}  // namespace

void RegisterVisionSchemas(OpRegistry& r) {
  r.Register({"NonMaxSuppression", "", 2, 5, 1, 1, InferNms});
  r.SetTraits("", "NonMaxSuppression", ValuesDecideOutputShapes());
  r.Register({"GridSample", "", 2, 2, 1, 1, InferGridSample});
  r.Register({"RoiAlign", "", 3, 3, 1, 1, InferRoiAlign});
  r.Register({"DetectionOutput", kOcDomain, 3, 3, 1, 1, InferDetectionOutput});
  r.SetTraits(kOcDomain, "DetectionOutput", ValuesDecideOutputShapes());
  r.Register({"SSDDetectionOutput", kOcDomain, 3, 3, 2, 2, InferDetectionOutput});
  r.Register({"YoloV3DetectionOutput", kOcDomain, 10, 10, 2, 2, InferYoloV3DetectionOutput});
}

}  // namespace oc
