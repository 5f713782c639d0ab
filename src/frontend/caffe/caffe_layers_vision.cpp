// Caffe's SSD layers (PriorBox, DetectionOutput, Normalize) and the resizing layers of its
// forks (Interp, Upsample).
#include <algorithm>
#include <cmath>
#include <string>
#include <vector>

#include "frontend/caffe/caffe_layers.h"

namespace oc::caffe_import {
namespace {

Status ResizeTo(const LayerParameter& l, Builder& b, const std::string& x, const Shape& in,
                int64_t h, int64_t w, const char* mode, const char* transform) {
  if (h < 1 || w < 1)
    return LayerError(l, "makes an output of " + std::to_string(h) + "x" + std::to_string(w));
  AttributeMap a;
  a.Set("mode", std::string(mode));
  a.Set("coordinate_transformation_mode", std::string(transform));
  if (std::string(mode) == "nearest") a.Set("nearest_mode", std::string("floor"));
  const std::string none = b.Floats(l.name() + "_none", {}, {0});
  return SetTops(l, b,
                 {b.Add1(l.name(), "Resize",
                         {x, none, none, b.Ints(l.name() + "_sizes", {in[0], in[1], h, w})}, a)});
}

}  // namespace

// SSD's PriorBox: the default boxes of each cell of a feature map, as Caffe's SSD fork lays
// them out: per cell, per min_size, the min_size square, the sqrt(min*max) square, then one
// box per further aspect ratio; then the variances. They depend on shapes only, so the layer
// becomes a constant [1, 2, H*W*priors*4].
Status PriorBox(const LayerParameter& l, const Weights&, Builder& b) {
  const auto& p = l.prior_box_param();
  if (l.bottom_size() != 2) return LayerError(l, "needs the feature map and the image as bottoms");
  OC_ASSIGN_OR_RETURN(std::string feat, b.Bottom(l, 0));
  OC_ASSIGN_OR_RETURN(std::string image, b.Bottom(l, 1));
  const Shape* fs = KnownShape(b, feat);
  if (!fs || fs->size() != 4) return Unsupported(l, "a feature map of unknown or non-4-D shape");
  if (p.min_size_size() == 0) return LayerError(l, "needs min_size");
  for (float m : p.min_size())
    if (!(m > 0)) return LayerError(l, "min_size must be positive");
  if (p.max_size_size() > 0 && p.max_size_size() != p.min_size_size())
    return LayerError(l, "needs as many max_size as min_size values");
  for (int i = 0; i < p.max_size_size(); ++i)
    if (!(p.max_size(i) > p.min_size(i))) return LayerError(l, "max_size must exceed min_size");
  if (p.has_img_size() && (p.has_img_h() || p.has_img_w()))
    return LayerError(l, "img_size and img_h/img_w are both given");
  if (p.has_step() && (p.has_step_h() || p.has_step_w()))
    return LayerError(l, "step and step_h/step_w are both given");
  if (p.variance_size() != 0 && p.variance_size() != 1 && p.variance_size() != 4)
    return LayerError(l, "needs 1 or 4 variance values");
  for (float v : p.variance())
    if (!(v > 0)) return LayerError(l, "variance must be positive");
  std::vector<float> ratios{1.0f};
  for (float r : p.aspect_ratio()) {
    if (!(r > 0)) return LayerError(l, "aspect_ratio must be positive");
    bool seen = false;
    for (float q : ratios) seen = seen || std::fabs(r - q) < 1e-6f;
    if (seen) continue;
    ratios.push_back(r);
    if (p.flip()) ratios.push_back(1.0f / r);
  }
  const int64_t layer_h = (*fs)[2], layer_w = (*fs)[3];
  double img_h = p.has_img_size() ? p.img_size() : p.img_h();
  double img_w = p.has_img_size() ? p.img_size() : p.img_w();
  if (img_h == 0 || img_w == 0) {
    const Shape* is = KnownShape(b, image);
    if (!is || is->size() != 4) return Unsupported(l, "an image of unknown or non-4-D shape");
    img_h = static_cast<double>((*is)[2]);
    img_w = static_cast<double>((*is)[3]);
  }
  double step_h = p.has_step() ? p.step() : p.step_h();
  double step_w = p.has_step() ? p.step() : p.step_w();
  if (step_h == 0 || step_w == 0) {
    if (layer_h == 0 || layer_w == 0) return LayerError(l, "the feature map is empty");
    step_h = static_cast<float>(img_h / layer_h);
    step_w = static_cast<float>(img_w / layer_w);
  }
  if (!(img_h > 0 && img_w > 0 && step_h > 0 && step_w > 0))
    return LayerError(l, "image size and step must be positive");
  const int64_t per_cell =
      static_cast<int64_t>(ratios.size()) * p.min_size_size() + p.max_size_size();
  const int64_t count = layer_h * layer_w * per_cell * 4;
  if (count > (int64_t{1} << 28)) return LayerError(l, "makes too many boxes");
  std::vector<float> data;
  data.reserve(static_cast<size_t>(count * 2));
  auto push = [&](double cx, double cy, double w, double h) {
    for (double v :
         {(cx - w / 2) / img_w, (cy - h / 2) / img_h, (cx + w / 2) / img_w, (cy + h / 2) / img_h})
      data.push_back(static_cast<float>(p.clip() ? std::min(std::max(v, 0.0), 1.0) : v));
  };
  for (int64_t h = 0; h < layer_h; ++h)
    for (int64_t w = 0; w < layer_w; ++w) {
      const double cx = (w + p.offset()) * step_w, cy = (h + p.offset()) * step_h;
      for (int s = 0; s < p.min_size_size(); ++s) {
        const double min_size = p.min_size(s);
        push(cx, cy, min_size, min_size);
        if (p.max_size_size() > 0) {
          const double side = std::sqrt(min_size * p.max_size(s));
          push(cx, cy, side, side);
        }
        for (float r : ratios) {
          if (std::fabs(r - 1.0f) < 1e-6f) continue;
          push(cx, cy, min_size * std::sqrt(r), min_size / std::sqrt(r));
        }
      }
    }
  for (int64_t i = 0; i < count / 4; ++i)
    for (int k = 0; k < 4; ++k)
      data.push_back(p.variance_size() == 0   ? 0.1f
                     : p.variance_size() == 1 ? p.variance(0)
                                              : p.variance(k));
  return SetTops(l, b, {b.Floats(l.name(), data, {1, 2, count})});
}

Status DetectionOutput(const LayerParameter& l, const Weights&, Builder& b) {
  const auto& p = l.detection_output_param();
  if (l.bottom_size() != 3) return Unsupported(l, "bottoms other than loc, conf and prior");
  if (!p.has_num_classes() || p.num_classes() < 1) return LayerError(l, "needs num_classes");
  std::vector<std::string> in;
  for (size_t i = 0; i < 3; ++i) {
    OC_ASSIGN_OR_RETURN(std::string x, b.Bottom(l, i));
    in.push_back(x);
  }
  const auto& nms = p.nms_param();
  if (nms.nms_threshold() < 0) return LayerError(l, "nms_threshold must not be negative");
  if (!(nms.eta() > 0 && nms.eta() <= 1)) return LayerError(l, "eta must be in (0, 1]");
  AttributeMap a;
  a.Set("num_classes", int64_t{p.num_classes()});
  a.Set("share_location", int64_t{p.share_location()});
  a.Set("background_label_id", int64_t{p.background_label_id()});
  a.Set("nms_threshold", nms.nms_threshold());
  a.Set("top_k", int64_t{nms.has_top_k() ? nms.top_k() : -1});
  a.Set("eta", nms.eta());
  a.Set("code_type", int64_t{p.code_type()});
  a.Set("variance_encoded_in_target", int64_t{p.variance_encoded_in_target()});
  a.Set("keep_top_k", int64_t{p.keep_top_k()});
  if (p.has_confidence_threshold()) a.Set("confidence_threshold", p.confidence_threshold());
  return SetTops(l, b, b.Add(l.name(), "DetectionOutput", in, a, 1, kOcDomain));
}

// CANN's SSDDetectionOutput: SSD's decode and NMS with the NPU operator's outputs, the box
// count per image (int32 [N, 8], the count first) and the boxes (float [N, keep_top_k, 8]:
// image, label, score, xmin, ymin, xmax, ymax, 0; unused rows zero).
Status SsdDetectionOutput(const LayerParameter& l, const Weights&, Builder& b) {
  const auto& p = l.ssddetectionoutput_param();
  if (l.bottom_size() != 3 || l.top_size() != 2)
    return LayerError(l, "takes bbox_delta, score and anchors and gives out_boxnum and y");
  if (p.num_classes() < 1 || p.num_classes() > 1024) return LayerError(l, "num_classes 1..1024");
  if (p.keep_top_k() < 1 || p.keep_top_k() > 1024) return LayerError(l, "keep_top_k 1..1024");
  if (p.top_k() < 1 || p.top_k() > 1024) return LayerError(l, "top_k 1..1024");
  if (!(p.iou_threshold() > 0 && p.iou_threshold() <= 1))
    return LayerError(l, "iou_threshold must be in (0, 1]");
  if (p.eta() != 1.0f) return Unsupported(l, "eta other than 1 (the operator takes only 1)");
  if (p.code_type() < 1 || p.code_type() > 3) return LayerError(l, "code_type 1..3");
  std::vector<std::string> in;
  for (size_t i = 0; i < 3; ++i) {
    OC_ASSIGN_OR_RETURN(std::string x, b.Bottom(l, i));
    in.push_back(x);
  }
  AttributeMap a;
  a.Set("num_classes", int64_t{p.num_classes()});
  a.Set("share_location", int64_t{p.share_location()});
  a.Set("background_label_id", int64_t{p.background_label_id()});
  a.Set("nms_threshold", p.iou_threshold());
  a.Set("top_k", int64_t{p.top_k()});
  a.Set("eta", 1.0f);
  a.Set("code_type", int64_t{p.code_type()});
  a.Set("variance_encoded_in_target", int64_t{p.variance_encoded_in_target()});
  a.Set("keep_top_k", int64_t{p.keep_top_k()});
  a.Set("confidence_threshold", p.confidence_threshold());
  return SetTops(l, b, b.Add(l.name(), "SSDDetectionOutput", in, a, 2, kOcDomain));
}

// SSD's Normalize: x / sqrt(sum of squares + eps) over the channels (or over C, H and W when
// across_spatial), times a learned scale per channel (or one shared).
Status Normalize(const LayerParameter& l, const Weights& w, Builder& b) {
  const auto& p = l.norm_param();
  OC_RETURN_IF_ERROR(NeedBlobs(l, w, 1));
  OC_ASSIGN_OR_RETURN(std::string x, b.Bottom(l, 0));
  const int64_t rank = Rank(b, x);
  if (rank < 2) return Unsupported(l, "an input of unknown rank or rank below 2");
  const Tensor& scale = w.blobs[0];
  const Shape* shape = KnownShape(b, x);
  if (p.channel_shared() ? scale.numel() != 1 : (shape && scale.numel() != (*shape)[1]))
    return LayerError(l, "has " + std::to_string(scale.numel()) + " scale values for " +
                             (p.channel_shared() ? std::string("a shared scale")
                                                 : std::to_string((*shape)[1]) + " channels"));
  std::vector<int64_t> axes{1};
  for (int64_t i = 2; p.across_spatial() && i < rank; ++i) axes.push_back(i);
  AttributeMap keep;
  keep.Set("keepdims", int64_t{1});
  std::string sum =
      b.Add1(l.name(), "ReduceSum",
             {b.Add1(l.name(), "Mul", {x, x}), b.Ints(l.name() + "_axes", axes)}, keep);
  sum = b.Add1(l.name(), "Add", {sum, b.Floats(l.name() + "_eps", {p.eps()}, {})});
  std::string y = b.Add1(l.name(), "Div", {x, b.Add1(l.name(), "Sqrt", {sum})});
  if (p.channel_shared() && scale.numel() != 1)
    return LayerError(
        l, "a shared scale needs one value, the blob holds " + std::to_string(scale.numel()));
  const std::string s = p.channel_shared() ? b.Constant(l.name() + "_scale", Reshaped(scale, {}))
                                           : ChannelParam(l, b, x, scale, "_scale");
  return SetTops(l, b, {b.Add1(l.name(), "Mul", {y, s})});
}

// Interp (PSPNet and DeepLab forks): bilinear with corners aligned, to a size given outright,
// by zoom and/or shrink factors, or by a second bottom.
Status Interp(const LayerParameter& l, const Weights&, Builder& b) {
  const auto& p = l.interp_param();
  OC_ASSIGN_OR_RETURN(std::string x, b.Bottom(l, 0));
  const Shape* s = KnownShape(b, x);
  if (!s || s->size() != 4) return Unsupported(l, "an input of unknown or non-4-D shape");
  if (p.pad_beg() != 0 || p.pad_end() != 0) return Unsupported(l, "pad_beg/pad_end (cropping)");
  const int64_t h_in = (*s)[2], w_in = (*s)[3];
  const bool zoom = p.has_zoom_factor(), shrink = p.has_shrink_factor();
  if ((zoom && p.zoom_factor() < 1) || (shrink && p.shrink_factor() < 1))
    return LayerError(l, "zoom_factor and shrink_factor must be at least 1");
  int64_t h = 0, w = 0;
  if (shrink || zoom) {
    h = h_in;
    w = w_in;
    if (shrink) {
      h = (h - 1) / p.shrink_factor() + 1;
      w = (w - 1) / p.shrink_factor() + 1;
    }
    if (zoom) {
      h += (h - 1) * (p.zoom_factor() - 1);
      w += (w - 1) * (p.zoom_factor() - 1);
    }
  } else if (p.has_height() && p.has_width()) {
    h = p.height();
    w = p.width();
  } else if (l.bottom_size() == 2) {
    OC_ASSIGN_OR_RETURN(std::string ref, b.Bottom(l, 1));
    const Shape* rs = KnownShape(b, ref);
    if (!rs || rs->size() != 4) return Unsupported(l, "a size bottom of unknown shape");
    h = (*rs)[2];
    w = (*rs)[3];
  } else {
    return LayerError(l, "needs height and width, zoom_factor, shrink_factor or a second bottom");
  }
  return ResizeTo(l, b, x, *s, h, w, "linear", "align_corners");
}

// Upsample as YOLOv3 conversions write it: nearest neighbour by an integer scale.
Status Upsample(const LayerParameter& l, const Weights&, Builder& b) {
  const auto& p = l.upsample_param();
  if (l.bottom_size() != 1)
    return Unsupported(l, "max-unpooling with a mask bottom (SegNet's Upsample)");
  if (p.has_upsample_h() || p.has_upsample_w() || p.pad_out_h() || p.pad_out_w())
    return Unsupported(l, "upsample_h/upsample_w/pad_out (SegNet's Upsample)");
  OC_ASSIGN_OR_RETURN(std::string x, b.Bottom(l, 0));
  const Shape* s = KnownShape(b, x);
  if (!s || s->size() != 4) return Unsupported(l, "an input of unknown or non-4-D shape");
  const int64_t sh = p.has_scale_h() ? p.scale_h() : p.scale();
  const int64_t sw = p.has_scale_w() ? p.scale_w() : p.scale();
  if (sh < 1 || sw < 1) return LayerError(l, "scale must be at least 1");
  return ResizeTo(l, b, x, *s, (*s)[2] * sh, (*s)[3] * sw, "nearest", "asymmetric");
}

}  // namespace oc::caffe_import
