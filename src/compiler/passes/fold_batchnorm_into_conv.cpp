// Conv(W, B) -> BatchNormalization(scale, bias, mean, var) becomes Conv(W', B') with
// W'[o] = W[o] * k[o], B'[o] = (B[o] - mean[o]) * k[o] + bias[o], k = scale / sqrt(var + eps).
#include <cmath>

#include "compiler/pass.h"

namespace oc {
namespace {

class FoldBatchNormIntoConvPass : public Pass {
 public:
  const char* name() const override { return "FoldBatchNormIntoConv"; }
  Result<bool> Run(Graph& graph) override {
    auto producer = graph.ProducerIndex();
    auto consumers = graph.ConsumerIndex();
    std::vector<bool> dead(graph.nodes.size(), false);
    bool changed = false;
    for (size_t bi = 0; bi < graph.nodes.size(); ++bi) {
      Node& bn = graph.nodes[bi];
      if (bn.op_type != "BatchNormalization" || !bn.domain.empty()) continue;
      if (bn.attrs.GetInt("training_mode", 0) != 0) continue;  // uses batch statistics
      if (bn.outputs.size() > 1 &&
          (!bn.outputs[1].empty() || (bn.outputs.size() > 2 && !bn.outputs[2].empty())))
        continue;
      auto pit = producer.find(bn.inputs[0]);
      if (pit == producer.end()) continue;
      Node& conv = graph.nodes[pit->second];
      if (conv.op_type != "Conv" || !conv.domain.empty() || dead[pit->second]) continue;
      if (consumers[conv.outputs[0]].size() != 1 || IsGraphOutput(graph, conv.outputs[0])) continue;
      const Tensor* w = graph.FindInitializer(conv.inputs[1]);
      const Tensor* b = conv.HasInput(2) ? graph.FindInitializer(conv.inputs[2]) : nullptr;
      if (!w || w->dtype() != DataType::kFloat || (conv.HasInput(2) && !b)) continue;
      const Tensor* p[4];
      bool ok = true;
      for (int k = 0; k < 4; ++k) {
        p[k] = graph.FindInitializer(bn.inputs[1 + k]);
        ok = ok && p[k] && p[k]->dtype() == DataType::kFloat;
      }
      if (!ok) continue;
      const int64_t oc = w->shape()[0];
      const int64_t per = w->numel() / oc;
      if (p[0]->numel() != oc) continue;
      const float eps = bn.attrs.GetFloat("epsilon", 1e-5f);
      Tensor nw(DataType::kFloat, w->shape());
      Tensor nb(DataType::kFloat, {oc});
      for (int64_t o = 0; o < oc; ++o) {
        const double k =
            p[0]->data_as<float>()[o] / std::sqrt(double(p[3]->data_as<float>()[o]) + eps);
        for (int64_t j = 0; j < per; ++j)
          nw.mutable_data_as<float>()[o * per + j] =
              static_cast<float>(w->data_as<float>()[o * per + j] * k);
        const double bias = b ? b->data_as<float>()[o] : 0.0;
        nb.mutable_data_as<float>()[o] =
            static_cast<float>((bias - p[2]->data_as<float>()[o]) * k + p[1]->data_as<float>()[o]);
      }
      const std::string wn = graph.UniqueValueName(conv.name + "_bn_weight");
      graph.values[wn] = ValueInfo{DataType::kFloat, nw.shape(), true};
      graph.initializers[wn] = std::move(nw);
      const std::string bname = graph.UniqueValueName(conv.name + "_bn_bias");
      graph.values[bname] = ValueInfo{DataType::kFloat, {oc}, true};
      graph.initializers[bname] = std::move(nb);
      conv.inputs.resize(3);
      conv.inputs[1] = wn;
      conv.inputs[2] = bname;
      conv.outputs[0] = bn.outputs[0];
      dead[bi] = true;
      AbsorbNames(conv, bn);
      changed = true;
    }
    RemoveNodes(graph, dead);
    return changed;
  }
};

}  // namespace

std::unique_ptr<Pass> CreateFoldBatchNormIntoConvPass() {
  return std::make_unique<FoldBatchNormIntoConvPass>();
}

}  // namespace oc
