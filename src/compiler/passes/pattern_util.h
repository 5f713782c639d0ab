// Small helpers for passes that match subgraphs.
#pragma once

#include <string>
#include <unordered_map>
#include <vector>

#include "ir/graph.h"

namespace oc {

struct GraphIndex {
  explicit GraphIndex(const Graph& g) : producer(g.ProducerIndex()), consumers(g.ConsumerIndex()) {}
  std::unordered_map<std::string, size_t> producer;
  std::unordered_map<std::string, std::vector<size_t>> consumers;

  // The node producing `v` if it has type `op` (ai.onnx), else nullptr.
  const Node* Producer(const Graph& g, const std::string& v, const char* op) const;
  // The only consumer of `v` if it has type `op` and v is not a graph output.
  const Node* OnlyConsumer(const Graph& g, const std::string& v, const char* op) const;
};

// True when `v` is a float constant holding a single value close to `expected`.
bool IsScalarConstant(const Graph& g, const std::string& v, float expected, float tol = 1e-4f);
// Reads a single-valued float constant.
bool ScalarConstant(const Graph& g, const std::string& v, float* out);
// The input of binary `n` that is not `v` (empty when both are v).
std::string OtherInput(const Node& n, const std::string& v);

}  // namespace oc
