#include "kernels/cpu/layout.h"

namespace oc {

std::unordered_set<std::string> ChooseChannelsLastValues(const Graph& graph,
                                                         const std::vector<bool>& mine) {
  std::unordered_set<std::string> blocked;
  std::unordered_set<std::string> outputs(graph.outputs.begin(), graph.outputs.end());
  auto consumers = graph.ConsumerIndex();
  auto is_conv = [](const Node& n) { return n.op_type == "Conv"; };
  for (size_t i = 0; i < graph.nodes.size(); ++i) {
    const Node& n = graph.nodes[i];
    if (!mine[i] || !is_conv(n) || n.outputs.empty()) continue;
    const std::string& v = n.outputs[0];
    const ValueInfo* vi = graph.FindValue(v);
    if (!vi || vi->dtype != DataType::kFloat || vi->shape.size() != 4 || outputs.count(v)) continue;
    auto it = consumers.find(v);
    if (it == consumers.end() || it->second.empty()) continue;
    bool all_conv = true;
    for (size_t c : it->second) {
      const Node& user = graph.nodes[c];
      if (!mine[c] || !is_conv(user)) {
        all_conv = false;
        break;
      }
      // Used only as the data input or the residual, never as weights or bias.
      for (size_t k = 0; k < user.inputs.size(); ++k)
        if (user.inputs[k] == v && k != 0 && k != 3) all_conv = false;
    }
    if (all_conv) blocked.insert(v);
  }
  return blocked;
}

}  // namespace oc
