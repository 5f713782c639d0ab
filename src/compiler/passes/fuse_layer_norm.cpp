// LayerNorm as exporters write it before opset 17,
//   m = ReduceMean(x, [-1]); d = x - m; v = ReduceMean(d ^ 2, [-1]);
//   y = d / Sqrt(v + eps) [* gamma] [+ beta]
// becomes one LayerNormalization node (one pass over the row instead of nine kernels).
#include <cmath>

#include "compiler/pass.h"
#include "compiler/passes/pattern_util.h"

namespace oc {
namespace {

// ReduceMean over exactly the last axis with keepdims.
bool IsLastAxisMean(const Graph& g, const Node& n) {
  if (n.inputs.empty()) return false;
  const ValueInfo* vi = g.FindValue(n.inputs[0]);
  if (!vi || !vi->has_shape || vi->shape.empty()) return false;
  const int64_t rank = static_cast<int64_t>(vi->shape.size());
  std::vector<int64_t> axes = n.attrs.GetInts("axes");
  if (axes.empty() && n.inputs.size() > 1) {
    const Tensor* t = g.FindInitializer(n.inputs[1]);
    if (!t) return false;
    axes = t->ToInt64Vector();
  }
  return axes.size() == 1 && (axes[0] == -1 || axes[0] == rank - 1) &&
         n.attrs.GetInt("keepdims", 1) == 1;
}

class FuseLayerNormPass : public Pass {
 public:
  const char* name() const override { return "FuseLayerNorm"; }
  Result<bool> Run(Graph& graph) override {
    bool changed = false;
    for (bool progress = true; progress;) {
      progress = false;
      GraphIndex idx(graph);
      for (size_t i = 0; i < graph.nodes.size() && !progress; ++i) {
        const Node& div = graph.nodes[i];
        if (div.op_type != "Div" || !div.domain.empty()) continue;
        const Node* sub = idx.Producer(graph, div.inputs[0], "Sub");
        const Node* sqrt = idx.Producer(graph, div.inputs[1], "Sqrt");
        if (!sub || !sqrt) continue;
        const std::string x = sub->inputs[0];
        const Node* mean = idx.Producer(graph, sub->inputs[1], "ReduceMean");
        if (!mean || mean->inputs[0] != x || !IsLastAxisMean(graph, *mean)) continue;
        const Node* add_eps = idx.Producer(graph, sqrt->inputs[0], "Add");
        if (!add_eps) continue;
        const Node* var = idx.Producer(graph, add_eps->inputs[0], "ReduceMean");
        float eps = 0;
        if (!var || !ScalarConstant(graph, add_eps->inputs[1], &eps) ||
            !IsLastAxisMean(graph, *var))
          continue;
        const Node* pow = idx.Producer(graph, var->inputs[0], "Pow");
        const Node* square = pow;
        if (pow) {
          if (pow->inputs[0] != sub->outputs[0] || !IsScalarConstant(graph, pow->inputs[1], 2.0f))
            continue;
        } else {
          square = idx.Producer(graph, var->inputs[0], "Mul");
          if (!square || square->inputs[0] != sub->outputs[0] ||
              square->inputs[1] != sub->outputs[0])
            continue;
        }
        // Intermediate values must not be used elsewhere.
        if (idx.consumers[mean->outputs[0]].size() != 1 ||
            idx.consumers[sub->outputs[0]].size() != 2 ||
            idx.consumers[square->outputs[0]].size() != 1 ||
            idx.consumers[var->outputs[0]].size() != 1 ||
            idx.consumers[add_eps->outputs[0]].size() != 1 ||
            idx.consumers[sqrt->outputs[0]].size() != 1)
          continue;
        const ValueInfo* xi = graph.FindValue(x);
        // The normalised dim must be known: the fused node's scale and bias are sized by it.
        if (!xi || xi->dtype != DataType::kFloat || !xi->has_shape || xi->shape.empty() ||
            xi->shape.back() <= 0)
          continue;
        const int64_t cols = xi->shape.back();
        std::vector<const Node*> dead{mean, sub, square, var, add_eps, sqrt, &div};
        std::string result = div.outputs[0], gamma, beta;
        auto per_column = [&](const std::string& v) {
          const Tensor* t = graph.FindInitializer(v);
          return t && t->dtype() == DataType::kFloat && t->numel() == cols &&
                 (t->shape().size() == 1 || t->shape().back() == cols);
        };
        if (const Node* mul = idx.OnlyConsumer(graph, result, "Mul")) {
          std::string g = OtherInput(*mul, result);
          if (per_column(g)) {
            gamma = g;
            dead.push_back(mul);
            result = mul->outputs[0];
            if (const Node* add = idx.OnlyConsumer(graph, result, "Add")) {
              std::string b = OtherInput(*add, result);
              if (per_column(b)) {
                beta = b;
                dead.push_back(add);
                result = add->outputs[0];
              }
            }
          }
        }
        auto flat = [&](const std::string& v, float fill, const std::string& hint) {
          Tensor t(DataType::kFloat, {cols});
          const Tensor* src = v.empty() ? nullptr : graph.FindInitializer(v);
          for (int64_t c = 0; c < cols; ++c)
            t.mutable_data_as<float>()[c] = src ? src->data_as<float>()[c] : fill;
          std::string name = graph.UniqueValueName(hint);
          graph.values[name] = ValueInfo{DataType::kFloat, {cols}, true};
          graph.initializers[name] = std::move(t);
          return name;
        };
        Node ln;
        ln.name = div.name + "_layernorm";
        ln.op_type = "LayerNormalization";
        ln.attrs.Set("axis", int64_t{-1});
        ln.attrs.Set("epsilon", eps);
        ln.inputs = {x, flat(gamma, 1.0f, ln.name + "_scale"), flat(beta, 0.0f, ln.name + "_bias")};
        ln.outputs = {result};
        OC_RETURN_IF_ERROR(ReplaceWithNode(graph, dead, std::move(ln)));
        progress = changed = true;
      }
    }
    return changed;
  }
};

}  // namespace

std::unique_ptr<Pass> CreateFuseLayerNormPass() { return std::make_unique<FuseLayerNormPass>(); }

}  // namespace oc
