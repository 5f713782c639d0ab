// oc.DetectionOutput: what Caffe SSD's DetectionOutput layer computes at inference. Each
// image's boxes are decoded from the priors, each class but the background keeps its boxes
// above confidence_threshold, best top_k first, through greedy NMS (adaptive when eta < 1);
// when more than keep_top_k survive, the best keep_top_k over all classes stay. Rows come
// out per image, then by label, then by score, best first, as Caffe writes them; with no
// detection at all, one row of -1 per image (its image index kept), as Caffe does.
// oc.SSDDetectionOutput (CANN's operator for the same layer) computes the same boxes and
// writes them in the NPU operator's fixed layout: a count per image and a padded table.
#include <algorithm>
#include <cmath>
#include <cstring>
#include <map>

#include "backend/kernel.h"
#include "kernels/cpu/kernel_families.h"

namespace oc {
namespace {

struct Box {
  float xmin, ymin, xmax, ymax;
};

enum CodeType { kCorner = 1, kCenterSize = 2, kCornerSize = 3 };

// Boxes are normalized, so sizes have no +1.
float Area(const Box& b) {
  if (b.xmax < b.xmin || b.ymax < b.ymin) return 0;
  return (b.xmax - b.xmin) * (b.ymax - b.ymin);
}

float Jaccard(const Box& a, const Box& b) {
  if (b.xmin > a.xmax || b.xmax < a.xmin || b.ymin > a.ymax || b.ymax < a.ymin) return 0;
  const float w = std::min(a.xmax, b.xmax) - std::max(a.xmin, b.xmin);
  const float h = std::min(a.ymax, b.ymax) - std::max(a.ymin, b.ymin);
  if (w <= 0 || h <= 0) return 0;
  const float inter = w * h;
  return inter / (Area(a) + Area(b) - inter);
}

Box Decode(const Box& prior, const float* var, const float* d, int code, bool var_in_target) {
  float v[4] = {1, 1, 1, 1};
  if (!var_in_target) std::memcpy(v, var, sizeof v);
  const float pw = prior.xmax - prior.xmin, ph = prior.ymax - prior.ymin;
  Box b{};
  if (code == kCorner) {
    b = {prior.xmin + v[0] * d[0], prior.ymin + v[1] * d[1], prior.xmax + v[2] * d[2],
         prior.ymax + v[3] * d[3]};
  } else if (code == kCenterSize) {
    const float cx = v[0] * d[0] * pw + (prior.xmin + prior.xmax) / 2;
    const float cy = v[1] * d[1] * ph + (prior.ymin + prior.ymax) / 2;
    const float w = std::exp(v[2] * d[2]) * pw, h = std::exp(v[3] * d[3]) * ph;
    b = {cx - w / 2, cy - h / 2, cx + w / 2, cy + h / 2};
  } else {
    b = {prior.xmin + v[0] * d[0] * pw, prior.ymin + v[1] * d[1] * ph,
         prior.xmax + v[2] * d[2] * pw, prior.ymax + v[3] * d[3] * ph};
  }
  return b;
}

class DetectionOutputKernel : public Kernel {
 public:
  Status Prepare(const KernelPrepareContext& ctx) override {
    for (size_t i = 0; i < 3; ++i)
      if (!ctx.constants[i]) return ctx.NeedsValue("loc, conf and prior");
    const AttributeMap& a = ctx.attrs();
    const int64_t classes = a.GetInt("num_classes", 0);
    const bool share = a.GetInt("share_location", 1) != 0;
    const int64_t background = a.GetInt("background_label_id", 0);
    const float nms_threshold = a.GetFloat("nms_threshold", 0.3f);
    const int64_t top_k = a.GetInt("top_k", -1);
    const float eta = a.GetFloat("eta", 1.0f);
    const int code = static_cast<int>(a.GetInt("code_type", kCorner));
    const bool var_in_target = a.GetInt("variance_encoded_in_target", 0) != 0;
    const int64_t keep_top_k = a.GetInt("keep_top_k", -1);
    const float conf_threshold = a.GetFloat("confidence_threshold", -3.4028235e38f);

    const Tensor &loc = *ctx.constants[0], &conf = *ctx.constants[1], &prior = *ctx.constants[2];
    if (prior.shape().size() != 3 || prior.shape()[1] != 2 || prior.shape()[2] % 4 != 0)
      return ctx.Error("prior must be [1, 2, P*4]");
    if (loc.shape().empty() || conf.shape().empty() || loc.shape()[0] != conf.shape()[0])
      return ctx.Error("loc and conf must share their batch axis");
    const int64_t images = loc.shape()[0];
    const int64_t priors = prior.shape()[2] / 4;
    const int64_t loc_classes = share ? 1 : classes;
    if (classes < 1 || classes > (int64_t{1} << 20)) return ctx.Error("num_classes out of range");
    if (images == 0 || loc.numel() / images != priors * loc_classes * 4 ||
        conf.numel() / images != priors * classes)
      return ctx.Error("loc and conf do not hold " + std::to_string(priors) + " priors of " +
                       std::to_string(classes) + " classes");
    const float* pd = static_cast<const float*>(prior.data());
    const float* ld = static_cast<const float*>(loc.data());
    const float* cd = static_cast<const float*>(conf.data());

    rows_.clear();
    std::vector<Box> boxes(static_cast<size_t>(priors * loc_classes));
    for (int64_t i = 0; i < images; ++i) {
      for (int64_t p = 0; p < priors; ++p) {
        const Box pb{pd[p * 4], pd[p * 4 + 1], pd[p * 4 + 2], pd[p * 4 + 3]};
        const float* var = pd + priors * 4 + p * 4;
        for (int64_t l = 0; l < loc_classes; ++l)
          boxes[p * loc_classes + l] =
              Decode(pb, var, ld + ((i * priors + p) * loc_classes + l) * 4, code, var_in_target);
      }
      auto box = [&](int64_t label, int64_t p) -> const Box& {
        return boxes[p * loc_classes + (share ? 0 : label)];
      };
      auto score = [&](int64_t label, int64_t p) { return cd[(i * priors + p) * classes + label]; };

      std::map<int64_t, std::vector<int64_t>> kept;  // label -> priors, best first
      size_t detections = 0;
      for (int64_t c = 0; c < classes; ++c) {
        if (c == background) continue;
        std::vector<int64_t> order;
        for (int64_t p = 0; p < priors; ++p)
          if (score(c, p) > conf_threshold) order.push_back(p);
        std::stable_sort(order.begin(), order.end(),
                         [&](int64_t x, int64_t y) { return score(c, x) > score(c, y); });
        if (top_k > -1 && static_cast<size_t>(top_k) < order.size())
          order.resize(static_cast<size_t>(top_k));
        std::vector<int64_t>& out = kept[c];
        float threshold = nms_threshold;
        for (int64_t p : order) {
          bool keep = true;
          for (int64_t q : out)
            if (Jaccard(box(c, p), box(c, q)) > threshold) {
              keep = false;
              break;
            }
          if (!keep) continue;
          out.push_back(p);
          if (eta < 1 && threshold > 0.5f) threshold *= eta;
        }
        detections += out.size();
      }
      if (keep_top_k > -1 && detections > static_cast<size_t>(keep_top_k)) {
        std::vector<std::pair<int64_t, int64_t>> all;  // (label, prior)
        for (const auto& [c, ps] : kept)
          for (int64_t p : ps) all.emplace_back(c, p);
        std::stable_sort(all.begin(), all.end(), [&](const auto& x, const auto& y) {
          return score(x.first, x.second) > score(y.first, y.second);
        });
        all.resize(static_cast<size_t>(keep_top_k));
        kept.clear();
        for (const auto& [c, p] : all) kept[c].push_back(p);
      }
      for (const auto& [c, ps] : kept)
        for (int64_t p : ps) {
          const Box& b = box(c, p);
          rows_.insert(rows_.end(), {static_cast<float>(i), static_cast<float>(c), score(c, p),
                                     b.xmin, b.ymin, b.xmax, b.ymax});
        }
    }
    images_ = images;
    ascend_ = ctx.node->op_type == "SSDDetectionOutput";
    keep_top_k_ = keep_top_k;
    if (rows_.empty() && !ascend_)
      for (int64_t i = 0; i < images; ++i)
        rows_.insert(rows_.end(), {static_cast<float>(i), -1, -1, -1, -1, -1, -1});
    return Status::Ok();
  }
  bool OutputShapes(std::vector<Shape>* shapes) const override {
    if (ascend_) {
      *shapes = {{images_, 8}, {images_, keep_top_k_, 8}};
      return true;
    }
    *shapes = {{1, 1, static_cast<int64_t>(rows_.size() / 7), 7}};
    return true;
  }
  Status Run(const KernelRunContext& ctx) const override {
    if (!ascend_) {
      std::memcpy(ctx.outputs[0], rows_.data(), rows_.size() * sizeof(float));
      return Status::Ok();
    }
    // CANN's SSDDetectionOutput: per image the count (first of 8 int32) and keep_top_k rows
    // of 8 floats (image, label, score, xmin, ymin, xmax, ymax, 0), unused rows zero.
    auto* counts = static_cast<int32_t*>(ctx.outputs[0]);
    auto* table = static_cast<float*>(ctx.outputs[1]);
    std::memset(counts, 0, static_cast<size_t>(images_) * 8 * sizeof(int32_t));
    std::memset(table, 0, static_cast<size_t>(images_ * keep_top_k_) * 8 * sizeof(float));
    for (size_t r = 0; r + 7 <= rows_.size(); r += 7) {
      const auto image = static_cast<int64_t>(rows_[r]);
      if (image < 0 || image >= images_ || counts[image * 8] >= keep_top_k_) continue;
      float* row = table + (image * keep_top_k_ + counts[image * 8]) * 8;
      std::memcpy(row, &rows_[r], 7 * sizeof(float));
      ++counts[image * 8];
    }
    return Status::Ok();
  }

 private:
  std::vector<float> rows_;
  int64_t images_ = 0, keep_top_k_ = 0;
  bool ascend_ = false;
};

}  // namespace

void RegisterDetectionOutputKernels(KernelTable& r) {
  r.Add<DetectionOutputKernel>("DetectionOutput", kOcDomain,
                               "float32; Caffe SSD decode, per-class NMS, keep_top_k");
  r.Add<DetectionOutputKernel>("SSDDetectionOutput", kOcDomain,
                               "float32; CANN's SSD post-processing: box count and box table");
}

}  // namespace oc
