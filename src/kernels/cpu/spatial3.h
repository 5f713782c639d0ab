// Convolution geometry with the spatial rank padded to 3 (leading dims of size 1), so one
// loop nest serves 1-D, 2-D and 3-D plain-loop convolutions.
#pragma once

#include <cstdint>
#include <vector>

#include "base/shape.h"

namespace oc {

struct Spatial3 {
  int64_t x[3] = {1, 1, 1}, y[3] = {1, 1, 1}, k[3] = {1, 1, 1};
  int64_t stride[3] = {1, 1, 1}, dil[3] = {1, 1, 1}, pad[3] = {0, 0, 0};

  // x, y, w are the full [N, C, spatial...] shapes; pads holds begins then ends.
  Spatial3(const Shape& xs, const Shape& ys, const Shape& ws, const std::vector<int64_t>& strides,
           const std::vector<int64_t>& dilations, const std::vector<int64_t>& pads) {
    const size_t n = xs.size() - 2;
    for (size_t i = 0; i < n; ++i) {
      x[3 - n + i] = xs[2 + i];
      y[3 - n + i] = ys[2 + i];
      k[3 - n + i] = ws[2 + i];
      stride[3 - n + i] = strides[i];
      dil[3 - n + i] = dilations[i];
      pad[3 - n + i] = pads[i];
    }
  }
  int64_t x_plane() const { return x[0] * x[1] * x[2]; }
  int64_t y_plane() const { return y[0] * y[1] * y[2]; }
  int64_t k_plane() const { return k[0] * k[1] * k[2]; }
};

}  // namespace oc
