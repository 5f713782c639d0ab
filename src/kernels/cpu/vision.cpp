// NonMaxSuppression, GridSample (PyTorch's sampling rules, which ONNX adopted) and
// RoiAlign. Plain loops.
#include <algorithm>
#include <cmath>
#include <cstring>
#include <numeric>

#include "backend/kernel.h"
#include "kernels/cpu/kernel_families.h"

namespace oc {
namespace {

class NmsKernel : public Kernel {
 public:
  Status Prepare(const KernelPrepareContext& ctx) override {
    for (size_t i = 0; i < ctx.inputs.size(); ++i)
      if (ctx.has_input(i) && !ctx.constants[i]) return ctx.NeedsValue("boxes and scores");
    const Tensor& boxes = *ctx.constants[0];
    const Tensor& scores = *ctx.constants[1];
    if (boxes.shape().size() != 3 || scores.shape().size() != 3 || boxes.shape()[2] != 4)
      return ctx.Error("boxes must be [B,N,4] and scores [B,C,N]");
    const int64_t batches = boxes.shape()[0], n = boxes.shape()[1], classes = scores.shape()[1];
    const int64_t max_out =
        ctx.has_input(2) && ctx.constants[2]->numel() ? ctx.constants[2]->GetAsInt(0) : 0;
    const double iou_th =
        ctx.has_input(3) && ctx.constants[3]->numel() ? ctx.constants[3]->GetAsDouble(0) : 0.0;
    const bool has_score_th = ctx.has_input(4) && ctx.constants[4]->numel();
    const double score_th = has_score_th ? ctx.constants[4]->GetAsDouble(0) : 0.0;
    const bool center = ctx.attrs().GetInt("center_point_box", 0) != 0;
    auto corners = [&](int64_t b, int64_t i, double* y1, double* x1, double* y2, double* x2) {
      const int64_t o = (b * n + i) * 4;
      double a = boxes.GetAsDouble(o), bb = boxes.GetAsDouble(o + 1), c = boxes.GetAsDouble(o + 2),
             d = boxes.GetAsDouble(o + 3);
      if (center) {  // [x_center, y_center, width, height]
        *x1 = a - c / 2;
        *x2 = a + c / 2;
        *y1 = bb - d / 2;
        *y2 = bb + d / 2;
      } else {  // two corners in any order
        *y1 = std::min(a, c);
        *y2 = std::max(a, c);
        *x1 = std::min(bb, d);
        *x2 = std::max(bb, d);
      }
    };
    auto iou = [&](int64_t b, int64_t i, int64_t j) {
      double ay1, ax1, ay2, ax2, by1, bx1, by2, bx2;
      corners(b, i, &ay1, &ax1, &ay2, &ax2);
      corners(b, j, &by1, &bx1, &by2, &bx2);
      const double ih = std::max(0.0, std::min(ay2, by2) - std::max(ay1, by1));
      const double iw = std::max(0.0, std::min(ax2, bx2) - std::max(ax1, bx1));
      const double inter = ih * iw;
      const double uni = (ay2 - ay1) * (ax2 - ax1) + (by2 - by1) * (bx2 - bx1) - inter;
      return uni <= 0 ? 0.0 : inter / uni;
    };
    for (int64_t b = 0; b < batches; ++b)
      for (int64_t c = 0; c < classes; ++c) {
        std::vector<int64_t> cand;
        for (int64_t i = 0; i < n; ++i) {
          const double s = scores.GetAsDouble((b * classes + c) * n + i);
          if (!has_score_th || s > score_th) cand.push_back(i);
        }
        std::stable_sort(cand.begin(), cand.end(), [&](int64_t x, int64_t y) {
          return scores.GetAsDouble((b * classes + c) * n + x) >
                 scores.GetAsDouble((b * classes + c) * n + y);
        });
        std::vector<int64_t> kept;
        for (int64_t i : cand) {
          if (max_out > 0 && static_cast<int64_t>(kept.size()) >= max_out) break;
          if (max_out == 0) break;
          bool suppressed = false;
          for (int64_t k : kept)
            if (iou(b, i, k) > iou_th) suppressed = true;
          if (!suppressed) kept.push_back(i);
        }
        for (int64_t k : kept) selected_.insert(selected_.end(), {b, c, k});
      }
    return Status::Ok();
  }
  bool OutputShapes(std::vector<Shape>* shapes) const override {
    *shapes = {{static_cast<int64_t>(selected_.size() / 3), 3}};
    return true;
  }
  Status Run(const KernelRunContext& ctx) const override {
    if (!selected_.empty()) std::memcpy(ctx.outputs[0], selected_.data(), selected_.size() * 8);
    return Status::Ok();
  }

