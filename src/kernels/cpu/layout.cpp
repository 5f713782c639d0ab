#include "kernels/cpu/layout.h"

namespace oc {
namespace {

bool IsConv(const Node& n) { return n.op_type == "Conv"; }

// Element-wise on the CPU backend, so a channels-last value passes through in layout: the
// precision emulation's rounding, unary activations, and the binary arithmetic whose other
// operand reads the same in both layouts (per-channel [N,C,1,1], per-position [N,1,H,W], a
// scalar) — the squeeze-and-excitation scale and the residual add of MBConv blocks.
bool IsLayoutBlind(const Node& n) {
  if (n.domain == kOcDomain) return n.op_type == "RoundTo";
  if (!n.domain.empty() && n.domain != "ai.onnx") return false;
  static const std::unordered_set<std::string> kOps = {
      "Add",     "Sub",       "Mul",         "Div",       "Max",      "Min",  "Relu",
      "Sigmoid", "Tanh",      "Exp",         "Neg",       "Abs",      "Sqrt", "Elu",
      "Selu",    "LeakyRelu", "HardSigmoid", "HardSwish", "Softplus", "Erf",  "Clip"};
  return kOps.count(n.op_type) != 0;
}

bool IsGlobalPool(const Node& n) {
  return n.domain.empty() && (n.op_type == "GlobalAveragePool" || n.op_type == "GlobalMaxPool");
}

// A plain tensor whose bytes are the same read as NCHW or as NHWC: at most one of C and the
// spatial extent is larger than 1 (right-aligned to rank 4), or a scalar.
bool SameInBothLayouts(const ValueInfo* vi) {
  if (!vi) return false;
  Shape s = vi->shape;
  if (s.size() > 4) return false;
  while (s.size() < 4) s.insert(s.begin(), 1);
  for (int64_t d : s)
    if (d < 0) return false;
  return s[1] == 1 || s[2] * s[3] == 1;
}

}  // namespace

std::unordered_set<std::string> ChooseChannelsLastValues(const Graph& graph,
                                                         const std::vector<bool>& mine) {
  std::unordered_set<std::string> blocked;
  std::unordered_set<std::string> outputs(graph.outputs.begin(), graph.outputs.end());
  auto consumers = graph.ConsumerIndex();
  auto producers = graph.ProducerIndex();
  // Candidates: 4-D float outputs of convolutions and of element-wise nodes.
  for (size_t i = 0; i < graph.nodes.size(); ++i) {
    const Node& n = graph.nodes[i];
    if (!mine[i] || n.outputs.size() != 1 || !(IsConv(n) || IsLayoutBlind(n))) continue;
    const std::string& v = n.outputs[0];
    const ValueInfo* vi = graph.FindValue(v);
    if (!vi || vi->dtype != DataType::kFloat || vi->shape.size() != 4 || outputs.count(v)) continue;
    auto it = consumers.find(v);
    if (it == consumers.end() || it->second.empty()) continue;
    blocked.insert(v);
  }
  // An element-wise node can produce a blocked value when each of its inputs is blocked or
  // reads the same in both layouts, and at least one is blocked.
  auto blind_inputs_ok = [&](const Node& n) {
    bool any_blocked = false;
    for (const auto& in : n.inputs) {
      if (in.empty()) continue;
      if (blocked.count(in)) {
        any_blocked = true;
        continue;
      }
      if (n.op_type == "Clip" && &in != &n.inputs[0]) continue;  // min / max scalars
      if (!SameInBothLayouts(graph.FindValue(in))) return false;
    }
    return any_blocked;
  };
  // Drop values until every blocked value is read only by convolutions (as data or
  // residual), global pools, and element-wise nodes whose output is blocked too.
  for (bool changed = true; changed;) {
    changed = false;
    for (auto it = blocked.begin(); it != blocked.end();) {
      const std::string& v = *it;
      bool keep = true;
      auto p = producers.find(v);
      if (p != producers.end() && IsLayoutBlind(graph.nodes[p->second]))
        keep = blind_inputs_ok(graph.nodes[p->second]);
      for (size_t c : consumers[v]) {
        const Node& user = graph.nodes[c];
        if (!mine[c]) {
          keep = false;
        } else if (IsConv(user)) {
          // Used only as the data input or the residual, never as weights or bias.
          for (size_t k = 0; k < user.inputs.size(); ++k)
            if (user.inputs[k] == v && k != 0 && k != 3) keep = false;
        } else if (IsGlobalPool(user)) {
          // Reads channels-last; its [N,C,1,1] result is the same in both layouts.
        } else if (IsLayoutBlind(user)) {
          keep = keep && user.outputs.size() == 1 && blocked.count(user.outputs[0]);
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
