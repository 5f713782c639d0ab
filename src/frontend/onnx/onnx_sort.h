// ONNX Runtime runs models whose nodes are not stored in topological order; so does atc.
#pragma once

#include <onnx/onnx_pb.h>

#include "base/status.h"

namespace oc {

// Reorders the nodes of `graph` and of every subgraph (If/Loop/Scan bodies) so each node
// follows the producers of its inputs, including values its subgraphs use from this scope.
// Keeps the stored order where it is already valid. A cycle is an error naming its nodes.
Status SortOnnxGraph(onnx::GraphProto* graph);

}  // namespace oc
