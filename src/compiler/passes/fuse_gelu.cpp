// The erf form of GELU that exporters emit,
//   y = 0.5 * x * (1 + erf(x / sqrt(2)))   (Div or Mul by 1/sqrt(2); 0.5 applied first or last)
// becomes one Gelu node, which the MatMul fusion can then apply as a post-op.
#include "compiler/pass.h"
#include "compiler/passes/pattern_util.h"

namespace oc {
namespace {

class FuseGeluPass : public Pass {
 public:
  const char* name() const override { return "FuseGelu"; }
  Result<bool> Run(Graph& graph) override {
    bool changed = false;
    for (bool progress = true; progress;) {
      progress = false;
      GraphIndex idx(graph);
      for (size_t i = 0; i < graph.nodes.size() && !progress; ++i) {
        const Node& erf = graph.nodes[i];
        if (erf.op_type != "Erf" || !erf.domain.empty()) continue;
        // x / sqrt(2)  or  x * (1/sqrt(2))
        std::string x;
        const Node* scale = idx.Producer(graph, erf.inputs[0], "Div");
        if (scale && IsScalarConstant(graph, scale->inputs[1], 1.41421356f)) {
          x = scale->inputs[0];
        } else if ((scale = idx.Producer(graph, erf.inputs[0], "Mul"))) {
          if (IsScalarConstant(graph, scale->inputs[1], 0.70710678f))
            x = scale->inputs[0];
          else if (IsScalarConstant(graph, scale->inputs[0], 0.70710678f))
            x = scale->inputs[1];
        }
        if (x.empty() || idx.consumers[scale->outputs[0]].size() != 1) continue;
        const Node* add = idx.OnlyConsumer(graph, erf.outputs[0], "Add");
        if (!add || !IsScalarConstant(graph, OtherInput(*add, erf.outputs[0]), 1.0f)) continue;
        const Node* mul = idx.OnlyConsumer(graph, add->outputs[0], "Mul");
        if (!mul) continue;
        const std::string other = OtherInput(*mul, add->outputs[0]);
        std::vector<const Node*> dead{scale, &erf, add, mul};
        std::string result;
        if (other == x) {  // (x * (1 + erf)) * 0.5
          const Node* half = idx.OnlyConsumer(graph, mul->outputs[0], "Mul");
          if (!half || !IsScalarConstant(graph, OtherInput(*half, mul->outputs[0]), 0.5f)) continue;
          dead.push_back(half);
          result = half->outputs[0];
        } else {  // (x * 0.5) * (1 + erf)
          const Node* half = idx.Producer(graph, other, "Mul");
          if (!half || idx.consumers[other].size() != 1 ||
              !IsScalarConstant(graph, OtherInput(*half, x), 0.5f) ||
              (half->inputs[0] != x && half->inputs[1] != x))
            continue;
          dead.push_back(half);
          result = mul->outputs[0];
        }
        Node gelu;
        gelu.name = erf.name + "_gelu";
        gelu.op_type = "Gelu";
        gelu.inputs = {x};
        gelu.outputs = {result};
        OC_RETURN_IF_ERROR(ReplaceWithNode(graph, dead, std::move(gelu)));
        progress = changed = true;
      }
    }
    return changed;
  }
};

}  // namespace

std::unique_ptr<Pass> CreateFuseGeluPass() { return std::make_unique<FuseGeluPass>(); }

}  // namespace oc
