// Transpose pairs that undo each other disappear: a frontend that keeps the model's NHWC
// layout wraps each NCHW op in Transposes, and between two such ops they cancel. A Transpose
// whose permutation is the identity goes too.
#include "compiler/pass.h"

namespace oc {
namespace {

bool IsIdentity(const std::vector<int64_t>& perm) {
  for (size_t i = 0; i < perm.size(); ++i)
    if (perm[i] != static_cast<int64_t>(i)) return false;
  return true;
}

class CancelTransposesPass : public Pass {
 public:
  const char* name() const override { return "CancelTransposes"; }
  Result<bool> Run(Graph& graph) override {
    // Which node makes each value.
    std::unordered_map<std::string, size_t> producer;
    for (size_t i = 0; i < graph.nodes.size(); ++i)
      for (const auto& o : graph.nodes[i].outputs) producer[o] = i;
    std::vector<bool> dead(graph.nodes.size(), false);
    bool changed = false;
    for (size_t i = 0; i < graph.nodes.size(); ++i) {
      const Node& n = graph.nodes[i];
      if (!n.domain.empty() || n.op_type != "Transpose" || !n.HasInput(0)) continue;
      if (!n.attrs.Has("perm")) continue;
      const std::vector<int64_t> outer = n.attrs.GetInts("perm");
      std::string source;
      if (IsIdentity(outer)) {
        source = n.inputs[0];
      } else {
        auto it = producer.find(n.inputs[0]);
        if (it == producer.end()) continue;
        const Node& inner = graph.nodes[it->second];
        if (!inner.domain.empty() || inner.op_type != "Transpose" || !inner.HasInput(0) ||
            !inner.attrs.Has("perm"))
          continue;
        const std::vector<int64_t> first = inner.attrs.GetInts("perm");
        if (first.size() != outer.size()) continue;
        // y[i] = x[first[outer[i]]]: the pair is nothing when that is i everywhere.
        std::vector<int64_t> composed(outer.size());
        bool valid = true;
        for (size_t k = 0; k < outer.size(); ++k) {
          if (outer[k] < 0 || outer[k] >= static_cast<int64_t>(first.size())) valid = false;
          if (valid) composed[k] = first[static_cast<size_t>(outer[k])];
        }
        if (!valid || !IsIdentity(composed)) continue;
        source = inner.inputs[0];
      }
      changed = true;
      if (IsGraphOutput(graph, n.outputs[0])) {
        // A graph output keeps its name: a copy instead of a layout change.
        Node& copy = graph.nodes[i];
        copy.op_type = "Identity";
        copy.attrs = AttributeMap{};
        copy.inputs = {source};
        continue;
      }
      ReplaceAllUses(graph, n.outputs[0], source);
      dead[i] = true;
    }
    RemoveNodes(graph, dead);
    return changed;
  }
};

}  // namespace

std::unique_ptr<Pass> CreateCancelTransposesPass() {
  return std::make_unique<CancelTransposesPass>();
}

}  // namespace oc
