#include "frontend/onnx/onnx_sort.h"

#include <queue>
#include <string>
#include <unordered_map>
#include <unordered_set>
#include <vector>

namespace oc {
namespace {

// Every value name a subgraph (at any depth) reads: the outer-scope values it may capture.
void SubgraphReads(const onnx::GraphProto& g, std::unordered_set<std::string>* out) {
  for (const auto& n : g.node()) {
    for (const auto& in : n.input()) out->insert(in);
    for (const auto& a : n.attribute()) {
      if (a.has_g()) SubgraphReads(a.g(), out);
      for (const auto& sg : a.graphs()) SubgraphReads(sg, out);
    }
  }
}

}  // namespace

Status SortOnnxGraph(onnx::GraphProto* graph) {
  const int n = graph->node_size();
  for (auto& node : *graph->mutable_node())
    for (auto& a : *node.mutable_attribute()) {
      if (a.has_g()) OC_RETURN_IF_ERROR(SortOnnxGraph(a.mutable_g()));
      for (auto& sg : *a.mutable_graphs()) OC_RETURN_IF_ERROR(SortOnnxGraph(&sg));
    }
  std::unordered_map<std::string, int> producer;
  for (int i = 0; i < n; ++i)
    for (const auto& out : graph->node(i).output())
      if (!out.empty()) producer.emplace(out, i);
  std::vector<std::vector<int>> users(n);
  std::vector<int> waiting(n, 0);
  bool sorted = true;
  for (int i = 0; i < n; ++i) {
    const auto& node = graph->node(i);
    std::unordered_set<std::string> reads(node.input().begin(), node.input().end());
    for (const auto& a : node.attribute()) {
      if (a.has_g()) SubgraphReads(a.g(), &reads);
      for (const auto& sg : a.graphs()) SubgraphReads(sg, &reads);
    }
    std::unordered_set<int> deps;
    for (const auto& r : reads) {
      auto it = producer.find(r);
      if (it != producer.end() && it->second != i) deps.insert(it->second);
      if (it != producer.end() && it->second == i)
        return ParseError("node [" + node.name() + "] (" + node.op_type() +
                          ") reads its own output [" + r + "]: the graph has a cycle");
    }
    for (int d : deps) {
      users[d].push_back(i);
      ++waiting[i];
      if (d > i) sorted = false;
    }
  }
  if (sorted) return Status::Ok();
  // Kahn's algorithm, the lowest stored index first: a valid order is kept as it is.
  std::priority_queue<int, std::vector<int>, std::greater<int>> ready;
  for (int i = 0; i < n; ++i)
    if (waiting[i] == 0) ready.push(i);
  std::vector<int> order;
  order.reserve(n);
  while (!ready.empty()) {
    const int i = ready.top();
    ready.pop();
    order.push_back(i);
    for (int u : users[i])
      if (--waiting[u] == 0) ready.push(u);
  }
  if (static_cast<int>(order.size()) != n) {
    std::string names;
    int listed = 0;
    for (int i = 0; i < n && listed < 8; ++i)
      if (waiting[i] > 0) {
        names +=
            (listed++ ? ", " : "") + graph->node(i).name() + " (" + graph->node(i).op_type() + ")";
      }
    return ParseError("the graph has a cycle: " + std::to_string(n - order.size()) +
                      " nodes wait on each other, among them [" + names + "]");
  }
  google::protobuf::RepeatedPtrField<onnx::NodeProto> nodes;
  for (int i : order) *nodes.Add() = std::move(*graph->mutable_node(i));
  graph->mutable_node()->Swap(&nodes);
  return Status::Ok();
}

}  // namespace oc
