// libFuzzer: DVPP's decoders on hostile files. The first byte picks the decoder (JPEGD, PNGD,
// VDEC H.264, VDEC H.265) and the chip; the rest is the file, decoded into a picture of the
// size the decoder asks for (JPEG/PNG) or sent as access units split at start codes (video).
// Every input must end in a picture or an error: no fault, no read outside the file, no hang.
#include <cstddef>
#include <cstdint>
#include <vector>

#include "dvpp/jpeg.h"
#include "dvpp/png.h"
#include "dvpp/video_decoder.h"

namespace {

using namespace oc::dvpp;

void Jpeg(const uint8_t* data, size_t size, Chip chip) {
  auto info = ReadJpegInfo(data, size);
  if (!info.ok()) return;
  auto bytes = JpegdOutputBytes(info.value(), kNv12, chip);
  if (!bytes.ok() || bytes.value() > (64u << 20)) return;
  std::vector<uint8_t> out(bytes.value());
  Picture p{out.data(),
            bytes.value(),
            kNv12,
            0,
            0,
            AlignUp(info->width, JpegdWidthAlign(chip)),
            AlignUp(info->height, 16)};
  (void)DecodeJpeg(data, size, &p, chip);
}

void Png(const uint8_t* data, size_t size) {
  auto info = ReadPngInfo(data, size);
  if (!info.ok()) return;
  auto bytes = PngdOutputBytes(info.value(), kUnknownFormat);
  if (!bytes.ok()) return;
  auto format = PngdOutputFormat(info.value(), kUnknownFormat);
  std::vector<uint8_t> out(bytes.value());
  Picture p{out.data(),
            bytes.value(),
            kUnknownFormat,
            0,
            0,
            AlignUp(info->width, 128) * (format.value() == kRgb888 ? 3 : 4),
            AlignUp(info->height, 16)};
  (void)DecodePng(data, size, &p);
}

void Video(const uint8_t* data, size_t size, int32_t stream_format) {
  auto decoder = CreateVideoDecoder(stream_format);
  if (!decoder.ok()) return;
  std::vector<DecodedFrame> frames;
  size_t start = 0;
  for (size_t i = 3; i + 3 <= size; ++i)
    if (data[i] == 0 && data[i + 1] == 0 && data[i + 2] == 1) {
      (void)decoder.value()->Send(data + start, i - start, &frames);
      start = i;
      if (frames.size() > 8) frames.clear();
    }
  if (start < size) (void)decoder.value()->Send(data + start, size - start, &frames);
  (void)decoder.value()->Send(nullptr, 0, &frames);
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  if (size < 2 || size > (4u << 20)) return 0;
  const uint8_t pick = data[0];
  const Chip chips[] = {Chip::k310, Chip::k310P, Chip::k910B};
  switch (pick % 4) {
    case 0:
      Jpeg(data + 1, size - 1, chips[(pick >> 2) % 3]);
      break;
    case 1:
      Png(data + 1, size - 1);
      break;
    case 2:
      Video(data + 1, size - 1, 2);
      break;
    default:
      Video(data + 1, size - 1, 0);
      break;
  }
  return 0;
}
