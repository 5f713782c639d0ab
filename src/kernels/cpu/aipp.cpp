// oc.Aipp on the CPU: per output pixel, the source pixel (format-aware: planar YUV420SP /
// YUV422SP, packed YUYV, RGB888, 4-byte XRGB/ARGB/AYUV, YUV400), then in CANN's order:
// swaps -> crop -> colour conversion (integer matrix, >> 8, saturated to uint8) ->
// normalisation ((x - mean - min) * var_reci, min and var_reci held as fp16, the result
// rounded to fp16 as the NPU's AIPP output is) -> padding.
// Static AIPP takes its plan from the node's attributes at prepare; dynamic AIPP decodes
// and checks the parameter input (ops/aipp_params.h) at every run.
#include <algorithm>

#include "base/half.h"
#include "kernels/cpu/kernel_families.h"
#include "ops/aipp_params.h"

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

// The channels of source pixel (y, x): Y,U,V for YUV formats, R,G,B (and the fourth
// byte) otherwise, after the R/B (U/V) and A/X swaps.
void Pixel(const AippImagePlan& p, const uint8_t* im, int64_t y, int64_t x, int px[4]) {
  const int64_t w = p.src_w, stored_c = AippStoredChannels(p.format);
  auto at = [&](int64_t row, int64_t col, int64_t c) {
    return static_cast<int>(im[(row * w + col) * stored_c + c]);
  };
  switch (p.format) {
    case kYuv420Sp: {
      const uint8_t* uv = im + p.src_h * w;
      const int64_t k = (y / 2) * w + (x / 2) * 2;
      px[0] = im[y * w + x];
      px[1] = uv[k];
      px[2] = uv[k + 1];
      break;
    }
    case kYuv422Sp: {
      const uint8_t* uv = im + p.src_h * w;
      const int64_t k = y * w + (x / 2) * 2;
      px[0] = im[y * w + x];
      px[1] = uv[k];
      px[2] = uv[k + 1];
      break;
    }
    case kYuyv: {  // Y0 U Y1 V per two pixels
      const uint8_t* row = im + y * w * 2;
      const int64_t pair = (x / 2) * 4;
      px[0] = row[pair + (x % 2) * 2];
      px[1] = row[pair + 1];
      px[2] = row[pair + 3];
      break;
    }
    case kYuv400:
      px[0] = im[y * w + x];
      px[1] = px[2] = 128;
      break;
    case kRgb:
      for (int c = 0; c < 3; ++c) px[c] = at(y, x, c);
      break;
    default: {  // XRGB, ARGB, AYUV: the alpha/pad byte first, or last with ax_swap
      const int first = p.ax_swap ? 0 : 1;
      for (int c = 0; c < 3; ++c) px[c] = at(y, x, first + c);
      px[3] = at(y, x, p.ax_swap ? 3 : 0);
      break;
    }
  }
  if (p.rbuv_swap) std::swap(px[AippFormatIsYuv(p.format) ? 1 : 0], px[2]);
}

// YUV -> RGB: out_i = (sum_j M_ij (in_j - input_bias_j)) >> 8; RGB -> YUV:
// out_i = ((sum_j M_ij in_j) >> 8) + output_bias_i; both saturated to [0, 255].
void Convert(const AippImagePlan& p, int px[4]) {
  const bool yuv = AippFormatIsYuv(p.format);
  int in[3] = {px[0], px[1], px[2]};
  for (int i = 0; i < 3; ++i) {
    int acc = 0;
    for (int j = 0; j < 3; ++j) acc += p.matrix[i][j] * (yuv ? in[j] - p.input_bias[j] : in[j]);
    int v = yuv ? (acc >> 8) : (acc >> 8) + p.output_bias[i];
    px[i] = std::min(255, std::max(0, v));
  }
}

// One image: `im` is its stored bytes, `o` its C x H x W float output.
void RunImage(const AippImagePlan& p, const uint8_t* im, int64_t out_c, int64_t out_h,
              int64_t out_w, float* o) {
  const int64_t plane = out_h * out_w;
  for (int64_t y = 0; y < out_h; ++y)
    for (int64_t x = 0; x < out_w; ++x) {
      const int64_t sy = y - p.pad_top, sx = x - p.pad_left;
      const bool pad = sy < 0 || sx < 0 || sy >= p.crop_h || sx >= p.crop_w;
      int px[4] = {0, 0, 0, 0};
      if (!pad) Pixel(p, im, sy + p.crop_y, sx + p.crop_x, px);
      if (!pad && p.csc) Convert(p, px);
      for (int64_t ch = 0; ch < out_c; ++ch) {
        float v = p.padding_value;
        if (!pad) {
          const float norm = (static_cast<float>(px[ch]) - p.mean[ch] - p.min[ch]) * p.var_reci[ch];
          v = HalfToFloat(FloatToHalf(norm));
        }
        o[ch * plane + y * out_w + x] = v;
      }
    }
}

