#include "ops/aipp_params.h"

#include <cstring>

#include "base/half.h"

namespace oc {
namespace {

// Little-endian field access with the offset moving on.
class Writer {
 public:
  explicit Writer(uint8_t* p) : p_(p) {}
  template <typename T>
  void Put(T v) {
    std::memcpy(p_, &v, sizeof(T));
    p_ += sizeof(T);
  }
  void Skip(size_t n) {
    std::memset(p_, 0, n);
    p_ += n;
  }

 private:
  uint8_t* p_;
};
class Reader {
 public:
  explicit Reader(const uint8_t* p) : p_(p) {}
  template <typename T>
  T Get() {
    T v;
    std::memcpy(&v, p_, sizeof(T));
    p_ += sizeof(T);
    return v;
  }
  void Skip(size_t n) { p_ += n; }

 private:
  const uint8_t* p_;
};

Status Bad(const std::string& what) { return InvalidArgument("dynamic AIPP parameters: " + what); }

}  // namespace

size_t AippDynamicDataSize(uint64_t batch) {
  if (batch == 0 || batch > kAippMaxBatch) return 0;
  return kAippHeaderBytes + kAippBatchBytes * static_cast<size_t>(batch);
}

void EncodeAippParams(const AippDynamicParams& p, uint8_t* dst) {
  Writer w(dst);
  w.Put<uint8_t>(p.input_format);
  w.Put<int8_t>(p.csc);
  w.Put<int8_t>(p.rbuv_swap);
  w.Put<int8_t>(p.ax_swap);
  w.Put<int8_t>(static_cast<int8_t>(p.batches.size()));
  w.Skip(3);
  w.Put<int32_t>(p.src_w);
  w.Put<int32_t>(p.src_h);
  for (int16_t m : p.matrix) w.Put<int16_t>(m);
  w.Skip(6);
  for (uint8_t b : p.output_bias) w.Put<uint8_t>(b);
  for (uint8_t b : p.input_bias) w.Put<uint8_t>(b);
  w.Skip(18);
  for (const auto& b : p.batches) {
    w.Put<int8_t>(b.crop);
    w.Put<int8_t>(b.scf);
    w.Put<int8_t>(b.padding);
    w.Put<int8_t>(b.rotate);
    w.Skip(4);
    for (int32_t v : {b.crop_x, b.crop_y, b.crop_w, b.crop_h, b.scf_in_w, b.scf_in_h, b.scf_out_w,
                      b.scf_out_h, b.pad_top, b.pad_bottom, b.pad_left, b.pad_right})
      w.Put<int32_t>(v);
    for (int16_t v : b.mean) w.Put<int16_t>(v);
    for (uint16_t v : b.min) w.Put<uint16_t>(v);
    for (uint16_t v : b.var_reci) w.Put<uint16_t>(v);
    w.Skip(16);
  }
}

Result<AippDynamicParams> DecodeAippParams(const uint8_t* src, size_t size) {
  if (size < kAippHeaderBytes) return Bad("the input holds " + std::to_string(size) + " bytes");
  AippDynamicParams p;
  Reader r(src);
  p.input_format = r.Get<uint8_t>();
  p.csc = r.Get<int8_t>();
  p.rbuv_swap = r.Get<int8_t>();
  p.ax_swap = r.Get<int8_t>();
  const int batch = r.Get<int8_t>();
  r.Skip(3);
  p.src_w = r.Get<int32_t>();
  p.src_h = r.Get<int32_t>();
  for (int16_t& m : p.matrix) m = r.Get<int16_t>();
  r.Skip(6);
  for (uint8_t& b : p.output_bias) b = r.Get<uint8_t>();
  for (uint8_t& b : p.input_bias) b = r.Get<uint8_t>();
  r.Skip(18);
  if (batch <= 0)
    return Bad("they were never set (batch count " + std::to_string(batch) +
               "): call aclmdlSetInputAIPP before aclmdlExecute");
  if (AippDynamicDataSize(batch) > size)
    return Bad("they hold " + std::to_string(batch) + " images, the input only " +
               std::to_string(size) + " bytes");
  p.batches.resize(batch);
  for (auto& b : p.batches) {
    b.crop = r.Get<int8_t>();
    b.scf = r.Get<int8_t>();
    b.padding = r.Get<int8_t>();
    b.rotate = r.Get<int8_t>();
    r.Skip(4);
    for (int32_t* v :
         {&b.crop_x, &b.crop_y, &b.crop_w, &b.crop_h, &b.scf_in_w, &b.scf_in_h, &b.scf_out_w,
          &b.scf_out_h, &b.pad_top, &b.pad_bottom, &b.pad_left, &b.pad_right})
      *v = r.Get<int32_t>();
    for (int16_t& v : b.mean) v = r.Get<int16_t>();
    for (uint16_t& v : b.min) v = r.Get<uint16_t>();
    for (uint16_t& v : b.var_reci) v = r.Get<uint16_t>();
    r.Skip(16);
  }
  return p;
}

bool AippFormatKnown(int f) { return (f >= 1 && f <= 4) || (f >= 7 && f <= 10); }

bool AippFormatIsYuv(int f) { return f == 1 || f == 4 || f == 8 || f == 9 || f == 10; }

int64_t AippStoredChannels(int f) {
  switch (f) {
    case 3:
      return 3;
    case 2:
    case 7:
    case 10:
      return 4;
    case 8:
    case 9:
      return 2;
    default:
      return 1;
  }
}

int64_t AippStoredHeight(int f, int64_t h) { return f == 1 ? h * 3 / 2 : h; }

int64_t AippImageBytes(int f, int64_t w, int64_t h) {
  return AippStoredHeight(f, h) * w * AippStoredChannels(f);
}

Result<AippImagePlan> PlanDynamicImage(const AippDynamicParams& p, size_t bi, int64_t out_c,
                                       int64_t out_h, int64_t out_w) {
  if (bi >= p.batches.size()) return Bad("no parameters for image " + std::to_string(bi));
  const AippBatchParams& b = p.batches[bi];
  const std::string image = "image " + std::to_string(bi) + ": ";
  if (!AippFormatKnown(p.input_format))
    return Bad("input format " + std::to_string(p.input_format) +
               " is not an aclAippInputFormat; set it with aclmdlSetAIPPInputFormat");
  if (p.src_w <= 0 || p.src_h <= 0 || p.src_w > 4096 || p.src_h > 4096)
    return Bad("source image size " + std::to_string(p.src_w) + "x" + std::to_string(p.src_h) +
               " is not within 1..4096; set it with aclmdlSetAIPPSrcImageSize");
  if (b.scf)
    return Bad(image +
               "resizing (aclmdlSetAIPPScfParams with scfSwitch on) is not supported by "
               "OpenCANN, as by CANN's current dynamic AIPP");
  if (b.rotate) return Bad(image + "rotation is not supported by OpenCANN");
  if (b.padding != 0 && b.padding != 1)
    return Bad(image + "padding mode " + std::to_string(b.padding) +
               " is not supported by OpenCANN (only 1: a constant value)");
  AippImagePlan plan;
  plan.format = p.input_format;
  plan.src_w = p.src_w;
  plan.src_h = p.src_h;
  plan.csc = p.csc != 0;
  plan.rbuv_swap = p.rbuv_swap != 0;
  plan.ax_swap = p.ax_swap != 0;
  for (int i = 0; i < 9; ++i) plan.matrix[i / 3][i % 3] = p.matrix[i];
  for (int i = 0; i < 3; ++i) {
    plan.input_bias[i] = p.input_bias[i];
    plan.output_bias[i] = p.output_bias[i];
  }
  if (b.crop) {
    if (b.crop_x < 0 || b.crop_y < 0 || b.crop_w <= 0 || b.crop_h <= 0 ||
        int64_t{b.crop_x} + b.crop_w > p.src_w || int64_t{b.crop_y} + b.crop_h > p.src_h)
      return Bad(image + "the crop (start " + std::to_string(b.crop_x) + "," +
                 std::to_string(b.crop_y) + ", size " + std::to_string(b.crop_w) + "x" +
                 std::to_string(b.crop_h) + ") lies outside the " + std::to_string(p.src_w) + "x" +
                 std::to_string(p.src_h) + " image (aclmdlSetAIPPCropParams)");
    plan.crop_x = b.crop_x;
    plan.crop_y = b.crop_y;
    plan.crop_w = b.crop_w;
    plan.crop_h = b.crop_h;
  } else {
    plan.crop_w = p.src_w;
    plan.crop_h = p.src_h;
  }
  if (b.padding) {
    for (int32_t v : {b.pad_top, b.pad_bottom, b.pad_left, b.pad_right})
      if (v < 0 || v > 32)
        return Bad(image + "padding sizes must be 0..32 (aclmdlSetAIPPPaddingParams)");
    plan.pad_top = b.pad_top;
    plan.pad_bottom = b.pad_bottom;
    plan.pad_left = b.pad_left;
    plan.pad_right = b.pad_right;
  }
  const int64_t w = plan.crop_w + plan.pad_left + plan.pad_right;
  const int64_t h = plan.crop_h + plan.pad_top + plan.pad_bottom;
  if (w != out_w || h != out_h)
    return Bad(image + "the image after crop and padding is " + std::to_string(w) + "x" +
               std::to_string(h) + ", the model takes " + std::to_string(out_w) + "x" +
               std::to_string(out_h));
  if (p.input_format == 1 && (p.src_w % 2 || p.src_h % 2 || plan.crop_x % 2 || plan.crop_y % 2))
    return Bad(image + "YUV420SP_U8 needs even image sizes and crop start positions");
  if ((p.input_format == 8 || p.input_format == 9) && (p.src_w % 2 || plan.crop_x % 2))
    return Bad(image + "YUYV_U8 and YUV422SP_U8 need an even width and crop start");
  const int64_t channels = p.input_format == 4 && !plan.csc ? 1 : 3;
  if (out_c != channels && !(out_c == 4 && AippStoredChannels(p.input_format) == 4))
    return Bad(image + "the model input has " + std::to_string(out_c) +
               " channels, this input format gives " + std::to_string(channels));
  for (int i = 0; i < 4; ++i) {
    plan.mean[i] = b.mean[i];
    plan.min[i] = HalfToFloat(b.min[i]);
    plan.var_reci[i] = HalfToFloat(b.var_reci[i]);
  }
  return plan;
}

}  // namespace oc
