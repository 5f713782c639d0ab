#include "dvpp/picture.h"

namespace oc::dvpp {
namespace {

struct FormatInfo {
  int32_t format;
  const char* name;
  uint32_t bytes_per_pixel;  // of the first plane's row (packed formats: all of it)
  bool even_width, even_height;
};

constexpr FormatInfo kFormats[] = {
    {kYuv400, "YUV_400", 1, false, false},
    {kNv12, "YUV_SEMIPLANAR_420", 1, true, true},
    {kNv21, "YVU_SEMIPLANAR_420", 1, true, true},
    {kYuv422Sp, "YUV_SEMIPLANAR_422", 1, true, false},
    {kYvu422Sp, "YVU_SEMIPLANAR_422", 1, true, false},
    {kYuv444Sp, "YUV_SEMIPLANAR_444", 1, false, false},
    {kYvu444Sp, "YVU_SEMIPLANAR_444", 1, false, false},
    {kYuyv422Packed, "YUYV_PACKED_422", 2, true, false},
    {kUyvy422Packed, "UYVY_PACKED_422", 2, true, false},
    {kYvyu422Packed, "YVYU_PACKED_422", 2, true, false},
    {kVyuy422Packed, "VYUY_PACKED_422", 2, true, false},
    {kYuv444Packed, "YUV_PACKED_444", 3, false, false},
    {kRgb888, "RGB_888", 3, false, false},
    {kBgr888, "BGR_888", 3, false, false},
    {kArgb8888, "ARGB_8888", 4, false, false},
    {kAbgr8888, "ABGR_8888", 4, false, false},
    {kRgba8888, "RGBA_8888", 4, false, false},
    {kBgra8888, "BGRA_8888", 4, false, false},
};

const FormatInfo* Find(int32_t format) {
  for (const auto& f : kFormats)
    if (f.format == format) return &f;
  return nullptr;
}

// The formats OpenCANN's VPC computes (the NPU takes more; those are refused by name).
bool Processed(int32_t f) {
  return f == kYuv400 || f == kNv12 || f == kNv21 || (f >= kRgb888 && f <= kBgra8888);
}

std::string Describe(const Picture& p, const char* what) {
  return std::string(what) + " (" + PixelFormatName(p.format) + ", " + std::to_string(p.width) +
         "x" + std::to_string(p.height) + ", strides " + std::to_string(p.width_stride) + "x" +
         std::to_string(p.height_stride) + ")";
}

}  // namespace

const char* PixelFormatName(int32_t format) {
  const FormatInfo* f = Find(format);
  return f ? f->name : "an unknown format";
}

Chip ChipOf(const std::string& soc) {
  if (soc.rfind("Ascend310P", 0) == 0) return Chip::k310P;
  if (soc.rfind("Ascend310B", 0) == 0) return Chip::k310B;
  if (soc.rfind("Ascend910B", 0) == 0 || soc.rfind("Ascend910_93", 0) == 0) return Chip::k910B;
  if (soc.rfind("Ascend910", 0) == 0) return Chip::k910;
  if (soc.rfind("Ascend310", 0) == 0) return Chip::k310;
  return Chip::k910B;  // newer chips (Ascend950 and later) follow the A2 rules
}

const char* ChipName(Chip chip) {
  switch (chip) {
    case Chip::k310:
      return "Ascend 310";
    case Chip::k910:
      return "Ascend 910";
    case Chip::k310P:
      return "Ascend 310P";
    case Chip::k910B:
      return "Ascend 910B";
    case Chip::k310B:
      return "Ascend 310B";
  }
  return "?";
}

uint32_t BytesPerPixel(int32_t format) {
  const FormatInfo* f = Find(format);
  return f ? f->bytes_per_pixel : 0;
}

uint64_t PictureBytes(int32_t format, uint32_t ws, uint32_t hs) {
  const uint64_t plane = static_cast<uint64_t>(ws) * hs;
  switch (format) {
    case kYuv400:
      return plane;
    case kNv12:
    case kNv21:
      return plane * 3 / 2;
    case kYuv422Sp:
    case kYvu422Sp:
      return plane * 2;
    case kYuv444Sp:
    case kYvu444Sp:
      return plane * 3;
    default:
      return Find(format) ? plane : 0;  // packed: the stride counts the bytes of a row
  }
}

Status CheckVpcPicture(const Picture& p, Chip chip, Role role, const char* what) {
  const FormatInfo* f = Find(p.format);
  const bool input = role == Role::kVpcInput;
  const bool old_chip = chip == Chip::k310 || chip == Chip::k910;
  auto bad = [&](const std::string& rule) {
    return InvalidArgument(Describe(p, what) + ": " + rule + " (" + ChipName(chip) + " DVPP rule)");
  };
  if (!f) return bad("the picture format is not one of DVPP's");
  if (!input && old_chip && p.format != kNv12 && p.format != kNv21)
    return bad("VPC writes only YUV_SEMIPLANAR_420 (NV12) or YVU_SEMIPLANAR_420 (NV21) here");
  if (!Processed(p.format))
    return Unsupported(Describe(p, what) + ": OpenCANN's VPC computes YUV_400, NV12, NV21, " +
                       "RGB_888, BGR_888 and the 8888 RGB formats; this format is not supported");
  if (!p.data) return bad("the picture has no data");
  const uint32_t max_side =
      input ? 8192 : (chip == Chip::k910B || chip == Chip::k310B ? 8192 : 4096);
  if (p.width < 10 || p.height < 6 || p.width > (input ? 8192u : 4096u) || p.height > max_side)
    return bad(std::string(input ? "input" : "output") + " pictures are 10x6 to " +
               (input ? "8192x8192" : "4096x" + std::to_string(max_side)));
  // Written pictures of subsampled formats have even sizes; a read one may be odd (the
  // strides, aligned to 2, hold its last chroma row: CANN's samples resize 500x375 decodes).
  if (!input && ((f->even_width && p.width % 2) || (f->even_height && p.height % 2)))
    return bad("this format needs an even width" +
               std::string(f->even_height ? " and height" : ""));
  // Row strides: aligned to 16 pixels on 310, 910 and 310P; at least the row on 910B/310B.
  const uint32_t bpp = f->bytes_per_pixel;
  const bool aligned = chip == Chip::k310 || chip == Chip::k910 || chip == Chip::k310P;
  // A subsampled row of odd width still stores its last chroma pair: the row is even.
  const uint32_t row = f->even_width ? AlignUp(p.width, 2) : p.width;
  const uint64_t min_ws = static_cast<uint64_t>(bpp) * (aligned ? AlignUp(p.width, 16) : row);
  if (p.width_stride < min_ws || (aligned && p.width_stride % 16))
    return bad("the width stride must be " +
               std::string(aligned ? "a multiple of 16 and at least " : "at least ") +
               std::to_string(min_ws) +
               (bpp > 1 ? " (" + std::to_string(bpp) + " bytes a pixel)" : ""));
  if (p.width_stride < 32 || p.width_stride > 16384)
    return bad("the width stride must be 32 to 16384");
  const bool even_hs = old_chip || p.format == kNv12 || p.format == kNv21;
  const uint32_t min_hs = even_hs ? AlignUp(p.height, 2) : p.height;
  if (p.height_stride < min_hs || (even_hs && p.height_stride % 2))
    return bad("the height stride must be " + std::string(even_hs ? "even and " : "") +
               "at least " + std::to_string(min_hs));
  // 310/910 read "8K" YUV420SP inputs (up to 8192 high) besides their 4096 limit.
  const uint32_t max_hs = !old_chip                                             ? 16384u
                          : (input && (p.format == kNv12 || p.format == kNv21)) ? 8192u
                                                                                : 4096u;
  if (p.height_stride < 6 || p.height_stride > max_hs)
    return bad("the height stride must be 6 to " + std::to_string(max_hs));
  const uint64_t need = PictureBytes(p.format, p.width_stride, p.height_stride);
  if (p.size < need)
    return bad("the buffer holds " + std::to_string(p.size) + " bytes, the strides need " +
               std::to_string(need));
  return Status::Ok();
}

}  // namespace oc::dvpp
