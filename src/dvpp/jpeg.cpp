// JPEGD on libjpeg-turbo's libjpeg API. libjpeg reports errors by longjmp: the decoding
// functions below keep no object with a destructor alive across a setjmp, and everything
// they allocate is libjpeg's or held by the caller.
#include "dvpp/jpeg.h"

#include <jpeglib.h>

#include <algorithm>
#include <csetjmp>
#include <cstdio>
#include <cstring>
#include <string>
#include <vector>

namespace oc::dvpp {
namespace {

struct ErrorManager {
  jpeg_error_mgr base;
  std::jmp_buf jump;
  char message[JMSG_LENGTH_MAX];
};

void OnError(j_common_ptr cinfo) {
  auto* e = reinterpret_cast<ErrorManager*>(cinfo->err);
  (*cinfo->err->format_message)(cinfo, e->message);
  std::longjmp(e->jump, 1);
}

// Warnings (a truncated file) are counted, not printed.
void OnMessage(j_common_ptr cinfo, int level) {
  if (level < 0) ++cinfo->err->num_warnings;
}

int32_t SamplingOf(const jpeg_decompress_struct& c) {
  if (c.num_components == 1) return kCssGray;
  if (c.num_components != 3) return kCssUnknown;
  // The ratio of luma to chroma sampling counts: encoders may scale every factor alike
  // (1x2 for all three components is 4:4:4).
  const int ch = c.comp_info[1].h_samp_factor, cv = c.comp_info[1].v_samp_factor;
  if (ch <= 0 || cv <= 0 || c.comp_info[2].h_samp_factor != ch ||
      c.comp_info[2].v_samp_factor != cv || c.comp_info[0].h_samp_factor % ch ||
      c.comp_info[0].v_samp_factor % cv)
    return kCssUnknown;
  const int h = c.comp_info[0].h_samp_factor / ch, v = c.comp_info[0].v_samp_factor / cv;
  if (h == 1 && v == 1) return kCss444;
  if (h == 2 && v == 1) return kCss422;
  if (h == 2 && v == 2) return kCss420;
  if (h == 1 && v == 2) return kCss440;
  if (h == 4 && v == 1) return kCss411;
  return kCssUnknown;
}

// Reads the header into *info; false with *error set when libjpeg cannot.
bool Header(const uint8_t* data, size_t size, JpegInfo* info, std::string* error) {
  jpeg_decompress_struct c;
  ErrorManager e;
  c.err = jpeg_std_error(&e.base);
  e.base.error_exit = OnError;
  e.base.emit_message = OnMessage;
  if (setjmp(e.jump)) {
    *error = e.message;
    jpeg_destroy_decompress(&c);
    return false;
  }
  jpeg_create_decompress(&c);
  jpeg_mem_src(&c, data, static_cast<unsigned long>(size));
  jpeg_read_header(&c, TRUE);
  info->width = c.image_width;
  info->height = c.image_height;
  info->components = c.num_components;
  info->sampling = SamplingOf(c);
  info->progressive = c.progressive_mode != 0;
  info->arithmetic = c.arith_code != 0;
  jpeg_destroy_decompress(&c);
  return true;
}

// Decodes to full-resolution YCbCr (3 bytes a pixel) or grey (1) rows, chroma box-upsampled
// so that averaging a 2x2 block gives back 4:2:0 samples exactly.
bool DecodeRows(const uint8_t* data, size_t size, const JpegInfo& expected, bool gray,
                std::vector<uint8_t>* pixels, std::string* error) {
  jpeg_decompress_struct c;
  ErrorManager e;
  c.err = jpeg_std_error(&e.base);
  e.base.error_exit = OnError;
  e.base.emit_message = OnMessage;
  if (setjmp(e.jump)) {
    *error = e.message;
    jpeg_destroy_decompress(&c);
    return false;
  }
  jpeg_create_decompress(&c);
  jpeg_mem_src(&c, data, static_cast<unsigned long>(size));
  jpeg_read_header(&c, TRUE);
  // The buffer is the application's memory: the header read again must be the one the
  // output was sized for (the data may have changed since).
  if (c.image_width != expected.width || c.image_height != expected.height ||
      c.num_components != expected.components) {
    jpeg_destroy_decompress(&c);
    *error = "the JPEG changed while it was decoded";
    return false;
  }
  c.out_color_space = gray ? JCS_GRAYSCALE : JCS_YCbCr;
  c.do_fancy_upsampling = FALSE;
  c.dct_method = JDCT_ISLOW;
  jpeg_start_decompress(&c);
  const size_t row = static_cast<size_t>(c.output_width) * c.output_components;
  uint8_t* base = pixels->data();
  while (c.output_scanline < c.output_height) {
    JSAMPROW line = base + row * c.output_scanline;
    jpeg_read_scanlines(&c, &line, 1);
  }
  jpeg_finish_decompress(&c);
  // libjpeg pads a truncated or damaged stream and only warns; the hardware reports it.
  const long warnings = e.base.num_warnings;
  if (warnings > 0) (*c.err->format_message)(reinterpret_cast<j_common_ptr>(&c), e.message);
  jpeg_destroy_decompress(&c);
  if (warnings > 0) {
    *error = std::string("the stream is damaged or truncated (") + e.message + ")";
    return false;
  }
  return true;
}

}  // namespace

Result<JpegInfo> ReadJpegInfo(const uint8_t* data, size_t size) {
  if (!data || size < 4 || data[0] != 0xFF || data[1] != 0xD8)
    return Status(StatusCode::kInvalidArgument, "the data is not a JPEG (no SOI marker)");
  if (size > (size_t{1} << 31)) return InvalidArgument("the JPEG is larger than 2 GiB");
  JpegInfo info;
  std::string error;
  if (!Header(data, size, &info, &error))
    return Status(StatusCode::kInvalidArgument, "the JPEG header cannot be read: " + error);
  return info;
}

Status CheckJpegd(const JpegInfo& info) {
  if (info.progressive) return Unsupported("progressive JPEGs are not decoded by DVPP's JPEGD");
  if (info.arithmetic) return Unsupported("arithmetic-coded JPEGs are not decoded by DVPP's JPEGD");
  if (info.sampling == kCssUnknown)
    return Unsupported(
        "JPEGD decodes YUV 4:4:4, 4:2:2, 4:2:0, 4:4:0, 4:1:1 and grey JPEGs; "
        "this one has " +
        std::to_string(info.components) + " components of another sampling");
  if (info.width < 32 || info.height < 32 || info.width > 8192 || info.height > 8192)
    return InvalidArgument("JPEGD decodes 32x32 to 8192x8192 pictures; this one is " +
                           std::to_string(info.width) + "x" + std::to_string(info.height));
  return Status::Ok();
}

// PIXEL_FORMAT_UNKNOWN: JPEGD writes the source's own sampling, V first. OpenCANN writes
// 4:2:0 and grey; 4:2:2, 4:4:4, 4:4:0 and 4:1:1 sources must ask for NV12 or NV21.
Result<int32_t> UnknownOutputFormat(const JpegInfo& info) {
  if (info.sampling == kCssGray) return int32_t{kYuv400};
  if (info.sampling == kCss420) return int32_t{kNv21};
  if (info.sampling == kCss422) return int32_t{kYvu422Sp};
  if (info.sampling == kCss444) return int32_t{kYvu444Sp};
  return Unsupported(
      "JPEGD output PIXEL_FORMAT_UNKNOWN: the source's own sampling (4:4:0 or 4:1:1 here) is "
      "not written by OpenCANN; ask for YUV_SEMIPLANAR_420 or YVU_SEMIPLANAR_420");
}

// The output formats JPEGD writes from this source: 4:2:0 from any, the source's own 4:2:2 or
// 4:4:4 semi-planar (either chroma order), grey from grey.
Status CheckJpegdFormat(const JpegInfo& info, int32_t format) {
  const bool ok = format == kNv12 || format == kNv21 ||
                  ((format == kYuv422Sp || format == kYvu422Sp) && info.sampling == kCss422) ||
                  ((format == kYuv444Sp || format == kYvu444Sp) && info.sampling == kCss444) ||
                  (format == kYuv400 && info.sampling == kCssGray);
  if (ok) return Status::Ok();
  return Unsupported(std::string("JPEGD output ") + PixelFormatName(format) +
                     ": OpenCANN decodes to YUV_SEMIPLANAR_420 or YVU_SEMIPLANAR_420, or to the "
                     "source's own 4:2:2, 4:4:4 or grey sampling");
}

uint32_t JpegdWidthAlign(Chip chip) { return chip == Chip::k310 || chip == Chip::k910 ? 128 : 64; }

Result<uint32_t> JpegdOutputBytes(const JpegInfo& info, int32_t format, Chip chip) {
  OC_RETURN_IF_ERROR(CheckJpegd(info));
  const uint32_t ws = AlignUp(info.width, JpegdWidthAlign(chip)), hs = AlignUp(info.height, 16);
  if (format == kUnknownFormat) {
    OC_ASSIGN_OR_RETURN(format, UnknownOutputFormat(info));
    // CANN predicts 3/2 of the plane for grey sources too (a buffer larger than written).
    if (format == kYuv400) format = kNv21;
  }
  if (Status s = CheckJpegdFormat(info, format); !s.ok()) return s;
  return static_cast<uint32_t>(PictureBytes(format, ws, hs));
}

Status DecodeJpeg(const uint8_t* data, size_t size, Picture* out, Chip chip) {
  OC_ASSIGN_OR_RETURN(JpegInfo info, ReadJpegInfo(data, size));
  OC_RETURN_IF_ERROR(CheckJpegd(info));
  int32_t format = out->format;
  if (format == kUnknownFormat) {
    OC_ASSIGN_OR_RETURN(format, UnknownOutputFormat(info));
  }
  OC_RETURN_IF_ERROR(CheckJpegdFormat(info, format));
  const uint32_t w = info.width, h = info.height;
  const uint32_t min_ws = AlignUp(w, JpegdWidthAlign(chip)), min_hs = AlignUp(h, 16);
  // JPEGD writes with its own alignment; strides the caller left 0 are the ones it uses (CANN's
  // samples give the output only its buffer and format).
  if (out->width_stride == 0) out->width_stride = min_ws;
  if (out->height_stride == 0) out->height_stride = min_hs;
  const std::string what = "JPEGD output (" + std::to_string(w) + "x" + std::to_string(h) + ")";
  if (out->width_stride < min_ws || out->width_stride % JpegdWidthAlign(chip) ||
      out->height_stride < min_hs || out->height_stride % 16)
    return InvalidArgument(what + ": the strides are " + std::to_string(out->width_stride) + "x" +
                           std::to_string(out->height_stride) + "; JPEGD writes with strides " +
                           "aligned to " + std::to_string(JpegdWidthAlign(chip)) + "x16 (" +
                           std::to_string(min_ws) + "x" + std::to_string(min_hs) + " at least, " +
                           ChipName(chip) + ")");
  const uint64_t need = PictureBytes(format, out->width_stride, out->height_stride);
  if (!out->data || out->size < need)
    return InvalidArgument(what + ": the buffer holds " + std::to_string(out->size) + " bytes, " +
                           std::to_string(need) + " are needed");
  const bool gray = info.sampling == kCssGray;
  std::vector<uint8_t> pixels(static_cast<size_t>(w) * h * (gray ? 1 : 3));
  std::string error;
  if (!DecodeRows(data, size, info, gray, &pixels, &error))
    return Status(StatusCode::kInvalidArgument, "the JPEG cannot be decoded: " + error);
  const size_t ws = out->width_stride, c = gray ? 1 : 3;
  for (uint32_t y = 0; y < h; ++y)
    for (uint32_t x = 0; x < w; ++x) out->data[y * ws + x] = pixels[(y * w + x) * c];
  if (format != kYuv400) {
    // Chroma at the output's subsampling: the mean of each block of the box-upsampled planes.
    const uint32_t sx = format == kYuv444Sp || format == kYvu444Sp ? 1 : 2;
    const uint32_t sy = format == kNv12 || format == kNv21 ? 2 : 1;
    uint8_t* plane = out->data + ws * out->height_stride;
    const bool swap = format == kNv21 || format == kYvu422Sp || format == kYvu444Sp;
    const size_t cstride = sx == 1 ? ws * 2 : ws;  // 4:4:4 chroma rows hold 2 bytes a pixel
    for (uint32_t y = 0; y < h; y += sy)
      for (uint32_t x = 0; x < w; x += sx) {
        int u = 0, v = 0, n = 0;
        for (uint32_t dy = 0; dy < sy && y + dy < h; ++dy)
          for (uint32_t dx = 0; dx < sx && x + dx < w; ++dx, ++n) {
            const uint8_t* p = &pixels[((y + dy) * w + x + dx) * c];
            u += gray ? 128 : p[1];
            v += gray ? 128 : p[2];
          }
        uint8_t* q = plane + (y / sy) * cstride + (x / sx) * 2;
        q[swap ? 1 : 0] = static_cast<uint8_t>((u + n / 2) / n);
        q[swap ? 0 : 1] = static_cast<uint8_t>((v + n / 2) / n);
      }
  }
  out->format = format;
  out->width = w;
  out->height = h;
  return Status::Ok();
}

Status CheckJpegeInput(const Picture& in) {
  const std::string what = std::string("the JPEGE input (") + PixelFormatName(in.format) + ", " +
                           std::to_string(in.width) + "x" + std::to_string(in.height) + ")";
  if (in.format != kNv12 && in.format != kNv21)
    return Unsupported(what +
                       ": OpenCANN's JPEGE encodes YUV_SEMIPLANAR_420 and "
                       "YVU_SEMIPLANAR_420 pictures");
  if (!in.data) return InvalidArgument(what + ": the picture has no data");
  if (in.width < 32 || in.height < 32 || in.width > 8192 || in.height > 8192 || in.width % 2 ||
      in.height % 2)
    return InvalidArgument(what + ": JPEGE takes even sizes of 32x32 to 8192x8192");
  if (in.width_stride < in.width || in.width_stride % 16 || in.width_stride > 16384 ||
      (in.height_stride != in.height && in.height_stride != AlignUp(in.height, 16)))
    return InvalidArgument(what + ": the width stride must be a multiple of 16 from the width " +
                           "to 16384 and the height stride the height or the height aligned to "
                           "16 (strides " +
                           std::to_string(in.width_stride) + "x" +
                           std::to_string(in.height_stride) + ")");
  const uint64_t need = PictureBytes(in.format, in.width_stride, in.height_stride);
  if (in.size < need)
    return InvalidArgument(what + ": the buffer holds " + std::to_string(in.size) + " bytes, " +
                           std::to_string(need) + " are needed");
  return Status::Ok();
}

uint32_t JpegeOutputBound(const Picture& in) {
  const uint64_t raw = PictureBytes(kNv12, in.width_stride, in.height_stride) + 640 + 128;
  const uint64_t two_mib = uint64_t{2} << 20;
  return static_cast<uint32_t>((raw + two_mib - 1) / two_mib * two_mib);
}

namespace {

struct Destination {
  jpeg_destination_mgr base;
  uint8_t* out;
  size_t capacity;
  bool overflow;
};

void InitDestination(j_compress_ptr c) {
  auto* d = reinterpret_cast<Destination*>(c->dest);
  d->base.next_output_byte = d->out;
  d->base.free_in_buffer = d->capacity;
}
boolean EmptyOutput(j_compress_ptr c) {
  auto* d = reinterpret_cast<Destination*>(c->dest);
  d->overflow = true;
  std::longjmp(reinterpret_cast<ErrorManager*>(c->err)->jump, 1);
}
void TermDestination(j_compress_ptr) {}

// Encodes full-resolution YCbCr rows (chroma repeated over each 2x2 block: libjpeg's 2x2
// downsampling averages them back exactly).
bool EncodeRows(const uint8_t* rows, uint32_t w, uint32_t h, int quality, uint8_t* out,
                size_t capacity, size_t* written, std::string* error) {
  jpeg_compress_struct c;
  ErrorManager e;
  Destination d{};
  c.err = jpeg_std_error(&e.base);
  e.base.error_exit = OnError;
  e.base.emit_message = OnMessage;
  if (setjmp(e.jump)) {
    *error = d.overflow ? "the output buffer is too small" : e.message;
    jpeg_destroy_compress(&c);
    return false;
  }
  jpeg_create_compress(&c);
  d.base.init_destination = InitDestination;
  d.base.empty_output_buffer = EmptyOutput;
  d.base.term_destination = TermDestination;
  d.out = out;
  d.capacity = capacity;
  c.dest = &d.base;
  c.image_width = w;
  c.image_height = h;
  c.input_components = 3;
  c.in_color_space = JCS_YCbCr;
  jpeg_set_defaults(&c);
  jpeg_set_quality(&c, quality, TRUE);
  c.comp_info[0].h_samp_factor = 2;
  c.comp_info[0].v_samp_factor = 2;
  jpeg_start_compress(&c, TRUE);
  while (c.next_scanline < c.image_height) {
    JSAMPROW line = const_cast<uint8_t*>(rows) + static_cast<size_t>(w) * 3 * c.next_scanline;
    jpeg_write_scanlines(&c, &line, 1);
  }
  jpeg_finish_compress(&c);
  *written = capacity - d.base.free_in_buffer;
  jpeg_destroy_compress(&c);
  return true;
}

}  // namespace

Status EncodeJpeg(const Picture& in, uint32_t level, uint8_t* out, uint32_t* size) {
  OC_RETURN_IF_ERROR(CheckJpegeInput(in));
  if (level > 100) return InvalidArgument("the JPEGE level must be 0 to 100");
  const uint32_t w = in.width, h = in.height;
  const size_t ws = in.width_stride;
  const uint8_t* uv = in.data + ws * in.height_stride;
  const bool swap = in.format == kNv21;
  std::vector<uint8_t> rows(static_cast<size_t>(w) * h * 3);
  for (uint32_t y = 0; y < h; ++y)
    for (uint32_t x = 0; x < w; ++x) {
      uint8_t* p = &rows[(static_cast<size_t>(y) * w + x) * 3];
      const uint8_t* c = uv + (y / 2) * ws + (x / 2) * 2;
      p[0] = in.data[y * ws + x];
      p[1] = c[swap ? 1 : 0];
      p[2] = c[swap ? 0 : 1];
    }
  size_t written = 0;
  std::string error;
  if (!EncodeRows(rows.data(), w, h, std::max<int>(1, static_cast<int>(level)), out, *size,
                  &written, &error))
    return InvalidArgument("JPEGE: " + error + " (" + std::to_string(*size) + " bytes)");
  *size = static_cast<uint32_t>(written);
  return Status::Ok();
}

}  // namespace oc::dvpp
