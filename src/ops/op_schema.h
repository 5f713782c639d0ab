// Op schemas: arity and shape/type inference, shared by the compiler (atc) and the
// runtime (dynamic shapes). One registration function per op family file.
#pragma once

#include <functional>
#include <deque>
#include <string>
#include <vector>

#include "base/status.h"
#include "ir/graph.h"

namespace oc {

// What shape inference sees of one node.
struct InferContext {
  const Node* node = nullptr;
  int64_t opset = 17;
  std::vector<const ValueInfo*> inputs;     // nullptr for omitted optional inputs
  std::vector<const Tensor*> const_inputs;  // value when known at compile time, else nullptr
  std::vector<ValueInfo> outputs;           // filled by the schema

  size_t num_inputs() const { return inputs.size(); }
  bool has_input(size_t i) const { return i < inputs.size() && inputs[i] != nullptr; }
  const ValueInfo& in(size_t i) const { return *inputs[i]; }
  const Tensor* constant(size_t i) const {
    return i < const_inputs.size() ? const_inputs[i] : nullptr;
  }
  const AttributeMap& attrs() const { return node->attrs; }
  void SetOutput(size_t i, DataType dtype, Shape shape) {
    outputs[i].dtype = dtype;
    outputs[i].shape = std::move(shape);
    outputs[i].has_shape = true;
  }
  void SetOutputTypeOnly(size_t i, DataType dtype) {
    outputs[i].dtype = dtype;
    outputs[i].has_shape = false;
  }
  Status Error(const std::string& msg) const;
};

using ShapeInferFn = std::function<Status(InferContext&)>;

struct OpSchema {
  std::string op_type;
  std::string domain;  // "" = ai.onnx
  int min_inputs = 1;
  int max_inputs = 1;
  int min_outputs = 1;
  int max_outputs = 1;
  ShapeInferFn infer;
};

// Domain of ops from custom operator packages: they match a node of their type in any
// domain that has no op of that name (ONNX models put custom ops in their own domain).
inline constexpr const char* kAnyDomain = "*";

class OpRegistry {
 public:
  static OpRegistry& Global();
  void Register(OpSchema schema);
  const OpSchema* Find(const std::string& domain, const std::string& op_type) const;
  std::vector<const OpSchema*> All() const;

 private:
  OpRegistry();
  std::deque<OpSchema> schemas_;  // deque: Find's pointers survive later registrations
};

// Infers the outputs of `node` from the graph's current value infos and constants and
// stores them in the graph. Checks arity first.
Status InferNode(Graph& graph, const Node& node);

}  // namespace oc
