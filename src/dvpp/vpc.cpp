// VPC on the CPU. Resizing follows OpenCV's rules, which CANN's documentation names as the
// model of interpolations 1 and 2 (bilinear with half-pixel centres, nearest by flooring);
// the hardware's fixed-point arithmetic is not public, so results may differ from an NPU's by
// one grey level where OpenCV's own fixed-point rounding does. YUV420SP pictures are resized
// plane by plane (luma, then the interleaved chroma at half resolution); colour conversion
// between YUV and RGB uses BT.601 full range (CANN's default CSC matrix, BT601_WIDE).
#include "dvpp/vpc.h"

#include <algorithm>
#include <cmath>
#include <mutex>
#include <vector>

#include "base/log.h"

namespace oc::dvpp {
namespace {

bool IsYuv(int32_t f) { return f == kYuv400 || f == kNv12 || f == kNv21; }

// Where the R, G, B (and alpha) bytes of a packed RGB pixel sit.
struct RgbLayout {
  int bpp, r, g, b, a;  // a: -1 without alpha
};
RgbLayout LayoutOf(int32_t f) {
  switch (f) {
    case kBgr888:
      return {3, 2, 1, 0, -1};
    case kArgb8888:
      return {4, 1, 2, 3, 0};
    case kAbgr8888:
      return {4, 3, 2, 1, 0};
    case kRgba8888:
      return {4, 0, 1, 2, 3};
    case kBgra8888:
      return {4, 2, 1, 0, 3};
    default:
      return {3, 0, 1, 2, -1};
  }
}

// Source coordinates and weights of one output axis.
struct Tap {
  int64_t i0, i1;
  float w1;  // weight of i1
};

std::vector<Tap> Taps(uint32_t src, uint32_t dst, uint32_t interpolation) {
  std::vector<Tap> taps(dst);
  const double scale = static_cast<double>(src) / dst;
  const bool nearest = interpolation == kNearest || interpolation == kTfNearest;
  const bool tf = interpolation == kTfBilinear || interpolation == kTfNearest;
  for (uint32_t d = 0; d < dst; ++d) {
    if (nearest) {
      int64_t s = static_cast<int64_t>(std::floor(d * scale));
      s = std::min<int64_t>(s, src - 1);
      taps[d] = {s, s, 0};
      continue;
    }
    // OpenCV: half-pixel centres; TensorFlow's (legacy) bilinear: corners at d * scale.
    double s = tf ? d * scale : (d + 0.5) * scale - 0.5;
    if (s < 0) s = 0;
    int64_t i0 = static_cast<int64_t>(std::floor(s));
    float w = static_cast<float>(s - i0);
    if (i0 >= static_cast<int64_t>(src) - 1) {
      i0 = src - 1;
      w = 0;
    }
    taps[d] = {i0, std::min<int64_t>(i0 + 1, src - 1), w};
  }
  return taps;
}

// Resizes an interleaved plane of `channels` bytes per pixel.
void ResizePlane(const uint8_t* src, size_t sstride, uint32_t sw, uint32_t sh, int channels,
                 uint8_t* dst, size_t dstride, uint32_t dw, uint32_t dh, uint32_t interpolation) {
  const auto xs = Taps(sw, dw, interpolation), ys = Taps(sh, dh, interpolation);
  for (uint32_t y = 0; y < dh; ++y) {
    const uint8_t* r0 = src + ys[y].i0 * sstride;
    const uint8_t* r1 = src + ys[y].i1 * sstride;
    const float wy = ys[y].w1;
    uint8_t* out = dst + y * dstride;
    for (uint32_t x = 0; x < dw; ++x) {
      const Tap& t = xs[x];
      for (int c = 0; c < channels; ++c) {
        const float a = r0[t.i0 * channels + c] * (1 - t.w1) + r0[t.i1 * channels + c] * t.w1;
        const float b = r1[t.i0 * channels + c] * (1 - t.w1) + r1[t.i1 * channels + c] * t.w1;
        const float v = a * (1 - wy) + b * wy;
        out[x * channels + c] = static_cast<uint8_t>(std::clamp(std::lround(v), 0L, 255L));
      }
    }
  }
}

uint8_t Clamp8(float v) { return static_cast<uint8_t>(std::clamp(std::lround(v), 0L, 255L)); }

// The crop region as full-resolution planes: YUV (3 bytes a pixel, chroma repeated) or RGB.
struct Region {
  uint32_t w = 0, h = 0;
  std::vector<uint8_t> pixels;  // w * h * 3
};

// Reads a YUV420SP / YUV400 region into Y plane and chroma pairs at half resolution.
void ReadYuvPlanes(const Picture& in, const Roi& r, std::vector<uint8_t>* y,
                   std::vector<uint8_t>* uv, uint32_t* cw, uint32_t* ch) {
  const uint32_t w = r.width(), h = r.height();
  y->resize(static_cast<size_t>(w) * h);
  for (uint32_t j = 0; j < h; ++j)
    std::copy_n(in.data + (r.top + j) * static_cast<size_t>(in.width_stride) + r.left, w,
                y->data() + j * static_cast<size_t>(w));
  const uint32_t c0 = r.left / 2, r0 = r.top / 2;
  *cw = (r.left + w + 1) / 2 - c0;
  *ch = (r.top + h + 1) / 2 - r0;
  uv->assign(static_cast<size_t>(*cw) * *ch * 2, 128);
  if (in.format == kYuv400) return;
  const uint8_t* plane = in.data + static_cast<size_t>(in.width_stride) * in.height_stride;
  const bool swap = in.format == kNv21;  // V first
  for (uint32_t j = 0; j < *ch; ++j)
    for (uint32_t i = 0; i < *cw; ++i) {
      const uint8_t* p = plane + (r0 + j) * static_cast<size_t>(in.width_stride) + (c0 + i) * 2;
      (*uv)[(j * *cw + i) * 2] = p[swap ? 1 : 0];
      (*uv)[(j * *cw + i) * 2 + 1] = p[swap ? 0 : 1];
    }
}

void YuvToRgb(uint8_t y, uint8_t u, uint8_t v, uint8_t* rgb) {
  const float cb = u - 128.0f, cr = v - 128.0f;
  rgb[0] = Clamp8(y + 1.402f * cr);
  rgb[1] = Clamp8(y - 0.344136f * cb - 0.714136f * cr);
  rgb[2] = Clamp8(y + 1.772f * cb);
}

void RgbToYuv(const uint8_t* rgb, float* y, float* u, float* v) {
  *y = 0.299f * rgb[0] + 0.587f * rgb[1] + 0.114f * rgb[2];
  *u = -0.168736f * rgb[0] - 0.331264f * rgb[1] + 0.5f * rgb[2] + 128;
  *v = 0.5f * rgb[0] - 0.418688f * rgb[1] - 0.081312f * rgb[2] + 128;
}

}  // namespace

Status CheckInterpolation(uint32_t interpolation, Chip chip) {
  const bool old_chip = chip == Chip::k310 || chip == Chip::k910;
  const uint32_t top = chip == Chip::k310B ? 5 : old_chip ? 4 : 2;
  if (interpolation > top)
    return InvalidArgument("resize interpolation " + std::to_string(interpolation) +
                           " is not one of " + ChipName(chip) + "'s (0-" + std::to_string(top) +
                           ")");
  // Huawei's high-order filters (310/910's default, 310B's 5) are not public: bilinear here.
  if ((old_chip && interpolation == kDefault) || (chip == Chip::k310B && interpolation == 5)) {
    static std::once_flag warned;
    std::call_once(warned, [&] {
      OC_LOG(kWarning, "VPC: " << ChipName(chip) << "'s resize interpolation " << interpolation
                               << " is Huawei's high-order filter, which OpenCANN does not "
                                  "emulate; it resizes bilinearly (results differ slightly)");
    });
  }
  return Status::Ok();
}

namespace {
// 310B's 3 and 4 are its OpenCV bilinear and nearest again; 5 is computed bilinearly.
uint32_t EffectiveInterpolation(uint32_t interpolation, Chip chip) {
  if (chip == Chip::k310B && (interpolation == kTfBilinear || interpolation == 5)) return kBilinear;
  if (chip == Chip::k310B && interpolation == kTfNearest) return kNearest;
  return interpolation;
}
}  // namespace

Status CheckRoi(const Roi& roi, const Picture& p, Chip chip, bool paste, const char* what) {
  const std::string where = std::string(what) + " [left " + std::to_string(roi.left) + ", right " +
                            std::to_string(roi.right) + ", top " + std::to_string(roi.top) +
                            ", bottom " + std::to_string(roi.bottom) + "]";
  if (roi.right < roi.left || roi.bottom < roi.top)
    return InvalidArgument(where +
                           ": right and bottom are inclusive offsets at or after left "
                           "and top");
  if (roi.right >= p.width || roi.bottom >= p.height)
    return InvalidArgument(where + ": outside the " + std::to_string(p.width) + "x" +
                           std::to_string(p.height) + " picture");
  if (roi.width() < 10 || roi.height() < 6 || roi.width() > 4096 || roi.height() > 4096)
    return InvalidArgument(where + ": regions are 10x6 to 4096x4096 (" + ChipName(chip) +
                           " DVPP rule)");
  const bool old_chip = chip == Chip::k310 || chip == Chip::k910;
  if (old_chip && (roi.left % 2 || roi.top % 2 || roi.right % 2 == 0 || roi.bottom % 2 == 0))
    return InvalidArgument(where + ": left and top must be even, right and bottom odd (" +
                           ChipName(chip) + " DVPP rule)");
  if (paste && (old_chip || chip == Chip::k310P) && roi.left % 16)
    return InvalidArgument(where + ": a paste region's left must be a multiple of 16 (" +
                           ChipName(chip) + " DVPP rule)");
  return Status::Ok();
}

Status CropResizePaste(const Picture& in, const Roi& crop, const Picture& out, const Roi& paste,
                       uint32_t requested_interpolation, Chip chip, uint8_t alpha) {
  const uint32_t interpolation = EffectiveInterpolation(requested_interpolation, chip);
  const double sx = static_cast<double>(paste.width()) / crop.width();
  const double sy = static_cast<double>(paste.height()) / crop.height();
  if (sx < 1.0 / 32 || sx > 16 || sy < 1.0 / 32 || sy > 16)
    return InvalidArgument("resizing " + std::to_string(crop.width()) + "x" +
                           std::to_string(crop.height()) + " to " + std::to_string(paste.width()) +
                           "x" + std::to_string(paste.height()) +
                           ": each axis scales by 1/32 to 16 (" + ChipName(chip) + " DVPP rule)");
  const uint32_t pw = paste.width(), ph = paste.height();
  const size_t ows = out.width_stride;
  if (IsYuv(in.format) && IsYuv(out.format)) {
    std::vector<uint8_t> y, uv;
    uint32_t cw = 0, ch = 0;
    ReadYuvPlanes(in, crop, &y, &uv, &cw, &ch);
    ResizePlane(y.data(), crop.width(), crop.width(), crop.height(), 1,
                out.data + paste.top * ows + paste.left, ows, pw, ph, interpolation);
    if (out.format == kYuv400) return Status::Ok();
    const uint32_t oc0 = paste.left / 2, or0 = paste.top / 2;
    const uint32_t ocw = (paste.left + pw + 1) / 2 - oc0, och = (paste.top + ph + 1) / 2 - or0;
    std::vector<uint8_t> resized(static_cast<size_t>(ocw) * och * 2);
    ResizePlane(uv.data(), cw * 2, cw, ch, 2, resized.data(), ocw * 2, ocw, och, interpolation);
    uint8_t* plane = out.data + ows * out.height_stride;
    const bool swap = out.format == kNv21;
    for (uint32_t j = 0; j < och; ++j)
      for (uint32_t i = 0; i < ocw; ++i) {
        uint8_t* p = plane + (or0 + j) * ows + (oc0 + i) * 2;
        p[swap ? 1 : 0] = resized[(j * ocw + i) * 2];
        p[swap ? 0 : 1] = resized[(j * ocw + i) * 2 + 1];
      }
    return Status::Ok();
  }
  // Through RGB: the crop as RGB, resized, then written in the output's format.
  const uint32_t w = crop.width(), h = crop.height();
  std::vector<uint8_t> rgb(static_cast<size_t>(w) * h * 3);
  if (IsYuv(in.format)) {
    std::vector<uint8_t> y, uv;
    uint32_t cw = 0, ch = 0;
    ReadYuvPlanes(in, crop, &y, &uv, &cw, &ch);
    for (uint32_t j = 0; j < h; ++j)
      for (uint32_t i = 0; i < w; ++i) {
        const size_t c =
            ((crop.top + j) / 2 - crop.top / 2) * cw + ((crop.left + i) / 2 - crop.left / 2);
        YuvToRgb(y[j * w + i], uv[c * 2], uv[c * 2 + 1], &rgb[(j * w + i) * 3]);
      }
  } else {
    const RgbLayout l = LayoutOf(in.format);
    for (uint32_t j = 0; j < h; ++j)
      for (uint32_t i = 0; i < w; ++i) {
        const uint8_t* p = in.data + (crop.top + j) * static_cast<size_t>(in.width_stride) +
                           (crop.left + i) * static_cast<size_t>(l.bpp);
        uint8_t* q = &rgb[(j * w + i) * 3];
        q[0] = p[l.r];
        q[1] = p[l.g];
        q[2] = p[l.b];
      }
  }
  std::vector<uint8_t> sized(static_cast<size_t>(pw) * ph * 3);
  ResizePlane(rgb.data(), w * 3, w, h, 3, sized.data(), pw * 3, pw, ph, interpolation);
  if (!IsYuv(out.format)) {
    const RgbLayout l = LayoutOf(out.format);
    for (uint32_t j = 0; j < ph; ++j)
      for (uint32_t i = 0; i < pw; ++i) {
        const uint8_t* q = &sized[(j * pw + i) * 3];
        uint8_t* p =
            out.data + (paste.top + j) * ows + (paste.left + i) * static_cast<size_t>(l.bpp);
        p[l.r] = q[0];
        p[l.g] = q[1];
        p[l.b] = q[2];
        if (l.a >= 0) p[l.a] = alpha;
      }
    return Status::Ok();
  }
  // RGB to YUV420SP / YUV400: luma per pixel, chroma averaged over each 2x2 block.
  std::vector<float> ys(static_cast<size_t>(pw) * ph), us(ys.size()), vs(ys.size());
  for (size_t k = 0; k < ys.size(); ++k) RgbToYuv(&sized[k * 3], &ys[k], &us[k], &vs[k]);
  for (uint32_t j = 0; j < ph; ++j)
    for (uint32_t i = 0; i < pw; ++i)
      out.data[(paste.top + j) * ows + paste.left + i] = Clamp8(ys[j * pw + i]);
  if (out.format == kYuv400) return Status::Ok();
  uint8_t* plane = out.data + ows * out.height_stride;
  const bool swap = out.format == kNv21;
  for (uint32_t j = 0; j < ph; j += 2)
    for (uint32_t i = 0; i < pw; i += 2) {
      float u = 0, v = 0;
      int n = 0;
      for (uint32_t dj = 0; dj < 2 && j + dj < ph; ++dj)
        for (uint32_t di = 0; di < 2 && i + di < pw; ++di, ++n) {
          u += us[(j + dj) * pw + i + di];
          v += vs[(j + dj) * pw + i + di];
        }
      uint8_t* p = plane + ((paste.top + j) / 2) * ows + ((paste.left + i) / 2) * 2;
      p[swap ? 1 : 0] = Clamp8(u / n);
      p[swap ? 0 : 1] = Clamp8(v / n);
    }
  return Status::Ok();
}

int64_t BorderIndex(int64_t p, int64_t len, int type) {
  if (p >= 0 && p < len) return p;
  if (type == 0) return -1;
  if (len == 1) return 0;
  if (type == 1) return p < 0 ? 0 : len - 1;
  // Reflection is periodic: REFLECT (edge repeated) has period 2*len, REFLECT_101 2*len - 2.
  const bool repeat_edge = type == 2;
  const int64_t period = repeat_edge ? 2 * len : 2 * len - 2;
  int64_t m = p % period;
  if (m < 0) m += period;
  if (m < len) return m;
  return repeat_edge ? period - 1 - m : period - m;
}

namespace {

// One interleaved plane of `channels` bytes per pixel, bordered.
void BorderPlane(const uint8_t* src, size_t sstride, int64_t sw, int64_t sh, int channels,
                 uint8_t* dst, size_t dstride, int64_t top, int64_t left, int64_t dw, int64_t dh,
                 int type, const uint8_t* fill) {
  for (int64_t y = 0; y < dh; ++y) {
    const int64_t sy = BorderIndex(y - top, sh, type);
    for (int64_t x = 0; x < dw; ++x) {
      const int64_t sx = BorderIndex(x - left, sw, type);
      uint8_t* o = dst + y * dstride + x * channels;
      if (sy < 0 || sx < 0)
        std::copy_n(fill, channels, o);
      else
        std::copy_n(src + sy * sstride + sx * channels, channels, o);
    }
  }
}

}  // namespace

Status MakeBorder(const Picture& in, const Picture& out, uint32_t top, uint32_t bottom,
                  uint32_t left, uint32_t right, int border_type, const double value[4]) {
  if (border_type < 0 || border_type > 3)
    return InvalidArgument("border type " + std::to_string(border_type) +
                           " is not BORDER_CONSTANT, _REPLICATE, _REFLECT or _REFLECT_101");
  if (out.format != in.format)
    return InvalidArgument(std::string("MakeBorder writes the input's format (") +
                           PixelFormatName(in.format) + ")");
  // In 64 bits: borders near 2^32 must not wrap around to the output's size.
  const uint64_t want_w = uint64_t{in.width} + left + right;
  const uint64_t want_h = uint64_t{in.height} + top + bottom;
  if (out.width != want_w || out.height != want_h)
    return InvalidArgument("the output must be " + std::to_string(want_w) + "x" +
                           std::to_string(want_h) + " (the input with its borders)");
  const bool yuv420 = in.format == kNv12 || in.format == kNv21;
  if (yuv420 && (top % 2 || bottom % 2 || left % 2 || right % 2 || in.width % 2 || in.height % 2))
    return InvalidArgument("YUV420SP borders and sizes must be even");
  auto byte = [&](int i) {
    return static_cast<uint8_t>(std::clamp(std::lround(value[i]), 0L, 255L));
  };
  if (!IsYuv(in.format)) {
    // Values are R, G, B (and alpha), whatever order the bytes are stored in.
    const RgbLayout l = LayoutOf(in.format);
    uint8_t fill[4] = {};
    fill[l.r] = byte(0);
    fill[l.g] = byte(1);
    fill[l.b] = byte(2);
    if (l.a >= 0) fill[l.a] = byte(3);
    BorderPlane(in.data, in.width_stride, in.width, in.height, l.bpp, out.data, out.width_stride,
                top, left, out.width, out.height, border_type, fill);
    return Status::Ok();
  }
  const uint8_t y_fill = byte(0);
  BorderPlane(in.data, in.width_stride, in.width, in.height, 1, out.data, out.width_stride, top,
              left, out.width, out.height, border_type, &y_fill);
  if (!yuv420) return Status::Ok();
  uint8_t uv_fill[2] = {byte(1), byte(2)};
  if (in.format == kNv21) std::swap(uv_fill[0], uv_fill[1]);
  BorderPlane(in.data + static_cast<size_t>(in.width_stride) * in.height_stride, in.width_stride,
              in.width / 2, in.height / 2, 2,
              out.data + static_cast<size_t>(out.width_stride) * out.height_stride,
              out.width_stride, top / 2, left / 2, out.width / 2, out.height / 2, border_type,
              uv_fill);
  return Status::Ok();
}

Status CropResizeMakeBorder(const Picture& in, const Roi& crop, const Picture& out, uint32_t top,
                            uint32_t bottom, uint32_t left, uint32_t right, int border_type,
                            const double value[4], uint32_t interpolation, Chip chip) {
  if (border_type != 0 && border_type != 1)
    return InvalidArgument("border type " + std::to_string(border_type) +
                           ": crop-resize-make-border takes BORDER_CONSTANT or BORDER_REPLICATE");
  const uint64_t bordered_w = uint64_t{left} + right, bordered_h = uint64_t{top} + bottom;
  if (bordered_w + 1 > out.width || bordered_h + 1 > out.height)
    return InvalidArgument("borders of " + std::to_string(bordered_w) + "x" +
                           std::to_string(bordered_h) + " leave nothing of the " +
                           std::to_string(out.width) + "x" + std::to_string(out.height) +
                           " output picture");
  // The resized crop in a picture of the output's format, which MakeBorder then borders.
  Picture inner;
  inner.format = out.format;
  inner.width = out.width - static_cast<uint32_t>(bordered_w);
  inner.height = out.height - static_cast<uint32_t>(bordered_h);
  inner.width_stride = IsYuv(out.format)
                           ? AlignUp(inner.width, 2)
                           : inner.width * static_cast<uint32_t>(LayoutOf(out.format).bpp);
  inner.height_stride = AlignUp(inner.height, 2);
  std::vector<uint8_t> buffer(PictureBytes(inner.format, inner.width_stride, inner.height_stride));
  if (buffer.empty()) return Unsupported(std::string(PixelFormatName(out.format)) + " output");
  inner.data = buffer.data();
  inner.size = static_cast<uint32_t>(buffer.size());
  const Roi whole{0, inner.width - 1, 0, inner.height - 1};
  if (Status s = CropResizePaste(in, crop, inner, whole, interpolation, chip); !s.ok()) return s;
  return MakeBorder(inner, out, top, bottom, left, right, border_type, value);
}

}  // namespace oc::dvpp
