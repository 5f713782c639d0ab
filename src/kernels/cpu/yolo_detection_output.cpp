// oc.YoloV3DetectionOutput: CANN's YOLOv3 post-processing, computed as Darknet's inference
// computes it. Per image, per head (its anchors chosen by grid size: the finest grid takes
// biases_low, the coarsest biases_high), per cell and anchor: a box centred at
// ((col + x) / W, (row + y) / H) of size (exp(w) * anchor_w / netW, exp(h) * anchor_h / netH)
// when the objectness is above obj_threshold; with `relative`, Darknet's letterbox correction
// for the image size in img_info (net H, net W, image H, image W); corners in image pixels.
// Each class keeps the boxes whose objectness x class score is above score_threshold, its
// best pre_nms_topn, then greedy NMS at iou_threshold; the best post_nms_topn over all classes
// stay, best first. Output as CANN's operator writes it: box_out_num [N, 8] int32 with the
// count K first; box_out [N, 6*post_nms_topn] holding x1[K], y1[K], x2[K], y2[K], score[K],
// label[K] back to back, the rest zero.
#include <algorithm>
#include <array>
#include <cmath>
#include <cstring>
#include <vector>

#include "backend/kernel.h"
#include "kernels/cpu/kernel_families.h"

namespace oc {
namespace {

struct Detection {
  float x1, y1, x2, y2, score;
  int64_t label;
};

float Iou(const Detection& a, const Detection& b) {
  const float w = std::min(a.x2, b.x2) - std::max(a.x1, b.x1);
  const float h = std::min(a.y2, b.y2) - std::max(a.y1, b.y1);
  if (w <= 0 || h <= 0) return 0;
  const float inter = w * h;
  const float uni = (a.x2 - a.x1) * (a.y2 - a.y1) + (b.x2 - b.x1) * (b.y2 - b.y1) - inter;
  return uni > 0 ? inter / uni : 0;
}

class YoloV3DetectionOutputKernel : public Kernel {
 public:
  Status Prepare(const KernelPrepareContext& ctx) override {
    const AttributeMap& a = ctx.attrs();
    boxes_ = a.GetInt("boxes", 3);
    classes_ = a.GetInt("classes", 80);
    relative_ = a.GetInt("relative", 1) != 0;
    obj_threshold_ = a.GetFloat("obj_threshold", 0.5f);
    score_threshold_ = a.GetFloat("score_threshold", 0.5f);
    iou_threshold_ = a.GetFloat("iou_threshold", 0.45f);
    pre_ = a.GetInt("pre_nms_topn", 512);
    post_ = a.GetInt("post_nms_topn", 1024);
    // The schema checks these too; an .om's attributes are checked again where they are used.
    if (boxes_ < 1 || boxes_ > 64 || classes_ < 1 || classes_ > 1024 || pre_ < 1 || pre_ > 1024 ||
        post_ < 1 || post_ > 1024)
      return ctx.Error("boxes 1..64, classes 1..1024, pre_nms_topn and post_nms_topn 1..1024");
    for (const char* k : {"biases_low", "biases_mid", "biases_high"})
      if (a.GetFloats(k).size() != static_cast<size_t>(2 * boxes_))
        return ctx.Error(std::string(k) + " must hold 2 values per box");
    if (ctx.inputs[0].shape.size() != 4) return ctx.Error("head 0 does not have the Yolo layout");
    images_ = ctx.inputs[0].shape[0];
    for (int s = 0; s < 3; ++s) {
      const Shape &cs = ctx.inputs[s].shape, &os = ctx.inputs[3 + s].shape,
                  &ks = ctx.inputs[6 + s].shape;
      if (cs.size() != 4 || os.size() != 4 || ks.size() != 4 || cs[1] != boxes_ * 4 ||
          os[1] != boxes_ || ks[1] != boxes_ * classes_ || cs[0] != images_ || os[0] != images_ ||
          ks[0] != images_ || os[2] != cs[2] || os[3] != cs[3] || ks[2] != cs[2] || ks[3] != cs[3])
        return ctx.Error("head " + std::to_string(s) + " does not have the Yolo layout");
      heads_[s] = {cs[2], cs[3]};
    }
    const Shape& info = ctx.inputs[9].shape;
    if (info.size() != 2 || info[0] != images_ || info[1] != 4)
      return ctx.Error("img_info must be [N, 4]");
    // Anchors by grid size: the finest grid detects the smallest objects.
    int order[3] = {0, 1, 2};
    std::stable_sort(order, order + 3, [&](int x, int y) {
      return heads_[x][0] * heads_[x][1] > heads_[y][0] * heads_[y][1];
    });
    const char* names[3] = {"biases_low", "biases_mid", "biases_high"};
    for (int rank = 0; rank < 3; ++rank) biases_[order[rank]] = a.GetFloats(names[rank]);
    return Status::Ok();
  }

