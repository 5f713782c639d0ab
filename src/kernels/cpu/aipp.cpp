// oc.Aipp on the CPU: per output pixel, the source pixel (format-aware: planar YUV420SP /
// YUV422SP, packed YUYV, RGB888, 4-byte XRGB/ARGB/AYUV, YUV400), then in CANN's order:
// swaps -> crop -> colour conversion (integer matrix, >> 8, saturated to uint8) ->
// normalisation ((x - mean - min) * var_reci, min and var_reci held as fp16, the result
// rounded to fp16 as the NPU's AIPP output is) -> padding.
#include <algorithm>

#include "base/half.h"
#include "kernels/cpu/kernel_families.h"

namespace oc {
namespace {

enum Format {
  kYuv420Sp = 1,
  kXrgb = 2,
  kRgb = 3,
  kYuv400 = 4,
  kArgb = 7,
  kYuyv = 8,
  kYuv422Sp = 9,
  kAyuv = 10
};

class AippKernel : public Kernel {
 public:
  Status Prepare(const KernelPrepareContext& ctx) override {
    const auto& a = ctx.attrs();
    format_ = static_cast<int>(a.GetInt("input_format", 0));
    yuv_ = a.GetInt("yuv", 0) != 0;
    const auto src = a.GetInts("src"), crop = a.GetInts("crop"), pads = a.GetInts("pads");
    const auto chw = a.GetInts("out_chw");
    if (src.size() != 2 || crop.size() != 4 || pads.size() != 2 || chw.size() != 3)
      return ctx.Error("malformed AIPP attributes");
    src_h_ = src[0];
    src_w_ = src[1];
    crop_y_ = crop[0];
    crop_x_ = crop[1];
    crop_h_ = crop[2];
    crop_w_ = crop[3];
    pad_top_ = pads[0];
    pad_left_ = pads[1];
    out_c_ = chw[0];
    out_h_ = chw[1];
    out_w_ = chw[2];
    batch_ = ctx.inputs[0].shape[0];
    stored_c_ = ctx.inputs[0].shape[3];
    image_bytes_ = ctx.inputs[0].numel() / std::max<int64_t>(batch_, 1);
    // Held in the output dtype, fp16 on the NPU.
    pad_value_ = HalfToFloat(FloatToHalf(a.GetFloat("padding_value", 0.0f)));
    csc_ = a.GetInt("csc", 0) != 0;
    rbuv_ = a.GetInt("rbuv_swap", 0) != 0;
    ax_ = a.GetInt("ax_swap", 0) != 0;
    const auto m = a.GetInts("matrix"), ib = a.GetInts("input_bias"), ob = a.GetInts("output_bias");
    const auto mean = a.GetInts("mean");
    const auto mn = a.GetFloats("min"), vr = a.GetFloats("var_reci");
    if (m.size() != 9 || ib.size() != 3 || ob.size() != 3 || mean.size() != 4 || mn.size() != 4 ||
        vr.size() != 4)
      return ctx.Error("malformed AIPP parameters");
    for (int i = 0; i < 9; ++i) matrix_[i / 3][i % 3] = static_cast<int>(m[i]);
    for (int i = 0; i < 3; ++i) {
      in_bias_[i] = static_cast<int>(ib[i]);
      out_bias_[i] = static_cast<int>(ob[i]);
    }
    for (int i = 0; i < 4; ++i) {
      mean_[i] = static_cast<float>(mean[i]);
      // The NPU holds these as fp16.
      min_[i] = HalfToFloat(FloatToHalf(mn[i]));
      var_[i] = HalfToFloat(FloatToHalf(vr[i]));
    }
    return Status::Ok();
  }

  Status Run(const KernelRunContext& ctx) const override {
    const auto* img = static_cast<const uint8_t*>(ctx.inputs[0]);
    auto* out = static_cast<float*>(ctx.outputs[0]);
    const int64_t plane = out_h_ * out_w_;
    for (int64_t b = 0; b < batch_; ++b) {
      const uint8_t* im = img + b * image_bytes_;
      float* o = out + b * out_c_ * plane;
      for (int64_t y = 0; y < out_h_; ++y)
        for (int64_t x = 0; x < out_w_; ++x) {
          const int64_t sy = y - pad_top_, sx = x - pad_left_;
          const bool pad = sy < 0 || sx < 0 || sy >= crop_h_ || sx >= crop_w_;
          int px[4] = {0, 0, 0, 0};
          if (!pad) Pixel(im, sy + crop_y_, sx + crop_x_, px);
          if (!pad && csc_) Convert(px);
          for (int64_t ch = 0; ch < out_c_; ++ch) {
            float v = pad_value_;
            if (!pad) {
              const float norm = (static_cast<float>(px[ch]) - mean_[ch] - min_[ch]) * var_[ch];
              v = HalfToFloat(FloatToHalf(norm));
            }
            o[ch * plane + y * out_w_ + x] = v;
          }
        }
    }
    return Status::Ok();
  }

