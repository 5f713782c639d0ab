// Appends ONNX-semantics nodes to an IR graph for a frontend: unique value names, constants,
// and shapes inferred as the graph grows (so a converter can use a rank or a known dim).
#pragma once

#include <map>
#include <set>
#include <string>
#include <vector>

#include "ir/graph.h"

namespace oc {

class GraphBuilder {
 public:
  Graph& graph() { return graph_; }
  const Graph& graph() const { return graph_; }

  // A new value name derived from `base`, unique in the graph.
  std::string Fresh(const std::string& base);
  // A constant; returns its value name.
  std::string Constant(const std::string& base, Tensor t);
  std::string Ints(const std::string& base, const std::vector<int64_t>& values);
  std::string Floats(const std::string& base, const std::vector<float>& values, Shape shape);
  // Appends a node; returns its output value names (fresh, derived from `base`).
  std::vector<std::string> Add(const std::string& base, const std::string& op,
                               std::vector<std::string> inputs, AttributeMap attrs = {},
                               size_t outputs = 1, const std::string& domain = "");
  std::string Add1(const std::string& base, const std::string& op, std::vector<std::string> inputs,
                   AttributeMap attrs = {}) {
    return Add(base, op, std::move(inputs), std::move(attrs)).front();
  }
  // Rank of a value as inferred so far, -1 when unknown; its shape when fully known.
  int64_t Rank(const std::string& value) const;
  const Shape* KnownShape(const std::string& value) const;
  // Drops what inference filled in while building (the compiler infers again), keeping the
  // inputs' and constants' descriptions.
  void ForgetInferredValues();

 private:
  Graph graph_;
  std::map<std::string, int> used_names_;
  std::set<std::string> issued_;
};

// A Transpose's attributes.
AttributeMap Perm(std::vector<int64_t> p);

// The node among graph.nodes[first_node..] that writes `value` takes the source model's
// node (layer) name, as CANN names it: the name --out_nodes ("prob:0"), --keep_dtype, dumps
// and compare use. Helper nodes of the conversion keep their derived names ("name/Op").
// `taken` holds the node names so far; a name already taken is left as it is.
void NameAfterSource(Graph& graph, size_t first_node, const std::string& value,
                     const std::string& source_name, std::set<std::string>& taken);

}  // namespace oc
