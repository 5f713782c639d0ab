// Histogram, remapping and pyramid on the CPU. CANN documents what these compute but not the
// hardware's arithmetic; PyrDown follows OpenCV's pyrDown, whose integer rounding
// ((sum + 128) >> 8) it reproduces exactly.
#include "dvpp/vpc_filters.h"

#include <algorithm>
#include <cmath>
#include <string>
#include <vector>

#include "dvpp/vpc.h"

namespace oc::dvpp {
namespace {

bool Processed(int32_t f) {
  return f == kYuv400 || f == kNv12 || f == kNv21 || f == kRgb888 || f == kBgr888;
}

Status NeedProcessed(const Picture& p, const char* op) {
  if (Processed(p.format)) return Status::Ok();
  return Unsupported(std::string(op) + ": OpenCANN computes YUV_400, NV12, NV21, RGB_888 and " +
                     "BGR_888 pictures; " + PixelFormatName(p.format) + " is not supported");
}

// Calls fn(component, byte) for every stored component byte of the visible picture, where
// component is 0-2 in Y,U,V / R,G,B order.
template <typename Fn>
void ForEachSample(const Picture& p, Fn fn) {
  const size_t ws = p.width_stride;
  if (p.format == kRgb888 || p.format == kBgr888) {
    const bool bgr = p.format == kBgr888;
    for (uint32_t y = 0; y < p.height; ++y) {
      uint8_t* row = p.data + y * ws;
      for (uint32_t x = 0; x < p.width; ++x) {
        fn(bgr ? 2 : 0, row + x * 3);
        fn(1, row + x * 3 + 1);
        fn(bgr ? 0 : 2, row + x * 3 + 2);
      }
    }
    return;
  }
  for (uint32_t y = 0; y < p.height; ++y)
    for (uint32_t x = 0; x < p.width; ++x) fn(0, p.data + y * ws + x);
  if (p.format == kYuv400) return;
  const bool nv21 = p.format == kNv21;
  uint8_t* plane = p.data + ws * p.height_stride;
  for (uint32_t y = 0; y < (p.height + 1) / 2; ++y)
    for (uint32_t x = 0; x < (p.width + 1) / 2; ++x) {
      uint8_t* pair = plane + y * ws + x * 2;
      fn(nv21 ? 2 : 1, pair);
      fn(nv21 ? 1 : 2, pair + 1);
    }
}

}  // namespace

Status CalcHist(const Picture& in, uint32_t hist[kComponents][kLevels]) {
  if (Status s = NeedProcessed(in, "CalcHist"); !s.ok()) return s;
  ForEachSample(in, [&](int c, const uint8_t* v) { ++hist[c][*v]; });
  return Status::Ok();
}

Status RemapColors(const Picture& in, const Picture& out, const uint8_t map[kComponents][kLevels]) {
  if (Status s = NeedProcessed(in, "EqualizeHist"); !s.ok()) return s;
  if (out.format != in.format || out.width != in.width || out.height != in.height)
    return InvalidArgument(std::string("EqualizeHist writes a picture of the input's format "
                                       "and size (") +
                           PixelFormatName(in.format) + ", " + std::to_string(in.width) + "x" +
                           std::to_string(in.height) + ")");
  // Component bytes sit at the same offsets in both pictures once rows are re-based.
  const size_t in_ws = in.width_stride, out_ws = out.width_stride;
  const uint8_t* in_chroma = in.data + in_ws * in.height_stride;
  uint8_t* out_chroma = out.data + out_ws * out.height_stride;
  ForEachSample(in, [&](int c, const uint8_t* v) {
    const bool chroma = c != 0 && in.format != kRgb888 && in.format != kBgr888;
    const uint8_t* base = chroma ? in_chroma : in.data;
    const size_t offset = static_cast<size_t>(v - base);
    const size_t row = offset / in_ws, col = offset % in_ws;
    (chroma ? out_chroma : out.data)[row * out_ws + col] = map[c][*v];
  });
  return Status::Ok();
}

namespace {

Status CheckPyrDown(const Picture& in, const Picture& out) {
  if (in.format != kYuv400 || out.format != kYuv400)
    return InvalidArgument("PyrDown reads and writes YUV_400 pictures only");
  if (in.width < 20 || in.height < 12 || in.width > 2048 || in.height > 2048)
    return InvalidArgument("PyrDown's input is 20x12 to 2048x2048; this one is " +
                           std::to_string(in.width) + "x" + std::to_string(in.height));
  auto half = [](uint32_t in_side, uint32_t out_side) {
    return out_side == in_side / 2 || out_side == (in_side + 1) / 2;
  };
  if (!half(in.width, out.width) || !half(in.height, out.height))
    return InvalidArgument("PyrDown's output is half the input (" + std::to_string(in.width / 2) +
                           "x" + std::to_string(in.height / 2) + "), not " +
                           std::to_string(out.width) + "x" + std::to_string(out.height));
  return Status::Ok();
}

}  // namespace

Status PyrDown(const Picture& in, const Picture& out, const PyrKernel& kernel) {
  if (Status s = CheckPyrDown(in, out); !s.ok()) return s;
  if (kernel.divisor == 0) return InvalidArgument("PyrDown's divisor is 0");
  if (kernel.border_type < 0 || kernel.border_type > 3)
    return Unsupported("PyrDown border type " + std::to_string(kernel.border_type) +
                       ": OpenCANN computes CONSTANT, REPLICATE, REFLECT and REFLECT_101 (0-3)");
  const int64_t w = in.width, h = in.height;
  for (uint32_t oy = 0; oy < out.height; ++oy) {
    uint8_t* dst = out.data + static_cast<size_t>(oy) * out.width_stride;
    for (uint32_t ox = 0; ox < out.width; ++ox) {
      int64_t sum = 0;
      for (int ky = 0; ky < 5; ++ky) {
        const int64_t sy = BorderIndex(2 * int64_t{oy} + ky - 2, h, kernel.border_type);
        for (int kx = 0; kx < 5; ++kx) {
          const int64_t sx = BorderIndex(2 * int64_t{ox} + kx - 2, w, kernel.border_type);
          const int v = sy < 0 || sx < 0 ? kernel.constant : in.data[sy * in.width_stride + sx];
          sum += kernel.taps[ky][kx] * v;
        }
      }
      const long q = std::lround(static_cast<double>(sum) / kernel.divisor);
      dst[ox] = static_cast<uint8_t>(std::clamp(q, 0L, 255L));
    }
  }
  return Status::Ok();
}

Status PyrDown(const Picture& in, const Picture& out) {
  if (Status s = CheckPyrDown(in, out); !s.ok()) return s;
  const int64_t w = in.width, h = in.height;
  auto reflect = [](int64_t i, int64_t n) {  // BORDER_REFLECT_101; n >= 12 here
    if (i < 0) return -i;
    if (i >= n) return 2 * (n - 1) - i;
    return i;
  };
  static constexpr int kTaps[5] = {1, 4, 6, 4, 1};
  // Vertical pass for every output row at full width, then the horizontal one.
  std::vector<int32_t> column(static_cast<size_t>(w));
  for (uint32_t oy = 0; oy < out.height; ++oy) {
    std::fill(column.begin(), column.end(), 0);
    for (int k = 0; k < 5; ++k) {
      const uint8_t* row = in.data + reflect(2 * int64_t{oy} + k - 2, h) * in.width_stride;
      for (int64_t x = 0; x < w; ++x) column[x] += kTaps[k] * row[x];
    }
    uint8_t* dst = out.data + static_cast<size_t>(oy) * out.width_stride;
    for (uint32_t ox = 0; ox < out.width; ++ox) {
      int32_t sum = 0;
      for (int k = 0; k < 5; ++k) sum += kTaps[k] * column[reflect(2 * int64_t{ox} + k - 2, w)];
      dst[ox] = static_cast<uint8_t>((sum + 128) >> 8);
    }
  }
  return Status::Ok();
}

}  // namespace oc::dvpp
