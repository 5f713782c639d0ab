// A loaded .om is checked as if it came from anywhere (see load_check.h). The SHA-256 in
// the header proves nothing about intent: anyone can recompute it.
#include "runtime/load_check.h"

#include <algorithm>

#include "ops/op_schema.h"

namespace oc {
namespace {

constexpr size_t kArenaAlign = 64;  // the planner's alignment

std::string Describe(const ValueInfo& v) {
  if (!v.has_shape) return std::string(DataTypeName(v.dtype)) + " of unknown rank";
  return std::string(DataTypeName(v.dtype)) + " " + ShapeToString(v.shape);
}

}  // namespace

Status CheckGraphAgainstSchemas(const Graph& g) {
  // Bodies read values of enclosing scopes, so their shapes are checked when they run; what
  // holds without them is checked here, before any kernel sees a body's node.
  if (Status s = CheckSubgraphs(g); !s.ok()) return ParseError(s.message());
  OC_RETURN_IF_ERROR(CheckBoolInitializers(g));
  if (Status s = CheckNoStringValues(g); !s.ok()) return ParseError(s.message());
  // The schemas run on the file's own input descriptions, node by node.
  Graph scratch;
  scratch.opset_version = g.opset_version;
  scratch.initializers = g.initializers;
  for (const auto& [name, t] : g.initializers)
    scratch.values[name] = ValueInfo{t.dtype(), t.shape(), true};
  for (const auto& in : g.inputs) scratch.values[in] = g.values.at(in);
  for (const Node& n : g.nodes) {
    bool static_inputs = true;
    for (const auto& in : n.inputs) {
      if (in.empty()) continue;
      auto it = g.values.find(in);
      if (it == g.values.end()) return ParseError("value [" + in + "] has no description");
      scratch.values[in] = it->second;
      static_inputs &= g.IsInitializer(in) || (it->second.has_shape && IsStatic(it->second.shape));
    }
    Status inferred = InferNode(scratch, n);
    if (!inferred.ok())
      return ParseError("node [" + n.name + "] (" + n.op_type +
                        ") does not fit its op: " + inferred.message());
    for (const auto& out : n.outputs) {
      if (out.empty()) continue;
      const ValueInfo& want = scratch.values.at(out);
      auto it = g.values.find(out);
      if (it == g.values.end()) return ParseError("value [" + out + "] has no description");
      const ValueInfo& have = it->second;
      if (want.dtype != DataType::kUndefined && have.dtype != want.dtype)
        return ParseError("output [" + out + "] of node [" + n.name + "] (" + n.op_type +
                          ") is described as " + Describe(have) + ", its inputs make it " +
                          Describe(want));
      const bool want_static = want.has_shape && IsStatic(want.shape);
      const bool have_static = have.has_shape && IsStatic(have.shape);
      // A static description is what the runtime sizes buffers and prepares kernels by: it
      // must be what the op computes. Where the op's shape is only known at run time (it
      // depends on values, or on dims the file leaves open) the description may not be static.
      if (have_static && (!want_static || want.shape != have.shape) &&
          (static_inputs || want_static))
        return ParseError("output [" + out + "] of node [" + n.name + "] (" + n.op_type +
                          ") is described as " + Describe(have) + ", its inputs make it " +
                          Describe(want));
      if (want_static && have.has_shape && have.shape.size() != want.shape.size())
        return ParseError("output [" + out + "] of node [" + n.name + "] (" + n.op_type +
                          ") is described as " + Describe(have) + ", its inputs make it " +
                          Describe(want));
      scratch.values[out] = have;
    }
  }
  return Status::Ok();
}

Status CheckMemoryPlan(const Graph& g, const MemoryPlan& plan, const InPlaceInputFn& in_place) {
  if (plan.offsets.empty()) return Status::Ok();
  if (plan.arena_size == 0 || plan.arena_size > 4 * MaxTensorBytes())
    return ParseError("the memory plan's arena of " + std::to_string(plan.arena_size) +
                      " bytes is invalid");
  // Each planned value: its bytes and its lifetime in steps.
  struct Planned {
    std::string name;
    size_t begin = 0, end = 0;
    int64_t first = -1, last = -1;
  };
  std::unordered_map<std::string, size_t> index;
  std::vector<Planned> planned;
  for (const auto& [name, offset] : plan.offsets) {
    auto it = g.values.find(name);
    if (it == g.values.end() || !it->second.has_shape || !IsStatic(it->second.shape))
      return ParseError("value [" + name + "] has a memory offset but no static shape");
    auto bytes = TensorBytes(it->second.shape, DataTypeSize(it->second.dtype));
    if (!bytes.ok()) return ParseError("value [" + name + "]: " + bytes.status().message());
    const size_t size = std::max<size_t>(bytes.value(), 1);
    if (offset % kArenaAlign != 0 || offset > plan.arena_size || size > plan.arena_size - offset)
      return ParseError("value [" + name + "] at offset " + std::to_string(offset) + " (" +
                        std::to_string(size) + " bytes) lies outside the " +
                        std::to_string(plan.arena_size) + "-byte arena or is misaligned");
    index[name] = planned.size();
    planned.push_back({name, offset, offset + size});
  }
  for (int64_t step = 0; step < static_cast<int64_t>(g.nodes.size()); ++step) {
    const Node& n = g.nodes[step];
    for (const auto& in : n.inputs)
      if (auto it = index.find(in); it != index.end()) planned[it->second].last = step;
    for (const auto& out : n.outputs)
      if (auto it = index.find(out); it != index.end()) {
        if (planned[it->second].first >= 0)
          return ParseError("value [" + out + "] is written by two nodes");
        planned[it->second].first = step;
      }
  }
  for (auto& p : planned) {
    if (p.first < 0) return ParseError("value [" + p.name + "] has memory but no producer");
    p.last = std::max(p.last, p.first);
  }
  // Bytes shared only by values that are never alive together, or by an output that takes
  // over its dying input in place.
  auto aliases = [&](const Planned& a, const Planned& b) {
    if (b.first != a.last || a.begin != b.begin || a.end != b.end) return false;
    const Node& n = g.nodes[b.first];
    const int k = in_place(n);
    return k >= 0 && n.HasInput(static_cast<size_t>(k)) && n.inputs[k] == a.name &&
           !n.outputs.empty() && n.outputs[0] == b.name;
  };
  std::vector<const Planned*> by_offset;
  for (const auto& p : planned) by_offset.push_back(&p);
  std::sort(by_offset.begin(), by_offset.end(),
            [](const Planned* a, const Planned* b) { return a->begin < b->begin; });
  for (size_t i = 0; i < by_offset.size(); ++i)
    for (size_t j = i + 1; j < by_offset.size() && by_offset[j]->begin < by_offset[i]->end; ++j) {
      const Planned& a = *by_offset[i];
      const Planned& b = *by_offset[j];
      const bool apart = a.last < b.first || b.last < a.first;
      if (!apart && !aliases(a, b) && !aliases(b, a))
        return ParseError("values [" + a.name + "] and [" + b.name +
                          "] share memory while both are alive");
    }
  return Status::Ok();
}

}  // namespace oc
