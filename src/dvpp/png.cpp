// PNGD on libpng's simplified API (png_image: no longjmp to manage).
#include "dvpp/png.h"

#include <png.h>

#include <cstring>
#include <string>
#include <vector>

namespace oc::dvpp {
namespace {

uint32_t Be32(const uint8_t* p) {
  return (uint32_t{p[0]} << 24) | (uint32_t{p[1]} << 16) | (uint32_t{p[2]} << 8) | p[3];
}

}  // namespace

Result<PngInfo> ReadPngInfo(const uint8_t* data, size_t size) {
  static const uint8_t kSignature[8] = {0x89, 'P', 'N', 'G', '\r', '\n', 0x1A, '\n'};
  if (!data || size < 33 || std::memcmp(data, kSignature, 8) != 0 ||
      std::memcmp(data + 12, "IHDR", 4) != 0)
    return InvalidArgument("the data is not a PNG (no signature and IHDR chunk)");
  PngInfo info;
  info.width = Be32(data + 16);
  info.height = Be32(data + 20);
  const uint8_t bit_depth = data[24], color_type = data[25];
  switch (color_type) {
    case 0:
      info.components = 1;
      break;
    case 2:
      info.components = 3;
      break;
    case 3:
      info.components = 3, info.palette = true;
      break;
    case 4:
      info.components = 2;
      break;
    case 6:
      info.components = 4;
      break;
    default:
      return InvalidArgument("the PNG's colour type " + std::to_string(color_type) +
                             " is not one PNG defines");
  }
  if (bit_depth != 1 && bit_depth != 2 && bit_depth != 4 && bit_depth != 8 && bit_depth != 16)
    return InvalidArgument("the PNG's bit depth " + std::to_string(bit_depth) + " is not valid");
  return info;
}

Result<int32_t> PngdOutputFormat(const PngInfo& info, int32_t format) {
  if (info.palette)
    return Unsupported("PNGD decodes RGB, grey, RGBA and grey+alpha PNGs; palette PNGs are not");
  if (info.width < 32 || info.height < 32 || info.width > 4096 || info.height > 4096)
    return InvalidArgument("PNGD decodes 32x32 to 4096x4096 pictures; this one is " +
                           std::to_string(info.width) + "x" + std::to_string(info.height));
  if (format == kUnknownFormat) return info.components % 2 == 0 ? kRgba8888 : kRgb888;
  if (format != kRgb888 && format != kRgba8888)
    return Unsupported(std::string("PNGD output ") + PixelFormatName(format) +
                       ": PNGD writes RGB_888 or RGBA_8888");
  return format;
}

Result<uint32_t> PngdOutputBytes(const PngInfo& info, int32_t format) {
  OC_ASSIGN_OR_RETURN(int32_t f, PngdOutputFormat(info, format));
  const uint64_t bytes = static_cast<uint64_t>(AlignUp(info.width, 128)) * (f == kRgb888 ? 3 : 4) *
                         AlignUp(info.height, 16);
  return static_cast<uint32_t>(bytes);
}

Status DecodePng(const uint8_t* data, size_t size, Picture* out) {
  OC_ASSIGN_OR_RETURN(PngInfo info, ReadPngInfo(data, size));
  OC_ASSIGN_OR_RETURN(int32_t format, PngdOutputFormat(info, out->format));
  const uint32_t bpp = format == kRgb888 ? 3 : 4;
  const uint32_t min_ws = AlignUp(info.width, 128) * bpp, min_hs = AlignUp(info.height, 16);
  const std::string what = "PNGD output (" + std::to_string(info.width) + "x" +
                           std::to_string(info.height) + ", " + PixelFormatName(format) + ")";
  if (out->width_stride < min_ws || out->width_stride % (128 * bpp) ||
      out->height_stride < min_hs || out->height_stride % 16)
    return InvalidArgument(what + ": the strides are " + std::to_string(out->width_stride) + "x" +
                           std::to_string(out->height_stride) + "; PNGD writes rows aligned to " +
                           "128 pixels and heights to 16 (" + std::to_string(min_ws) + "x" +
                           std::to_string(min_hs) + " at least)");
  const uint64_t need = static_cast<uint64_t>(out->width_stride) * out->height_stride;
  if (!out->data || out->size < need)
    return InvalidArgument(what + ": the buffer holds " + std::to_string(out->size) + " bytes, " +
                           std::to_string(need) + " are needed");
  png_image image;
  std::memset(&image, 0, sizeof image);
  image.version = PNG_IMAGE_VERSION;
  if (!png_image_begin_read_from_memory(&image, data, size))
    return InvalidArgument(std::string("the PNG cannot be read: ") + image.message);
  // A source with alpha (an alpha channel or a tRNS chunk) written as RGB_888 loses its
  // alpha, as the engine drops it (libpng would compose it onto the buffer's old bytes).
  const bool drop_alpha = bpp == 3 && (image.format & PNG_FORMAT_FLAG_ALPHA) != 0;
  image.format = bpp == 3 && !drop_alpha ? PNG_FORMAT_RGB : PNG_FORMAT_RGBA;
  std::vector<uint8_t> rgba;
  if (drop_alpha) rgba.resize(static_cast<size_t>(info.width) * info.height * 4);
  const bool ok =
      png_image_finish_read(
          &image, nullptr, drop_alpha ? rgba.data() : out->data,
          static_cast<png_int_32>(drop_alpha ? info.width * 4 : out->width_stride), nullptr) != 0;
  const std::string message = image.message;
  png_image_free(&image);
  if (!ok) return InvalidArgument("the PNG cannot be decoded: " + message);
  if (drop_alpha)
    for (uint32_t y = 0; y < info.height; ++y)
      for (uint32_t x = 0; x < info.width; ++x)
        std::memcpy(out->data + static_cast<size_t>(y) * out->width_stride + x * 3,
                    &rgba[(static_cast<size_t>(y) * info.width + x) * 4], 3);
  out->format = format;
  out->width = info.width;
  out->height = info.height;
  return Status::Ok();
}

}  // namespace oc::dvpp