 private:
  // The channels of source pixel (y, x): Y,U,V for YUV formats, R,G,B (and the fourth
  // byte) otherwise, after the R/B (U/V) and A/X swaps.
  void Pixel(const uint8_t* im, int64_t y, int64_t x, int px[4]) const {
    auto at = [&](int64_t row, int64_t col, int64_t c) {
      return static_cast<int>(im[(row * src_w_ + col) * stored_c_ + c]);
    };
    switch (format_) {
      case kYuv420Sp: {
        const uint8_t* uv = im + src_h_ * src_w_;
        const int64_t k = (y / 2) * src_w_ + (x / 2) * 2;
        px[0] = im[y * src_w_ + x];
        px[1] = uv[k];
        px[2] = uv[k + 1];
        break;
      }
      case kYuv422Sp: {
        const uint8_t* uv = im + src_h_ * src_w_;
        const int64_t k = y * src_w_ + (x / 2) * 2;
        px[0] = im[y * src_w_ + x];
        px[1] = uv[k];
        px[2] = uv[k + 1];
        break;
      }
      case kYuyv: {  // Y0 U Y1 V per two pixels
        const uint8_t* row = im + y * src_w_ * 2;
        const int64_t pair = (x / 2) * 4;
        px[0] = row[pair + (x % 2) * 2];
        px[1] = row[pair + 1];
        px[2] = row[pair + 3];
        break;
      }
      case kYuv400:
        px[0] = im[y * src_w_ + x];
        px[1] = px[2] = 128;
        break;
      case kRgb:
        for (int c = 0; c < 3; ++c) px[c] = at(y, x, c);
        break;
      default: {  // XRGB, ARGB, AYUV: the alpha/pad byte first, or last with ax_swap
        const int first = ax_ ? 0 : 1;
        for (int c = 0; c < 3; ++c) px[c] = at(y, x, first + c);
        px[3] = at(y, x, ax_ ? 3 : 0);
        break;
      }
    }
    if (rbuv_) std::swap(px[yuv_ ? 1 : 0], px[2]);
  }

  // YUV -> RGB: out_i = (sum_j M_ij (in_j - input_bias_j)) >> 8; RGB -> YUV:
  // out_i = ((sum_j M_ij in_j) >> 8) + output_bias_i; both saturated to [0, 255].
  void Convert(int px[4]) const {
    int in[3] = {px[0], px[1], px[2]};
    for (int i = 0; i < 3; ++i) {
      int acc = 0;
      for (int j = 0; j < 3; ++j) acc += matrix_[i][j] * (yuv_ ? in[j] - in_bias_[j] : in[j]);
      int v = yuv_ ? (acc >> 8) : (acc >> 8) + out_bias_[i];
      px[i] = std::min(255, std::max(0, v));
    }
  }

  int format_ = 0;
  bool yuv_ = false, csc_ = false, rbuv_ = false, ax_ = false;
  int64_t src_h_ = 0, src_w_ = 0, crop_y_ = 0, crop_x_ = 0, crop_h_ = 0, crop_w_ = 0;
  int64_t pad_top_ = 0, pad_left_ = 0, out_c_ = 0, out_h_ = 0, out_w_ = 0;
  int64_t batch_ = 1, stored_c_ = 1, image_bytes_ = 0;
  float pad_value_ = 0;
  int matrix_[3][3] = {};
  int in_bias_[3] = {}, out_bias_[3] = {};
  float mean_[4] = {}, min_[4] = {}, var_[4] = {1, 1, 1, 1};
};

}  // namespace

void RegisterAippKernels(KernelTable& r) {
  r.Add<AippKernel>("Aipp", kOcDomain, "uint8 image in, float32 NCHW out");
}

}  // namespace oc
