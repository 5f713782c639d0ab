// If, Loop and Scan. Their output shapes are known only when they run, so the runtime
// prepares them per execution; types come from the subgraphs and the loop-carried inputs.
#include "ops/op_families.h"
#include "ops/schema_helpers.h"

namespace oc {
namespace {

const Graph* SubgraphAttr(const AttributeMap& a, const std::string& name) {
  const AttributeValue* v = a.Find(name);
  auto* g = v ? std::get_if<std::shared_ptr<Graph>>(v) : nullptr;
  return g ? g->get() : nullptr;
}

DataType SubgraphOutputType(const Graph& g, size_t i) {
  if (i >= g.outputs.size()) return DataType::kUndefined;
  const ValueInfo* vi = g.FindValue(g.outputs[i]);
  return vi ? vi->dtype : DataType::kUndefined;
}

// Output types of a subgraph whose own declarations leave them out: propagate types from
// the given input types (and captured outer values) through its nodes.
std::vector<DataType> PropagateTypes(const Graph& body, const std::vector<DataType>& input_types,
                                     const InferContext& c, size_t explicit_in) {
  Graph g = body;
  for (size_t i = 0; i < g.inputs.size() && i < input_types.size(); ++i)
    if (input_types[i] != DataType::kUndefined)
      g.values[g.inputs[i]] = ValueInfo{input_types[i], {}, false};
  for (size_t i = explicit_in; i < c.num_inputs(); ++i)
    if (c.has_input(i)) g.values[c.node->inputs[i]] = ValueInfo{c.in(i).dtype, {}, false};
  for (const auto& n : g.nodes)
    if (!InferNode(g, n).ok()) break;
  std::vector<DataType> out;
  for (size_t i = 0; i < g.outputs.size(); ++i) out.push_back(SubgraphOutputType(g, i));
  return out;
}

Status InferIf(InferContext& c) {
  const Graph* then_g = SubgraphAttr(c.attrs(), "then_branch");
  const Graph* else_g = SubgraphAttr(c.attrs(), "else_branch");
  if (!then_g || !else_g) return c.Error("then_branch and else_branch are required");
  if (then_g->outputs.size() != c.outputs.size() || else_g->outputs.size() != c.outputs.size())
    return c.Error("the branches give " + std::to_string(then_g->outputs.size()) + " and " +
                   std::to_string(else_g->outputs.size()) + " outputs for the node's " +
                   std::to_string(c.outputs.size()));
  // Branch outputs may be declared without a type (ONNX allows it; exporters of nested Ifs
  // do it): their types are then propagated through the branch from the values it captures.
  const size_t explicit_in = std::min(c.node->OwnInputCount(), c.num_inputs());
  std::vector<DataType> then_types, else_types;
  for (size_t i = 0; i < c.outputs.size(); ++i) {
    DataType t = SubgraphOutputType(*then_g, i);
    if (t == DataType::kUndefined) t = SubgraphOutputType(*else_g, i);
    if (t == DataType::kUndefined) {
      if (then_types.empty()) then_types = PropagateTypes(*then_g, {}, c, explicit_in);
      if (i < then_types.size()) t = then_types[i];
    }
    if (t == DataType::kUndefined) {
      if (else_types.empty()) else_types = PropagateTypes(*else_g, {}, c, explicit_in);
      if (i < else_types.size()) t = else_types[i];
    }
    if (t == DataType::kUndefined) return c.Error("branch output types are unknown");
    c.SetOutputTypeOnly(i, t);
  }
  return Status::Ok();
}

Status InferLoop(InferContext& c) {
  const Graph* body = SubgraphAttr(c.attrs(), "body");
  if (!body) return c.Error("body is required");
  const size_t explicit_in = std::min(c.node->OwnInputCount(), c.num_inputs());
  const size_t carried = explicit_in - 2;
  // M and cond may be omitted; a loop-carried value may not (the body reads each).
  for (size_t i = 2; i < explicit_in; ++i)
    if (!c.has_input(i)) return c.Error("loop-carried input " + std::to_string(i) + " is omitted");
  if (body->inputs.size() != 2 + carried)
    return c.Error("the body takes " + std::to_string(body->inputs.size()) +
                   " inputs; a Loop with " + std::to_string(carried) +
                   " carried values needs 2 + " + std::to_string(carried));
  if (c.outputs.size() < carried || body->outputs.size() != 1 + c.outputs.size())
    return c.Error("the body gives " + std::to_string(body->outputs.size()) +
                   " outputs; the node's " + std::to_string(c.outputs.size()) +
                   " outputs need 1 + " + std::to_string(c.outputs.size()));
  std::vector<DataType> body_in{DataType::kInt64, DataType::kBool};
  for (size_t i = 0; i < carried; ++i)
    body_in.push_back(c.has_input(2 + i) ? c.in(2 + i).dtype : DataType::kUndefined);
  std::vector<DataType> propagated;
  for (size_t i = 0; i < c.outputs.size(); ++i) {
    DataType t =
        i < carried && c.has_input(2 + i) ? c.in(2 + i).dtype : SubgraphOutputType(*body, i + 1);
    if (t == DataType::kUndefined) {
      if (propagated.empty()) propagated = PropagateTypes(*body, body_in, c, explicit_in);
      if (i + 1 < propagated.size()) t = propagated[i + 1];
    }
    if (t == DataType::kUndefined) return c.Error("loop output types are unknown");
    c.SetOutputTypeOnly(i, t);
  }
  return Status::Ok();
}

Status InferScan(InferContext& c) {
  const Graph* body = SubgraphAttr(c.attrs(), "body");
  if (!body) return c.Error("body is required");
  const size_t explicit_in = std::min(c.node->OwnInputCount(), c.num_inputs());
  const size_t first = c.opset < 9 ? 1 : 0;  // opset 8 starts with sequence_lens
  const size_t scans = static_cast<size_t>(c.attrs().GetInt("num_scan_inputs", 0));
  if (scans < 1 || explicit_in < first + scans)
    return c.Error("num_scan_inputs must be between 1 and the number of inputs");
  const size_t states = explicit_in - first - scans;
  if (body->inputs.size() != states + scans || body->outputs.size() != c.outputs.size() ||
      c.outputs.size() < states)
    return c.Error("the body's inputs and outputs do not match the Scan's states and scans");
  for (size_t i = 0; i < c.outputs.size(); ++i) {
    DataType t = i < states ? c.in(first + i).dtype : SubgraphOutputType(*body, i);
    if (t == DataType::kUndefined) return c.Error("scan output types are unknown");
    c.SetOutputTypeOnly(i, t);
  }
  return Status::Ok();
}

}  // namespace

void RegisterControlFlowSchemas(OpRegistry& r) {
  r.Register({"If", "", 1, 1 << 20, 1, 1 << 20, InferIf});
  // M and cond may be omitted (an empty name); their positions still count.
  r.Register({"Loop", "", 2, 1 << 20, 1, 1 << 20, InferLoop, {}, 0b11, true});
  // Scan-8's first input, sequence_lens, may be omitted.
  r.Register({"Scan", "", 1, 1 << 20, 1, 1 << 20, InferScan, {}, 0b1, true});
  for (const char* op : {"If", "Loop"}) r.SetTraits("", op, ValuesDecideOutputShapes());
}

}  // namespace oc
