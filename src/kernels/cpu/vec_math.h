// exp for float arrays in a form the compiler vectorises (Cephes-style range reduction
// and a degree-6 polynomial; max relative error about 2 ulp over the float range).
// Scalar SLEEF calls cannot be vectorised, and softmax spends most of its time here.
#pragma once

#include <cstdint>
#include <cstring>

namespace oc {

inline float ExpFloat(float x) {
  constexpr float kLog2e = 1.44269504088896341f;
  constexpr float kLn2Hi = 0.693359375f, kLn2Lo = -2.12194440e-4f;
  x = x > 88.3762626647949f ? 88.3762626647949f : x;
  x = x < -87.3365447504f ? -87.3365447504f : x;
  // Round to nearest by the 1.5 * 2^23 trick: floorf would be a library call, which
  // keeps the loop scalar on baseline x86-64.
  constexpr float kRound = 12582912.0f;
  const float t = x * kLog2e + kRound;
  const float n = t - kRound;
  float r = x - n * kLn2Hi - n * kLn2Lo;
  float p = 1.9875691500e-4f;
  p = p * r + 1.3981999507e-3f;
  p = p * r + 8.3334519073e-3f;
  p = p * r + 4.1665795894e-2f;
  p = p * r + 1.6666665459e-1f;
  p = p * r + 5.0000001201e-1f;
  p = p * r * r + r + 1.0f;
  // 2^n from t's bits (t = 1.5 * 2^23 + n): no float -> int conversion, which is undefined
  // for NaN (exp(NaN) stays NaN through p).
  uint32_t t_bits;
  std::memcpy(&t_bits, &t, 4);
  const uint32_t bits = (t_bits - 0x4B400000u + 127u) << 23;
  float scale;
  std::memcpy(&scale, &bits, 4);
  return p * scale;
}

// y[i] = exp(x[i] - shift); returns the sum of the results.
inline float ExpShiftSum(const float* x, float* y, int64_t n, float shift) {
  float sum = 0.0f;
#pragma omp simd reduction(+ : sum)
  for (int64_t i = 0; i < n; ++i) {
    y[i] = ExpFloat(x[i] - shift);
    sum += y[i];
  }
  return sum;
}

}  // namespace oc
