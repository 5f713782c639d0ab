// A graph rewrite. One per file under passes/; the order lives in pipeline.cpp.
#pragma once

#include <memory>
#include <string>
#include <unordered_map>
#include <vector>

#include "backend/backend.h"
#include "base/status.h"
#include "ir/graph.h"

namespace oc {

class Pass {
 public:
  virtual ~Pass() = default;
  virtual const char* name() const = 0;
  // Returns whether the graph changed.
  virtual Result<bool> Run(Graph& graph) = 0;
};

// allow_dynamic_inputs: inputs may keep -1 dims (a fully dynamic model).
std::unique_ptr<Pass> CreateInferShapesPass(bool allow_dynamic_inputs = false);
// Folding evaluates nodes on the first of `backends` that supports each one.
std::unique_ptr<Pass> CreateFoldConstantsPass(std::vector<const Backend*> backends);
std::unique_ptr<Pass> CreateEliminateIdentityPass();
std::unique_ptr<Pass> CreateSinkTransposesPass();
std::unique_ptr<Pass> CreateCancelTransposesPass();
std::unique_ptr<Pass> CreateEliminateDeadCodePass();
std::unique_ptr<Pass> CreateFoldBatchNormIntoConvPass();
std::unique_ptr<Pass> CreateFuseConvActivationPass();
std::unique_ptr<Pass> CreateFuseMatMulBiasActivationPass();
std::unique_ptr<Pass> CreateFuseGeluPass();
std::unique_ptr<Pass> CreateFuseLayerNormPass();
// --precision_mode: per-op dtypes and oc.RoundTo where fp16/bf16 storage rounds; appends
// "node (type): dtype" lines to `table` when given.
struct PrecisionOptions;
std::unique_ptr<Pass> CreateAssignPrecisionPass(const PrecisionOptions& options,
                                                std::vector<std::string>* table);

// Helpers shared by passes.
// Replaces every use of `from` (node inputs and graph outputs) with `to`.
void ReplaceAllUses(Graph& graph, const std::string& from, const std::string& to);
bool IsGraphOutput(const Graph& graph, const std::string& value);
// Removes nodes flagged in `dead` (same size as graph.nodes).
void RemoveNodes(Graph& graph, const std::vector<bool>& dead);
// A fusion records what it merged: the surviving node's _datadump_original_op_names lists
// its own name and those of the nodes it absorbed (as CANN's dumps and comparison use).
void AbsorbNames(Node& into, const Node& absorbed);
// Where each value of the graph as given comes from (node name, output index), and, after
// compiling, the _datadump_origin_name / _datadump_origin_output_index attributes (one
// entry per output; "" / -1 for a value the compiler made) that dumps report.
using ValueOrigins = std::unordered_map<std::string, std::pair<std::string, int64_t>>;
ValueOrigins RecordValueOrigins(const Graph& graph);
void StampValueOrigins(Graph& graph, const ValueOrigins& origins);
// A fusion's common ending: drops the matched nodes (pointers into graph.nodes), adds the
// node that replaces them and restores topological order.
Status ReplaceWithNode(Graph& graph, const std::vector<const Node*>& matched, Node replacement);

}  // namespace oc
