// The backend seam, in the spirit of ggml's ggml_backend_i and IREE's HAL. A backend says
// which nodes it supports, prepares an executable step (a Kernel) for a node, owns its
// device memory, its layout policy and its threads; the compiler and the runtime know
// backends only through this interface (CMake refuses their including a kernel folder).
#pragma once

#include <memory>
#include <string>
#include <unordered_map>
#include <utility>
#include <vector>

#include "backend/kernel.h"
#include "backend/queue.h"

namespace oc {

// Where a backend keeps its tensors. Backends of one space read each other's values in
// place; where a value crosses spaces the runtime inserts a copy step, made by the backend
// that owns the non-host side. The host space is the process's own memory, which the CPU
// and reference backends share; a device whose memory the host cannot dereference (a GPU,
// the guarded backend) has a space of its own.
struct MemorySpace {
  const char* name;
};
inline constexpr MemorySpace kHostMemory{"host"};

class Backend {
 public:
  virtual ~Backend() = default;
  virtual const char* name() const = 0;
  // Tensors handed to this backend's kernels live in this space (see MemorySpace).
  virtual const MemorySpace& memory_space() const { return kHostMemory; }
  bool host_accessible() const { return &memory_space() == &kHostMemory; }

  // Whether this backend has a kernel for `node` with these input types (dtype undefined
  // for omitted inputs). Cheap and conservative: true means Prepare will be attempted
  // here, so an op or type the backend cannot run must answer false.
  virtual bool Supports(const Node& node, const std::vector<TensorType>& inputs) const = 0;
  // Prepares a kernel. Every tensor shape in ctx is static. kNeedsInputValue when the
  // kernel needs the value of a non-constant input (the runtime prepares it per call).
  virtual Result<std::unique_ptr<Kernel>> CreateKernel(const KernelPrepareContext& ctx) const = 0;
  // Element types accepted for an op, for docs/ops.md ("" when unsupported).
  virtual std::string TypesOf(const std::string& domain, const std::string& op_type) const = 0;

  // Layout policy: tags (see kPlainLayout) for values that this backend's nodes both
  // produce and consume. `mine[i]` tells whether node i is placed here; values that
  // cross to another backend or leave the graph must stay plain.
  virtual std::unordered_map<std::string, int> ChooseLayouts(const Graph& graph,
                                                             const std::vector<bool>& mine) const {
    return {};
  }
  // Writes a tensor held in one of this backend's layouts as plain bytes (dumps).
  virtual Status ToPlain(int layout, const TensorType& type, const void* src, void* dst) const;

  // Called on the executing thread before this backend's steps run (thread policy).
  virtual void BeginExecution(int num_threads) const {}

  // Device memory owned by the backend, in its memory space: 64-byte aligned, null on
  // failure. The host may dereference it only when host_accessible().
  virtual void* AllocateDeviceMemory(size_t bytes) const;
  virtual void FreeDeviceMemory(void* p) const;
  // Copies between host memory and this backend's memory ("device" is this backend's side;
  // kDeviceToDevice stays inside its space). Completes before returning.
  enum class CopyKind { kHostToHost, kHostToDevice, kDeviceToHost, kDeviceToDevice };
  virtual Status Copy(void* dst, const void* src, size_t bytes, CopyKind kind) const;
  // Sets `bytes` bytes of this backend's memory to `value` (aclrtMemset).
  virtual Status Fill(void* dst, int value, size_t bytes) const;
  // A new queue for this backend's work (an aclrtStream): by default a host worker thread.
  virtual std::unique_ptr<Queue> CreateQueue() const;
};

// Device memory of one backend, freed with it (constants uploaded at load, arenas).
class DeviceBuffer {
 public:
  DeviceBuffer() = default;
  DeviceBuffer(const Backend* backend, size_t bytes)
      : backend_(backend), data_(backend->AllocateDeviceMemory(bytes)), bytes_(bytes) {}
  ~DeviceBuffer() {
    if (data_) backend_->FreeDeviceMemory(data_);
  }
  DeviceBuffer(DeviceBuffer&& o) noexcept { *this = std::move(o); }
  DeviceBuffer& operator=(DeviceBuffer&& o) noexcept {
    std::swap(backend_, o.backend_);
    std::swap(data_, o.data_);
    std::swap(bytes_, o.bytes_);
    return *this;
  }
  void* data() const { return data_; }
  size_t size() const { return bytes_; }

