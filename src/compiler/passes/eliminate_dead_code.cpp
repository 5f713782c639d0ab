// Removes nodes whose outputs nobody reads and constants nobody uses.
#include <set>

#include "compiler/pass.h"

namespace oc {
namespace {

class EliminateDeadCodePass : public Pass {
 public:
  const char* name() const override { return "EliminateDeadCode"; }
  Result<bool> Run(Graph& graph) override {
    std::set<std::string> live(graph.outputs.begin(), graph.outputs.end());
    std::vector<bool> dead(graph.nodes.size(), false);
    bool changed = false;
    for (size_t i = graph.nodes.size(); i-- > 0;) {
      const Node& n = graph.nodes[i];
      bool used = false;
      for (const auto& o : n.outputs) used |= !o.empty() && live.count(o);
      if (!used) {
        dead[i] = true;
        changed = true;
        continue;
      }
      for (const auto& in : n.inputs)
        if (!in.empty()) live.insert(in);
    }
    RemoveNodes(graph, dead);
    for (auto it = graph.initializers.begin(); it != graph.initializers.end();) {
      if (!live.count(it->first)) {
        graph.values.erase(it->first);
        it = graph.initializers.erase(it);
        changed = true;
      } else {
        ++it;
      }
    }
    // Drop value infos of values that no longer exist.
    std::set<std::string> exists(graph.inputs.begin(), graph.inputs.end());
    for (const auto& [k, t] : graph.initializers) exists.insert(k);
    for (const auto& n : graph.nodes)
      for (const auto& o : n.outputs) exists.insert(o);
    for (auto it = graph.values.begin(); it != graph.values.end();)
      it = exists.count(it->first) ? std::next(it) : graph.values.erase(it);
    return changed;
  }
};

}  // namespace

std::unique_ptr<Pass> CreateEliminateDeadCodePass() {
  return std::make_unique<EliminateDeadCodePass>();
}

}  // namespace oc
