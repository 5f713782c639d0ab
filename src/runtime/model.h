// A loaded model: immutable after Load, shared by every execution. Each execution
// takes an arena (activations planned at compile time + kernel workspace) from a pool,
// so concurrent executions of one model are safe.
#pragma once

#include <atomic>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include "backend/backend.h"
#include "backend/node_runner.h"
#include "base/aligned_buffer.h"
#include "base/status.h"
#include "om/om_model.h"

namespace oc {

struct IoDesc {
  std::string name;
  DataType dtype = DataType::kFloat;
  Shape shape;
  std::string format = "ND";
  size_t bytes = 0;
};

// One execution's buffers. input_shapes gives the actual shape of inputs whose dims are
// dynamic (-1) in the model; empty = as described. output_shapes is filled by Execute.
struct ExecuteIo {
  std::vector<const void*> inputs;
  std::vector<size_t> input_sizes;
  std::vector<Shape> input_shapes;
  std::vector<void*> outputs;
  std::vector<size_t> output_sizes;
  std::vector<Shape> output_shapes;
};

// What an observer sees of one executed step (for dumps and profiling).
struct StepTensor {
  DataType dtype = DataType::kUndefined;
  Shape shape;  // logical (NCHW...) shape
  const void* data = nullptr;
  // The bytes as the step's backend keeps them: CopyPlain gives the logical order.
  const Backend* backend = nullptr;
  int layout = kPlainLayout;
  const std::string* name = nullptr;  // the value's name in the model
  Status CopyPlain(void* dst) const;
};
struct StepRecord {
  const std::string* node_name = nullptr;
  const std::string* op_type = nullptr;
  const AttributeMap* attrs = nullptr;   // the node's (original op names for dumps)
  uint32_t task_id = 0;                  // the step's place in the program
  uint64_t execution = 0;                // counts the model's executions from 0
  double start_us = 0, duration_us = 0;  // steady clock
  std::vector<StepTensor> inputs, outputs;
};
// Called on the executing thread after each step; must be thread-safe.
class StepObserver {
 public:
  virtual ~StepObserver() = default;
  virtual void OnStep(const StepRecord& record) = 0;
};

struct LoadOptions {
  // Caller-owned memory (aclmdlLoadFromFileWithMem). Null = allocate ourselves.
  void* work_ptr = nullptr;
  size_t work_size = 0;
  void* weight_ptr = nullptr;
  size_t weight_size = 0;
  // Backends in order of preference; empty = BackendRegistry's order (OCANN_BACKENDS or
  // the default).
  std::vector<const Backend*> backends;
  int num_threads = 0;  // 0 = DefaultNumThreads()
  // The backend whose memory holds the caller's input and output buffers (AscendCL's
  // device memory); null or host-accessible = host memory.
  const Backend* io_backend = nullptr;
};

class Model {
 public:
  static Result<std::shared_ptr<Model>> Load(std::shared_ptr<MappedFile> file,
                                             const LoadOptions& options = {});
  static Result<std::shared_ptr<Model>> LoadFile(const std::string& path,
                                                 const LoadOptions& options = {});
  // Work (arena + workspace) and weight sizes on this machine. Kernel workspace depends on
  // the machine (threads, ISA), so the model is prepared to find it.
  static Status QuerySize(const std::string& path, size_t* work, size_t* weight,
                          const LoadOptions& options = {});
  static Status QuerySize(std::shared_ptr<MappedFile> file, size_t* work, size_t* weight,
                          const LoadOptions& options = {});

  // The application's view: dynamic dims are -1; sizes are those of the largest gear.
  const std::vector<IoDesc>& inputs() const { return inputs_; }
  const std::vector<IoDesc>& outputs() const { return outputs_; }
  const std::string& name() const { return name_; }
  size_t work_size() const { return work_size_; }
  size_t weight_size() const { return weight_size_; }
  const std::map<std::string, std::string>& attrs() const { return om_.attrs; }
  // The compiled graphs (one, or one per gear), as loaded: node names and attributes.
  std::vector<const Graph*> Graphs() const;
  // Per backend name, how many nodes of the model run there (all gears together).
  std::map<std::string, size_t> NodesPerBackend() const;
  // Output shapes of the latest execution (differs from outputs() for run-time shapes).
  std::vector<Shape> LastOutputShapes() const;
  bool has_dynamic_steps() const;