 private:
  std::vector<int64_t> selected_;
};

double Reflect(double x, double twice_low, double twice_high) {
  if (twice_low == twice_high) return 0;
  const double lo = twice_low / 2, span = (twice_high - twice_low) / 2;
  x = std::abs(x - lo);
  const double extra = std::fmod(x, span);
  const int64_t flips = static_cast<int64_t>(std::floor(x / span));
  return flips % 2 == 0 ? extra + lo : span - extra + lo;
}

class GridSampleKernel : public Kernel {
 public:
  Status Prepare(const KernelPrepareContext& ctx) override {
    if (ctx.inputs[0].dtype != DataType::kFloat) return ctx.Error("float32 only");
    x_ = ctx.inputs[0].shape;
    g_ = ctx.inputs[1].shape;
    align_ = ctx.attrs().GetInt("align_corners", 0) != 0;
    mode_ = ctx.attrs().GetString("mode", "bilinear");
    padding_ = ctx.attrs().GetString("padding_mode", "zeros");
    if (mode_ != "bilinear" && mode_ != "nearest" && mode_ != "bicubic")
      return ctx.Error("unknown mode");
    return Status::Ok();
  }
  Status Run(const KernelRunContext& ctx) const override {
    const float* x = static_cast<const float*>(ctx.inputs[0]);
    const float* grid = static_cast<const float*>(ctx.inputs[1]);
    float* y = static_cast<float*>(ctx.outputs[0]);
    const int64_t N = x_[0], C = x_[1], H = x_[2], W = x_[3], Ho = g_[1], Wo = g_[2];
    auto unnormalize = [&](double v, int64_t size) {
      return align_ ? (v + 1) / 2 * (size - 1) : ((v + 1) * size - 1) / 2;
    };
    auto pad_coord = [&](double v, int64_t size) {
      if (padding_ == "border") return std::clamp(v, 0.0, static_cast<double>(size - 1));
      if (padding_ == "reflection") {
        v = align_ ? Reflect(v, 0, 2.0 * (size - 1)) : Reflect(v, -1, 2.0 * size - 1);
        return std::clamp(v, 0.0, static_cast<double>(size - 1));
      }
      return v;
    };
    for (int64_t n = 0; n < N; ++n)
      for (int64_t i = 0; i < Ho; ++i)
        for (int64_t j = 0; j < Wo; ++j) {
          const float* gp = grid + ((n * Ho + i) * Wo + j) * 2;
          const double gx = unnormalize(gp[0], W), gy = unnormalize(gp[1], H);
          for (int64_t c = 0; c < C; ++c) {
            const float* plane = x + (n * C + c) * H * W;
            auto at = [&](int64_t yy, int64_t xx) -> double {
              if (yy < 0 || yy >= H || xx < 0 || xx >= W) return 0.0;
              return plane[yy * W + xx];
            };
            double v = 0;
            if (mode_ == "bicubic") {
              // Neighbours are padded one by one, as PyTorch does.
              const double fx = std::floor(gx), fy = std::floor(gy), tx = gx - fx, ty = gy - fy;
              auto cubic = [](double t, double* w) {
                const double A = -0.75;
                auto c1 = [&](double d) { return ((A + 2) * d - (A + 3)) * d * d + 1; };
                auto c2 = [&](double d) { return ((A * d - 5 * A) * d + 8 * A) * d - 4 * A; };
                w[0] = c2(t + 1);
                w[1] = c1(t);
                w[2] = c1(1 - t);
                w[3] = c2(2 - t);
              };
              double wx[4], wy[4];
              cubic(tx, wx);
              cubic(ty, wy);
              for (int a = 0; a < 4; ++a)
                for (int b = 0; b < 4; ++b) {
                  double px = pad_coord(fx - 1 + b, W), py = pad_coord(fy - 1 + a, H);
                  v += wy[a] * wx[b] * at(static_cast<int64_t>(py), static_cast<int64_t>(px));
                }
            } else {
              const double sx = pad_coord(gx, W), sy = pad_coord(gy, H);
              if (mode_ == "nearest") {
                v = at(static_cast<int64_t>(std::nearbyint(sy)),
                       static_cast<int64_t>(std::nearbyint(sx)));
              } else {
                const int64_t x0 = static_cast<int64_t>(std::floor(sx)),
                              y0 = static_cast<int64_t>(std::floor(sy));
                const double dx = sx - x0, dy = sy - y0;
                v = at(y0, x0) * (1 - dx) * (1 - dy) + at(y0, x0 + 1) * dx * (1 - dy) +
                    at(y0 + 1, x0) * (1 - dx) * dy + at(y0 + 1, x0 + 1) * dx * dy;
              }
            }
            y[((n * C + c) * Ho + i) * Wo + j] = static_cast<float>(v);
          }
        }
    return Status::Ok();
  }

