#include "compiler/passes/activation_match.h"

#include <limits>

namespace oc {

bool MatchActivation(const Graph& graph, const Node& act, FusableActivation* out) {
  if (!act.domain.empty()) return false;
  const std::string& t = act.op_type;
  if (t == "Gelu" && act.attrs.GetString("approximate", "none") != "none") return false;
  if (t == "Relu" || t == "Sigmoid" || t == "Tanh" || t == "HardSwish" || t == "Gelu") {
    out->name = t;
    return true;
  }
  if (t == "LeakyRelu") {
    out->name = t;
    out->alpha = act.attrs.GetFloat("alpha", 0.01f);
    return true;
  }
  if (t == "Clip") {
    float lo = act.attrs.GetFloat("min", -std::numeric_limits<float>::max());
    float hi = act.attrs.GetFloat("max", std::numeric_limits<float>::max());
    for (size_t i = 1; i < 3; ++i) {
      if (!act.HasInput(i)) continue;
      const Tensor* c = graph.FindInitializer(act.inputs[i]);
      if (!c || c->dtype() != DataType::kFloat || c->numel() != 1) return false;
      (i == 1 ? lo : hi) = c->data_as<float>()[0];
    }
    out->name = "Clip";
    out->alpha = lo;
    out->beta = hi;
    return true;
  }
  return false;
}

void SetActivation(Node& target, const FusableActivation& act) {
  target.attrs.Set("activation", act.name);
  if (act.alpha != 0) target.attrs.Set("activation_alpha", act.alpha);
  if (act.beta != 0) target.attrs.Set("activation_beta", act.beta);
}

}  // namespace oc
