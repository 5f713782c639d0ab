// Moves a Transpose below the elementwise ops that follow it, so that it meets the next
// Transpose and CancelTransposes removes both. A model kept in NHWC around NCHW ops (a
// TensorFlow import: Conv, bias Add, BatchNorm's Mul and Add, Relu, Conv) then runs without a
// layout change between the convolutions.
//
//   E(T(x))            -> T(E(x))                 E unary and elementwise
//   E(T(x), c)         -> T(E(x, c'))             c a constant, c' = c permuted back
//   E(T(a), T(b))      -> T(E(a, b))              the same permutation on both
//   R(T(x), axes)      -> R(x, perm[axes])        a reduction without keepdims, when the
//                                                 dims left keep their order
#include <cstring>
#include <set>
#include <unordered_map>

#include "compiler/pass.h"
#include "ops/op_schema.h"

namespace oc {
namespace {

bool IsUnaryElementwise(const Node& n) {
  static const std::set<std::string> ops = {"Relu",     "LeakyRelu", "Sigmoid",    "Tanh", "Elu",
                                            "Abs",      "Neg",       "Exp",        "Log",  "Sqrt",
                                            "Softplus", "Erf",       "Reciprocal", "Clip"};
  return n.domain.empty() && ops.count(n.op_type);
}

bool IsBinaryElementwise(const Node& n) {
  static const std::set<std::string> ops = {"Add", "Sub", "Mul", "Div", "Max", "Min", "Pow"};
  return n.domain.empty() && ops.count(n.op_type) && n.inputs.size() == 2;
}

// `t` broadcast to rank `rank` (leading 1s), then permuted by `perm` (out[i] = in[perm[i]]).
Tensor PermuteConstant(const Tensor& t, const std::vector<int64_t>& perm) {
  const size_t rank = perm.size();
  Shape in = t.shape();
  while (in.size() < rank) in.insert(in.begin(), 1);
  Shape out(rank);
  for (size_t i = 0; i < rank; ++i) out[i] = in[static_cast<size_t>(perm[i])];
  Tensor r(t.dtype(), out);
  const size_t elem = DataTypeSize(t.dtype());
  std::vector<int64_t> in_strides(rank, 1);
  for (size_t i = rank; i-- > 1;) in_strides[i - 1] = in_strides[i] * in[i];
  const int64_t n = t.numel();
  std::vector<int64_t> idx(rank, 0);
  const auto* src = static_cast<const uint8_t*>(t.data());
  auto* dst = static_cast<uint8_t*>(r.mutable_data());
  for (int64_t k = 0; k < n; ++k) {
    int64_t off = 0;
    for (size_t i = 0; i < rank; ++i) off += idx[i] * in_strides[static_cast<size_t>(perm[i])];
    std::memcpy(dst + k * elem, src + off * elem, elem);
    for (size_t i = rank; i-- > 0;) {
      if (++idx[i] < out[i]) break;
      idx[i] = 0;
    }
  }
  return r;
}

class SinkTransposesPass : public Pass {
 public:
  const char* name() const override { return "SinkTransposes"; }
  Result<bool> Run(Graph& graph) override {
    bool changed = false;
    // One move at a time: each rewrite changes who consumes what.
    for (int round = 0; round < 10000 && SinkOne(graph); ++round) changed = true;
    return changed;
  }

 private:
  // Who makes each value and how often it is read (a graph output counts as a read), built
  // once per move: the scan below is then linear in the graph.
  struct Index {
    std::unordered_map<std::string, size_t> producer, uses;
    explicit Index(const Graph& g) {
      for (size_t i = 0; i < g.nodes.size(); ++i) {
        for (const auto& o : g.nodes[i].outputs) producer[o] = i;
        for (const auto& in : g.nodes[i].inputs) ++uses[in];
      }
      for (const auto& o : g.outputs) ++uses[o];
    }
    const Node* Producer(const Graph& g, const std::string& v) const {
      auto it = producer.find(v);
      return it == producer.end() ? nullptr : &g.nodes[it->second];
    }
    size_t Uses(const std::string& v) const {
      auto it = uses.find(v);
      return it == uses.end() ? 0 : it->second;
    }
  };

  static bool IsPlainTranspose(const Node& n) {
    return n.domain.empty() && n.op_type == "Transpose" && n.HasInput(0) && n.attrs.Has("perm");
  }

