// The CPU kernel interface. As in TFLM: Prepare validates, packs weights and creates
// primitives once at model load; Run touches only the buffers it is given and is const,
// so one prepared kernel serves concurrent executions.
#pragma once

#include <deque>
#include <functional>
#include <map>
#include <memory>
#include <string>
#include <unordered_set>
#include <vector>

#include "base/status.h"
#include "ir/graph.h"

namespace oc {

struct TensorType {
  DataType dtype = DataType::kUndefined;
  Shape shape;
  int64_t numel() const { return NumElements(shape); }
  size_t nbytes() const { return static_cast<size_t>(numel()) * DataTypeSize(dtype); }
};

struct KernelPrepareContext {
  const Node* node = nullptr;
  std::vector<TensorType> inputs;        // dtype undefined for omitted optional inputs
  std::vector<const Tensor*> constants;  // values of constant inputs, else nullptr
  std::vector<TensorType> outputs;
  // Per input/output: kept channels-last (see layout.h). Empty = plain.
  std::vector<bool> blocked_inputs, blocked_outputs;
  int num_threads = 1;
  int64_t opset = 17;  // ai.onnx opset of the model (semantics changed across versions)

  const AttributeMap& attrs() const { return node->attrs; }
  bool input_blocked(size_t i) const { return i < blocked_inputs.size() && blocked_inputs[i]; }
  bool output_blocked(size_t i) const { return i < blocked_outputs.size() && blocked_outputs[i]; }
  bool has_input(size_t i) const {
    return i < inputs.size() && inputs[i].dtype != DataType::kUndefined;
  }
  Status Error(const std::string& msg) const;
  // The kernel needs the value of input `what`, which is not constant: the runtime then
  // prepares this node at execution time with the actual values.
  Status NeedsValue(const std::string& what) const;
};

struct KernelRunContext {
  const void* const* inputs = nullptr;
  void* const* outputs = nullptr;
  void* workspace = nullptr;  // WorkspaceSize() bytes, 64-byte aligned
  int num_threads = 1;
};

class Kernel {
 public:
  virtual ~Kernel() = default;
  virtual Status Prepare(const KernelPrepareContext& ctx) = 0;
  virtual Status Run(const KernelRunContext& ctx) const = 0;
  virtual size_t WorkspaceSize() const { return 0; }
  // For ops whose output size depends on input values (Unique, NonZero, ...): the
  // output shapes found at Prepare. Only called when shape inference could not tell.
  virtual bool OutputShapes(std::vector<Shape>* shapes) const { return false; }
};

using KernelFactory = std::function<std::unique_ptr<Kernel>()>;

// Kernels by (domain, op type). Each family file has a Register function; the list of
// families is in kernel_registry.cpp.
class KernelRegistry {
 public:
  static KernelRegistry& Global();
  // `types` documents the element types the kernel accepts (docs/ops.md).
  void Register(const std::string& domain, const std::string& op_type, KernelFactory f,
                const std::string& types = "");
  template <typename K>
  void Add(const std::string& op_type, const std::string& domain = "",
           const std::string& types = "") {
    Register(
        domain, op_type, [] { return std::make_unique<K>(); },
        types.empty() ? family_types_ : types);
  }
  // Types of the family being registered (set once per family function).
  void SetFamilyTypes(const std::string& types) { family_types_ = types; }
  std::string TypesOf(const std::string& domain, const std::string& op_type) const;
  bool Supports(const std::string& domain, const std::string& op_type) const;
  std::unique_ptr<Kernel> Create(const std::string& domain, const std::string& op_type) const;
  std::vector<std::pair<std::string, std::string>> List() const;

 private:
  KernelRegistry();
  const KernelFactory* Find(const std::string& domain, const std::string& op_type) const;
  std::deque<std::tuple<std::string, std::string, KernelFactory>> entries_;
  std::map<std::pair<std::string, std::string>, std::string> types_;
  std::string family_types_;
};

// The prepare context of a node of `graph`: types and shapes from the graph's value
// infos, constants from its initializers, layouts from `blocked`.
KernelPrepareContext MakePrepareContext(const Graph& graph, const Node& node,
                                        const std::unordered_set<std::string>& blocked,
                                        int num_threads);

// Prepares a kernel for `node` given input types and constants; used by the runtime
// and by constant folding.
Result<std::unique_ptr<Kernel>> CreateKernel(const KernelPrepareContext& ctx);

// Prepares `node` for concrete input tensors (every input visible as a constant): infers
// the output types and shapes from the values, letting the kernel size outputs that only
// the values decide (Kernel::OutputShapes). Used for run-time prepared steps and subgraphs.
Result<std::unique_ptr<Kernel>> PrepareForValues(const Node& node, int64_t opset, int num_threads,
                                                 const std::vector<const Tensor*>& inputs,
                                                 std::vector<ValueInfo>* outputs);

// Prepares `ctx.node` for concrete input shapes (ctx.inputs) when its outputs and kernel
// depend only on those shapes and on true constants (ctx.constants): infers the output
// types into ctx.outputs and *outputs. Returns kNeedsInputValue when input values matter;
// the runtime then uses PrepareForValues. Used to cache run-time prepared steps per shape.
Result<std::unique_ptr<Kernel>> PrepareForShapes(KernelPrepareContext ctx,
                                                 std::vector<ValueInfo>* outputs);

// Evaluates a node on constant inputs (constant folding). Outputs get owned tensors.
Result<std::vector<Tensor>> EvaluateNode(const Node& node, const std::vector<const Tensor*>& inputs,
                                         const std::vector<TensorType>& output_types);

}  // namespace oc
