#include "ops/fused_activation.h"

#include <algorithm>
#include <cmath>

namespace oc {
namespace {

struct Entry {
  FusedActivation act;
  const char* name;
};
constexpr Entry kActivations[] = {
    {FusedActivation::kNone, ""},
    {FusedActivation::kRelu, "Relu"},
    {FusedActivation::kLeakyRelu, "LeakyRelu"},
    {FusedActivation::kClip, "Clip"},
    {FusedActivation::kSigmoid, "Sigmoid"},
    {FusedActivation::kTanh, "Tanh"},
    {FusedActivation::kSiLU, "SiLU"},
    {FusedActivation::kHardSwish, "HardSwish"},
    {FusedActivation::kGelu, "Gelu"},
};

}  // namespace

bool ParseFusedActivation(const std::string& name, FusedActivation* out) {
  for (const auto& e : kActivations)
    if (name == e.name) {
      *out = e.act;
      return true;
    }
  return false;
}

const char* FusedActivationName(FusedActivation a) {
  for (const auto& e : kActivations)
    if (e.act == a) return e.name;
  return "?";
}

float ApplyFusedActivation(FusedActivation a, float x, float alpha, float beta) {
  switch (a) {
    case FusedActivation::kNone:
      return x;
    case FusedActivation::kRelu:
      return x > 0 ? x : 0.0f;
    case FusedActivation::kLeakyRelu:
      return x > 0 ? x : alpha * x;
    case FusedActivation::kClip:
      return std::min(std::max(x, alpha), beta);
    case FusedActivation::kSigmoid:
      return 1.0f / (1.0f + std::exp(-x));
    case FusedActivation::kTanh:
      return std::tanh(x);
    case FusedActivation::kSiLU:
      return x / (1.0f + std::exp(-x));
    case FusedActivation::kHardSwish:
      return x * std::min(std::max(x / 6.0f + 0.5f, 0.0f), 1.0f);
    case FusedActivation::kGelu:
      return 0.5f * x * (1.0f + std::erf(x / std::sqrt(2.0f)));
  }
  return x;
}

}  // namespace oc