  // Gears ("batch", "image_size", "dims"; empty for a model without gears), the values of
  // each gear and the index of the ascend_mbatch_shape_data input (-1 without gears).
  const std::string& gear_mode() const { return gear_mode_; }
  std::vector<std::vector<int64_t>> gears() const;
  int gear_input() const { return gear_input_; }
  // The output shapes of one gear (empty when the model has no such gear), and the gear
  // with the most elements (the largest; the last of equals).
  std::vector<Shape> GearOutputShapes(const std::vector<int64_t>& gear) const;
  std::vector<int64_t> LargestGear() const;
  // Per input, the allowed range of each dim for fully dynamic models ({d,d} when fixed).
  const std::vector<std::vector<std::pair<int64_t, int64_t>>>& input_ranges() const {
    return input_ranges_;
  }

  // Set once after loading, before executions (dump, profiling).
  void SetObserver(std::shared_ptr<StepObserver> observer) { observer_ = std::move(observer); }

  // Runs the model. Buffers must hold at least the sizes of inputs()/outputs().
  Status Execute(ExecuteIo& io) const;
  Status Execute(const std::vector<const void*>& inputs, const std::vector<size_t>& input_sizes,
                 const std::vector<void*>& outputs, const std::vector<size_t>& output_sizes) const;

 private:
  // Where a slot's bytes are: the caller's buffers, a constant, the arena of a memory space
  // (one per space, all laid out by the same compile-time plan, so a value copied to
  // another space keeps its offset), a space's staging area (caller inputs and outputs
  // seen from a device), or per-execution storage for values sized at run time (host).
  enum class SlotKind { kNone, kInput, kOutput, kConstant, kArena, kDynamic, kStaging };
  struct Slot {
    SlotKind kind = SlotKind::kNone;
    size_t index = 0;           // input/output index, arena or staging offset, dynamic id
    const void* ptr = nullptr;  // constants (a device copy for a device space)
    const Tensor* constant = nullptr;
    DataType dtype = DataType::kUndefined;
    Shape shape;                // as compiled; may hold -1 for values sized at run time
    int layout = kPlainLayout;  // as the backend of its producer and consumers chose
    uint8_t space = 0;          // index into spaces_ (0: host)
  };
  // A copy of a value between memory spaces, made where the placement crosses them.
  struct Transfer {
    Slot from, to;
    size_t bytes = 0;
  };
  struct ShapeCache;  // run-time prepared kernels of one dynamic step, by input shapes
  struct Step {
    std::unique_ptr<Kernel> kernel;     // null: prepared at execution (dynamic step)
    std::shared_ptr<ShapeCache> cache;  // dynamic steps only
    const Backend* backend = nullptr;   // where the node is placed
    uint8_t space = 0;                  // its backend's memory space
    const Node* node = nullptr;
    std::vector<Slot> inputs, outputs;
    std::vector<Transfer> before, after;  // inputs brought to its space, outputs sent home
    std::string node_name, op_type, kernel_domain;
    // Every output holds zero elements: there is nothing to compute, and a kernel is not
    // asked to walk 2^31 empty rows of a [2^31, 0] input.
    bool writes_nothing = false;
  };
  // A memory space the model uses: 0 is the host (caller buffers, constants, the host
  // arena); each other one belongs to backends whose memory the host cannot read.
  struct Space {
    const Backend* owner = nullptr;  // makes its allocations and copies (null: host)
    size_t bytes = 0;                // arena + workspace + staging, the largest program's
  };
  struct DynamicValue;  // per-execution storage of values sized at run time
  struct Scratch;       // an execution's memory, pooled: arena, dynamic values, workspace
  struct ExecState;
  struct OutputCopy {  // graph outputs that no step writes (constants, inputs, duplicates)
    Slot from;
    size_t output;
    size_t bytes;
  };
  // One compiled graph ready to run: a static model has one, a model with gears one per gear.
  struct Program {
    const Graph* graph = nullptr;
    std::vector<int64_t> gear;
    std::vector<IoDesc> inputs, outputs;  // exact shapes of this graph
    std::vector<Step> steps;
    std::vector<const Backend*> backends;  // those its steps use, once each
    std::vector<OutputCopy> copies;
    size_t arena_size = 0, workspace_size = 0;
    std::vector<size_t> staging_size;  // per space
    size_t num_dynamic = 0, dynamic_steps = 0;
    size_t first_state = 0;  // its steps' run states start here in Scratch::kernel_states
  };

