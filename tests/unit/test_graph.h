// Builds small IR graphs in tests and runs them through the whole compile -> .om ->
// runtime path, or evaluates single nodes with their kernels.
#pragma once

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <cstring>
#include <map>
#include <string>
#include <vector>

#include "backend/backend.h"
#include "compiler/compiler.h"
#include "om/om_model.h"
#include "runtime/model.h"

namespace oc::testing {

inline Tensor FloatTensor(const Shape& shape, const std::vector<float>& values) {
  Tensor t(DataType::kFloat, shape);
  if (!values.empty()) std::memcpy(t.mutable_data(), values.data(), values.size() * sizeof(float));
  return t;
}

inline std::vector<float> ToVector(const Tensor& t) {
  return std::vector<float>(t.data_as<float>(), t.data_as<float>() + t.numel());
}

// Deterministic pseudo-random values in [-1, 1).
inline std::vector<float> Pseudo(size_t n, uint32_t seed) {
  std::vector<float> v(n);
  for (auto& x : v) {
    seed = seed * 1664525u + 1013904223u;
    x = static_cast<float>(seed >> 8) / static_cast<float>(1 << 23) - 1.0f;
  }
  return v;
}

struct GraphBuilder {
  Graph g;
  void Input(const std::string& name, DataType dt, Shape shape) {
    g.inputs.push_back(name);
    g.values[name] = ValueInfo{dt, std::move(shape), true};
  }
  void Const(const std::string& name, Tensor t) {
    g.values[name] = ValueInfo{t.dtype(), t.shape(), true};
    g.initializers[name] = std::move(t);
  }
  Node& Add(const std::string& op, std::vector<std::string> in, std::vector<std::string> out) {
    Node n;
    n.name = op + "_" + std::to_string(g.nodes.size());
    n.op_type = op;
    n.inputs = std::move(in);
    n.outputs = std::move(out);
    g.nodes.push_back(std::move(n));
    return g.nodes.back();
  }
  void Output(const std::string& name) { g.outputs.push_back(name); }
};

// CompileGraph with the registry's default backends when the options name none, as atc
// does (the compiler itself knows no backend).
inline Result<CompiledGraph> Compile(Graph g, CompileOptions opts = {}) {
  if (opts.backends.empty()) {
    OC_ASSIGN_OR_RETURN(opts.backends, BackendRegistry::Global().Order());
  }
  return CompileGraph(std::move(g), opts);
}

// The configuration the process would have with environment variable `name` set to `value`
// (unset when null), for a ScopedConfig: tests change settings without the environment.
inline Config ConfigWithVariable(const std::string& name, const char* value) {
  return ParseConfig([&](const char* n) { return name == n ? value : std::getenv(n); });
}

// Runs .om bytes with the backends named in `order` ("reference", "cpu,reference", ...).
inline Result<std::vector<std::vector<float>>> RunOmOn(
    const std::string& bytes, const std::string& order,
    const std::vector<std::vector<float>>& inputs, std::map<std::string, size_t>* placed = nullptr,
    int num_threads = 0) {
  LoadOptions lo;
  lo.num_threads = num_threads;
  OC_ASSIGN_OR_RETURN(lo.backends, BackendRegistry::Global().Order(order));
  OC_ASSIGN_OR_RETURN(auto model,
                      Model::Load(MappedFile::FromCopy(bytes.data(), bytes.size()), lo));
  if (placed) *placed = model->NodesPerBackend();
  std::vector<const void*> in;
  std::vector<size_t> in_sizes;
  for (const auto& v : inputs) {
    in.push_back(v.data());
    in_sizes.push_back(v.size() * sizeof(float));
  }
  std::vector<std::vector<float>> outs;
  std::vector<void*> out;
  std::vector<size_t> out_sizes;
  for (const auto& o : model->outputs()) outs.emplace_back(o.bytes / sizeof(float));
  for (auto& o : outs) {
    out.push_back(o.data());
    out_sizes.push_back(o.size() * sizeof(float));
  }
  OC_RETURN_IF_ERROR(model->Execute(in, in_sizes, out, out_sizes));
  return outs;
}

// Compiles, serialises to .om bytes, loads and runs with float inputs.
inline Result<std::vector<std::vector<float>>> CompileAndRun(
    Graph g, const std::vector<std::vector<float>>& inputs, CompileOptions opts = {},
    Graph* compiled_out = nullptr) {
  OC_ASSIGN_OR_RETURN(CompiledGraph cg, Compile(std::move(g), opts));
  OC_ASSIGN_OR_RETURN(std::string bytes, SerializeOm(cg.graph, cg.plan, {}));
  if (compiled_out) *compiled_out = cg.graph;
  return RunOmOn(bytes, "", inputs);
}

inline Result<std::string> CompileToOm(Graph g, CompileOptions opts = {}) {
  OC_ASSIGN_OR_RETURN(CompiledGraph cg, Compile(std::move(g), opts));
  return SerializeOm(cg.graph, cg.plan, {});
}

// The largest |a - b| relative to max(1, |b|).
inline float MaxRelativeError(const std::vector<float>& a, const std::vector<float>& b) {
  float worst = a.size() == b.size() ? 0.0f : 1e30f;
  for (size_t i = 0; i < a.size() && i < b.size(); ++i)
    worst = std::max(worst, std::fabs(a[i] - b[i]) / std::max(1.0f, std::fabs(b[i])));
  return worst;
}

inline size_t CountOps(const Graph& g, const std::string& op, const std::string& domain = "") {
  size_t n = 0;
  for (const auto& node : g.nodes) n += node.op_type == op && node.domain == domain;
  return n;
}

}  // namespace oc::testing
