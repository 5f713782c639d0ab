// What the media API tells about a file or a buffer before decoding: a JPEG's or PNG's size,
// sampling and the buffer its decode needs, and the buffer sizes of VDEC's outputs. The
// streams here may be host memory (CANN's samples read the header from the file's bytes).
#include <algorithm>
#include <cstring>
#include <string>

#include "dvpp/jpeg.h"
#include "dvpp/png.h"
#include "dvpp_mpi/mpi_core.h"

namespace oc::dvpp_mpi {
namespace {

hi_jpeg_raw_format RawFormat(int32_t sampling) {
  switch (sampling) {
    case dvpp::kCss444:
      return HI_JPEG_RAW_FORMAT_YUV444;
    case dvpp::kCss422:
      return HI_JPEG_RAW_FORMAT_YUV422;
    case dvpp::kCss420:
      return HI_JPEG_RAW_FORMAT_YUV420;
    case dvpp::kCssGray:
      return HI_JPEG_RAW_FORMAT_YUV400;
    case dvpp::kCss440:
      return HI_JPEG_RAW_FORMAT_YUV440;
    case dvpp::kCss411:
      return HI_JPEG_RAW_FORMAT_YUV411;
    default:
      return HI_JPEG_RAW_FORMAT_MAX;
  }
}

int32_t Int(const void* enum_value) {
  int32_t v = 0;
  std::memcpy(&v, enum_value, sizeof v);
  return v;
}

// A JPEG's info for a decode to `format` (kUnknownFormat: the source's).
hi_s32 JpegInfo(const char* fn, const hi_vdec_stream* stream, int32_t format, hi_img_info* info) {
  if (!stream || !info || !stream->addr)
    return Fail(Module::kVdec, HI_ERR_NULL_PTR, std::string(fn) + ": a pointer is null");
  auto header = dvpp::ReadJpegInfo(stream->addr, stream->len);
  if (!header.ok()) return FailStatus(Module::kVdec, header.status(), fn);
  if (Status s = dvpp::CheckJpegd(*header); !s.ok()) return FailStatus(Module::kVdec, s, fn);
  const dvpp::Chip chip = CurrentChip();
  if (format == dvpp::kUnknownFormat) {
    auto source = dvpp::UnknownOutputFormat(*header);
    if (!source.ok()) return FailStatus(Module::kVdec, source.status(), fn);
    format = *source;
  }
  auto bytes = dvpp::JpegdOutputBytes(*header, format, chip);
  if (!bytes.ok()) return FailStatus(Module::kVdec, bytes.status(), fn);
  *info = {};
  info->width = header->width;
  info->height = header->height;
  info->width_stride = dvpp::AlignUp(header->width, dvpp::JpegdWidthAlign(chip));
  info->height_stride = dvpp::AlignUp(header->height, 16);
  info->img_buf_size = *bytes;
  info->pixel_format = RawFormat(header->sampling);
  return HI_SUCCESS;
}

}  // namespace

hi_s32 PngInfo(const char* fn, const uint8_t* data, uint32_t len, hi_img_info* info) {
  if (!data || !info)
    return Fail(Module::kPngd, HI_ERR_NULL_PTR, std::string(fn) + ": a pointer is null");
  auto header = dvpp::ReadPngInfo(data, len);
  if (!header.ok()) return FailStatus(Module::kPngd, header.status(), fn);
  auto format = dvpp::PngdOutputFormat(*header, dvpp::kUnknownFormat);
  if (!format.ok()) return FailStatus(Module::kPngd, format.status(), fn);
  auto bytes = dvpp::PngdOutputBytes(*header, *format);
  if (!bytes.ok()) return FailStatus(Module::kPngd, bytes.status(), fn);
  *info = {};
  info->width = header->width;
  info->height = header->height;
  info->width_stride = dvpp::BytesPerPixel(*format) * dvpp::AlignUp(header->width, 128);
  info->height_stride = dvpp::AlignUp(header->height, 16);
  info->img_buf_size = *bytes;
  static constexpr hi_png_color_format kByComponents[] = {
      HI_PNG_COLOR_FORMAT_BUTT, HI_PNG_COLOR_FORMAT_GRAY, HI_PNG_COLOR_FORMAT_AGRAY,
      HI_PNG_COLOR_FORMAT_RGB, HI_PNG_COLOR_FORMAT_ARGB};
  info->png_pixel_format = header->palette ? HI_PNG_COLOR_FORMAT_CLUT
                           : header->components >= 1 && header->components <= 4
                               ? kByComponents[header->components]
                               : HI_PNG_COLOR_FORMAT_BUTT;
  return HI_SUCCESS;
}

}  // namespace oc::dvpp_mpi

