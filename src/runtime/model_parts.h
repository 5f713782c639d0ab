// The runtime's per-execution pieces, shared by the program builder (program.cpp) and the
// executor (execute.cpp): pooled execution memory, the per-shape kernel cache of dynamic
// steps, and an execution's view of its slots.
#pragma once

#include <map>
#include <memory>
#include <mutex>
#include <vector>

#include "runtime/model.h"

namespace oc {

struct Model::DynamicValue {
  AlignedBuffer buffer;  // keeps its capacity across executions (pooled)
  DataType dtype = DataType::kUndefined;
  Shape shape;
};

struct Model::Scratch {
  AlignedBuffer arena;                // the host space's arena and workspace
  std::vector<DeviceBuffer> devices;  // per device space (index 0 unused): arena, workspace,
                                      // staging
  std::vector<uint8_t*> bases;        // per space, where its arena starts
  std::vector<DynamicValue> dynamic;
  AlignedBuffer workspace;  // for run-time prepared steps
  // Kept between executions so that steady-state runs allocate nothing: the kernels'
  // run states (one per step of every program) and the per-execution lists.
  std::vector<std::unique_ptr<KernelRunState>> kernel_states;
  std::vector<Shape> input_shapes, output_shapes;
  std::vector<const void*> in_ptrs;
  std::vector<void*> out_ptrs;
};

// Kernels of a dynamic step that depend only on input shapes, by those shapes. An entry
// without a kernel records that the step needs input values (never cached).
struct Model::ShapeCache {
  struct Entry {
    std::shared_ptr<const Kernel> kernel;
    std::vector<ValueInfo> outputs;
  };
  static constexpr size_t kMaxEntries = 64;
  std::mutex mutex;
  std::map<std::vector<Shape>, Entry> entries;
};

struct Model::ExecState {
  const ExecuteIo* io = nullptr;
  const Program* program = nullptr;
  uint8_t* const* bases = nullptr;  // per memory space
  std::vector<DynamicValue>* dynamic_values = nullptr;
  AlignedBuffer* workspace = nullptr;
  std::vector<Shape>& input_shapes;
  std::vector<Shape>& output_shapes;

  void* Resolve(const Slot& s) {
    switch (s.kind) {
      case SlotKind::kInput:
        return const_cast<void*>(io->inputs[s.index]);
      case SlotKind::kOutput:
        return io->outputs[s.index];
      case SlotKind::kConstant:
        return const_cast<void*>(s.ptr);
      case SlotKind::kArena:
        return bases[s.space] + s.index;
      case SlotKind::kStaging:
        return bases[s.space] + program->arena_size + program->workspace_size + s.index;
      case SlotKind::kDynamic:
        return (*dynamic_values)[s.index].buffer.data();
      default:
        return nullptr;
    }
  }
  // The shape a slot holds in this execution.
  const Shape& ShapeOf(const Slot& s) {
    if (s.kind == SlotKind::kDynamic) return (*dynamic_values)[s.index].shape;
    if (s.kind == SlotKind::kOutput) return output_shapes[s.index];
    if (s.kind == SlotKind::kInput) return input_shapes[s.index];
    return s.shape;
  }
};

}  // namespace oc
