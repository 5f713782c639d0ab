// oc.RoundTo on the CPU: float32 -> nearest float16 / bfloat16 (ties to even) -> float32,
// in place when the planner lets it. F16C converts eight values per instruction where the
// CPU has it; the scalar path is base/half.h's.
#include <cpuid.h>
#include <immintrin.h>

#include "base/half.h"
#include "kernels/cpu/kernel_families.h"

namespace oc {
namespace {

__attribute__((target("avx,f16c"))) void RoundHalfF16c(const float* x, float* y, int64_t n) {
  int64_t i = 0;
  for (; i + 8 <= n; i += 8) {
    const __m128i h = _mm256_cvtps_ph(_mm256_loadu_ps(x + i), _MM_FROUND_TO_NEAREST_INT);
    _mm256_storeu_ps(y + i, _mm256_cvtph_ps(h));
  }
  for (; i < n; ++i) y[i] = HalfToFloat(FloatToHalf(x[i]));
}

void RoundHalf(const float* x, float* y, int64_t n) {
  // F16C from CPUID leaf 1 (ECX bit 29): clang's __builtin_cpu_supports has no "f16c".
  static const bool f16c = [] {
    unsigned a = 0, b = 0, c = 0, d = 0;
    return __builtin_cpu_supports("avx") && __get_cpuid(1, &a, &b, &c, &d) && (c & (1u << 29));
  }();
  if (f16c) return RoundHalfF16c(x, y, n);
  for (int64_t i = 0; i < n; ++i) y[i] = HalfToFloat(FloatToHalf(x[i]));
}

// Branch-free so that the compiler vectorises it: add half an ulp (plus the kept lsb, for
// ties to even) and clear the dropped bits; NaNs stay NaN (quiet).
inline uint32_t RoundBf16Bits(uint32_t u) {
  const uint32_t rounded = (u + 0x7FFFu + ((u >> 16) & 1u)) & 0xFFFF0000u;
  const bool nan = (u & 0x7FFFFFFFu) > 0x7F800000u;
  return nan ? (u | 0x00400000u) & 0xFFFF0000u : rounded;
}

__attribute__((target("avx2"))) void RoundBFloat16Avx2(const float* x, float* y, int64_t n) {
  const __m256i one = _mm256_set1_epi32(1), half = _mm256_set1_epi32(0x7FFF);
  const __m256i high = _mm256_set1_epi32(static_cast<int>(0xFFFF0000u));
  const __m256i abs_mask = _mm256_set1_epi32(0x7FFFFFFF), inf = _mm256_set1_epi32(0x7F800000);
  const __m256i quiet = _mm256_set1_epi32(0x00400000);
  int64_t i = 0;
  for (; i + 8 <= n; i += 8) {
    const __m256i u = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(x + i));
    const __m256i lsb = _mm256_and_si256(_mm256_srli_epi32(u, 16), one);
    __m256i r = _mm256_and_si256(_mm256_add_epi32(_mm256_add_epi32(u, half), lsb), high);
    const __m256i nan = _mm256_cmpgt_epi32(_mm256_and_si256(u, abs_mask), inf);
    r = _mm256_blendv_epi8(r, _mm256_and_si256(_mm256_or_si256(u, quiet), high), nan);
    _mm256_storeu_si256(reinterpret_cast<__m256i*>(y + i), r);
  }
  const auto* in = reinterpret_cast<const uint32_t*>(x);
  auto* out = reinterpret_cast<uint32_t*>(y);
  for (; i < n; ++i) out[i] = RoundBf16Bits(in[i]);
}

void RoundBFloat16(const float* x, float* y, int64_t n) {
  static const bool avx2 = __builtin_cpu_supports("avx2");
  if (avx2) return RoundBFloat16Avx2(x, y, n);
  const auto* in = reinterpret_cast<const uint32_t*>(x);
  auto* out = reinterpret_cast<uint32_t*>(y);
  for (int64_t i = 0; i < n; ++i) out[i] = RoundBf16Bits(in[i]);
}

class RoundToKernel : public Kernel {
 public:
  Status Prepare(const KernelPrepareContext& ctx) override {
    if (ctx.inputs[0].dtype != DataType::kFloat) return ctx.Error("float32 only");
    half_ = ctx.attrs().GetString("to", "") == "float16";
    n_ = ctx.inputs[0].numel();
    return Status::Ok();
  }
  Status Run(const KernelRunContext& ctx) const override {
    const auto* x = static_cast<const float*>(ctx.inputs[0]);
    auto* y = static_cast<float*>(ctx.outputs[0]);
    constexpr int64_t kChunk = 1 << 16;
    const int64_t chunks = (n_ + kChunk - 1) / kChunk;
#pragma omp parallel for num_threads(ctx.num_threads) if (chunks > 1)
    for (int64_t c = 0; c < chunks; ++c) {
      const int64_t begin = c * kChunk, count = std::min(kChunk, n_ - begin);
      if (half_)
        RoundHalf(x + begin, y + begin, count);
      else
        RoundBFloat16(x + begin, y + begin, count);
    }
    return Status::Ok();
  }

 private:
  bool half_ = true;
  int64_t n_ = 0;
};

}  // namespace

void RegisterPrecisionKernels(KernelTable& r) {
  r.Add<RoundToKernel>("RoundTo", kOcDomain, "float32 (values rounded to float16 or bfloat16)");
}

}  // namespace oc
