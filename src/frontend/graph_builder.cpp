#include "frontend/graph_builder.h"

#include <algorithm>
#include <cstring>

#include "ops/op_schema.h"

namespace oc {

std::string GraphBuilder::Fresh(const std::string& base) {
  std::string name = base.empty() ? "v" : base;
  int& n = used_names_[name];
  std::string out = n == 0 ? name : name + "_" + std::to_string(n);
  ++n;
  // Every name handed out counts, whether or not inference has described it yet.
  while (issued_.count(out) || graph_.values.count(out) || graph_.initializers.count(out))
    out = name + "_" + std::to_string(n++);
  issued_.insert(out);
  return out;
}

std::string GraphBuilder::Constant(const std::string& base, Tensor t) {
  const std::string name = Fresh(base);
  graph_.values[name] = ValueInfo{t.dtype(), t.shape(), true};
  graph_.initializers[name] = std::move(t);
  return name;
}

std::string GraphBuilder::Ints(const std::string& base, const std::vector<int64_t>& values) {
  return Constant(base, Tensor::FromInt64s(values, {static_cast<int64_t>(values.size())}));
}

std::string GraphBuilder::Floats(const std::string& base, const std::vector<float>& values,
                                 Shape shape) {
  Tensor t(DataType::kFloat, std::move(shape));
  if (!values.empty()) std::memcpy(t.mutable_data(), values.data(), values.size() * sizeof(float));
  return Constant(base, std::move(t));
}

std::vector<std::string> GraphBuilder::Add(const std::string& layer, const std::string& op,
                                           std::vector<std::string> inputs, AttributeMap attrs,
                                           size_t outputs, const std::string& domain) {
  Node n;
  n.domain = domain;
  n.name = Fresh(layer + (op.empty() ? "" : "/" + op));
  n.op_type = op;
  n.inputs = std::move(inputs);
  n.attrs = std::move(attrs);
  for (size_t i = 0; i < outputs; ++i) {
    n.outputs.push_back(Fresh(layer + (outputs > 1 ? "_" + std::to_string(i) : "")));
  }
  // Shapes as the net is built, so converters can use ranks (a Scale's broadcast, a
  // Flatten's end axis). Errors are the compiler's to report, with the node named.
  (void)InferNode(graph_, n);
  graph_.nodes.push_back(std::move(n));
  return graph_.nodes.back().outputs;
}

int64_t GraphBuilder::Rank(const std::string& v) const {
  const ValueInfo* vi = graph_.FindValue(v);
  return vi && vi->has_shape ? static_cast<int64_t>(vi->shape.size()) : -1;
}

const Shape* GraphBuilder::KnownShape(const std::string& v) const {
  const ValueInfo* vi = graph_.FindValue(v);
  return vi && vi->has_shape && IsStatic(vi->shape) ? &vi->shape : nullptr;
}

AttributeMap Perm(std::vector<int64_t> p) {
  AttributeMap a;
  a.Set("perm", std::move(p));
  return a;
}

void GraphBuilder::ForgetInferredValues() {
  Graph& g = graph_;
  for (auto it = g.values.begin(); it != g.values.end();) {
    const bool keep = g.IsInitializer(it->first) ||
                      std::find(g.inputs.begin(), g.inputs.end(), it->first) != g.inputs.end();
    it = keep ? std::next(it) : g.values.erase(it);
  }
}

void NameAfterSource(Graph& graph, size_t first_node, const std::string& value,
                     const std::string& source_name, std::set<std::string>& taken) {
  auto& nodes = graph.nodes;
  if (!value.empty() && !taken.count(source_name)) {
    for (size_t i = nodes.size(); i > first_node; --i) {
      Node& n = nodes[i - 1];
      if (std::find(n.outputs.begin(), n.outputs.end(), value) == n.outputs.end()) continue;
      n.name = source_name;
      break;
    }
  }
  for (size_t i = first_node; i < nodes.size(); ++i) taken.insert(nodes[i].name);
}

}  // namespace oc