using oc::dvpp_mpi::Fail;
using oc::dvpp_mpi::Module;

extern "C" {

hi_s32 hi_mpi_dvpp_get_image_info(hi_payload_type img_type, const hi_vdec_stream* stream,
                                  hi_img_info* img_info) {
  const char* fn = "hi_mpi_dvpp_get_image_info";
  const int32_t type = oc::dvpp_mpi::Int(&img_type);
  if (type == HI_PT_JPEG)
    return oc::dvpp_mpi::JpegInfo(fn, stream, oc::dvpp::kUnknownFormat, img_info);
  if (type == HI_PT_PNG) {
    if (!stream) return Fail(Module::kPngd, HI_ERR_NULL_PTR, std::string(fn) + ": stream is null");
    return oc::dvpp_mpi::PngInfo(fn, stream->addr, stream->len, img_info);
  }
  return Fail(Module::kVdec, HI_ERR_NOT_SUPPORT,
              std::string(fn) + ": payload type " + std::to_string(type) +
                  " is not HI_PT_JPEG (26) or HI_PT_PNG (268)");
}

hi_s32 hi_mpi_vdec_get_jpegd_output_info(const hi_vdec_stream* stream,
                                         hi_pixel_format output_format, hi_img_info* img_info) {
  return oc::dvpp_mpi::JpegInfo("hi_mpi_vdec_get_jpegd_output_info", stream,
                                oc::dvpp_mpi::Int(&output_format), img_info);
}

hi_s32 hi_mpi_png_get_image_info(const hi_img_stream* png_stream, hi_img_info* img_info) {
  const char* fn = "hi_mpi_png_get_image_info";
  if (!png_stream)
    return Fail(Module::kPngd, HI_ERR_NULL_PTR, std::string(fn) + ": png_stream is null");
  return oc::dvpp_mpi::PngInfo(fn, png_stream->addr, png_stream->len, img_info);
}

// 0 for a request it cannot size (CANN's convention for these size functions).
hi_u32 hi_vdec_get_pic_buf_size(hi_payload_type type, hi_pic_buf_attr* buf_attr) {
  if (!buf_attr || buf_attr->width == 0 || buf_attr->height == 0 || buf_attr->width > 16384 ||
      buf_attr->height > 16384)
    return 0;
  const int32_t t = oc::dvpp_mpi::Int(&type);
  const int32_t format = oc::dvpp_mpi::Int(&buf_attr->pixel_format);
  const oc::dvpp::Chip chip = oc::dvpp_mpi::CurrentChip();
  uint32_t wa = 16, ha = 2;
  if (t == HI_PT_JPEG || t == HI_PT_MJPEG) {
    wa = oc::dvpp::JpegdWidthAlign(chip);
    ha = 16;
  } else if (t != HI_PT_H264 && t != HI_PT_H265) {
    return 0;
  }
  if (buf_attr->align > wa && buf_attr->align <= 1024) wa = buf_attr->align;
  const uint32_t ws = std::max(32u, oc::dvpp::AlignUp(buf_attr->width, wa));
  const uint32_t hs = oc::dvpp::AlignUp(buf_attr->height, ha);
  // Unknown or unlaid-out formats: the largest JPEGD writes (4:4:4 planes).
  uint64_t bytes = oc::dvpp::PictureBytes(format, ws * oc::dvpp::BytesPerPixel(format), hs);
  if (bytes == 0) bytes = static_cast<uint64_t>(ws) * hs * 3;
  return bytes > UINT32_MAX ? 0 : static_cast<hi_u32>(bytes);
}

// The temporal motion-vector buffer of H.264/H.265 decoding: 16 bytes per 16x16 block
// (OpenCANN's decoder keeps its own; the size is not public, so this is a bound).
hi_u32 hi_vdec_get_tmv_buf_size(hi_payload_type type, hi_u32 width, hi_u32 height) {
  const int32_t t = oc::dvpp_mpi::Int(&type);
  if ((t != HI_PT_H264 && t != HI_PT_H265) || width == 0 || height == 0 || width > 16384 ||
      height > 16384)
    return 0;
  return (oc::dvpp::AlignUp(width, 64) / 16) * (oc::dvpp::AlignUp(height, 64) / 16) * 16;
}

}  // extern "C"
