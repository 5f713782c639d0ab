// What the loader checks before it trusts a .om's graph: the runtime sizes buffers and
// prepares kernels from the file's descriptions, so they must be what the ops compute, and
// the memory plan must keep every value inside the arena and apart from the values alive
// with it.
#pragma once

#include "base/status.h"
#include "ir/graph.h"
#include "ir/memory_planner.h"

namespace oc {

// Every node through its op schema (arity, attributes, types, shapes) on the file's input
// descriptions; a static output description must be exactly what the op computes.
Status CheckGraphAgainstSchemas(const Graph& graph);

// Every planned value: a static shape, 64-byte aligned, inside the arena, and sharing bytes
// only with values whose lifetimes are disjoint (or that it takes over in place).
Status CheckMemoryPlan(const Graph& graph, const MemoryPlan& plan,
                       const InPlaceInputFn& in_place_input);

}  // namespace oc
