// Evaluates nodes whose inputs are all constant (and Shape/Size of statically shaped
// values, and shape values that inference knows element by element), replacing them by
// constants. One sweep in topological order suffices:
// a folded node's outputs are constants for the nodes after it.
#include <set>

#include "backend/node_runner.h"
#include "compiler/pass.h"
#include "ops/op_schema.h"
#include "ops/symbolic_infer.h"

namespace oc {
namespace {

const std::set<std::string> kNeverFold = {"RandomNormal",      "RandomUniform", "RandomNormalLike",
                                          "RandomUniformLike", "Multinomial",   "Bernoulli"};

// Every output's value is known from shape inference's partly known values.
bool FullyKnown(const Graph& graph, const Node& node, std::vector<Tensor>* results) {
  std::vector<Tensor> out;
  for (const auto& o : node.outputs) {
    const PartialValue* v = o.empty() ? nullptr : graph.symbolic.ValueOf(o);
    const ValueInfo* vi = o.empty() ? nullptr : graph.FindValue(o);
    Tensor t;
    if (!v || !vi || !PartialValueToTensor(*v, vi->dtype, vi->shape, &t)) return false;
    out.push_back(std::move(t));
  }
  *results = std::move(out);
  return true;
}

class FoldConstantsPass : public Pass {
 public:
  explicit FoldConstantsPass(std::vector<const Backend*> backends) : runner_(std::move(backends)) {}
  const char* name() const override { return "FoldConstants"; }
  Result<bool> Run(Graph& graph) override {
    std::vector<bool> dead(graph.nodes.size(), false);
    bool changed = false;
    for (size_t i = 0; i < graph.nodes.size(); ++i) {
      Node& node = graph.nodes[i];
      OC_RETURN_IF_ERROR(InferNode(graph, node));
      if (kNeverFold.count(node.op_type) || !node.domain.empty()) continue;
      std::vector<Tensor> results;
      if (FullyKnown(graph, node, &results)) {
        // A shape value known element by element (Shape(x)[1] of an x whose batch is
        // unknown): no kernel needed.
      } else if ((node.op_type == "Shape" || node.op_type == "Size") &&
                 !graph.IsInitializer(node.inputs[0])) {
        const ValueInfo* vi = graph.FindValue(node.inputs[0]);
        if (!vi || !vi->has_shape || !IsStatic(vi->shape)) continue;
        // Evaluate on a zero-byte stand-in: only the shape matters.
        Node probe = node;
        std::vector<TensorType> outs{{DataType::kInt64, graph.values[node.outputs[0]].shape}};
        Tensor stand_in(vi->dtype, vi->shape, nullptr, nullptr);
        auto r = Evaluate(graph, probe, {&stand_in}, outs);
        if (!r.ok()) return r.status();
        results = std::move(r).value();
      } else {
        bool all_const = true;
        std::vector<const Tensor*> inputs;
        for (const auto& in : node.inputs) {
          const Tensor* t = in.empty() ? nullptr : graph.FindInitializer(in);
          if (!in.empty() && !t) all_const = false;
          inputs.push_back(t);
        }
        if (!all_const) continue;
        std::vector<TensorType> outs;
        for (const auto& o : node.outputs) {
          const ValueInfo* vi = o.empty() ? nullptr : graph.FindValue(o);
          if (!vi || !vi->has_shape || !IsStatic(vi->shape)) {
            all_const = false;
            break;
          }
          outs.push_back({vi->dtype, vi->shape});
        }
        if (!all_const) continue;
        auto r = Evaluate(graph, node, inputs, outs);
        if (!r.ok()) {
          // Leave unsupported nodes to the runtime check that names them.
          if (r.status().code() == StatusCode::kUnsupported) continue;
          return r.status().WithContext("constant folding of node [" + node.name + "]");
        }
        results = std::move(r).value();
      }
      for (size_t k = 0; k < node.outputs.size(); ++k)
        if (!node.outputs[k].empty()) graph.initializers[node.outputs[k]] = std::move(results[k]);
      dead[i] = true;
      changed = true;
    }
    RemoveNodes(graph, dead);
    return changed;
  }

 private:
  // With the model's opset: semantics of Softmax, Resize, ... changed across versions.
  Result<std::vector<Tensor>> Evaluate(const Graph& graph, const Node& node,
                                       const std::vector<const Tensor*>& inputs,
                                       const std::vector<TensorType>& outs) const {
    return runner_.RunNode(node, graph.opset_version, inputs, &outs);
  }

  NodeRunner runner_;  // on the backends the model may run on, as at run time
};

}  // namespace

std::unique_ptr<Pass> CreateFoldConstantsPass(std::vector<const Backend*> backends) {
  return std::make_unique<FoldConstantsPass>(std::move(backends));
}

}  // namespace oc
