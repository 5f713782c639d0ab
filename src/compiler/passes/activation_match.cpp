#include "compiler/passes/activation_match.h"

#include <limits>

#include "ops/op_schema.h"

namespace oc {

bool MatchActivation(const Graph& graph, const Node& act, FusableActivation* out) {
  const OpSchema* schema = OpRegistry::Global().Find(act.domain, act.op_type);
  if (!schema || schema->traits.fusable_activation == FusedActivation::kNone) return false;
  const FusedActivation kind = schema->traits.fusable_activation;
  out->name = FusedActivationName(kind);
  // The parameters of the node become the fused node's activation_alpha / _beta.
  if (kind == FusedActivation::kGelu) return act.attrs.GetString("approximate", "none") == "none";
  if (kind == FusedActivation::kLeakyRelu) {
    out->alpha = act.attrs.GetFloat("alpha", 0.01f);
    return true;
  }
  if (kind == FusedActivation::kClip) {
    float lo = act.attrs.GetFloat("min", -std::numeric_limits<float>::max());
    float hi = act.attrs.GetFloat("max", std::numeric_limits<float>::max());
    for (size_t i = 1; i < 3; ++i) {
      if (!act.HasInput(i)) continue;
      const Tensor* c = graph.FindInitializer(act.inputs[i]);
      if (!c || c->dtype() != DataType::kFloat || c->numel() != 1) return false;
      (i == 1 ? lo : hi) = c->data_as<float>()[0];
    }
    out->alpha = lo;
    out->beta = hi;
    return true;
  }
  return true;
}

void SetActivation(Node& target, const FusableActivation& act) {
  target.attrs.Set("activation", act.name);
  if (act.alpha != 0) target.attrs.Set("activation_alpha", act.alpha);
  if (act.beta != 0) target.attrs.Set("activation_beta", act.beta);
}

}  // namespace oc
