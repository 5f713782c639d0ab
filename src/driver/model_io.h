// atc's model I/O flags as graph rewrites, applied after import and before compilation:
// --out_nodes (which node outputs the model returns, in that order), --input_fp16_nodes
// (inputs fed as float16) and --output_type (output dtypes).
#pragma once

#include <string>

#include "base/status.h"
#include "ir/graph.h"

namespace oc {

// "node:index;node2:index". A node the model lacks is E10016; a bad index E10001.
Status ApplyOutNodes(Graph& graph, const std::string& spec);
// "in1;in2": float32 graph inputs become float16 (a Cast to float32 follows each).
Status ApplyInputFp16Nodes(Graph& graph, const std::string& spec);
// "FP32", "FP16" for every float output, or "node:index:FP16;..." for named outputs.
Status ApplyOutputType(Graph& graph, const std::string& spec);

}  // namespace oc
