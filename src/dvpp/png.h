// PNGD: DVPP's PNG decoder, on libpng. RGB, grey, RGBA and grey+alpha PNGs of 32x32 to
// 4096x4096 decode to packed RGB_888 or RGBA_8888 at PNGD's strides (128-pixel aligned
// rows, 16-row aligned height); palette PNGs are refused as the hardware refuses them.
#pragma once

#include <cstddef>
#include <cstdint>

#include "base/status.h"
#include "dvpp/picture.h"

namespace oc::dvpp {

struct PngInfo {
  uint32_t width = 0, height = 0;
  int32_t components = 0;  // 1 grey, 2 grey+alpha, 3 RGB, 4 RGBA
  bool palette = false;
};

Result<PngInfo> ReadPngInfo(const uint8_t* data, size_t size);
// The output format PNGD writes for `format` (kUnknownFormat: RGB_888, or RGBA_8888 for
// sources with alpha), and the bytes it needs (CANN's acldvppPngPredictDecSize).
Result<int32_t> PngdOutputFormat(const PngInfo& info, int32_t format);
Result<uint32_t> PngdOutputBytes(const PngInfo& info, int32_t format);
Status DecodePng(const uint8_t* data, size_t size, Picture* out);

}  // namespace oc::dvpp
