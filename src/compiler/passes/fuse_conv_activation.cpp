// Conv followed by a residual Add and/or an activation becomes one oc.Conv, which
// oneDNN runs with sum and eltwise post-ops (one pass over the output instead of three).
// Patterns: Conv->Act, Conv->Add(x)->[Act], Conv->{Sigmoid, Mul} (SiLU).
#include "compiler/pass.h"
#include "compiler/passes/activation_match.h"

namespace oc {
namespace {

class FuseConvActivationPass : public Pass {
 public:
  const char* name() const override { return "FuseConvActivation"; }
  Result<bool> Run(Graph& graph) override {
    bool changed = false;
    // Each rewrite changes consumer lists: recompute after every one.
    for (bool progress = true; progress;) {
      progress = false;
      auto consumers = graph.ConsumerIndex();
      for (size_t ci = 0; ci < graph.nodes.size() && !progress; ++ci) {
        Node& conv = graph.nodes[ci];
        if (conv.op_type != "Conv") continue;
        if (graph.FindValue(conv.outputs[0])->dtype != DataType::kFloat) continue;
        if (conv.attrs.Has("activation")) continue;
        const std::string out = conv.outputs[0];
        if (IsGraphOutput(graph, out)) continue;
        const auto& users = consumers[out];
        std::vector<bool> dead(graph.nodes.size(), false);
        if (users.size() == 2) {
          // SiLU: y = x * sigmoid(x)
          size_t s = users[0], m = users[1];
          if (graph.nodes[s].op_type != "Sigmoid") std::swap(s, m);
          const Node& sig = graph.nodes[s];
          const Node& mul = graph.nodes[m];
          if (sig.op_type == "Sigmoid" && mul.op_type == "Mul" && sig.domain.empty() &&
              mul.domain.empty() && consumers[sig.outputs[0]].size() == 1 &&
              !IsGraphOutput(graph, sig.outputs[0]) &&
              ((mul.inputs[0] == out && mul.inputs[1] == sig.outputs[0]) ||
               (mul.inputs[1] == out && mul.inputs[0] == sig.outputs[0]))) {
            conv.domain = kOcDomain;
            SetActivation(conv, {"SiLU", 0, 0});
            conv.outputs[0] = mul.outputs[0];
            dead[s] = dead[m] = true;
            AbsorbNames(conv, sig);
            AbsorbNames(conv, mul);
          }
        } else if (users.size() == 1) {
          Node& next = graph.nodes[users[0]];
          FusableActivation act;
          if (MatchActivation(graph, next, &act)) {
            conv.domain = kOcDomain;
            SetActivation(conv, act);
            conv.outputs[0] = next.outputs[0];
            dead[users[0]] = true;
            AbsorbNames(conv, next);
          } else if (next.op_type == "Add" && next.domain.empty() && conv.inputs.size() <= 3) {
            const std::string other = next.inputs[0] == out ? next.inputs[1] : next.inputs[0];
            const ValueInfo* ov = graph.FindValue(other);
            const ValueInfo* cv = graph.FindValue(out);
            if (other != out && ov && cv && ov->shape == cv->shape && ov->dtype == cv->dtype &&
                !graph.IsInitializer(other)) {
              conv.domain = kOcDomain;
              conv.inputs.resize(4);
              conv.inputs[3] = other;
              conv.outputs[0] = next.outputs[0];
              dead[users[0]] = true;
              AbsorbNames(conv, next);
              // An activation after the sum folds in too.
              const auto& after = consumers[next.outputs[0]];
              if (after.size() == 1 && !IsGraphOutput(graph, next.outputs[0]) &&
                  MatchActivation(graph, graph.nodes[after[0]], &act)) {
                SetActivation(conv, act);
                conv.outputs[0] = graph.nodes[after[0]].outputs[0];
                dead[after[0]] = true;
                AbsorbNames(conv, graph.nodes[after[0]]);
              }
            }
          }
        }
        bool any = false;
        for (bool d : dead) any |= d;
        if (any) {
          RemoveNodes(graph, dead);
          // The residual input may be produced after the conv: restore the order.
          OC_RETURN_IF_ERROR(graph.TopologicalSort());
          progress = changed = true;
        }
      }
    }
    return changed;
  }
};

}  // namespace

std::unique_ptr<Pass> CreateFuseConvActivationPass() {
  return std::make_unique<FuseConvActivationPass>();
}

}  // namespace oc