 private:
  const Backend* backend_ = nullptr;
  void* data_ = nullptr;
  size_t bytes_ = 0;
};

// The backends this build has, and the order of preference in which nodes are placed.
class BackendRegistry {
 public:
  static BackendRegistry& Global();
  // How a backend takes part in placement: in the default order; only where an application
  // names it (aclInit's backends, OCANN_BACKENDS); or always, after the named ones when not
  // named (operator packages: their ops run nowhere else).
  enum class Use { kDefault, kByName, kAlways };
  // Backends live for the whole process.
  void Add(const Backend* backend, Use use = Use::kDefault);
  const Backend* Find(const std::string& name) const;
  std::vector<std::string> Names() const;
  const Backend& First() const { return *default_order_.front(); }  // the default's first
  // The preference order from a comma-separated list of names ("reference,cpu"); an
  // empty list means OCANN_BACKENDS when set, else the default order (cpu, reference).
  // An unknown name is an error naming the known ones.
  Result<std::vector<const Backend*>> Order(const std::string& names = "") const;

 private:
  std::vector<const Backend*> backends_, default_order_, always_;
};

// Which backend runs each node and the layout of every value.
struct Placement {
  std::vector<const Backend*> node_backend;      // per node of the graph
  std::unordered_map<std::string, int> layouts;  // values not listed are plain
  int LayoutOf(const std::string& value) const {
    auto it = layouts.find(value);
    return it == layouts.end() ? kPlainLayout : it->second;
  }
};

// Places every node on the first backend of `order` that supports it; a node no backend
// supports is refused with EZ3003 naming it and the backends asked.
Result<Placement> PlaceGraph(const Graph& graph, const std::vector<const Backend*>& order);

// The prepare context of a node of `graph`: types and shapes from the graph's value
// infos, constants from its initializers, layouts from `placement` (may be null).
KernelPrepareContext MakePrepareContext(const Graph& graph, const Node& node,
                                        const Placement* placement, int num_threads);

// Prepares a kernel on `backend`; a tensor whose shape is only known at run time gives
// kNeedsInputValue.
Result<std::unique_ptr<Kernel>> PrepareKernel(const Backend& backend,
                                              const KernelPrepareContext& ctx);

// Prepares `node` for concrete input tensors (every input visible as a constant): infers
// the output types and shapes from the values, letting the kernel size outputs that only
// the values decide (Kernel::OutputShapes). Used for run-time prepared steps and subgraphs.
Result<std::unique_ptr<Kernel>> PrepareForValues(const Backend& backend, const Node& node,
                                                 int64_t opset, int num_threads,
                                                 const std::vector<const Tensor*>& inputs,
                                                 std::vector<ValueInfo>* outputs,
                                                 const SubgraphRunner* subgraphs = nullptr);

// Prepares `ctx.node` for concrete input shapes (ctx.inputs) when its outputs and kernel
// depend only on those shapes and on true constants (ctx.constants): infers the output
// types into ctx.outputs and *outputs. Returns kNeedsInputValue when input values matter;
// the runtime then uses PrepareForValues. Used to cache run-time prepared steps per shape.
Result<std::unique_ptr<Kernel>> PrepareForShapes(const Backend& backend, KernelPrepareContext ctx,
                                                 std::vector<ValueInfo>* outputs);

// Evaluates a node on constant inputs with the semantics of `opset` (constant folding).
// Outputs get owned tensors.
Result<std::vector<Tensor>> EvaluateNode(const Backend& backend, const Node& node, int64_t opset,
                                         const std::vector<const Tensor*>& inputs,
                                         const std::vector<TensorType>& output_types);

// Runs a prepared kernel once on tensors; outputs get owned tensors of the given types.
Result<std::vector<Tensor>> RunOnTensors(const Kernel& kernel,
                                         const std::vector<const Tensor*>& inputs,
                                         const std::vector<TensorType>& output_types);

// The first backend of `order` that supports `node` for these input tensors, or null.
const Backend* FirstSupporting(const std::vector<const Backend*>& order, const Node& node,
                               const std::vector<TensorType>& inputs);

}  // namespace oc
