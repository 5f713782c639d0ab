// Op schemas: arity and shape/type inference, shared by the compiler (atc) and the
// runtime (dynamic shapes). One registration function per op family file.
#pragma once

#include <deque>
#include <functional>
#include <string>
#include <vector>

#include "base/status.h"
#include "ir/graph.h"
#include "ops/fused_activation.h"

namespace oc {

// What shape inference sees of one node.
struct InferContext {
  const Node* node = nullptr;
  int64_t opset = 17;
  std::vector<const ValueInfo*> inputs;     // nullptr for omitted optional inputs
  std::vector<const Tensor*> const_inputs;  // value when known at compile time, else nullptr
  std::vector<ValueInfo> outputs;           // filled by the schema
  // The caller gives the output shapes (aclnn's output tensors): a schema may leave them
  // unknown (an operator package without InferShape).
  bool aclnn = false;

  size_t num_inputs() const { return inputs.size(); }
  bool has_input(size_t i) const { return i < inputs.size() && inputs[i] != nullptr; }
  // The one way schemas read an input. An absent one (omitted, or past the end) reads as an
  // untyped stand-in of unknown rank and is remembered: InferNode then refuses the node, so a
  // schema that forgot has_input() fails cleanly instead of reading through a null.
  const ValueInfo& in(size_t i) const;
  bool read_absent_input() const { return absent_read_ >= 0; }
  int absent_input() const { return absent_read_; }
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
  // The value of constant input i, which must hold exactly one integer (an error otherwise).
  Status OneValue(size_t i, int64_t* value) const;

 private:
  mutable int absent_read_ = -1;
};

using ShapeInferFn = std::function<Status(InferContext&)>;

// What the planner, the fusion passes, the ops table and the backends need to know about
// an op beyond its shapes. A trait is a promise about the op's semantics, so every
// backend's kernel for the op must honour it.
struct OpTraits {
  // Output 0 may take over the buffer of this input when the input dies at the node
  // (a residual a fused convolution accumulates into, a pure reshape): every kernel of
  // the op must allow the output to alias that input. -1: never.
  int in_place_input = -1;
  // The op is this activation, so a fusion pass may turn it into a fused node's post-op.
  FusedActivation fusable_activation = FusedActivation::kNone;
  // Output shapes depend on input values, not only on shapes (NonZero, Unique, ...).
  bool values_decide_output_shapes = false;
  // Inputs whose values a kernel needs in order to be prepared (Reshape's shape, Slice's
  // starts, ...): when not constant, the node is prepared at run time.
  std::vector<int> value_inputs;
  // The schema itself handles inputs of unknown rank (and gains by it: Reshape's rank is
  // its shape's length). Others never see one: InferNode defers their outputs.
  bool infers_unknown_rank = false;
};

// Traits as one-liners for the family files.
inline OpTraits InPlaceOn(int input) {
  OpTraits t;
  t.in_place_input = input;
  return t;
}
inline OpTraits FusableAs(FusedActivation a) {
  OpTraits t;
  t.fusable_activation = a;
  return t;
}
inline OpTraits ValuesDecideOutputShapes() {
  OpTraits t;
  t.values_decide_output_shapes = true;
  return t;
}
inline OpTraits NeedsValuesOf(std::vector<int> inputs) {
  OpTraits t;
  t.value_inputs = std::move(inputs);
  return t;
}

struct OpSchema {
  std::string op_type;
  std::string domain;  // "" = ai.onnx
  int min_inputs = 1;
  int max_inputs = 1;
  int min_outputs = 1;
  int max_outputs = 1;
  ShapeInferFn infer;
  OpTraits traits = {};
  // Inputs below min_inputs that an empty name may still omit (bit i: input i), where the
  // op counts positions rather than values (Loop's M and cond).
  uint32_t omittable_inputs = 0;
  // Inputs past min_inputs are one variadic list (Sum, Concat, an optimizer's tensors): an
  // empty name may omit none of them. Otherwise they are optional and may be omitted.
  bool variadic_inputs = false;
};

// The schema with a variadic input list (OpSchema::variadic_inputs).
inline OpSchema Variadic(OpSchema schema) {
  schema.variadic_inputs = true;
  return schema;
}

// Domain of ops from custom operator packages: they match a node of their type in any
// domain that has no op of that name (ONNX models put custom ops in their own domain).
inline constexpr const char* kAnyDomain = "*";

class OpRegistry {
 public:
  static OpRegistry& Global();
  void Register(OpSchema schema);
  // Sets the traits of a registered op (family files do this after registering).
  void SetTraits(const std::string& domain, const std::string& op_type, OpTraits traits);
  const OpSchema* Find(const std::string& domain, const std::string& op_type) const;
  std::vector<const OpSchema*> All() const;

 private:
  OpRegistry();
  std::deque<OpSchema> schemas_;  // deque: Find's pointers survive later registrations
};

// CANN's EZ3003: no engine has a kernel (or no schema) for a node; `detail` may be empty.
// The one place this message is built.
Status NoKernelError(const Node& node, const std::string& detail = "");

// The node's input and output counts fit the schema, and no required input or output (below
// min_inputs / min_outputs, or in a variadic list) is omitted (an empty name).
Status CheckArity(const OpSchema& schema, const Node& node);

// What holds in every If/Loop/Scan body, at any depth, without the enclosing scope's shapes:
// each node's op exists and its arity fits, no body output is unnamed, every static value
// description fits the tensor size bound, and bodies nest at most 64 deep. The compiler and
// the loader both run it.
Status CheckSubgraphs(const Graph& graph);

// Runs the schema's inference: every caller goes through here, so a schema that read an
// absent input (InferContext::in) fails with an error naming it even if it returned Ok.
Status RunSchema(const OpSchema& schema, InferContext& ctx);

// Infers the outputs of `node` from the graph's current value infos and constants and
// stores them in the graph. Checks arity first.
Status InferNode(Graph& graph, const Node& node);

}  // namespace oc