 private:
  Shape x_, g_;
  bool align_ = false;
  std::string mode_, padding_;
};

class RoiAlignKernel : public Kernel {
 public:
  Status Prepare(const KernelPrepareContext& ctx) override {
    if (ctx.inputs[0].dtype != DataType::kFloat) return ctx.Error("float32 only");
    x_ = ctx.inputs[0].shape;
    rois_ = ctx.inputs[1].shape[0];
    oh_ = ctx.attrs().GetInt("output_height", 1);
    ow_ = ctx.attrs().GetInt("output_width", 1);
    ratio_ = ctx.attrs().GetInt("sampling_ratio", 0);
    scale_ = ctx.attrs().GetFloat("spatial_scale", 1.0f);
    max_ = ctx.attrs().GetString("mode", "avg") == "max";
    // RoiAlign-10 had no such attribute and no half-pixel shift; opset 16 added it with
    // half_pixel as the default.
    half_pixel_ =
        ctx.attrs().GetString("coordinate_transformation_mode",
                              ctx.opset >= 16 ? "half_pixel" : "output_half_pixel") == "half_pixel";
    idx_type_ = ctx.inputs[2].dtype;
    return Status::Ok();
  }
  Status Run(const KernelRunContext& ctx) const override {
    const float* x = static_cast<const float*>(ctx.inputs[0]);
    const float* rois = static_cast<const float*>(ctx.inputs[1]);
    float* y = static_cast<float*>(ctx.outputs[0]);
    const int64_t C = x_[1], H = x_[2], W = x_[3];
    for (int64_t r = 0; r < rois_; ++r) {
      const int64_t b = idx_type_ == DataType::kInt64
                            ? static_cast<const int64_t*>(ctx.inputs[2])[r]
                            : static_cast<const int32_t*>(ctx.inputs[2])[r];
      if (b < 0 || b >= x_[0]) return InvalidArgument("RoiAlign batch index out of range");
      const double off = half_pixel_ ? 0.5 : 0.0;
      const double x1 = rois[r * 4] * scale_ - off, y1 = rois[r * 4 + 1] * scale_ - off;
      const double x2 = rois[r * 4 + 2] * scale_ - off, y2 = rois[r * 4 + 3] * scale_ - off;
      double rw = x2 - x1, rh = y2 - y1;
      if (!half_pixel_) {
        rw = std::max(rw, 1.0);
        rh = std::max(rh, 1.0);
      }
      const double bh = rh / oh_, bw = rw / ow_;
      const int64_t gh = ratio_ > 0 ? ratio_ : static_cast<int64_t>(std::ceil(rh / oh_));
      const int64_t gw = ratio_ > 0 ? ratio_ : static_cast<int64_t>(std::ceil(rw / ow_));
      const double count = std::max<int64_t>(gh * gw, 1);
      for (int64_t c = 0; c < C; ++c) {
        const float* plane = x + (b * C + c) * H * W;
        for (int64_t ph = 0; ph < oh_; ++ph)
          for (int64_t pw = 0; pw < ow_; ++pw) {
            double acc = max_ ? -1e30 : 0.0;
            for (int64_t iy = 0; iy < gh; ++iy)
              for (int64_t ix = 0; ix < gw; ++ix) {
                double yy = y1 + ph * bh + (iy + 0.5) * bh / gh;
                double xx = x1 + pw * bw + (ix + 0.5) * bw / gw;
                double v = 0;
                if (!(yy < -1.0 || yy > H || xx < -1.0 || xx > W)) {
                  yy = std::max(yy, 0.0);
                  xx = std::max(xx, 0.0);
                  int64_t y0 = static_cast<int64_t>(yy), x0 = static_cast<int64_t>(xx), y1i, x1i;
                  if (y0 >= H - 1) {
                    y0 = y1i = H - 1;
                    yy = static_cast<double>(y0);
                  } else {
                    y1i = y0 + 1;
                  }
                  if (x0 >= W - 1) {
                    x0 = x1i = W - 1;
                    xx = static_cast<double>(x0);
                  } else {
                    x1i = x0 + 1;
                  }
                  const double ly = yy - y0, lx = xx - x0, hy = 1 - ly, hx = 1 - lx;
                  const double w1 = hy * hx, w2 = hy * lx, w3 = ly * hx, w4 = ly * lx;
                  if (max_) {
                    v = std::max({w1 * plane[y0 * W + x0], w2 * plane[y0 * W + x1i],
                                  w3 * plane[y1i * W + x0], w4 * plane[y1i * W + x1i]});
                  } else {
                    v = w1 * plane[y0 * W + x0] + w2 * plane[y0 * W + x1i] +
                        w3 * plane[y1i * W + x0] + w4 * plane[y1i * W + x1i];
                  }
                }
                acc = max_ ? std::max(acc, v) : acc + v;
              }
            y[((r * C + c) * oh_ + ph) * ow_ + pw] = static_cast<float>(max_ ? acc : acc / count);
          }
      }
    }
    return Status::Ok();
  }

 private:
  Shape x_;
  int64_t rois_ = 0, oh_ = 1, ow_ = 1, ratio_ = 0;
  float scale_ = 1;
  bool max_ = false, half_pixel_ = true;
  DataType idx_type_ = DataType::kInt64;
};

}  // namespace

void RegisterVisionKernels(KernelTable& r) {
  r.SetFamilyTypes("float32 (indices int64)");
  r.Add<NmsKernel>("NonMaxSuppression");
  r.Add<GridSampleKernel>("GridSample");
  r.Add<RoiAlignKernel>("RoiAlign");
}

}  // namespace oc
