// CANN's YOLO post-processing layers of its Caffe dialect: Yolo (one head into coordinates,
// objectness and class scores) and YoloV3DetectionOutput (the boxes of three heads).
#include <string>
#include <vector>

#include "frontend/caffe/caffe_layers.h"

namespace oc::caffe_import {

// Yolo: the head [N, boxes*(4+1+classes), H, W], per anchor x, y, w, h, objectness, classes,
// becomes coordinates [N, boxes*4, H, W] (x and y through a sigmoid, w and h raw),
// objectness [N, boxes, H, W] (sigmoid) and class scores [N, boxes*classes, H, W] (softmax
// over the classes with `softmax`, else a sigmoid each). The NPU's operator pads the flattened
// H*W to a multiple of 16 for its vector unit; OpenCANN keeps H and W, which only
// YoloV3DetectionOutput reads.
Status Yolo(const LayerParameter& l, const Weights&, Builder& b) {
  const auto& p = l.yolo_param();
  if (l.bottom_size() != 1 || l.top_size() != 3)
    return LayerError(l, "takes one head and gives coordinates, objectness and classes");
  if (p.coords() != 4) return LayerError(l, "coords must be 4");
  if (p.boxes() < 1 || p.boxes() > 64 || p.classes() < 1 || p.classes() > 1024)
    return LayerError(l, "boxes must be 1..64 and classes 1..1024");
  if (p.yolo_version() != "V3" && p.yolo_version() != "V2")
    return Unsupported(l, "yolo_version [" + p.yolo_version() + "] (V2 and V3 are)");
  if (p.background() || p.softmaxtree()) return Unsupported(l, "background or softmaxtree classes");
  OC_ASSIGN_OR_RETURN(std::string x, b.Bottom(l, 0));
  const int64_t per_anchor = 5 + p.classes();
  if (const Shape* s = KnownShape(b, x)) {
    if (s->size() != 4 || ((*s)[1] >= 0 && (*s)[1] != p.boxes() * per_anchor))
      return LayerError(l, "the head must be [N, " + std::to_string(p.boxes() * per_anchor) +
                               ", H, W] for " + std::to_string(p.boxes()) + " boxes of " +
                               std::to_string(p.classes()) + " classes");
  }
  const std::string axes = b.Ints(l.name() + "_axis", {1});
  auto channels = [&](int64_t from, int64_t to) {
    return b.Add1(l.name(), "Slice",
                  {x, b.Ints(l.name() + "_from", {from}), b.Ints(l.name() + "_to", {to}), axes});
  };
  std::vector<std::string> coords, objectness, classes;
  for (int64_t a = 0; a < p.boxes(); ++a) {
    const int64_t base = a * per_anchor;
    coords.push_back(b.Add1(l.name(), "Sigmoid", {channels(base, base + 2)}));
    coords.push_back(channels(base + 2, base + 4));
    objectness.push_back(b.Add1(l.name(), "Sigmoid", {channels(base + 4, base + 5)}));
    const std::string scores = channels(base + 5, base + per_anchor);
    AttributeMap over_classes;
    over_classes.Set("axis", int64_t{1});
    classes.push_back(p.softmax() ? b.Add1(l.name(), "Softmax", {scores}, over_classes)
                                  : b.Add1(l.name(), "Sigmoid", {scores}));
  }
  AttributeMap cat;
  cat.Set("axis", int64_t{1});
  return SetTops(l, b,
                 {b.Add1(l.name() + "_coords", "Concat", coords, cat),
                  b.Add1(l.name() + "_obj", "Concat", objectness, cat),
                  b.Add1(l.name() + "_classes", "Concat", classes, cat)});
}

// YoloV3DetectionOutput: bottoms the three heads' coordinates, then objectness, then
// classes, then img_info [N, 4] (net H, net W, image H, image W); tops box_out [N,
// 6*post_nms_topn] and box_out_num [N, 8] int32 (oc.YoloV3DetectionOutput says how).
Status YoloV3DetectionOutput(const LayerParameter& l, const Weights&, Builder& b) {
  const auto& p = l.yolov3_detection_output_param();
  if (l.bottom_size() != 10 || l.top_size() != 2)
    return LayerError(l,
                      "takes 3 coordinates, 3 objectness, 3 class inputs and img_info and "
                      "gives box_out and box_out_num");
  if (p.coords() != 4) return LayerError(l, "coords must be 4");
  const int boxes = p.boxes();
  if (boxes < 1 || boxes > 64 || p.classes() < 1 || p.classes() > 1024)
    return LayerError(l, "boxes must be 1..64 and classes 1..1024");
  for (const auto* biases : {&p.biases_high(), &p.biases_mid(), &p.biases_low()})
    if (biases->size() != 2 * boxes)
      return LayerError(l, "biases_high, biases_mid and biases_low need " +
                               std::to_string(2 * boxes) + " values each (w, h per box)");
  if (p.pre_nms_topn() < 1 || p.pre_nms_topn() > 1024 || p.post_nms_topn() < 1 ||
      p.post_nms_topn() > 1024)
    return LayerError(l, "pre_nms_topn and post_nms_topn must be 1..1024");
  for (float t : {p.obj_threshold(), p.score_threshold(), p.iou_threshold()})
    if (!(t >= 0 && t <= 1)) return LayerError(l, "thresholds must be in [0, 1]");
  std::vector<std::string> in;
  for (int i = 0; i < 10; ++i) {
    OC_ASSIGN_OR_RETURN(std::string v, b.Bottom(l, static_cast<size_t>(i)));
    in.push_back(v);
  }
  AttributeMap a;
  a.Set("boxes", int64_t{boxes});
  a.Set("classes", int64_t{p.classes()});
  a.Set("relative", int64_t{p.relative()});
  a.Set("obj_threshold", p.obj_threshold());
  a.Set("score_threshold", p.score_threshold());
  a.Set("iou_threshold", p.iou_threshold());
  a.Set("pre_nms_topn", int64_t{p.pre_nms_topn()});
  a.Set("post_nms_topn", int64_t{p.post_nms_topn()});
  a.Set("biases_high", std::vector<float>(p.biases_high().begin(), p.biases_high().end()));
  a.Set("biases_mid", std::vector<float>(p.biases_mid().begin(), p.biases_mid().end()));
  a.Set("biases_low", std::vector<float>(p.biases_low().begin(), p.biases_low().end()));
  return SetTops(l, b, b.Add(l.name(), "YoloV3DetectionOutput", in, a, 2, kOcDomain));
}

}  // namespace oc::caffe_import
