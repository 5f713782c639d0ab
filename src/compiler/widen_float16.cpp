// A model stored in float16 or bfloat16 (compiler.h, WidenFloat16): computed as the NPU
// computes those types, through the precision emulation, so that every kernel that has
// float32 serves it.
#include <algorithm>
#include <cstring>
#include <map>
#include <set>

#include "base/half.h"
#include "compiler/compiler.h"
#include "ops/op_schema.h"

namespace oc {
namespace {

bool IsHalf(DataType t) { return t == DataType::kFloat16 || t == DataType::kBFloat16; }

const char* HalfName(DataType t) { return t == DataType::kBFloat16 ? "bfloat16" : "float16"; }

Tensor Widened(const Tensor& t) {
  Tensor out(DataType::kFloat, t.shape());
  const auto* src = static_cast<const uint16_t*>(t.data());
  auto* dst = out.mutable_data_as<float>();
  const bool bf16 = t.dtype() == DataType::kBFloat16;
  for (int64_t i = 0; i < t.numel(); ++i) {
    if (bf16) {
      const uint32_t bits = static_cast<uint32_t>(src[i]) << 16;  // bfloat16: float32's top half
      std::memcpy(&dst[i], &bits, sizeof bits);
    } else {
      dst[i] = HalfToFloat(src[i]);
    }
  }
  return out;
}

Node CastNode(const std::string& name, const std::string& in, const std::string& out, DataType to) {
  Node n;
  n.name = name;
  n.op_type = "Cast";
  n.inputs = {in};
  n.outputs = {out};
  n.attrs.Set("to", static_cast<int64_t>(to));
  return n;
}

}  // namespace

bool HasFloat16(const Graph& graph) {
  for (const auto& [name, vi] : graph.values)
    if (IsHalf(vi.dtype)) return true;
  for (const auto& [name, t] : graph.initializers)
    if (IsHalf(t.dtype())) return true;
  return false;
}

// A node an operator package implements: its kernel takes the types its OpDef declares, so
// it keeps its float16 inputs and outputs (package schemas match any domain, or "custom").
bool IsPackageNode(const Node& n) {
  const OpSchema* s = OpRegistry::Global().Find(n.domain, n.op_type);
  return s && (s->domain == kAnyDomain || s->domain == "custom");
}

// The element types of a package node's inputs and outputs before widening.
struct NodeTypes {
  std::vector<DataType> in, out;
};

// After widening: each package node reads float16 copies of its widened inputs and writes
// float16 values that are widened for their readers.
void KeepPackageNodesHalf(Graph& g, const std::map<std::string, NodeTypes>& original,
                          std::vector<Node>* added) {
  for (Node& n : g.nodes) {
    auto types = original.find(n.name);
    if (types == original.end()) continue;
    for (size_t i = 0; i < n.inputs.size() && i < types->second.in.size(); ++i) {
      std::string& x = n.inputs[i];
      const DataType t = types->second.in[i];
      const ValueInfo* vi = x.empty() ? nullptr : g.FindValue(x);
      if (!IsHalf(t) || !vi || IsHalf(vi->dtype)) continue;
      const std::string half = g.UniqueValueName(x + "_" + HalfName(t));
      ValueInfo h = *vi;
      h.dtype = t;
      g.values[half] = h;
      added->push_back(CastNode(half, x, half, t));
      x = half;
    }
    for (size_t i = 0; i < n.outputs.size() && i < types->second.out.size(); ++i) {
      std::string& y = n.outputs[i];
      const DataType t = types->second.out[i];
      const ValueInfo* vi = y.empty() ? nullptr : g.FindValue(y);
      if (!IsHalf(t) || !vi || IsHalf(vi->dtype)) continue;
      const std::string half = g.UniqueValueName(y + "_" + HalfName(t));
      ValueInfo h = *vi;
      h.dtype = t;
      g.values[half] = h;
      added->push_back(CastNode(y + "_widened", half, y, DataType::kFloat));
      y = half;
    }
  }
}

Status WidenFloat16(Graph& g, PrecisionOptions* precision) {
  if (!HasFloat16(g)) return Status::Ok();
  const std::set<std::string> inputs(g.inputs.begin(), g.inputs.end());
  std::map<std::string, NodeTypes> original;  // package nodes, by name
  for (const Node& n : g.nodes) {
    if (!IsPackageNode(n)) continue;
    NodeTypes& t = original[n.name];
    for (const auto& x : n.inputs) {
      const ValueInfo* vi = x.empty() ? nullptr : g.FindValue(x);
      t.in.push_back(vi ? vi->dtype : DataType::kUndefined);
    }
    for (const auto& y : n.outputs) {
      const ValueInfo* vi = y.empty() ? nullptr : g.FindValue(y);
      t.out.push_back(vi ? vi->dtype : DataType::kUndefined);
    }
  }
  // Which nodes compute in float16: those writing a float16 value. They keep that precision
  // through --customize_dtypes' mechanism (fp16 inputs, fp32 accumulation, fp16 result).
  for (Node& n : g.nodes) {
    const char* half_out = nullptr;
    for (const auto& out : n.outputs) {
      const ValueInfo* vi = out.empty() ? nullptr : g.FindValue(out);
      if (vi && IsHalf(vi->dtype)) half_out = HalfName(vi->dtype);
    }
    if (half_out && !precision->custom_nodes.count(n.name) && !IsPackageNode(n))
      precision->custom_nodes[n.name] = half_out;
    // Attributes that name a 16-bit float or hold such values produce float32 now.
    for (const char* key : {"to", "dtype"})
      if (n.attrs.Has(key) && IsHalf(static_cast<DataType>(n.attrs.GetInt(key, 0))))
        n.attrs.Set(key, static_cast<int64_t>(DataType::kFloat));
    for (const char* key : {"value"})
      if (const Tensor* t = n.attrs.GetTensor(key); t && IsHalf(t->dtype()))
        n.attrs.Set(key, Widened(*t));
  }
  for (auto& [name, t] : g.initializers)
    if (IsHalf(t.dtype())) t = Widened(t);
  // Graph inputs stay float16 (what the application feeds); their readers take a widened copy.
  std::vector<Node> added;
  for (const auto& in : g.inputs) {
    ValueInfo& vi = g.values[in];
    if (!IsHalf(vi.dtype)) continue;
    const std::string wide = g.UniqueValueName(in + "_fp32");
    for (auto& n : g.nodes)
      for (auto& x : n.inputs)
        if (x == in) x = wide;
    ValueInfo w = vi;
    w.dtype = DataType::kFloat;
    g.values[wide] = w;
    added.push_back(CastNode(wide, in, wide, DataType::kFloat));
  }
  // Graph outputs stay float16: their producers write a float32 value that is cast back
  // (exact: the producer's result is already rounded to float16).
  for (auto& out : g.outputs) {
    ValueInfo& vi = g.values[out];
    if (!IsHalf(vi.dtype) || inputs.count(out)) continue;
    const std::string wide = g.UniqueValueName(out + "_fp32");
    if (auto it = g.initializers.find(out); it != g.initializers.end()) {
      g.initializers[wide] = std::move(it->second);  // a constant output, widened above
      g.initializers.erase(out);
    }
    for (auto& n : g.nodes) {
      for (auto& x : n.outputs)
        if (x == out) x = wide;
      for (auto& x : n.inputs)
        if (x == out) x = wide;
    }
    ValueInfo w = vi;
    w.dtype = DataType::kFloat;
    g.values[wide] = w;
    added.push_back(CastNode(out + "_output_fp16", wide, out, vi.dtype));
  }
  // Every other float16 value is float32 holding float16 values.
  const std::set<std::string> outputs(g.outputs.begin(), g.outputs.end());
  for (auto& [name, vi] : g.values)
    if (IsHalf(vi.dtype) && !inputs.count(name) && !outputs.count(name))
      vi.dtype = DataType::kFloat;
  KeepPackageNodesHalf(g, original, &added);
  for (auto& n : added) g.nodes.push_back(std::move(n));
  return g.TopologicalSort();
}

}  // namespace oc
