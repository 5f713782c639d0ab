// The executable-step interface every backend's kernels implement. As in TFLM: Prepare
// validates, packs weights and creates primitives once at model load; Run touches only
// the buffers it is given and is const, so one prepared kernel serves concurrent executions.
#pragma once

#include <deque>
#include <functional>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "base/config.h"
#include "base/status.h"
#include "ir/graph.h"
#include "ops/op_schema.h"

namespace oc {

struct TensorType {
  DataType dtype = DataType::kUndefined;
  Shape shape;
  int64_t numel() const { return NumElements(shape); }
  size_t nbytes() const { return static_cast<size_t>(numel()) * DataTypeSize(dtype); }
};

// Layout tags are a backend's own business: 0 is the plain (row-major, logical order)
// layout every backend reads and writes; other values mean what the backend that chose
// them says (Backend::ChooseLayouts), and only its own kernels ever see them.
inline constexpr int kPlainLayout = 0;

// Runs a subgraph of the model (an If branch, a Loop or Scan body) for a kernel that owns
// one, on the backends the model runs on: nested nodes are placed and executed by the one
// node runner (backend/node_runner.h), never by the kernel itself.
class SubgraphRunner {
 public:
  virtual ~SubgraphRunner() = default;
  // `inputs` bind g.inputs in order; `outer` holds the values the subgraph reads from
  // enclosing scopes. Returns g.outputs in order.
  virtual Result<std::vector<Tensor>> RunGraph(
      const Graph& g, int64_t opset, const std::vector<Tensor>& inputs,
      const std::map<std::string, Tensor>& outer) const = 0;
};

// Values of a node's constant inputs, null where an input is not constant or is absent.
// Reading past the node's inputs gives null too: a kernel asks for an optional trailing input
// by its index, and a file may leave it out (issue 30: Pad read constants[1] past the end).
class ConstantInputs {
 public:
  const Tensor* operator[](size_t i) const { return i < values_.size() ? values_[i] : nullptr; }
  void push_back(const Tensor* t) { values_.push_back(t); }
  size_t size() const { return values_.size(); }

 private:
  std::vector<const Tensor*> values_;
};

struct KernelPrepareContext {
  const Node* node = nullptr;
  std::vector<TensorType> inputs;  // dtype undefined for omitted optional inputs
  ConstantInputs constants;        // values of constant inputs, else nullptr
  std::vector<TensorType> outputs;
  std::vector<int> input_layouts, output_layouts;  // per input/output; empty = plain
  int num_threads = 1;
  int64_t opset = 17;       // ai.onnx opset of the model (semantics changed across versions)
  std::string soc_version;  // the chip the model is built for (custom op tiling)
  // Runs the subgraphs of control-flow nodes; null where nothing can (they then refuse).
  const SubgraphRunner* subgraphs = nullptr;
  // The settings kernels read (their switches): kernels never read the environment. The
  // process's configuration unless the creator passes its own; never null.
  const Config* config = &GlobalConfig();

  const AttributeMap& attrs() const { return node->attrs; }
  int input_layout(size_t i) const {
    return i < input_layouts.size() ? input_layouts[i] : kPlainLayout;
  }
  int output_layout(size_t i) const {
    return i < output_layouts.size() ? output_layouts[i] : kPlainLayout;
  }
  bool has_input(size_t i) const {
    return i < inputs.size() && inputs[i].dtype != DataType::kUndefined;
  }
  Status Error(const std::string& msg) const;
  // The one value of constant input `i` (an axis, a count, a bound), named `what` in errors:
  // refused when the input is absent, holds no value or several, or is a string; when it is
  // given but not constant, NeedsValue. Kernels read scalar inputs only through these.
  Result<int64_t> OneInt(size_t i, const std::string& what) const;
  Result<double> OneDouble(size_t i, const std::string& what) const;
  // The kernel needs the value of input `what`, which is not constant: the runtime then
  // prepares this node at execution time with the actual values.
  Status NeedsValue(const std::string& what) const;
};

// What a kernel keeps from one run to the next within one execution context (library
// objects bound to buffers, whose creation allocates). Concurrent executions of a model
// each have their own, so a kernel may change it in its const Run.
class KernelRunState {
 public:
  virtual ~KernelRunState() = default;
};

struct KernelRunContext {
  const void* const* inputs = nullptr;
  void* const* outputs = nullptr;
  void* workspace = nullptr;  // WorkspaceSize() bytes, 64-byte aligned
  int num_threads = 1;
  // This step's state in the executing context; null where the caller keeps none (the
  // kernel then makes a temporary one).
  std::unique_ptr<KernelRunState>* state = nullptr;
};

// The run state of type S for this context, made with `make` on first use. `local` holds
// it when the caller keeps no slot.
template <typename S, typename Make>
S& RunStateOf(const KernelRunContext& ctx, std::unique_ptr<KernelRunState>& local, Make&& make) {
  std::unique_ptr<KernelRunState>& slot = ctx.state ? *ctx.state : local;
  if (!slot) slot = make();
  return static_cast<S&>(*slot);
}

class Kernel {
 public:
  virtual ~Kernel() = default;
  virtual Status Prepare(const KernelPrepareContext& ctx) = 0;
  virtual Status Run(const KernelRunContext& ctx) const = 0;
  virtual size_t WorkspaceSize() const { return 0; }
  // For ops whose output size depends on input values (Unique, NonZero, ...): the
  // output shapes found at Prepare. Only called when shape inference could not tell.
  virtual bool OutputShapes(std::vector<Shape>* shapes) const { return false; }
  // Whether Run reads input `i` when it is a constant. Kernels that copied a constant into
  // their own layout at Prepare (packed weights) say no, and the runtime hands the
  // original's pages back to the file (no double residency).
  virtual bool ReadsConstantAtRun(size_t i) const { return true; }
};

using KernelFactory = std::function<std::unique_ptr<Kernel>()>;

// A backend's kernels by (domain, op type). Each family file of a backend has a Register
// function; the backend lists its families in one place.
class KernelTable {
 public:
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
  bool Has(const std::string& domain, const std::string& op_type) const;
  std::unique_ptr<Kernel> Create(const std::string& domain, const std::string& op_type) const;
  std::vector<std::pair<std::string, std::string>> List() const;

 private:
  const KernelFactory* Find(const std::string& domain, const std::string& op_type) const;
  std::deque<std::tuple<std::string, std::string, KernelFactory>> entries_;
  std::map<std::pair<std::string, std::string>, std::string> types_;
  std::string family_types_;
};

}  // namespace oc