  Status Run(const KernelRunContext& ctx) const override {
    auto* out = static_cast<float*>(ctx.outputs[0]);
    auto* counts = static_cast<int32_t*>(ctx.outputs[1]);
    std::memset(out, 0, static_cast<size_t>(images_ * 6 * post_) * sizeof(float));
    std::memset(counts, 0, static_cast<size_t>(images_ * 8) * sizeof(int32_t));
    const auto* info = static_cast<const float*>(ctx.inputs[9]);
    std::vector<std::vector<Detection>> per_class(static_cast<size_t>(classes_));
    for (int64_t n = 0; n < images_; ++n) {
      const float net_h = info[n * 4], net_w = info[n * 4 + 1];
      const float img_h = info[n * 4 + 2], img_w = info[n * 4 + 3];
      if (!(net_h > 0 && net_w > 0 && img_h > 0 && img_w > 0))
        return InvalidArgument("YoloV3DetectionOutput: img_info of image " + std::to_string(n) +
                               " must hold positive sizes (net H, net W, image H, image W)");
      // Darknet's letterbox: the image scaled into the net input, keeping its aspect.
      float new_w = net_w, new_h = net_h;
      if (relative_) {
        if (net_w / img_w < net_h / img_h)
          new_h = img_h * net_w / img_w;
        else
          new_w = img_w * net_h / img_h;
      }
      for (auto& c : per_class) c.clear();
      for (int s = 0; s < 3; ++s) {
        const int64_t gh = heads_[s][0], gw = heads_[s][1], cells = gh * gw;
        const float* co = static_cast<const float*>(ctx.inputs[s]) + n * boxes_ * 4 * cells;
        const float* ob = static_cast<const float*>(ctx.inputs[3 + s]) + n * boxes_ * cells;
        const float* cl =
            static_cast<const float*>(ctx.inputs[6 + s]) + n * boxes_ * classes_ * cells;
        for (int64_t b = 0; b < boxes_; ++b)
          for (int64_t cell = 0; cell < cells; ++cell) {
            const float obj = ob[b * cells + cell];
            if (!(obj > obj_threshold_)) continue;
            const int64_t row = cell / gw, col = cell % gw;
            float x = (static_cast<float>(col) + co[(b * 4) * cells + cell]) / gw;
            float y = (static_cast<float>(row) + co[(b * 4 + 1) * cells + cell]) / gh;
            float w = std::exp(co[(b * 4 + 2) * cells + cell]) * biases_[s][2 * b] / net_w;
            float h = std::exp(co[(b * 4 + 3) * cells + cell]) * biases_[s][2 * b + 1] / net_h;
            if (relative_) {
              x = (x - (net_w - new_w) / 2 / net_w) / (new_w / net_w);
              y = (y - (net_h - new_h) / 2 / net_h) / (new_h / net_h);
              w *= net_w / new_w;
              h *= net_h / new_h;
            }
            const Detection box{(x - w / 2) * img_w,
                                (y - h / 2) * img_h,
                                (x + w / 2) * img_w,
                                (y + h / 2) * img_h,
                                0,
                                0};
            for (int64_t c = 0; c < classes_; ++c) {
              const float score = obj * cl[(b * classes_ + c) * cells + cell];
              if (!(score > score_threshold_)) continue;
              Detection d = box;
              d.score = score;
              d.label = c;
              per_class[static_cast<size_t>(c)].push_back(d);
            }
          }
      }
      std::vector<Detection> kept;
      for (auto& cand : per_class) {
        std::stable_sort(cand.begin(), cand.end(),
                         [](const Detection& p, const Detection& q) { return p.score > q.score; });
        if (static_cast<int64_t>(cand.size()) > pre_) cand.resize(static_cast<size_t>(pre_));
        std::vector<Detection> mine;
        for (const auto& d : cand) {
          bool keep = true;
          for (const auto& k : mine)
            if (Iou(d, k) > iou_threshold_) {
              keep = false;
              break;
            }
          if (keep) mine.push_back(d);
        }
        kept.insert(kept.end(), mine.begin(), mine.end());
      }
      std::stable_sort(kept.begin(), kept.end(),
                       [](const Detection& p, const Detection& q) { return p.score > q.score; });
      if (static_cast<int64_t>(kept.size()) > post_) kept.resize(static_cast<size_t>(post_));
      const int64_t count = static_cast<int64_t>(kept.size());
      counts[n * 8] = static_cast<int32_t>(count);
      float* row = out + n * 6 * post_;
      for (int64_t i = 0; i < count; ++i) {
        const Detection& d = kept[static_cast<size_t>(i)];
        row[i] = d.x1;
        row[count + i] = d.y1;
        row[2 * count + i] = d.x2;
        row[3 * count + i] = d.y2;
        row[4 * count + i] = d.score;
        row[5 * count + i] = static_cast<float>(d.label);
      }
    }
    return Status::Ok();
  }

 private:
  int64_t boxes_ = 3, classes_ = 80, pre_ = 512, post_ = 1024, images_ = 0;
  bool relative_ = true;
  float obj_threshold_ = 0.5f, score_threshold_ = 0.5f, iou_threshold_ = 0.45f;
  std::array<int64_t, 2> heads_[3] = {};
  std::vector<float> biases_[3];
};

}  // namespace

void RegisterYoloKernels(KernelTable& r) {
  r.Add<YoloV3DetectionOutputKernel>("YoloV3DetectionOutput", kOcDomain,
                                     "float32; CANN's YOLOv3 decode, per-class NMS");
}

}  // namespace oc
