// The one IR: a graph of nodes with ONNX op semantics, connected by named values.
// Values are named by strings (as in ONNX and GE), which keeps passes simple to read.
#pragma once

#include <algorithm>
#include <map>
#include <string>
#include <unordered_map>
#include <vector>

#include "base/status.h"
#include "ir/attribute.h"
#include "ir/symbolic.h"
#include "ir/tensor.h"

namespace oc {

// Domain of fused ops we create ourselves.
inline constexpr const char* kOcDomain = "oc";

struct ValueInfo {
  DataType dtype = DataType::kUndefined;
  Shape shape;             // -1 for unknown dims
  bool has_shape = false;  // false when even the rank is unknown
};

struct Node {
  std::string name;
  std::string op_type;
  std::string domain;               // "" = ai.onnx
  std::vector<std::string> inputs;  // "" marks an omitted optional input
  std::vector<std::string> outputs;
  AttributeMap attrs;
  // Control flow (If, Loop, Scan): inputs from this index on are values its subgraphs
  // read from enclosing scopes, made explicit at import so that ordering, dead-code
  // removal and the runtime see them. -1: the node has none.
  int64_t captured_inputs_begin = -1;

  size_t NumPresentInputs() const;
  // The inputs the op itself declares (all of them unless some are captured values).
  size_t OwnInputCount() const {
    return captured_inputs_begin < 0
               ? inputs.size()
               : std::min(inputs.size(), static_cast<size_t>(captured_inputs_begin));
  }
  bool HasInput(size_t i) const { return i < inputs.size() && !inputs[i].empty(); }
};

class Graph {
 public:
  std::string name;
  std::vector<std::string> inputs;  // graph inputs, not initializers
  std::vector<std::string> outputs;
  std::vector<Node> nodes;  // kept in topological order by passes
  std::unordered_map<std::string, ValueInfo> values;
  std::map<std::string, Tensor> initializers;
  int64_t opset_version = 17;
  // Model-level metadata (producer, atc command line, ...).
  std::map<std::string, std::string> metadata;
  // Symbols and partly known shape values found by shape inference (compile time only).
  SymbolicFacts symbolic;

  bool IsInitializer(const std::string& v) const { return initializers.count(v) != 0; }
  const Tensor* FindInitializer(const std::string& v) const;
  ValueInfo* FindValue(const std::string& v);
  const ValueInfo* FindValue(const std::string& v) const;

  // Orders nodes so producers come before consumers; error on cycles or
  // inputs produced by nothing.
  Status TopologicalSort();
  // Checks structural invariants: unique producers, every input defined.
  Status Verify() const;
  // Producer node index of each value, consumer indices of each value.
  std::unordered_map<std::string, size_t> ProducerIndex() const;
  std::unordered_map<std::string, std::vector<size_t>> ConsumerIndex() const;
  // A value name not used anywhere in the graph, based on `hint`.
  std::string UniqueValueName(const std::string& hint) const;
};

std::string GraphToString(const Graph& g);

// Every name in the graph and its subgraphs (the graph's, values', nodes', op types and
// domains, attribute names) is UTF-8 text: an .om stores them as protobuf strings, which
// a reader refuses otherwise. The error names the first one that is not, with its bytes
// escaped.
Status CheckNamesAreUtf8(const Graph& g);
// A bool is one byte, 0 or 1, and C++ reads any other byte as undefined; model files may hold
// any (ONNX raw data and int32_data, TensorFlow tensor_content, AIR bytes). Nonzero bytes of
// bool initializers, in subgraphs too, become 1: what a nonzero bool means everywhere.
void NormalizeBoolInitializers(Graph& g);
// The loader's side: bool initializers holding a byte other than 0 or 1 (atc never writes
// one) are refused.
Status CheckBoolInitializers(const Graph& g);
// OpenCANN holds no string tensors (a string has no element size, so a string input of any
// shape is "empty" to every size check): a value of type string, in subgraphs too, is refused.
Status CheckNoStringValues(const Graph& g);

}  // namespace oc
