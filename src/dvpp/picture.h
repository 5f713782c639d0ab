// DVPP's pictures as its engines see them: a format, the visible size, the strides the
// hardware reads and writes with, and the buffer. The rules each chip family applies to
// them (stride alignment, sizes, format sets) are checked here, with messages naming the rule
// and the values: what a developer without an NPU most needs to learn before deploying.
// Facts: ../shared/reference/dvpp.md (section 2).
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>

#include "base/status.h"

namespace oc::dvpp {

// CANN's acldvppPixelFormat numbers (the ones OpenCANN processes).
enum PixelFormat : int32_t {
  kYuv400 = 0,
  kNv12 = 1,  // YUV_SEMIPLANAR_420
  kNv21 = 2,  // YVU_SEMIPLANAR_420
  kYuv422Sp = 3,
  kYvu422Sp = 4,
  kYuv444Sp = 5,
  kYvu444Sp = 6,
  kYuyv422Packed = 7,
  kUyvy422Packed = 8,
  kYvyu422Packed = 9,
  kVyuy422Packed = 10,
  kYuv444Packed = 11,
  kRgb888 = 12,
  kBgr888 = 13,
  kArgb8888 = 14,
  kAbgr8888 = 15,
  kRgba8888 = 16,
  kBgra8888 = 17,
  kUnknownFormat = 10000,
};

const char* PixelFormatName(int32_t format);

// The chip families whose DVPP rules differ (from aclrtGetSocName).
enum class Chip { k310, k910, k310P, k910B, k310B };
Chip ChipOf(const std::string& soc_name);
const char* ChipName(Chip chip);

struct Picture {
  uint8_t* data = nullptr;
  uint32_t size = 0;  // bytes of the buffer
  int32_t format = kYuv400;
  uint32_t width = 0, height = 0, width_stride = 0, height_stride = 0;
};

// Bytes a picture of this format and these strides occupies (0 for formats OpenCANN does
// not process).
uint64_t PictureBytes(int32_t format, uint32_t width_stride, uint32_t height_stride);
// Bytes of a pixel in the first plane's rows (packed formats: all of it); 0 for formats not
// DVPP's.
uint32_t BytesPerPixel(int32_t format);

enum class Role { kVpcInput, kVpcOutput };
// A VPC picture against the chip's rules: format in the chip's set, even sizes where the
// format subsamples, stride alignment and range, the buffer large enough.
Status CheckVpcPicture(const Picture& p, Chip chip, Role role, const char* what);

inline uint32_t AlignUp(uint32_t v, uint32_t a) { return (v + a - 1) / a * a; }

}  // namespace oc::dvpp