  Model() = default;

 public:
  ~Model();

 private:
  Status Build(const LoadOptions& options);
  Status BuildProgram(const OmGraph& og, Program* p);
  Status PrepareSteps(const Graph& g, const Placement& placement, Program* p);
  Status AssignSlots(const OmGraph& og, const Placement& placement, Program* p);
  Result<uint8_t> SpaceOf(const Backend* backend);
  Result<const void*> DeviceConstant(const Tensor& t, uint8_t space);
  Status CopyAcross(uint8_t from_space, const void* from, uint8_t to_space, void* to,
                    size_t bytes) const;
  Status RunTransfers(const std::vector<Transfer>& transfers, ExecState& st) const;
  Status BuildInterface();
  Result<const Program*> SelectProgram(const ExecuteIo& io) const;
  Status RunDynamicStep(const Program& p, const Step& step, ExecState& st) const;
  std::unique_ptr<Scratch> AcquireScratch() const;
  void ReleaseScratch(std::unique_ptr<Scratch> scratch) const;

  // Pages of constants that kernels packed at Prepare, handed back to the .om file.
  void ReleasePackedConstants();
  size_t released_bytes_ = 0;
  void* user_weights_ = nullptr;  // aclmdlLoadFromFileWithMem's weight memory
  OmModel om_;
  std::string name_;
  std::vector<IoDesc> inputs_, outputs_;
  std::vector<Program> programs_;
  std::string gear_mode_;
  int gear_input_ = -1;
  std::vector<std::vector<std::pair<int64_t, int64_t>>> input_ranges_;
  size_t work_size_ = 0, weight_size_ = 0;
  int num_threads_ = 1;
  std::vector<const Backend*> backends_;  // preference order for placement
  std::vector<Space> spaces_;             // [0] is the host
  uint8_t io_space_ = 0;                  // where the caller's buffers are
  // Runs control-flow subgraphs, node by node, on the same backends as the model's steps.
  std::unique_ptr<NodeRunner> subgraph_runner_;
  // Constants that steps on a device read, uploaded once at load (per tensor and space).
  std::map<std::pair<const Tensor*, uint8_t>, DeviceBuffer> device_constants_;
  std::string soc_version_;  // the chip atc built the model for
  std::shared_ptr<StepObserver> observer_;
  mutable std::atomic<uint64_t> executions_{0};
  mutable std::mutex last_shapes_mutex_;
  mutable std::vector<Shape> last_output_shapes_;
  // Caller-provided work memory serialises executions on it.
  void* user_work_ = nullptr;
  mutable std::mutex user_work_mutex_;
  mutable std::mutex pool_mutex_;
  mutable std::vector<std::unique_ptr<Scratch>> pool_;
  // OCANN_PROFILE=1: per-op-type time, printed when the model is unloaded.
  bool profile_ = false;
  mutable std::mutex profile_mutex_;
  mutable std::map<std::string, std::pair<double, int64_t>> op_times_;
};

}  // namespace oc
