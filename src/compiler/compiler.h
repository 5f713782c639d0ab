// The graph compiler behind atc: input shapes, the pass pipeline and memory planning.
#pragma once

#include <map>
#include <set>
#include <string>
#include <vector>

#include "base/status.h"
#include "ir/graph.h"
#include "ir/memory_planner.h"

namespace oc {

struct InputShapeSpec {
  std::string name;
  Shape dims;
};

// Parses atc's --input_shape ("a:1,3,224,224;b:1,128"). Errors carry E10002.
Result<std::vector<InputShapeSpec>> ParseInputShapes(const std::string& text);
// Applies shapes to the graph inputs; names must exist (E10016), ranks and static
// dims must agree with the model (E10001).
Status ApplyInputShapes(Graph& graph, const std::vector<InputShapeSpec>& shapes);

struct CompileOptions {
  std::set<std::string> disabled_passes;  // from --fusion_switch_file
  bool reuse_memory = true;               // --disable_reuse_memory=0
};

struct CompiledGraph {
  Graph graph;
  MemoryPlan plan;
  std::vector<std::string> pass_log;  // "pass: changed" lines for --log=info
  size_t workspace_size = 0;          // largest kernel workspace
};

Result<CompiledGraph> CompileGraph(Graph graph, const CompileOptions& options);

// Every node must have a CPU kernel; returns the largest workspace.
Result<size_t> CheckKernels(const Graph& graph);

// Names of the passes in pipeline order (for --fusion_switch_file and docs).
std::vector<std::string> PipelinePassNames();

}  // namespace oc
