// JPEGD: DVPP's JPEG decoder, on libjpeg-turbo. Baseline Huffman JPEGs of 32x32 to
// 8192x8192 decode to YUV420SP (NV12/NV21) or YUV400 at DVPP's output strides;
// progressive and arithmetic-coded files are refused as the hardware refuses them.
#pragma once

#include <cstddef>
#include <cstdint>

#include "base/status.h"
#include "dvpp/picture.h"

namespace oc::dvpp {

// CANN's acldvppJpegFormat.
enum JpegSampling : int32_t {
  kCss444 = 0,
  kCss422 = 1,
  kCss420 = 2,
  kCssGray = 3,
  kCss440 = 4,
  kCss411 = 5,
  kCssUnknown = 1000
};

struct JpegInfo {
  uint32_t width = 0, height = 0;
  int32_t components = 0;
  int32_t sampling = kCssUnknown;
  bool progressive = false, arithmetic = false;
};

// The header: sizes, components and sampling (a file libjpeg cannot parse is an error).
Result<JpegInfo> ReadJpegInfo(const uint8_t* data, size_t size);

// Whether DVPP's JPEGD takes the file: baseline Huffman, YUV sampling, 32x32 to 8192x8192.
Status CheckJpegd(const JpegInfo& info);

// The output strides JPEGD writes with on the chip: 128x16 (310/910) or 64x16 aligned.
uint32_t JpegdWidthAlign(Chip chip);
// The format JPEGD writes for PIXEL_FORMAT_UNKNOWN: the source's own sampling, V first
// (OpenCANN writes 4:2:0 as NV21 and grey as YUV_400; other samplings are unsupported).
Result<int32_t> UnknownOutputFormat(const JpegInfo& info);
// Bytes JPEGD needs for this output format (CANN's acldvppJpegPredictDecSize).
Result<uint32_t> JpegdOutputBytes(const JpegInfo& info, int32_t format, Chip chip);

// Decodes into `out` (NV12, NV21 or YUV400, its strides and buffer checked); the format
// kUnknownFormat takes the source's own (NV21 for 4:2:0, YUV400 for grey), strides left 0
// JPEGD's own (64x16 or 128x16 aligned).
Status DecodeJpeg(const uint8_t* data, size_t size, Picture* out, Chip chip);

// JPEGE: a YUV420SP picture (NV12/NV21, even sizes, 32x32 to 8192x8192, width stride a
// multiple of 16) encoded as a baseline 4:2:0 JPEG at `level` (0-100, libjpeg's quality)
// into out[0, *size); *size is the capacity in and the file's length out.
Status CheckJpegeInput(const Picture& in);
// CANN's acldvppJpegPredictEncSize: an upper bound on the file (not confirmed from public
// documentation: the picture's bytes plus the headers, rounded up to 2 MiB).
uint32_t JpegeOutputBound(const Picture& in);
Status EncodeJpeg(const Picture& in, uint32_t level, uint8_t* out, uint32_t* size);

}  // namespace oc::dvpp
