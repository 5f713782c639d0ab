// MatMul(x, W) -> Add(bias[N]) -> [Act] and Gemm -> Act become oc.MatMul / oc.Gemm with
// the bias and activation applied inside the oneDNN primitive.
#include "compiler/pass.h"
#include "compiler/passes/activation_match.h"

namespace oc {
namespace {

class FuseMatMulBiasActivationPass : public Pass {
 public:
  const char* name() const override { return "FuseMatMulBiasActivation"; }
  Result<bool> Run(Graph& graph) override {
    bool changed = false;
    for (bool progress = true; progress;) {
      progress = false;
      auto consumers = graph.ConsumerIndex();
      for (size_t i = 0; i < graph.nodes.size() && !progress; ++i) {
        Node& mm = graph.nodes[i];
        const bool is_mm = mm.op_type == "MatMul", is_gemm = mm.op_type == "Gemm";
        if (!is_mm && !is_gemm) continue;
        const std::string out = mm.outputs[0];
        const ValueInfo* ov = graph.FindValue(out);
        if (!ov || ov->dtype != DataType::kFloat || IsGraphOutput(graph, out)) continue;
        if (mm.attrs.Has("activation")) continue;
        const auto& users = consumers[out];
        if (users.size() != 1) continue;
        Node& next = graph.nodes[users[0]];
        std::vector<bool> dead(graph.nodes.size(), false);
        FusableActivation act;
        if (is_mm && !mm.HasInput(2) && next.op_type == "Add" && next.domain.empty()) {
          const std::string bias = next.inputs[0] == out ? next.inputs[1] : next.inputs[0];
          const Tensor* b = graph.FindInitializer(bias);
          const ValueInfo* bv = graph.FindValue(next.outputs[0]);
          const int64_t n = ov->shape.empty() ? 0 : ov->shape.back();
          // The bias must broadcast along the last dim only, leaving the shape as is.
          if (b && b->dtype() == DataType::kFloat && b->numel() == n && bv &&
              bv->shape == ov->shape && graph.FindInitializer(mm.inputs[1])) {
            if (b->shape().size() != 1) {
              Tensor copy(DataType::kFloat, {n});
              std::copy(b->data_as<float>(), b->data_as<float>() + n,
                        copy.mutable_data_as<float>());
              const std::string bn = graph.UniqueValueName(bias + "_flat");
              graph.values[bn] = ValueInfo{DataType::kFloat, {n}, true};
              graph.initializers[bn] = std::move(copy);
              mm.inputs.push_back(bn);
            } else {
              mm.inputs.push_back(bias);
            }
            mm.domain = kOcDomain;
            mm.outputs[0] = next.outputs[0];
            dead[users[0]] = true;
            AbsorbNames(mm, next);
          }
        } else if (MatchActivation(graph, next, &act) &&
                   (!is_gemm || !mm.HasInput(2) || graph.FindInitializer(mm.inputs[2]))) {
          mm.domain = kOcDomain;
          SetActivation(mm, act);
          mm.outputs[0] = next.outputs[0];
          dead[users[0]] = true;
          AbsorbNames(mm, next);
        }
        bool any = false;
        for (bool d : dead) any |= d;
        if (any) {
          RemoveNodes(graph, dead);
          progress = changed = true;
        }
      }
    }
    return changed;
  }
};

}  // namespace

std::unique_ptr<Pass> CreateFuseMatMulBiasActivationPass() {
  return std::make_unique<FuseMatMulBiasActivationPass>();
}

}  // namespace oc
