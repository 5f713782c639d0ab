// Quantisation in the advanced API: AscendQuant (half/float to int8 with a scale and an
// offset, per tensor) and AscendDequant (int32 rows times a per-column scale).
#pragma once

#include <cmath>
#include <cstdint>
#include <string>
#include <type_traits>

#include "ascendc/kernel_reduce.h"

namespace AscendC {

struct AscendQuantConfig {
  bool hasOffset = true;
};
inline constexpr AscendQuantConfig ASCEND_QUANT_DEFAULT_CFG = {};

namespace detail {
// x * scale + offset with each step in half, as the vector unit computes it, then to int8
// rounding half to even and saturating.
template <typename T>
int8_t QuantizeOne(T x, float scale, float offset) {
  const half xh = half(static_cast<float>(AsDouble(x)));
  const half scaled = half(static_cast<float>(xh) * static_cast<float>(half(scale)));
  const half moved = half(static_cast<float>(scaled) + static_cast<float>(half(offset)));
  const float r = std::nearbyint(static_cast<float>(moved));  // the default mode: to even
  return static_cast<int8_t>(r > 127.0f ? 127.0f : r < -128.0f ? -128.0f : r);
}
}  // namespace detail

// Per tensor: dst[i] = round(src[i] * scale + offset) for the first calCount elements.
template <typename T, bool isReuseSource = false,
          const AscendQuantConfig& config = ASCEND_QUANT_DEFAULT_CFG>
void AscendQuant(const LocalTensor<int8_t>& dst, const LocalTensor<T>& src, const float scale,
                 const float offset, const uint32_t calCount) {
  static_assert(std::is_same_v<T, half> || std::is_same_v<T, float>,
                "AscendQuant quantises half or float");
  const char* api = "AscendQuant";
  detail::CheckVector(src, calCount, api, "source");
  detail::CheckVector(dst, calCount, api, "destination");
  for (uint32_t i = 0; i < calCount; ++i)
    dst.GetPhyAddr()[i] = detail::QuantizeOne(src.GetPhyAddr()[i], scale, offset);
  detail::CountCycles(uint64_t(calCount) * sizeof(T) * 3);
}
template <typename T, bool isReuseSource = false,
          const AscendQuantConfig& config = ASCEND_QUANT_DEFAULT_CFG>
void AscendQuant(const LocalTensor<int8_t>& dst, const LocalTensor<T>& src, const float scale,
                 const float offset) {
  AscendQuant<T, isReuseSource, config>(dst, src, scale, offset, src.GetSize());
}
template <typename T, bool isReuseSource = false,
          const AscendQuantConfig& config = ASCEND_QUANT_DEFAULT_CFG>
void AscendQuant(const LocalTensor<int8_t>& dst, const LocalTensor<T>& src,
                 const LocalTensor<uint8_t>& sharedTmpBuffer, const float scale, const float offset,
                 const uint32_t calCount) {
  (void)sharedTmpBuffer;  // the emulation computes without it
  AscendQuant<T, isReuseSource, config>(dst, src, scale, offset, calCount);
}
template <typename T, bool isReuseSource = false,
          const AscendQuantConfig& config = ASCEND_QUANT_DEFAULT_CFG>
void AscendQuant(const LocalTensor<int8_t>& dst, const LocalTensor<T>& src,
                 const LocalTensor<uint8_t>& sharedTmpBuffer, const float scale,
                 const float offset) {
  (void)sharedTmpBuffer;
  AscendQuant<T, isReuseSource, config>(dst, src, scale, offset, src.GetSize());
}

// {m, n, calCount}: m rows of n int32 values, the first calCount of each row scaled.
struct DequantParams {
  uint32_t m = 0, n = 0, calCount = 0;
};
enum class DeQuantMode { DEQUANT_WITH_SINGLE_ROW = 0, DEQUANT_WITH_MULTI_ROW };

// dst[r][i] = src[r][i] * deqScale[i] for i < calCount, computed in float; dst's rows are n
// rounded up to 32 bytes of dstT. With DEQUANT_WITH_SINGLE_ROW, {1, n, c} where c is a
// multiple of 32 bytes of dstT and divides n is taken as {n / c, c, c}, as CANN documents.
template <typename dstT, typename scaleT, DeQuantMode mode = DeQuantMode::DEQUANT_WITH_SINGLE_ROW>
void AscendDequant(const LocalTensor<dstT>& dst, const LocalTensor<int32_t>& src,
                   const LocalTensor<scaleT>& deqScale, DequantParams params) {
  static_assert(std::is_same_v<scaleT, float> || std::is_same_v<scaleT, half> ||
                    std::is_same_v<scaleT, bfloat16_t>,
                "OpenCANN's AscendDequant takes float, half or bfloat16 scales");
  const char* api = "AscendDequant";
  const uint32_t per_block = 32 / sizeof(dstT);
  if (mode == DeQuantMode::DEQUANT_WITH_SINGLE_ROW && params.m == 1 && params.calCount &&
      params.calCount % per_block == 0 && params.n % params.calCount == 0)
    params = {params.n / params.calCount, params.calCount, params.calCount};
  if (params.n * sizeof(int32_t) % 32 != 0)
    detail::Fault(api,
                  "a row of " + std::to_string(params.n) + " int32 values is not 32-byte aligned");
  if (params.calCount > params.n || params.calCount > deqScale.GetSize())
    detail::Fault(api, "calCount " + std::to_string(params.calCount) +
                           " is more than a row or than deqScale's elements");
  const uint32_t n_dst = (params.n + per_block - 1) / per_block * per_block;
  detail::CheckVector(src, uint64_t(params.m) * params.n, api, "source");
  detail::CheckVector(deqScale, params.calCount, api, "source (deqScale)");
  detail::CheckVector(dst, uint64_t(params.m) * n_dst, api, "destination");
  for (uint32_t r = 0; r < params.m; ++r)
    for (uint32_t i = 0; i < params.calCount; ++i)
      dst.GetPhyAddr()[uint64_t(r) * n_dst + i] =
          static_cast<dstT>(static_cast<float>(src.GetPhyAddr()[uint64_t(r) * params.n + i]) *
                            static_cast<float>(detail::AsDouble(deqScale.GetPhyAddr()[i])));
  detail::CountCycles(uint64_t(params.m) * params.n * 4 * 2);
}
template <typename dstT, typename scaleT, DeQuantMode mode = DeQuantMode::DEQUANT_WITH_SINGLE_ROW>
void AscendDequant(const LocalTensor<dstT>& dst, const LocalTensor<int32_t>& src,
                   const LocalTensor<scaleT>& deqScale, const LocalTensor<uint8_t>& sharedTmpBuffer,
                   DequantParams params) {
  (void)sharedTmpBuffer;
  AscendDequant<dstT, scaleT, mode>(dst, src, deqScale, params);
}

}  // namespace AscendC
