// VPC's whole-picture operations beside crop and resize: the colour histogram
// (acldvppVpcCalcHistAsync), the colour remapping table (acldvppVpcEqualizeHistAsync) and
// the Gaussian pyramid step (acldvppVpcPyrDownAsync). Pictures must have passed
// CheckVpcPicture; the per-operation rules (formats, sizes) are checked here.
#pragma once

#include <cstdint>

#include "dvpp/picture.h"

namespace oc::dvpp {

// A histogram or a remapping table has three components of 256 entries: Y, U, V for YUV
// pictures and R, G, B for RGB/BGR ones (whatever order the bytes are stored in).
inline constexpr uint32_t kComponents = 3;
inline constexpr uint32_t kLevels = 256;

// Adds the picture's component values to `hist` (CANN's histogram accumulates until
// acldvppClearHist). YUV400 counts luma only; YUV420SP counts one U and one V per 2x2 block.
Status CalcHist(const Picture& in, uint32_t hist[kComponents][kLevels]);

// out = map[component][in] per component; out has the input's format and size.
Status RemapColors(const Picture& in, const Picture& out, const uint8_t map[kComponents][kLevels]);

// OpenCV's pyrDown on YUV400: the 5x5 binomial kernel ([1 4 6 4 1] / 16 along each axis),
// borders reflected without repeating the edge (BORDER_REFLECT_101), then every second pixel.
// The output is half the input's size (rounded up or down).
Status PyrDown(const Picture& in, const Picture& out);

// The same step with the caller's 5x5 kernel (hi_mpi_vpc_pyrdown): out = round(sum of
// kernel * pixel / divisor), clamped to 0-255; borders of type 0-3 as MakeBorder's (0 reads
// `constant`).
struct PyrKernel {
  int8_t taps[5][5];
  uint16_t divisor;
  int border_type;
  uint8_t constant;
};
Status PyrDown(const Picture& in, const Picture& out, const PyrKernel& kernel);

}  // namespace oc::dvpp
