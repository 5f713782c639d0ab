#include "compiler/passes/pattern_util.h"

#include <algorithm>
#include <cmath>

namespace oc {

const Node* GraphIndex::Producer(const Graph& g, const std::string& v, const char* op) const {
  auto it = producer.find(v);
  if (it == producer.end()) return nullptr;
  const Node& n = g.nodes[it->second];
  return n.op_type == op && n.domain.empty() ? &n : nullptr;
}

const Node* GraphIndex::OnlyConsumer(const Graph& g, const std::string& v, const char* op) const {
  auto it = consumers.find(v);
  if (it == consumers.end() || it->second.size() != 1) return nullptr;
  if (std::find(g.outputs.begin(), g.outputs.end(), v) != g.outputs.end()) return nullptr;
  const Node& n = g.nodes[it->second[0]];
  return n.op_type == op && n.domain.empty() ? &n : nullptr;
}

bool ScalarConstant(const Graph& g, const std::string& v, float* out) {
  const Tensor* t = g.FindInitializer(v);
  if (!t || t->numel() != 1 || !IsFloatType(t->dtype())) return false;
  *out = static_cast<float>(t->GetAsDouble(0));
  return true;
}

bool IsScalarConstant(const Graph& g, const std::string& v, float expected, float tol) {
  float x = 0;
  return ScalarConstant(g, v, &x) &&
         std::abs(x - expected) <= tol * std::max(1.0f, std::abs(expected));
}

std::string OtherInput(const Node& n, const std::string& v) {
  if (n.inputs.size() != 2) return "";
  if (n.inputs[0] == v) return n.inputs[1] == v ? "" : n.inputs[1];
  return n.inputs[1] == v ? n.inputs[0] : "";
}

}  // namespace oc
