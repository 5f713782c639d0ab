// Symbols and partly known shape values (see ops/symbolic_infer.h).
//
// Values: the ops that build shapes are followed element by element, so that
// Shape([N, 56, 56, 96])[1] is the constant 56 although N is unknown, and a Reshape target
// Concat(Shape(x)[0:1], [-1, 96]) is [N, -1, 96].
//
// Dims: rather than a symbolic rule per op, the op's own schema runs on stand-ins where each
// symbol takes three probe sizes. An output dim equal to a symbol's size in every probe is that
// symbol. Only a shape computed from a partly known value (Reshape, Expand, Tile,
// ConstantOfShape, Range, ...) may also become a constant that way, when every probe gives the
// same size: dims that the schema left unknown from unknown input dims stay unknown, so a
// clamp like min(N, 100) is never mistaken for 100.
#include "ops/symbolic_infer.h"

#include <algorithm>
#include <optional>
#include <set>

namespace oc {
namespace {

constexpr int64_t kMaxElements = 64;  // shape-like values are short
constexpr size_t kMaxSymbols = 8;     // per node, for the probes

bool IsIntegral(DataType t) {
  switch (t) {
    case DataType::kInt64:
    case DataType::kInt32:
    case DataType::kInt16:
    case DataType::kInt8:
    case DataType::kUint8:
    case DataType::kUint16:
    case DataType::kUint32:
    case DataType::kUint64:
      return true;
    default:
      return false;
  }
}

bool Trackable(const ValueInfo* vi) {
  return vi && (vi->dtype == DataType::kInt64 || vi->dtype == DataType::kInt32) && vi->has_shape &&
         vi->shape.size() <= 1 && IsStatic(vi->shape) && NumElements(vi->shape) <= kMaxElements;
}

std::optional<PartialValue> ElementsOf(const Graph& g, const std::string& name) {
  if (name.empty()) return std::nullopt;
  if (const Tensor* t = g.FindInitializer(name)) {
    if (!IsIntegral(t->dtype()) || t->shape().size() > 1 || t->numel() < 0 ||
        t->numel() > kMaxElements)
      return std::nullopt;
    PartialValue v;
    for (int64_t i = 0; i < t->numel(); ++i) v.push_back(ShapeElement::Known(t->GetAsInt(i)));
    return v;
  }
  if (const PartialValue* p = g.symbolic.ValueOf(name)) return *p;
  return std::nullopt;
}

std::optional<std::vector<int64_t>> ConstInts(const Graph& g, const Node& n, size_t i) {
  if (!n.HasInput(i)) return std::nullopt;
  const Tensor* t = g.FindInitializer(n.inputs[i]);
  if (!t || !IsIntegral(t->dtype()) || t->numel() > kMaxElements) return std::nullopt;
  return t->ToInt64Vector();
}

// ONNX Slice on one axis of n elements.
std::optional<PartialValue> SliceElements(const PartialValue& data, int64_t start, int64_t end,
                                          int64_t step) {
  const int64_t n = static_cast<int64_t>(data.size());
  if (step == 0) return std::nullopt;
  auto clamp = [](int64_t v, int64_t lo, int64_t hi) { return std::max(lo, std::min(v, hi)); };
  if (start < 0) start += n;
  if (end < 0) end += n;
  if (step > 0) {
    start = clamp(start, 0, n);
    end = clamp(end, 0, n);
  } else {
    start = clamp(start, 0, n - 1);
    end = clamp(end, -1, n - 1);
  }
  PartialValue out;
  for (int64_t i = start; step > 0 ? i < end : i > end; i += step) out.push_back(data[i]);
  return out;
}

ShapeElement Arithmetic(const std::string& op, const ShapeElement& a, const ShapeElement& b,
                        bool fmod) {
  if (a.known() && b.known()) {
    int64_t r = 0;
    const int64_t x = a.value, y = b.value;
    if (op == "Add") {
      if (__builtin_add_overflow(x, y, &r)) return ShapeElement::Unknown();
    } else if (op == "Sub") {
      if (__builtin_sub_overflow(x, y, &r)) return ShapeElement::Unknown();
    } else if (op == "Mul") {
      if (__builtin_mul_overflow(x, y, &r)) return ShapeElement::Unknown();
    } else if (op == "Div") {
      if (y == 0 || (x == INT64_MIN && y == -1)) return ShapeElement::Unknown();
      r = x / y;  // truncation, as the integer Div kernel does
    } else if (op == "Mod") {
      if (y == 0 || (x == INT64_MIN && y == -1)) return ShapeElement::Unknown();
      r = x % y;
      if (!fmod && r != 0 && ((r < 0) != (y < 0))) r += y;  // the divisor's sign
    } else if (op == "Min") {
      r = std::min(x, y);
    } else if (op == "Max") {
      r = std::max(x, y);
    } else {
      return ShapeElement::Unknown();
    }
    return ShapeElement::Known(r);
  }
  // A symbol survives the identities only.
  auto is = [](const ShapeElement& e, int64_t v) { return e.known() && e.value == v; };
  if (a.symbol > 0) {
    if ((op == "Mul" && is(b, 1)) || ((op == "Add" || op == "Sub") && is(b, 0)) ||
        (op == "Div" && is(b, 1)))
      return a;
    if ((op == "Min" || op == "Max") && b.symbol == a.symbol) return a;
  }
  if (b.symbol > 0 && ((op == "Mul" && is(a, 1)) || (op == "Add" && is(a, 0)))) return b;
  return ShapeElement::Unknown();
}

std::optional<PartialValue> Propagate(Graph& g, const Node& n) {
  const std::string& op = n.op_type;
  if (!n.domain.empty() || n.inputs.empty() || n.inputs[0].empty()) return std::nullopt;
  if (op == "Shape") {
    const ValueInfo* in = g.FindValue(n.inputs[0]);
    if (!in || !in->has_shape) return std::nullopt;
    const int64_t rank = static_cast<int64_t>(in->shape.size());
    int64_t start = n.attrs.GetInt("start", 0), end = n.attrs.GetInt("end", rank);
    if (start < 0) start += rank;
    if (end < 0) end += rank;
    start = std::clamp<int64_t>(start, 0, rank);
    end = std::clamp<int64_t>(end, 0, rank);
    PartialValue v;
    for (int64_t d = start; d < end; ++d) {
      const int64_t size = in->shape[d];
      v.push_back(size >= 0 ? ShapeElement::Known(size)
                            : ShapeElement::Symbol(g.symbolic.SymbolOf(
                                  n.inputs[0], static_cast<size_t>(d), in->shape.size())));
    }
    return v;
  }
  if (op == "Size") {
    const ValueInfo* in = g.FindValue(n.inputs[0]);
    if (!in || !in->has_shape) return std::nullopt;
    const int64_t count = NumElements(in->shape);
    return PartialValue{count >= 0 ? ShapeElement::Known(count) : ShapeElement::Unknown()};
  }
  if (op == "Identity" || op == "Squeeze" || op == "Unsqueeze" || op == "Reshape" ||
      op == "Flatten")
    return ElementsOf(g, n.inputs[0]);
  if (op == "Cast") {
    const int64_t to = n.attrs.GetInt("to", 0);
    if (to != static_cast<int64_t>(DataType::kInt64) &&
        to != static_cast<int64_t>(DataType::kInt32))
      return std::nullopt;
    return ElementsOf(g, n.inputs[0]);
  }
  if (op == "Gather") {
    auto data = ElementsOf(g, n.inputs[0]);
    auto indices = ConstInts(g, n, 1);
    const ValueInfo* dvi = g.FindValue(n.inputs[0]);
    if (!data || !indices || !dvi || dvi->shape.size() != 1) return std::nullopt;
    const int64_t axis = n.attrs.GetInt("axis", 0);
    if (axis != 0 && axis != -1) return std::nullopt;
    const int64_t size = static_cast<int64_t>(data->size());
    PartialValue v;
    for (int64_t i : *indices) {
      if (i < 0) i += size;
      if (i < 0 || i >= size) return std::nullopt;  // the schema or kernel reports it
      v.push_back((*data)[i]);
    }
    return v;
  }
  if (op == "Slice") {
    auto data = ElementsOf(g, n.inputs[0]);
    if (!data) return std::nullopt;
    std::optional<std::vector<int64_t>> starts, ends, axes, steps;
    if (g.opset_version < 10) {
      starts = n.attrs.GetInts("starts");
      ends = n.attrs.GetInts("ends");
      if (n.attrs.Has("axes")) axes = n.attrs.GetInts("axes");
    } else {
      starts = ConstInts(g, n, 1);
      ends = ConstInts(g, n, 2);
      if (n.HasInput(3) && !(axes = ConstInts(g, n, 3))) return std::nullopt;
      if (n.HasInput(4) && !(steps = ConstInts(g, n, 4))) return std::nullopt;
    }
    if (!starts || !ends || starts->size() != 1 || ends->size() != 1) return std::nullopt;
    if (axes && (axes->size() != 1 || ((*axes)[0] != 0 && (*axes)[0] != -1))) return std::nullopt;
    if (steps && steps->size() != 1) return std::nullopt;
    return SliceElements(*data, (*starts)[0], (*ends)[0], steps ? (*steps)[0] : 1);
  }
  if (op == "Concat") {
    PartialValue v;
    for (const auto& in : n.inputs) {
      auto part = ElementsOf(g, in);
      if (!part) return std::nullopt;
      v.insert(v.end(), part->begin(), part->end());
    }
    return v;
  }
  if (op == "Add" || op == "Sub" || op == "Mul" || op == "Div" || op == "Mod" || op == "Min" ||
      op == "Max") {
    if (n.inputs.size() != 2) return std::nullopt;
    auto a = ElementsOf(g, n.inputs[0]), b = ElementsOf(g, n.inputs[1]);
    if (!a || !b || a->empty() || b->empty()) return std::nullopt;
    if (a->size() != b->size() && a->size() != 1 && b->size() != 1) return std::nullopt;
    const size_t count = std::max(a->size(), b->size());
    const bool fmod = n.attrs.GetInt("fmod", 0) != 0;
    PartialValue v;
    for (size_t i = 0; i < count; ++i)
      v.push_back(Arithmetic(op, (*a)[a->size() == 1 ? 0 : i], (*b)[b->size() == 1 ? 0 : i], fmod));
    return v;
  }
  return std::nullopt;
}

// Probe sizes: 1 first (the smallest batch), then two sizes per symbol that no other symbol
// and no ordinary layer size is likely to share.
int64_t ProbeSize(int probe, size_t symbol_index) {
  if (probe == 0) return 1;
  return (probe == 1 ? 4099 : 8209) + 6 * static_cast<int64_t>(symbol_index);
}

}  // namespace

void PropagateShapeValue(Graph& graph, const Node& node) {
  if (node.outputs.empty() || node.outputs[0].empty()) return;
  const std::string& out = node.outputs[0];
  auto v = Propagate(graph, node);
  const ValueInfo* vi = graph.FindValue(out);
  if (v && Trackable(vi) && static_cast<int64_t>(v->size()) == NumElements(vi->shape) &&
      std::any_of(v->begin(), v->end(), [](const ShapeElement& e) { return e.symbol >= 0; }))
    graph.symbolic.partial_values[out] = std::move(*v);
  else
    graph.symbolic.partial_values.erase(out);
}

bool PartialValueToTensor(const PartialValue& value, DataType dtype, const Shape& shape,
                          Tensor* out) {
  if (dtype != DataType::kInt64 && dtype != DataType::kInt32) return false;
  if (NumElements(shape) != static_cast<int64_t>(value.size())) return false;
  Tensor t(dtype, shape);
  for (size_t i = 0; i < value.size(); ++i) {
    if (!value[i].known()) return false;
    if (dtype == DataType::kInt64)
      t.mutable_data_as<int64_t>()[i] = value[i].value;
    else
      t.mutable_data_as<int32_t>()[i] = static_cast<int32_t>(value[i].value);
  }
  *out = std::move(t);
  return true;
}

void RefineWithSymbols(Graph& graph, const Node& node, const OpSchema& schema, InferContext& ctx) {
  for (const auto& o : node.outputs) graph.symbolic.dim_symbols.erase(o);
  // The symbols this node's inputs carry: their unknown dims (named on first sight) and the
  // symbolic elements of partly known values.
  std::vector<int32_t> symbols;
  std::vector<const PartialValue*> partial(ctx.inputs.size(), nullptr);
  bool from_values = false;
  for (size_t i = 0; i < ctx.inputs.size(); ++i) {
    const ValueInfo* vi = ctx.inputs[i];
    if (!vi || ctx.const_inputs[i]) continue;
    if (vi->has_shape)
      for (size_t d = 0; d < vi->shape.size(); ++d)
        if (vi->shape[d] < 0)
          symbols.push_back(graph.symbolic.SymbolOf(node.inputs[i], d, vi->shape.size()));
    const PartialValue* p = graph.symbolic.ValueOf(node.inputs[i]);
    if (p &&
        std::all_of(p->begin(), p->end(), [](const ShapeElement& e) { return e.symbol >= 0; }) &&
        (vi->dtype == DataType::kInt64 || vi->dtype == DataType::kInt32)) {
      partial[i] = p;
      from_values = true;
      for (const auto& e : *p)
        if (e.symbol > 0) symbols.push_back(e.symbol);
    }
  }
  std::sort(symbols.begin(), symbols.end());
  symbols.erase(std::unique(symbols.begin(), symbols.end()), symbols.end());
  if ((symbols.empty() && !from_values) || symbols.size() > kMaxSymbols) return;
  auto size_of = [&](int probe, int32_t symbol) {
    const size_t index = std::lower_bound(symbols.begin(), symbols.end(), symbol) - symbols.begin();
    return ProbeSize(probe, index);
  };

  constexpr int kProbes = 3;
  std::vector<InferContext> probes;
  std::vector<std::vector<ValueInfo>> infos(kProbes, std::vector<ValueInfo>(ctx.inputs.size()));
  std::vector<std::vector<Tensor>> values(kProbes, std::vector<Tensor>(ctx.inputs.size()));
  for (int k = 0; k < kProbes; ++k) {
    InferContext probe = ctx;
    for (size_t i = 0; i < ctx.inputs.size(); ++i) {
      const ValueInfo* vi = ctx.inputs[i];
      if (!vi || ctx.const_inputs[i]) continue;
      if (vi->has_shape && !IsStatic(vi->shape)) {
        infos[k][i] = *vi;
        const auto& dims = *graph.symbolic.DimsOf(node.inputs[i]);
        for (size_t d = 0; d < vi->shape.size(); ++d)
          if (vi->shape[d] < 0) infos[k][i].shape[d] = size_of(k, dims[d]);
        probe.inputs[i] = &infos[k][i];
      }
      if (partial[i] && probe.inputs[i]->has_shape && IsStatic(probe.inputs[i]->shape)) {
        PartialValue concrete = *partial[i];
        for (auto& e : concrete)
          if (e.symbol > 0) e = ShapeElement::Known(size_of(k, e.symbol));
        if (PartialValueToTensor(concrete, vi->dtype, probe.inputs[i]->shape, &values[k][i]))
          probe.const_inputs[i] = &values[k][i];
      }
    }
    probe.outputs.assign(node.outputs.size(), ValueInfo{});
    if (!RunSchema(schema, probe).ok()) return;  // the probes do not fit: nothing more is known
    probes.push_back(std::move(probe));
  }

  for (size_t o = 0; o < node.outputs.size(); ++o) {
    if (node.outputs[o].empty()) continue;
    ValueInfo& real = ctx.outputs[o];
    const size_t rank = probes[0].outputs[o].shape.size();
    bool consistent = true;
    for (const auto& p : probes)
      consistent &= p.outputs[o].has_shape && p.outputs[o].shape.size() == rank;
    if (!consistent) continue;
    if (!real.has_shape) {
      // The rank a partly known value decides (a Reshape target's length).
      if (!from_values) continue;
      real.has_shape = true;
      real.shape.assign(rank, -1);
    }
    if (real.shape.size() != rank) continue;
    std::vector<int32_t> out_symbols(rank, 0);
    bool any = false;
    for (size_t d = 0; d < rank; ++d) {
      if (real.shape[d] >= 0) continue;
      for (int32_t s : symbols) {
        bool follows = true;
        for (int k = 0; k < kProbes; ++k) follows &= probes[k].outputs[o].shape[d] == size_of(k, s);
        if (follows) {
          out_symbols[d] = s;
          any = true;
          break;
        }
      }
      if (out_symbols[d] == 0 && from_values) {
        const int64_t size = probes[0].outputs[o].shape[d];
        bool same = size >= 0;
        for (int k = 1; k < kProbes; ++k) same &= probes[k].outputs[o].shape[d] == size;
        if (same) real.shape[d] = size;
      }
    }
    if (any) graph.symbolic.dim_symbols[node.outputs[o]] = std::move(out_symbols);
  }
}

}  // namespace oc
