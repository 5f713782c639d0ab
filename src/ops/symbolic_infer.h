// Shape inference beyond "-1": symbols for unknown dims and partly known shape values.
// Called by InferNode after an op's own schema has run; schemas never see symbols.
#pragma once

#include "ops/op_schema.h"

namespace oc {

// Follows the value of a small integer output (Shape, Gather, Slice, Concat, Cast, ...)
// element by element from its inputs' known elements and symbols, and records it in
// graph.symbolic (or forgets a stale one).
void PropagateShapeValue(Graph& graph, const Node& node);

// Refines the schema's outputs in `ctx` where inputs carry symbols or partly known values:
// the schema runs again on stand-ins where each symbol takes probe sizes; an output dim that
// follows a symbol's probes is that symbol, and one that comes out the same for every probe
// of a partly known input value is that size. Records the outputs' symbols in the graph.
void RefineWithSymbols(Graph& graph, const Node& node, const OpSchema& schema, InferContext& ctx);

// A partial value with every element known, as a constant of `dtype` and `shape`.
bool PartialValueToTensor(const PartialValue& value, DataType dtype, const Shape& shape,
                          Tensor* out);

}  // namespace oc
