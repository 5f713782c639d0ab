// VPC, DVPP's vision pre-processing core: crop, resize, paste and colour conversion of the
// pictures in picture.h. One general operation serves every call of the API: a crop region
// of the input, resized to a paste region of the output.
#pragma once

#include "dvpp/picture.h"

namespace oc::dvpp {

// Inclusive offsets, as CANN's acldvppRoiConfig holds them.
struct Roi {
  uint32_t left = 0, right = 0, top = 0, bottom = 0;
  uint32_t width() const { return right - left + 1; }
  uint32_t height() const { return bottom - top + 1; }
};

// CANN's interpolation numbers: 0 default, 1 bilinear, 2 nearest (OpenCV's), 3 bilinear and
// 4 nearest (TensorFlow's, 310/910 only).
enum Interpolation : uint32_t {
  kDefault = 0,
  kBilinear = 1,
  kNearest = 2,
  kTfBilinear = 3,
  kTfNearest = 4
};
Status CheckInterpolation(uint32_t interpolation, Chip chip);

// A region against the chip's rules: inside the picture, right >= left, the size limits,
// the parity and alignment rules of crop and paste regions.
Status CheckRoi(const Roi& roi, const Picture& p, Chip chip, bool paste, const char* what);

// The crop region of `in` resized to the paste region of `out` (other output pixels are
// left as they are). Pictures and regions must have passed the checks above; the scale per
// axis is checked here (1/32 to 16).
// Packed RGB pictures of four bytes a pixel get `alpha` in their alpha bytes.
Status CropResizePaste(const Picture& in, const Roi& crop, const Picture& out, const Roi& paste,
                       uint32_t interpolation, Chip chip, uint8_t alpha = 255);

// OpenCV's borderInterpolate for border types 0-3 below: the source index an out-of-range
// index p of an axis of len reads (-1: the constant).
int64_t BorderIndex(int64_t p, int64_t len, int type);

// MakeBorder: `out` is `in` with borders added (OpenCV's copyMakeBorder rules: 0 constant
// (value per channel: Y/U/V or R/G/B), 1 replicate, 2 reflect, 3 reflect-101); the output has
// the input's format and its size plus the borders (even borders for YUV420SP).
Status MakeBorder(const Picture& in, const Picture& out, uint32_t top, uint32_t bottom,
                  uint32_t left, uint32_t right, int border_type, const double value[4]);

// The crop region of `in` resized to `out` less its borders, then bordered as MakeBorder does
// (acldvppVpcBatchCropResizeMakeBorderAsync: BORDER_CONSTANT or BORDER_REPLICATE only).
Status CropResizeMakeBorder(const Picture& in, const Roi& crop, const Picture& out, uint32_t top,
                            uint32_t bottom, uint32_t left, uint32_t right, int border_type,
                            const double value[4], uint32_t interpolation, Chip chip);

}  // namespace oc::dvpp
