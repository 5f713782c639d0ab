#include "ir/memory_planner.h"

#include <algorithm>
#include <numeric>
#include <set>

namespace oc {

std::vector<size_t> PlanBuffers(const std::vector<BufferRequest>& requests, size_t* arena_size) {
  constexpr size_t kAlign = 64;
  std::vector<size_t> order(requests.size());
  std::iota(order.begin(), order.end(), 0);
  std::stable_sort(order.begin(), order.end(),
                   [&](size_t a, size_t b) { return requests[a].size > requests[b].size; });
  std::vector<size_t> offsets(requests.size(), 0);
  std::vector<size_t> placed;
  size_t total = 0;
  for (size_t idx : order) {
    const BufferRequest& r = requests[idx];
    const size_t size = (r.size + kAlign - 1) / kAlign * kAlign;
    // Intervals already used by buffers alive at the same time, sorted by offset.
    std::vector<std::pair<size_t, size_t>> busy;
    for (size_t p : placed) {
      const BufferRequest& q = requests[p];
      if (q.last < r.first || r.last < q.first) continue;
      busy.emplace_back(offsets[p], offsets[p] + (q.size + kAlign - 1) / kAlign * kAlign);
    }
    std::sort(busy.begin(), busy.end());
    size_t candidate = 0;
    for (const auto& [lo, hi] : busy) {
      if (candidate + size <= lo) break;
      candidate = std::max(candidate, hi);
    }
    offsets[idx] = candidate;
    total = std::max(total, candidate + size);
    placed.push_back(idx);
  }
  *arena_size = total;
  return offsets;
}

Result<MemoryPlan> PlanGraphMemory(const Graph& graph, bool reuse,
                                   const InPlaceInputFn& in_place_input) {
  std::set<std::string> external(graph.outputs.begin(), graph.outputs.end());
  external.insert(graph.inputs.begin(), graph.inputs.end());
  // Last step that reads each value.
  std::unordered_map<std::string, int64_t> last_use;
  for (int64_t step = 0; step < static_cast<int64_t>(graph.nodes.size()); ++step)
    for (const auto& in : graph.nodes[step].inputs)
      if (!in.empty()) last_use[in] = step;
  std::unordered_map<std::string, size_t> index;  // value -> request
  std::vector<std::string> names;
  std::vector<size_t> owner;  // per name: its request
  std::vector<BufferRequest> requests;
  const int64_t end = static_cast<int64_t>(graph.nodes.size());
  for (int64_t step = 0; step < end; ++step) {
    const Node& n = graph.nodes[step];
    for (const auto& in : n.inputs) {
      auto it = index.find(in);
      if (it != index.end()) requests[it->second].last = std::max(requests[it->second].last, step);
    }
    int alias = reuse ? in_place_input(n) : -1;
    if (alias >= 0 && !n.HasInput(static_cast<size_t>(alias))) alias = -1;
    for (size_t k = 0; k < n.outputs.size(); ++k) {
      const std::string& out = n.outputs[k];
      if (out.empty() || external.count(out) || graph.IsInitializer(out)) continue;
      const ValueInfo* vi = graph.FindValue(out);
      // Values whose shape is only known at run time get memory at run time.
      if (!vi || !vi->has_shape || !IsStatic(vi->shape)) continue;
      // Laid out as the NPU's runtime lays a tensor out (32-byte rounding plus 32): kernels
      // may read into that padding there, and package kernels do here.
      const size_t data = std::max<size_t>(
          1, static_cast<size_t>(NumElements(vi->shape)) * DataTypeSize(vi->dtype));
      const size_t bytes = (data + 31) / 32 * 32 + 32;
      if (k == 0 && alias >= 0) {
        const std::string& src = n.inputs[alias];
        auto it = index.find(src);
        const bool dies_here = last_use[src] == step;
        bool used_twice = false;  // the same value feeding two inputs of this node
        for (size_t j = 0; j < n.inputs.size(); ++j)
          used_twice |= static_cast<int>(j) != alias && n.inputs[j] == src;
        if (it != index.end() && dies_here && !used_twice && requests[it->second].size == bytes) {
          index[out] = it->second;
          names.push_back(out);
          owner.push_back(it->second);
          continue;
        }
      }
      BufferRequest r;
      r.size = bytes;
      r.first = step;
      r.last = step;
      index[out] = requests.size();
      names.push_back(out);
      owner.push_back(requests.size());
      requests.push_back(r);
    }
  }
  if (!reuse)
    for (auto& r : requests) {
      r.first = 0;
      r.last = end;
    }
  MemoryPlan plan;
  std::vector<size_t> offsets = PlanBuffers(requests, &plan.arena_size);
  for (size_t i = 0; i < names.size(); ++i) plan.offsets[names[i]] = offsets[owner[i]];
  return plan;
}

}  // namespace oc
