// Removes Identity and inference-mode Dropout by wiring consumers to their input.
#include "compiler/pass.h"

namespace oc {
namespace {

class EliminateIdentityPass : public Pass {
 public:
  const char* name() const override { return "EliminateIdentity"; }
  Result<bool> Run(Graph& graph) override {
    std::vector<bool> dead(graph.nodes.size(), false);
    bool changed = false;
    for (size_t i = 0; i < graph.nodes.size(); ++i) {
      const Node& n = graph.nodes[i];
      if (!n.domain.empty() || (n.op_type != "Identity" && n.op_type != "Dropout")) continue;
      if (n.op_type == "Dropout" && n.outputs.size() > 1 && !n.outputs[1].empty()) continue;
      // A Dropout that may run in training mode is not an identity.
      if (n.op_type == "Dropout" && n.HasInput(2)) {
        const Tensor* mode = graph.FindInitializer(n.inputs[2]);
        if (!mode || mode->GetAsInt(0) != 0) continue;
      }
      if (n.inputs.empty() || n.inputs[0].empty()) continue;
      // A graph output keeps its name: keep the copy.
      if (IsGraphOutput(graph, n.outputs[0])) continue;
      const std::string from = n.outputs[0], to = n.inputs[0];
      ReplaceAllUses(graph, from, to);
      dead[i] = true;
      changed = true;
    }
    RemoveNodes(graph, dead);
    return changed;
  }
};

}  // namespace

std::unique_ptr<Pass> CreateEliminateIdentityPass() {
  return std::make_unique<EliminateIdentityPass>();
}

}  // namespace oc
