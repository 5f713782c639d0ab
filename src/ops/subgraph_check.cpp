// What holds inside If/Loop/Scan bodies without the enclosing scope's shapes. Both sides
// run it: the compiler before its passes (so atc refuses with the op's own code) and the
// loader on every .om (which may come from anywhere).
#include <algorithm>
#include <unordered_set>

#include "ops/op_schema.h"

namespace oc {
namespace {

constexpr int kMaxSubgraphDepth = 64;

// The names a graph computes or is given, and those of the graphs around it: a body reads
// values of enclosing scopes by name.
struct Scope {
  const Scope* outer = nullptr;
  // The outputs of the node that runs this body: the body cannot read what it computes.
  const std::vector<std::string>* owner_outputs = nullptr;
  std::unordered_set<std::string> names;

  Scope(const Graph& g, const Scope* enclosing, const Node* owner)
      : outer(enclosing), owner_outputs(owner ? &owner->outputs : nullptr) {
    names.insert(g.inputs.begin(), g.inputs.end());
    for (const auto& [name, t] : g.initializers) names.insert(name);
    for (const Node& n : g.nodes) names.insert(n.outputs.begin(), n.outputs.end());
  }
  bool Has(const std::string& name) const {
    for (const Scope* s = this; s; s = s->outer) {
      if (s->names.count(name)) return true;
      if (s->owner_outputs && std::find(s->owner_outputs->begin(), s->owner_outputs->end(), name) !=
                                  s->owner_outputs->end())
        return false;
    }
    return false;
  }
};

Status CheckBody(const Graph& g, int depth, const Scope& outer, const Node& owner);

// Every graph-valued attribute of `n`, checked as a body one level deeper.
Status CheckBodiesOf(const Node& n, int depth, const Scope& scope) {
  for (const auto& [name, value] : n.attrs.all())
    if (const auto* body = std::get_if<std::shared_ptr<Graph>>(&value)) {
      if (!*body)
        return InvalidArgument("subgraph [" + name + "] of node [" + n.name + "] is empty");
      Status s = CheckBody(**body, depth + 1, scope, n);
      if (!s.ok()) return s.WithContext("subgraph [" + name + "] of node [" + n.name + "]");
    }
  return Status::Ok();
}

Status CheckBody(const Graph& g, int depth, const Scope& outer, const Node& owner) {
  if (depth > kMaxSubgraphDepth)
    return InvalidArgument("subgraphs are nested more than " + std::to_string(kMaxSubgraphDepth) +
                           " deep");
  const Scope scope(g, &outer, &owner);
  // A body's results are read by name by the node that runs it: none may be omitted, and
  // each must be computed in the body or given to it.
  for (size_t i = 0; i < g.outputs.size(); ++i) {
    if (g.outputs[i].empty())
      return InvalidArgument("output " + std::to_string(i) + " has no name");
    if (!scope.Has(g.outputs[i]))
      return InvalidArgument("output [" + g.outputs[i] +
                             "] is computed neither in the body nor in a graph around it");
  }
  // Declared sizes are what the runtime sizes buffers by when the body runs.
  for (const auto& [name, vi] : g.values) {
    if (!vi.has_shape || !IsStatic(vi.shape)) continue;
    auto bytes = TensorBytes(vi.shape, DataTypeSize(vi.dtype));
    if (!bytes.ok()) return InvalidArgument("value [" + name + "]: " + bytes.status().message());
  }
  for (const Node& n : g.nodes) {
    const OpSchema* schema = OpRegistry::Global().Find(n.domain, n.op_type);
    if (!schema) return NoKernelError(n);
    OC_RETURN_IF_ERROR(CheckArity(*schema, n));
    for (const std::string& in : n.inputs)
      if (!in.empty() && !scope.Has(in))
        return InvalidArgument("input [" + in + "] of node [" + n.name +
                               "] is computed neither in the body nor in a graph around it");
    OC_RETURN_IF_ERROR(CheckBodiesOf(n, depth, scope));
  }
  return Status::Ok();
}

}  // namespace

Status CheckSubgraphs(const Graph& g) {
  bool any_body = false;
  for (const Node& n : g.nodes)
    for (const auto& [name, value] : n.attrs.all())
      any_body |= std::holds_alternative<std::shared_ptr<Graph>>(value);
  if (!any_body) return Status::Ok();  // most models: no scope to build
  const Scope top(g, nullptr, nullptr);
  for (const Node& n : g.nodes) OC_RETURN_IF_ERROR(CheckBodiesOf(n, 0, top));
  return Status::Ok();
}

}  // namespace oc
