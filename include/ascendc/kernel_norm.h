// Normalisations of the advanced API: RmsNorm over [B, S, H] rows,
// y = x / sqrt(mean(x^2 over the data columns) + epsilon) * gamma.
#pragma once

#include <cmath>
#include <cstdint>
#include <string>

#include "ascendc/kernel_reduce.h"
#include "kernel_tiling/kernel_tiling.h"

namespace AscendC {

using ::RmsNormTiling;

template <typename T, bool isBasicBlock = false>
void RmsNorm(const LocalTensor<T>& dst, const LocalTensor<T>& src, const LocalTensor<T>& gamma,
             const T epsilon, const RmsNormTiling& tiling) {
  const char* api = "RmsNorm";
  const uint64_t rows = uint64_t(tiling.bLength) * tiling.sLength;
  const uint32_t h = tiling.hLength, valid = tiling.originalHLength ? tiling.originalHLength : h;
  if (rows == 0 || h == 0)
    detail::Fault(api,
                  "no shape: the tiling's bLength/sLength/hLength are 0 (fill it with "
                  "GetRmsNormTilingInfo)");
  if (h * sizeof(T) % 32 != 0)
    detail::Fault(api, "hLength " + std::to_string(h) + " is not 32-byte aligned");
  if (valid > h)
    detail::Fault(api, "originalHLength " + std::to_string(valid) + " is more than hLength " +
                           std::to_string(h));
  detail::CheckVector(src, rows * h, api, "source");
  detail::CheckVector(gamma, h, api, "source (gamma)");
  detail::CheckVector(dst, rows * h, api, "destination");
  const double eps = detail::AsDouble(epsilon);
  for (uint64_t r = 0; r < rows; ++r) {
    const T* x = src.GetPhyAddr() + r * h;
    double sq = 0;
    for (uint32_t c = 0; c < valid; ++c) sq += detail::AsDouble(x[c]) * detail::AsDouble(x[c]);
    const double inv = 1.0 / std::sqrt(sq / valid + eps);
    T* y = dst.GetPhyAddr() + r * h;
    for (uint32_t c = 0; c < valid; ++c)
      y[c] = static_cast<T>(static_cast<float>(detail::AsDouble(x[c]) * inv *
                                               detail::AsDouble(gamma.GetPhyAddr()[c])));
    for (uint32_t c = valid; c < h; ++c) y[c] = static_cast<T>(0.0f);
  }
  detail::CountCycles(rows * h * sizeof(T) * 4);  // square, reduce, scale, gamma
}
template <typename T, bool isBasicBlock = false>
void RmsNorm(const LocalTensor<T>& dst, const LocalTensor<T>& src, const LocalTensor<T>& gamma,
             const LocalTensor<uint8_t>& sharedTmpBuffer, const T epsilon,
             const RmsNormTiling& tiling) {
  (void)sharedTmpBuffer;  // the emulation computes without it
  RmsNorm<T, isBasicBlock>(dst, src, gamma, epsilon, tiling);
}

}  // namespace AscendC
