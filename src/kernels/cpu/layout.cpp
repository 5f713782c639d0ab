#include "kernels/cpu/layout.h"

namespace oc {
namespace {

bool IsConv(const Node& n) { return n.op_type == "Conv"; }
// Element-wise and layout-blind: a channels-last value passes through it unchanged in
// layout (the precision emulation's rounding between convolutions).
bool IsLayoutBlind(const Node& n) { return n.domain == kOcDomain && n.op_type == "RoundTo"; }

}  // namespace

std::unordered_set<std::string> ChooseChannelsLastValues(const Graph& graph,
                                                         const std::vector<bool>& mine) {
  std::unordered_set<std::string> blocked;
  std::unordered_set<std::string> outputs(graph.outputs.begin(), graph.outputs.end());
  auto consumers = graph.ConsumerIndex();
  auto producers = graph.ProducerIndex();
  // Candidates: 4-D float outputs of convolutions, and of rounding nodes fed by one.
  for (size_t i = 0; i < graph.nodes.size(); ++i) {
    const Node& n = graph.nodes[i];
    if (!mine[i] || n.outputs.empty() || !(IsConv(n) || IsLayoutBlind(n))) continue;
    const std::string& v = n.outputs[0];
    const ValueInfo* vi = graph.FindValue(v);
    if (!vi || vi->dtype != DataType::kFloat || vi->shape.size() != 4 || outputs.count(v)) continue;
    auto it = consumers.find(v);
    if (it == consumers.end() || it->second.empty()) continue;
    blocked.insert(v);
  }
  // Drop values until every blocked value is read only by convolutions (as data or
  // residual) and by rounding nodes whose input and output are both blocked.
  for (bool changed = true; changed;) {
    changed = false;
    for (auto it = blocked.begin(); it != blocked.end();) {
      const std::string& v = *it;
      bool keep = true;
      auto p = producers.find(v);
      if (p != producers.end() && IsLayoutBlind(graph.nodes[p->second]))
        keep = blocked.count(graph.nodes[p->second].inputs[0]) != 0;
      for (size_t c : consumers[v]) {
        const Node& user = graph.nodes[c];
        if (!mine[c]) {
          keep = false;
        } else if (IsConv(user)) {
          // Used only as the data input or the residual, never as weights or bias.
          for (size_t k = 0; k < user.inputs.size(); ++k)
            if (user.inputs[k] == v && k != 0 && k != 3) keep = false;
        } else if (IsLayoutBlind(user)) {
          keep = keep && blocked.count(user.outputs[0]);
        } else {
          keep = false;
        }
      }
      if (keep) {
        ++it;
      } else {
        it = blocked.erase(it);
        changed = true;
      }
    }
  }
  return blocked;
}

}  // namespace oc
