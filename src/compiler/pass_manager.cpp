#include <algorithm>

#include "compiler/pass.h"

namespace oc {

void ReplaceAllUses(Graph& graph, const std::string& from, const std::string& to) {
  for (auto& n : graph.nodes)
    for (auto& in : n.inputs)
      if (in == from) in = to;
  for (auto& out : graph.outputs)
    if (out == from) out = to;
}

bool IsGraphOutput(const Graph& graph, const std::string& value) {
  return std::find(graph.outputs.begin(), graph.outputs.end(), value) != graph.outputs.end();
}

void RemoveNodes(Graph& graph, const std::vector<bool>& dead) {
  std::vector<Node> kept;
  kept.reserve(graph.nodes.size());
  for (size_t i = 0; i < graph.nodes.size(); ++i)
    if (!dead[i]) kept.push_back(std::move(graph.nodes[i]));
  graph.nodes = std::move(kept);
}

void AbsorbNames(Node& into, const Node& absorbed) {
  constexpr const char* kAttr = "_datadump_original_op_names";
  std::vector<std::string> names = into.attrs.GetStrings(kAttr);
  if (names.empty()) names.push_back(into.name);
  std::vector<std::string> theirs = absorbed.attrs.GetStrings(kAttr);
  if (theirs.empty()) theirs.push_back(absorbed.name);
  for (const auto& n : theirs)
    if (std::find(names.begin(), names.end(), n) == names.end()) names.push_back(n);
  into.attrs.Set(kAttr, names);
}

ValueOrigins RecordValueOrigins(const Graph& graph) {
  ValueOrigins out;
  for (const auto& n : graph.nodes)
    for (size_t k = 0; k < n.outputs.size(); ++k)
      if (!n.outputs[k].empty()) out[n.outputs[k]] = {n.name, static_cast<int64_t>(k)};
  return out;
}

void StampValueOrigins(Graph& graph, const ValueOrigins& origins) {
  for (auto& n : graph.nodes) {
    std::vector<std::string> names;
    std::vector<int64_t> indexes;
    for (const auto& v : n.outputs) {
      auto it = origins.find(v);
      names.push_back(it == origins.end() ? "" : it->second.first);
      indexes.push_back(it == origins.end() ? -1 : it->second.second);
    }
    n.attrs.Set("_datadump_origin_name", names);
    n.attrs.Set("_datadump_origin_output_index", indexes);
  }
}

Status ReplaceWithNode(Graph& graph, const std::vector<const Node*>& matched, Node replacement) {
  for (const Node* n : matched)
    if (n->name != replacement.name) AbsorbNames(replacement, *n);
  std::vector<bool> dead(graph.nodes.size(), false);
  for (const Node* n : matched) dead[n - graph.nodes.data()] = true;
  RemoveNodes(graph, dead);
  graph.nodes.push_back(std::move(replacement));
  return graph.TopologicalSort();
}

}  // namespace oc
