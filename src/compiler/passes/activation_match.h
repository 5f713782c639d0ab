// Recognises activations a oneDNN primitive can apply as a post-op.
#pragma once

#include <string>

#include "ir/graph.h"

namespace oc {

struct FusableActivation {
  std::string name;  // value of the fused node's `activation` attribute
  float alpha = 0, beta = 0;
};

// True when `act` (reading `input`) can be fused; Clip needs constant bounds.
bool MatchActivation(const Graph& graph, const Node& act, FusableActivation* out);
// Moves the activation onto `target` (an oc-domain node).
void SetActivation(Node& target, const FusableActivation& act);

}  // namespace oc
