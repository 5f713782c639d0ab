// The activations a fused node (oc.Conv, oc.MatMul, oc.Gemm) may apply to its result: one
// list for the fusion passes, the op traits and every backend. A backend that runs fused
// nodes handles each of these (the CPU backend maps them to oneDNN post-ops, the
// reference backend calls ApplyFusedActivation).
#pragma once

#include <string>

namespace oc {

enum class FusedActivation {
  kNone,
  kRelu,
  kLeakyRelu,
  kClip,
  kSigmoid,
  kTanh,
  kSiLU,
  kHardSwish,
  kGelu
};

// By the `activation` attribute's value ("" is kNone); false for an unknown name.
bool ParseFusedActivation(const std::string& name, FusedActivation* out);
const char* FusedActivationName(FusedActivation a);
// The activation in fp32 with the fused node's activation_alpha / activation_beta
// (LeakyRelu: alpha is the slope; Clip: alpha and beta are the bounds).
float ApplyFusedActivation(FusedActivation a, float x, float alpha, float beta);

}  // namespace oc
