// LayerNorm and its gradients over [B, S, H] rows, and the Welford statistics, of the
// advanced API. Computed in float as the NPU does (half data is widened, results rounded
// to nearest); the variance is the biased one (divided by H).
#pragma once

#include <cmath>
#include <cstdint>
#include <cstring>
#include <string>
#include <vector>

#include "ascendc/kernel_reduce.h"
#include "kernel_tiling/kernel_tiling.h"

namespace AscendC {

using ::LayerNormGradBetaTiling;
using ::LayerNormGradTiling;
using ::LayerNormTiling;

namespace detail {

struct NormShape {
  uint64_t rows;
  uint32_t h, valid;
};

inline NormShape NormShapeOf(uint32_t b, uint32_t s, uint32_t h, uint32_t original, size_t type,
                             const char* api, const char* filler) {
  NormShape n{uint64_t(b) * s, h, original ? original : h};
  if (n.rows == 0 || h == 0)
    Fault(api, std::string("no shape: the tiling's bLength/sLength/hLength are 0 (fill it with ") +
                   filler + ")");
  if (h * type % 32 != 0) Fault(api, "hLength " + std::to_string(h) + " is not 32-byte aligned");
  if (n.valid > h)
    Fault(api, "originalHLength " + std::to_string(n.valid) + " is more than hLength " +
                   std::to_string(h));
  return n;
}

template <typename T>
float F(const T* p, uint64_t i) {
  return static_cast<float>(AsDouble(p[i]));
}
template <typename T>
void Put(T* p, uint64_t i, float v) {
  p[i] = Convert<T>(v, RoundMode::CAST_ROUND);
}

}  // namespace detail

// LayerNorm: per row of H, mean and (biased) variance over the data columns, then
// y = gamma * (x - mean) / sqrt(variance + epsilon) + beta. outputMean and outputVariance are
// [B, S]. output may be inputX.
template <typename T, bool isReuseSource = false>
void LayerNorm(const LocalTensor<T>& output, const LocalTensor<T>& outputMean,
               const LocalTensor<T>& outputVariance, const LocalTensor<T>& inputX,
               const LocalTensor<T>& gamma, const LocalTensor<T>& beta, const T epsilon,
               LayerNormTiling& tiling) {
  const char* api = "LayerNorm";
  const detail::NormShape s =
      detail::NormShapeOf(tiling.bLength, tiling.sLength, tiling.hLength, tiling.originalHLength,
                          sizeof(T), api, "GetLayerNormNDTilingInfo");
  const uint64_t n = s.rows * s.h;
  detail::CheckVector(inputX, n, api, "source");
  detail::CheckVector(gamma, s.h, api, "source (gamma)");
  detail::CheckVector(beta, s.h, api, "source (beta)");
  detail::CheckVector(output, n, api, "destination");
  detail::CheckVector(outputMean, s.rows, api, "destination (mean)", sizeof(T));
  detail::CheckVector(outputVariance, s.rows, api, "destination (variance)", sizeof(T));
  const float eps = static_cast<float>(detail::AsDouble(epsilon));
  const float inv_h = 1.0f / static_cast<float>(s.valid);
  std::vector<float> x(s.h);
  for (uint64_t r = 0; r < s.rows; ++r) {
    for (uint32_t c = 0; c < s.h; ++c) x[c] = detail::F(inputX.GetPhyAddr(), r * s.h + c);
    float mean = 0, var = 0;
    for (uint32_t c = 0; c < s.valid; ++c) mean += x[c] * inv_h;
    for (uint32_t c = 0; c < s.valid; ++c) var += (x[c] - mean) * (x[c] - mean) * inv_h;
    const float rstd = 1.0f / std::sqrt(var + eps);
    for (uint32_t c = 0; c < s.h; ++c)
      detail::Put(output.GetPhyAddr(), r * s.h + c,
                  c < s.valid ? detail::F(gamma.GetPhyAddr(), c) * (x[c] - mean) * rstd +
                                    detail::F(beta.GetPhyAddr(), c)
                              : 0.0f);
    detail::Put(outputMean.GetPhyAddr(), r, mean);
    detail::Put(outputVariance.GetPhyAddr(), r, var);
  }
  detail::CountCycles(n * sizeof(T) * 6);
}
template <typename T, bool isReuseSource = false>
void LayerNorm(const LocalTensor<T>& output, const LocalTensor<T>& outputMean,
               const LocalTensor<T>& outputVariance, const LocalTensor<T>& inputX,
               const LocalTensor<T>& gamma, const LocalTensor<T>& beta,
               const LocalTensor<uint8_t>& sharedTmpBuffer, const T epsilon,
               LayerNormTiling& tiling) {
  (void)sharedTmpBuffer;  // the emulation computes without it
  LayerNorm<T, isReuseSource>(output, outputMean, outputVariance, inputX, gamma, beta, epsilon,
                              tiling);
}

// LayerNormGrad takes ND data only (DataFormat: kernel_types.h), as on the NPU.
struct LayerNormGradShapeInfo {
  DataFormat dataFormat = DataFormat::ND;
};

// LayerNormGrad: the gradient of LayerNorm with respect to x, per row of H (N data columns):
//   pd_xl = dy * gamma, rstd = (var + eps)^-1/2,
//   pd_var = sum(-0.5 * pd_xl * (x - mean) * (var + eps)^-3/2),
//   pd_mean = sum(-pd_xl * rstd) + pd_var / N * sum(-2 (x - mean)),
//   pd_x = pd_xl * rstd + pd_var * 2/N * (x - mean) + pd_mean / N,
// and resForGamma = (x - mean) * rstd (LayerNormGradBeta's input).
template <typename T, bool isReuseSource = false>
void LayerNormGrad(const LocalTensor<T>& outputPdX, const LocalTensor<T>& resForGamma,
                   const LocalTensor<T>& inputDy, const LocalTensor<T>& inputX,
                   const LocalTensor<T>& inputVariance, const LocalTensor<T>& inputMean,
                   const LocalTensor<T>& inputGamma, T epsilon, LayerNormGradTiling& tiling,
                   const LayerNormGradShapeInfo& shapeInfo = {}) {
  const char* api = "LayerNormGrad";
  if (shapeInfo.dataFormat != DataFormat::ND)
    detail::Fault(api, "only the ND format is supported (as on the NPU)");
  const detail::NormShape s =
      detail::NormShapeOf(tiling.bLength, tiling.sLength, tiling.hLength, tiling.originalHLength,
                          sizeof(T), api, "GetLayerNormGradNDTilingInfo");
  const uint64_t n = s.rows * s.h;
  detail::CheckVector(inputDy, n, api, "source (dy)");
  detail::CheckVector(inputX, n, api, "source (x)");
  detail::CheckVector(inputVariance, s.rows, api, "source (variance)", sizeof(T));
  detail::CheckVector(inputMean, s.rows, api, "source (mean)", sizeof(T));
  detail::CheckVector(inputGamma, s.h, api, "source (gamma)");
  detail::CheckVector(outputPdX, n, api, "destination (pd_x)");
  detail::CheckVector(resForGamma, n, api, "destination (resForGamma)");
  const float eps = static_cast<float>(detail::AsDouble(epsilon));
  const float inv_n = 1.0f / static_cast<float>(s.valid),
              two_n = 2.0f / static_cast<float>(s.valid);
  std::vector<float> dx(s.h), xm(s.h), pdxl(s.h);
  for (uint64_t r = 0; r < s.rows; ++r) {
    const float mean = detail::F(inputMean.GetPhyAddr(), r);
    const float var = detail::F(inputVariance.GetPhyAddr(), r) + eps;
    const float rstd = 1.0f / std::sqrt(var);
    const float rstd3 = rstd / var;  // (var + eps)^-3/2
    float pd_var = 0, sum_pdxl = 0, sum_xm = 0;
    for (uint32_t c = 0; c < s.valid; ++c) {
      xm[c] = detail::F(inputX.GetPhyAddr(), r * s.h + c) - mean;
      pdxl[c] =
          detail::F(inputDy.GetPhyAddr(), r * s.h + c) * detail::F(inputGamma.GetPhyAddr(), c);
      pd_var += -0.5f * pdxl[c] * xm[c] * rstd3;
      sum_pdxl += -pdxl[c] * rstd;
      sum_xm += -2.0f * xm[c];
    }
    const float pd_mean = sum_pdxl + pd_var * inv_n * sum_xm;
    for (uint32_t c = 0; c < s.h; ++c) {
      const bool data = c < s.valid;
      detail::Put(outputPdX.GetPhyAddr(), r * s.h + c,
                  data ? pdxl[c] * rstd + pd_var * two_n * xm[c] + pd_mean * inv_n : 0.0f);
      detail::Put(resForGamma.GetPhyAddr(), r * s.h + c, data ? xm[c] * rstd : 0.0f);
    }
  }
  detail::CountCycles(n * sizeof(T) * 10);
}
template <typename T, bool isReuseSource = false>
void LayerNormGrad(const LocalTensor<T>& outputPdX, const LocalTensor<T>& resForGamma,
                   const LocalTensor<T>& inputDy, const LocalTensor<T>& inputX,
                   const LocalTensor<T>& inputVariance, const LocalTensor<T>& inputMean,
                   const LocalTensor<T>& inputGamma, LocalTensor<uint8_t>& sharedTmpBuffer,
                   T epsilon, LayerNormGradTiling& tiling,
                   const LayerNormGradShapeInfo& shapeInfo = {}) {
  (void)sharedTmpBuffer;
  LayerNormGrad<T, isReuseSource>(outputPdX, resForGamma, inputDy, inputX, inputVariance, inputMean,
                                  inputGamma, epsilon, tiling, shapeInfo);
}

// LayerNormGradBeta: pdGamma[h] = sum over rows of dy * resForGamma, pdBeta[h] = sum of dy.
template <typename T, bool isReuseSource = false>
void LayerNormGradBeta(const LocalTensor<T>& outputPdGamma, const LocalTensor<T>& outputPdBeta,
                       const LocalTensor<T>& resForGamma, const LocalTensor<T>& inputDy,
                       LayerNormGradBetaTiling& tiling) {
  const char* api = "LayerNormGradBeta";
  const detail::NormShape s =
      detail::NormShapeOf(tiling.bLength, tiling.sLength, tiling.hLength, tiling.originalHLength,
                          sizeof(T), api, "GetLayerNormGradBetaNDTilingInfo");
  const uint64_t n = s.rows * s.h;
  detail::CheckVector(resForGamma, n, api, "source (resForGamma)");
  detail::CheckVector(inputDy, n, api, "source (dy)");
  detail::CheckVector(outputPdGamma, s.h, api, "destination (pdGamma)");
  detail::CheckVector(outputPdBeta, s.h, api, "destination (pdBeta)");
  std::vector<float> g(s.h, 0.0f), b(s.h, 0.0f);
  for (uint64_t r = 0; r < s.rows; ++r)
    for (uint32_t c = 0; c < s.valid; ++c) {
      const float dy = detail::F(inputDy.GetPhyAddr(), r * s.h + c);
      g[c] += dy * detail::F(resForGamma.GetPhyAddr(), r * s.h + c);
      b[c] += dy;
    }
  for (uint32_t c = 0; c < s.h; ++c) {
    detail::Put(outputPdGamma.GetPhyAddr(), c, g[c]);
    detail::Put(outputPdBeta.GetPhyAddr(), c, b[c]);
  }
  detail::CountCycles(n * sizeof(T) * 3);
}
template <typename T, bool isReuseSource = false>
void LayerNormGradBeta(const LocalTensor<T>& outputPdGamma, const LocalTensor<T>& outputPdBeta,
                       const LocalTensor<T>& resForGamma, const LocalTensor<T>& inputDy,
                       const LocalTensor<uint8_t>& sharedTmpBuffer,
                       const LayerNormGradBetaTiling& tiling) {
  (void)sharedTmpBuffer;
  LayerNormGradBetaTiling t = tiling;
  LayerNormGradBeta<T, isReuseSource>(outputPdGamma, outputPdBeta, resForGamma, inputDy, t);
}

// Welford's online statistics. WelfordUpdate folds one more sample x into running means and
// M2 sums, element by element (nRec = 1 / the samples so far):
//   d = x - mean, mean' = d * nRec + mean, m2' = d * (x - mean') + m2.
// isInplace: the outputs beyond abComputeLength take the inputs; otherwise they are left.
struct WelfordUpdateConfig {
  bool isInplace = false;
};
inline constexpr WelfordUpdateConfig WFUPDATE_DEFAULT_CFG = {false};
struct WelfordUpdateParam {
  uint32_t rnLength;
  uint32_t abLength;
  uint32_t abComputeLength;
  float nRec;
};

template <typename T, typename U, bool isReuseSource = false,
          const WelfordUpdateConfig& config = WFUPDATE_DEFAULT_CFG>
void WelfordUpdate(const LocalTensor<U>& outputMean, const LocalTensor<U>& outputVariance,
                   const LocalTensor<U>& inputMean, const LocalTensor<U>& inputVariance,
                   const LocalTensor<T>& inputX, const WelfordUpdateParam& para) {
  static_assert(std::is_same_v<U, float>, "WelfordUpdate keeps its statistics in float");
  const char* api = "WelfordUpdate";
  if (para.rnLength != 1)
    detail::Fault(api, "rnLength " + std::to_string(para.rnLength) + " must be 1");
  if (para.abLength == 0 || para.abLength * sizeof(T) % 32 != 0)
    detail::Fault(api, "abLength " + std::to_string(para.abLength) + " is not 32-byte aligned");
  if (para.abComputeLength == 0 || para.abComputeLength > para.abLength)
    detail::Fault(
        api, "abComputeLength " + std::to_string(para.abComputeLength) + " is not in 1..abLength");
  const uint32_t ab = para.abLength, m = para.abComputeLength;
  detail::CheckVector(inputX, ab, api, "source (x)");
  detail::CheckVector(inputMean, ab, api, "source (mean)");
  detail::CheckVector(inputVariance, ab, api, "source (variance)");
  detail::CheckVector(outputMean, ab, api, "destination (mean)");
  detail::CheckVector(outputVariance, ab, api, "destination (variance)");
  for (uint32_t i = 0; i < ab; ++i) {
    const float mean = inputMean.GetPhyAddr()[i], m2 = inputVariance.GetPhyAddr()[i];
    if (i >= m) {
      if (config.isInplace) outputMean.GetPhyAddr()[i] = mean, outputVariance.GetPhyAddr()[i] = m2;
      continue;
    }
    const float x = detail::F(inputX.GetPhyAddr(), i);
    const float d = x - mean;
    const float next = d * para.nRec + mean;
    outputMean.GetPhyAddr()[i] = next;
    outputVariance.GetPhyAddr()[i] = d * (x - next) + m2;
  }
  detail::CountCycles(uint64_t(ab) * 4 * 5);
}
template <typename T, typename U, bool isReuseSource = false,
          const WelfordUpdateConfig& config = WFUPDATE_DEFAULT_CFG>
void WelfordUpdate(const LocalTensor<U>& outputMean, const LocalTensor<U>& outputVariance,
                   const LocalTensor<U>& inputMean, const LocalTensor<U>& inputVariance,
                   const LocalTensor<T>& inputX, const LocalTensor<uint8_t>& sharedTmpBuffer,
                   const WelfordUpdateParam& para) {
  (void)sharedTmpBuffer;
  WelfordUpdate<T, U, isReuseSource, config>(outputMean, outputVariance, inputMean, inputVariance,
                                             inputX, para);
}

// WelfordFinalize merges abLength partial (mean, M2) pairs into the final mean and variance
// (output element 0; elements 1..7 are set to 0). Each pair's weight is counts[i] when
// given, else headCount for the first headCountLength and tailCount after them (no tail:
// mean = sum(mean_i) * abRec); var = sum(m2_i + w_i (mean_i - mean)^2) * rRec.
struct WelfordFinalizeConfig {
  bool isCorrection = false;
};
inline constexpr WelfordFinalizeConfig WFFINALIZE_DEFAULT_CFG = {false};
struct WelfordFinalizePara {
  uint32_t rnLength;
  uint32_t abLength;
  uint32_t headCount;
  uint32_t headCountLength;
  uint32_t tailCount;
  uint32_t tailCountLength;
  float abRec;
  float rRec;
};

namespace detail {
inline void WelfordMerge(const LocalTensor<float>& outputMean,
                         const LocalTensor<float>& outputVariance,
                         const LocalTensor<float>& inputMean,
                         const LocalTensor<float>& inputVariance,
                         const LocalTensor<int32_t>* counts, const WelfordFinalizePara& para) {
  const char* api = "WelfordFinalize";
  const uint32_t ab = para.abLength;
  if (ab == 0 || ab % 8 != 0)
    Fault(api, "abLength " + std::to_string(ab) + " is not a positive multiple of 8");
  if (!counts && para.headCountLength + para.tailCountLength != ab)
    Fault(api, "headCountLength + tailCountLength (" +
                   std::to_string(para.headCountLength + para.tailCountLength) +
                   ") is not abLength " + std::to_string(ab));
  CheckVector(inputMean, ab, api, "source (mean)");
  CheckVector(inputVariance, ab, api, "source (variance)");
  if (counts) CheckVector(*counts, ab, api, "source (counts)");
  CheckVector(outputMean, 8, api, "destination (mean)");
  CheckVector(outputVariance, 8, api, "destination (variance)");
  const bool tail = para.tailCountLength != 0 && para.tailCount != 0;
  std::vector<float> w(ab);
  for (uint32_t i = 0; i < ab; ++i)
    w[i] = counts ? static_cast<float>(counts->GetPhyAddr()[i])
           : tail ? static_cast<float>(i < para.headCountLength ? para.headCount : para.tailCount)
                  : static_cast<float>(para.rnLength);
  float mean = 0;
  for (uint32_t i = 0; i < ab; ++i)
    mean += counts || tail ? inputMean.GetPhyAddr()[i] * w[i] * para.rRec
                           : inputMean.GetPhyAddr()[i] * para.abRec;
  float var = 0;
  for (uint32_t i = 0; i < ab; ++i) {
    const float d = inputMean.GetPhyAddr()[i] - mean;
    var += (inputVariance.GetPhyAddr()[i] + w[i] * d * d) * para.rRec;
  }
  for (uint32_t i = 0; i < 8; ++i) {
    outputMean.GetPhyAddr()[i] = i == 0 ? mean : 0.0f;
    outputVariance.GetPhyAddr()[i] = i == 0 ? var : 0.0f;
  }
  CountCycles(uint64_t(ab) * 4 * 6);
}
}  // namespace detail

template <bool isReuseSource = false, const WelfordFinalizeConfig& config = WFFINALIZE_DEFAULT_CFG>
void WelfordFinalize(const LocalTensor<float>& outputMean, const LocalTensor<float>& outputVariance,
                     const LocalTensor<float>& inputMean, const LocalTensor<float>& inputVariance,
                     WelfordFinalizePara& para) {
  static_assert(!config.isCorrection,
                "WelfordFinalize's isCorrection exists on Ascend 950 only; OpenCANN emulates the "
                "Atlas A2 form");
  detail::WelfordMerge(outputMean, outputVariance, inputMean, inputVariance, nullptr, para);
}
template <bool isReuseSource = false, const WelfordFinalizeConfig& config = WFFINALIZE_DEFAULT_CFG>
void WelfordFinalize(const LocalTensor<float>& outputMean, const LocalTensor<float>& outputVariance,
                     const LocalTensor<float>& inputMean, const LocalTensor<float>& inputVariance,
                     const LocalTensor<uint8_t>& sharedTmpBuffer, WelfordFinalizePara& para) {
  (void)sharedTmpBuffer;
  WelfordFinalize<isReuseSource, config>(outputMean, outputVariance, inputMean, inputVariance,
                                         para);
}
template <bool isReuseSource = false, const WelfordFinalizeConfig& config = WFFINALIZE_DEFAULT_CFG>
void WelfordFinalize(const LocalTensor<float>& outputMean, const LocalTensor<float>& outputVariance,
                     const LocalTensor<float>& inputMean, const LocalTensor<float>& inputVariance,
                     const LocalTensor<int32_t>& counts, WelfordFinalizePara& para) {
  static_assert(!config.isCorrection,
                "WelfordFinalize's isCorrection exists on Ascend 950 only; OpenCANN emulates the "
                "Atlas A2 form");
  detail::WelfordMerge(outputMean, outputVariance, inputMean, inputVariance, &counts, para);
}
template <bool isReuseSource = false, const WelfordFinalizeConfig& config = WFFINALIZE_DEFAULT_CFG>
void WelfordFinalize(const LocalTensor<float>& outputMean, const LocalTensor<float>& outputVariance,
                     const LocalTensor<float>& inputMean, const LocalTensor<float>& inputVariance,
                     const LocalTensor<int32_t>& counts,
                     const LocalTensor<uint8_t>& sharedTmpBuffer, WelfordFinalizePara& para) {
  (void)sharedTmpBuffer;
  WelfordFinalize<isReuseSource, config>(outputMean, outputVariance, inputMean, inputVariance,
                                         counts, para);
}

}  // namespace AscendC
