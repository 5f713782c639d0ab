// Greedy-by-size offline memory planner (as TFLM's): buffers whose lifetimes overlap
// never share bytes; the largest buffers are placed first at the lowest free offset.
#pragma once

#include <cstdint>
#include <functional>
#include <string>
#include <unordered_map>
#include <vector>

#include "ir/graph.h"

namespace oc {

struct BufferRequest {
  size_t size = 0;
  int64_t first = 0;  // step that writes it
  int64_t last = 0;   // last step that reads it
};

// Returns one offset per request (64-byte aligned) and the arena size.
std::vector<size_t> PlanBuffers(const std::vector<BufferRequest>& requests, size_t* arena_size);

struct MemoryPlan {
  std::unordered_map<std::string, size_t> offsets;  // intermediate value -> arena offset
  size_t arena_size = 0;
};

// The input whose buffer output 0 of a node may take over when that input dies there, or
// -1 (the op registry's in-place trait; the IR itself knows no op).
using InPlaceInputFn = std::function<int(const Node&)>;

// Plans every value produced by a node that is not a graph output. Shapes must be static.
// With `reuse` false every buffer gets its own bytes (--disable_reuse_memory=1).
Result<MemoryPlan> PlanGraphMemory(const Graph& graph, bool reuse,
                                   const InPlaceInputFn& in_place_input);

}  // namespace oc
