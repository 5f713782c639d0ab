// Reference oc.RoundTo: round to nearest float16 / bfloat16, ties to even, written from
// the IEEE 754 definitions with integer arithmetic on the bits (no shared conversion code).
#include <cmath>
#include <cstring>

#include "kernels/reference/ref_util.h"

namespace oc::ref {
namespace {

float FromBits(uint32_t u) {
  float f;
  std::memcpy(&f, &u, 4);
  return f;
}

uint32_t ToBits(float f) {
  uint32_t u;
  std::memcpy(&u, &f, 4);
  return u;
}

// Keeps `keep` mantissa bits of a normal float, rounding the rest to nearest even.
float RoundMantissa(float x, int keep) {
  const uint32_t u = ToBits(x);
  const int drop = 23 - keep;
  const uint32_t half = 1u << (drop - 1), mask = (1u << drop) - 1;
  const uint32_t rest = u & mask;
  uint32_t r = u & ~mask;
  if (rest > half || (rest == half && (r & (1u << drop))))
    r += 1u << drop;  // may carry into the exponent
  return FromBits(r);
}

float ToHalfValue(float x) {
  if (std::isnan(x) || std::isinf(x)) return x;
  const float a = std::fabs(x);
  // Below 2^-14 fp16 is subnormal: a fixed step of 2^-24, ties to even.
  if (a < std::ldexp(1.0f, -14)) {
    const double steps = static_cast<double>(a) * std::ldexp(1.0, 24);
    double k = std::floor(steps);
    const double frac = steps - k;
    if (frac > 0.5 || (frac == 0.5 && std::fmod(k, 2.0) == 1.0)) k += 1;
    return std::copysign(static_cast<float>(k * std::ldexp(1.0, -24)), x);
  }
  const float r = RoundMantissa(x, 10);
  return std::fabs(r) > 65504.0f ? std::copysign(INFINITY, x) : r;
}

float ToBFloat16Value(float x) {
  if (std::isnan(x) || std::isinf(x)) return x;
  return RoundMantissa(x, 7);  // same exponent range as float32; subnormals round alike
}

class RoundToKernel : public Kernel {
 public:
  Status Prepare(const KernelPrepareContext& ctx) override {
    half_ = ctx.attrs().GetString("to", "") == "float16";
    n_ = ctx.inputs[0].numel();
    return Status::Ok();
  }
  Status Run(const KernelRunContext& ctx) const override {
    const auto* x = static_cast<const float*>(ctx.inputs[0]);
    auto* y = static_cast<float*>(ctx.outputs[0]);
    for (int64_t i = 0; i < n_; ++i) y[i] = half_ ? ToHalfValue(x[i]) : ToBFloat16Value(x[i]);
    return Status::Ok();
  }

 private:
  bool half_ = true;
  int64_t n_ = 0;
};

}  // namespace

void RegisterRefPrecision(RefTable& t) {
  t.Add<RoundToKernel>(
      "RoundTo",
      [](const Node& n, const std::vector<TensorType>& in) {
        const std::string to = n.attrs.GetString("to", "");
        return FloatInputs(in) && (to == "float16" || to == "bfloat16");
      },
      "float32 (values rounded to float16 or bfloat16)", kOcDomain);
}

}  // namespace oc::ref
