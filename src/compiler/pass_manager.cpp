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

Status ReplaceWithNode(Graph& graph, const std::vector<const Node*>& matched, Node replacement) {
  std::vector<bool> dead(graph.nodes.size(), false);
  for (const Node* n : matched) dead[n - graph.nodes.data()] = true;
  RemoveNodes(graph, dead);
  graph.nodes.push_back(std::move(replacement));
  return graph.TopologicalSort();
}

}  // namespace oc