  // R(T(x), axes) with keepdims=0 -> R(x, perm[axes]) when the dims left come out in the same
  // order either way (a global pool over NHWC's H and W leaves [N, C] both ways).
  bool AbsorbIntoReduction(Graph& g, const Index& index) {
    static const std::set<std::string> ops = {"ReduceMean", "ReduceMax", "ReduceMin",
                                              "ReduceProd", "ReduceL1",  "ReduceSumSquare"};
    for (Node& op : g.nodes) {
      if (!op.domain.empty() || !ops.count(op.op_type) || !op.HasInput(0) || op.inputs.size() != 1)
        continue;
      if (op.attrs.GetInt("keepdims", 1) != 0 || !op.attrs.Has("axes")) continue;
      const Node* t = index.Producer(g, op.inputs[0]);
      if (!t || !IsPlainTranspose(*t) || index.Uses(t->outputs[0]) != 1) continue;
      const std::vector<int64_t> perm = t->attrs.GetInts("perm");
      if (!IsPermutation(perm)) continue;
      const int64_t rank = static_cast<int64_t>(perm.size());
      std::vector<int64_t> axes = op.attrs.GetInts("axes");
      std::vector<bool> reduced(perm.size(), false);
      bool valid = true;
      for (int64_t& a : axes) {
        if (a < 0) a += rank;
        if (a < 0 || a >= rank) valid = false;
        if (valid) reduced[static_cast<size_t>(a)] = true;
      }
      if (!valid) continue;
      std::vector<int64_t> mapped, kept_t, kept_x;
      for (int64_t a : axes) mapped.push_back(perm[static_cast<size_t>(a)]);
      for (int64_t i = 0; i < rank; ++i)
        if (!reduced[static_cast<size_t>(i)]) kept_t.push_back(perm[static_cast<size_t>(i)]);
      std::vector<bool> reduced_x(perm.size(), false);
      for (int64_t a : mapped) reduced_x[static_cast<size_t>(a)] = true;
      for (int64_t j = 0; j < rank; ++j)
        if (!reduced_x[static_cast<size_t>(j)]) kept_x.push_back(j);
      if (kept_t != kept_x) continue;
      op.inputs[0] = t->inputs[0];
      op.attrs.Set("axes", mapped);
      (void)InferNode(g, op);
      return true;
    }
    return false;
  }

  static bool IsPermutation(const std::vector<int64_t>& perm) {
    std::vector<bool> seen(perm.size(), false);
    for (int64_t p : perm) {
      if (p < 0 || p >= static_cast<int64_t>(perm.size()) || seen[static_cast<size_t>(p)])
        return false;
      seen[static_cast<size_t>(p)] = true;
    }
    return true;
  }

  bool SinkOne(Graph& g) {
    const Index index(g);
    if (AbsorbIntoReduction(g, index)) return true;
    for (size_t e = 0; e < g.nodes.size(); ++e) {
      Node& op = g.nodes[e];
      if (op.outputs.size() != 1 || op.outputs[0].empty()) continue;
      const bool unary = IsUnaryElementwise(op);
      if (!unary && !IsBinaryElementwise(op)) continue;
      const Node* t = op.HasInput(0) ? index.Producer(g, op.inputs[0]) : nullptr;
      if (!t || !IsPlainTranspose(*t) || index.Uses(t->outputs[0]) != 1) continue;
      const std::vector<int64_t> perm = t->attrs.GetInts("perm");
      if (!IsPermutation(perm)) continue;
      std::vector<int64_t> inverse(perm.size());
      for (size_t i = 0; i < perm.size(); ++i)
        inverse[static_cast<size_t>(perm[i])] = static_cast<int64_t>(i);
      std::vector<std::string> new_inputs = op.inputs;
      new_inputs[0] = t->inputs[0];
      if (unary) {
        // Clip's bounds are scalars: nothing to permute (computed bounds: left alone).
        bool constant_bounds = true;
        for (size_t i = 1; i < op.inputs.size(); ++i)
          if (op.HasInput(i) && !g.IsInitializer(op.inputs[i])) constant_bounds = false;
        if (!constant_bounds) continue;
      } else {
        const std::string& other = op.inputs[1];
        const Node* ot = index.Producer(g, other);
        if (const Tensor* c = g.FindInitializer(other)) {
          if (c->shape().size() > perm.size()) continue;
          const std::string name = other + "_perm" + std::to_string(e);
          g.initializers[name] = PermuteConstant(*c, inverse);
          g.values[name] = ValueInfo{c->dtype(), g.initializers[name].shape(), true};
          new_inputs[1] = name;
        } else if (ot && IsPlainTranspose(*ot) && ot->attrs.GetInts("perm") == perm &&
                   index.Uses(other) == 1) {
          new_inputs[1] = ot->inputs[0];
        } else {
          continue;
        }
      }
      // E now reads what T read; T transposes E's result under E's old output name.
      const std::string out = op.outputs[0];
      const std::string moved = out + "_pre_transpose";
      Node transpose = *t;
      transpose.name = t->name + "_sunk_" + std::to_string(++moves_);
      transpose.inputs = {moved};
      transpose.outputs = {out};
      op.inputs = new_inputs;
      op.outputs = {moved};
      // Shapes of the two rewritten nodes, inferred again in their new order (the ops above
      // take their shapes from their inputs, so this cannot fail where the original did not;
      // the compiler's later checks would report it).
      (void)InferNode(g, op);
      g.nodes.insert(g.nodes.begin() + static_cast<std::ptrdiff_t>(e) + 1, transpose);
      (void)InferNode(g, g.nodes[e + 1]);
      // The old Transpose (and a second one of a pair) is left unused: dead code removes it.
      return true;
    }
    return false;
  }
  int moves_ = 0;
};

}  // namespace

std::unique_ptr<Pass> CreateSinkTransposesPass() { return std::make_unique<SinkTransposesPass>(); }

}  // namespace oc