class AippKernel : public Kernel {
 public:
  Status Prepare(const KernelPrepareContext& ctx) override {
    const auto& a = ctx.attrs();
    const auto chw = a.GetInts("out_chw");
    if (chw.size() != 3) return ctx.Error("malformed AIPP attributes");
    out_c_ = chw[0];
    out_h_ = chw[1];
    out_w_ = chw[2];
    if (out_c_ < 1 || out_c_ > 4) return ctx.Error("AIPP gives 1 to 4 channels");
    dynamic_ = a.GetInt("dynamic", 0) != 0;
    if (dynamic_) {
      if (ctx.inputs.size() != 2) return ctx.Error("dynamic AIPP takes the image and parameters");
      batch_ = a.GetInt("batch", 0);
      // Under dynamic batch the parameters are for the largest gear; this gear uses the first.
      params_batch_ = a.GetInt("params_batch", batch_);
      image_capacity_ = ctx.inputs[0].numel();
      params_bytes_ = static_cast<size_t>(ctx.inputs[1].numel());
      if (batch_ < 1 || params_batch_ < batch_ || AippDynamicDataSize(params_batch_) == 0 ||
          params_bytes_ < AippDynamicDataSize(params_batch_))
        return ctx.Error("malformed dynamic AIPP input sizes");
      return Status::Ok();
    }
    AippImagePlan& p = plan_;
    p.format = static_cast<int>(a.GetInt("input_format", 0));
    const auto src = a.GetInts("src"), crop = a.GetInts("crop"), pads = a.GetInts("pads");
    if (src.size() != 2 || crop.size() != 4 || pads.size() != 2 || !AippFormatKnown(p.format))
      return ctx.Error("malformed AIPP attributes");
    p.src_h = src[0];
    p.src_w = src[1];
    p.crop_y = crop[0];
    p.crop_x = crop[1];
    p.crop_h = crop[2];
    p.crop_w = crop[3];
    p.pad_top = pads[0];
    p.pad_left = pads[1];
    batch_ = ctx.inputs[0].shape[0];
    // The image as stored must be what the attributes describe: no read outside it.
    if (ctx.inputs[0].numel() != batch_ * AippImageBytes(p.format, p.src_w, p.src_h) ||
        p.crop_x < 0 || p.crop_y < 0 || p.crop_x + p.crop_w > p.src_w ||
        p.crop_y + p.crop_h > p.src_h || p.pad_top < 0 || p.pad_left < 0)
      return ctx.Error("the AIPP attributes do not match the image input");
    // Held in the output dtype, fp16 on the NPU.
    p.padding_value = HalfToFloat(FloatToHalf(a.GetFloat("padding_value", 0.0f)));
    p.csc = a.GetInt("csc", 0) != 0;
    p.rbuv_swap = a.GetInt("rbuv_swap", 0) != 0;
    p.ax_swap = a.GetInt("ax_swap", 0) != 0;
    const auto m = a.GetInts("matrix"), ib = a.GetInts("input_bias"), ob = a.GetInts("output_bias");
    const auto mean = a.GetInts("mean");
    const auto mn = a.GetFloats("min"), vr = a.GetFloats("var_reci");
    if (m.size() != 9 || ib.size() != 3 || ob.size() != 3 || mean.size() != 4 || mn.size() != 4 ||
        vr.size() != 4)
      return ctx.Error("malformed AIPP parameters");
    for (int i = 0; i < 9; ++i) p.matrix[i / 3][i % 3] = static_cast<int>(m[i]);
    for (int i = 0; i < 3; ++i) {
      p.input_bias[i] = static_cast<int>(ib[i]);
      p.output_bias[i] = static_cast<int>(ob[i]);
    }
    for (int i = 0; i < 4; ++i) {
      p.mean[i] = static_cast<float>(mean[i]);
      // The NPU holds these as fp16.
      p.min[i] = HalfToFloat(FloatToHalf(mn[i]));
      p.var_reci[i] = HalfToFloat(FloatToHalf(vr[i]));
    }
    return Status::Ok();
  }

  Status Run(const KernelRunContext& ctx) const override {
    const auto* img = static_cast<const uint8_t*>(ctx.inputs[0]);
    auto* out = static_cast<float*>(ctx.outputs[0]);
    const int64_t image_out = out_c_ * out_h_ * out_w_;
    if (!dynamic_) {
      const int64_t bytes = AippImageBytes(plan_.format, plan_.src_w, plan_.src_h);
      for (int64_t b = 0; b < batch_; ++b)
        RunImage(plan_, img + b * bytes, out_c_, out_h_, out_w_, out + b * image_out);
      return Status::Ok();
    }
    // The parameters come from the application's buffer: check everything before reading.
    OC_ASSIGN_OR_RETURN(
        AippDynamicParams params,
        DecodeAippParams(static_cast<const uint8_t*>(ctx.inputs[1]), params_bytes_));
    if (static_cast<int64_t>(params.batches.size()) != params_batch_)
      return InvalidArgument("dynamic AIPP parameters are for " +
                             std::to_string(params.batches.size()) + " images, the model takes " +
                             std::to_string(params_batch_) +
                             " (aclmdlCreateAIPP's batchSize; with dynamic batch, the largest "
                             "gear)");
    // Images lie back to back at their real size; together within max_src_image_size.
    const int64_t bytes = AippImageBytes(params.input_format, params.src_w, params.src_h);
    if (batch_ * bytes > image_capacity_)
      return InvalidArgument(
          "dynamic AIPP: " + std::to_string(batch_) + " images of " + std::to_string(params.src_w) +
          "x" + std::to_string(params.src_h) + " need " + std::to_string(batch_ * bytes) +
          " bytes, more than the model's max_src_image_size " + std::to_string(image_capacity_));
    for (int64_t b = 0; b < batch_; ++b) {
      OC_ASSIGN_OR_RETURN(AippImagePlan plan, PlanDynamicImage(params, b, out_c_, out_h_, out_w_));
      RunImage(plan, img + b * bytes, out_c_, out_h_, out_w_, out + b * image_out);
    }
    return Status::Ok();
  }

 private:
  bool dynamic_ = false;
  AippImagePlan plan_;
  int64_t out_c_ = 0, out_h_ = 0, out_w_ = 0, batch_ = 1, params_batch_ = 1, image_capacity_ = 0;
  size_t params_bytes_ = 0;
};

}  // namespace

void RegisterAippKernels(KernelTable& r) {
  r.Add<AippKernel>("Aipp", kOcDomain, "uint8 image in, float32 NCHW out; static or dynamic");
}

}  // namespace oc
