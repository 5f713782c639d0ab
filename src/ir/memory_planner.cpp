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

Result<MemoryPlan> PlanGraphMemory(const Graph& graph, bool reuse) {
  std::set<std::string> external(graph.outputs.begin(), graph.outputs.end());
  external.insert(graph.inputs.begin(), graph.inputs.end());
  std::unordered_map<std::string, size_t> index;
  std::vector<std::string> names;
  std::vector<BufferRequest> requests;
  const int64_t end = static_cast<int64_t>(graph.nodes.size());
  for (int64_t step = 0; step < end; ++step) {
    const Node& n = graph.nodes[step];
    for (const auto& in : n.inputs) {
      auto it = index.find(in);
      if (it != index.end()) requests[it->second].last = step;
    }
    for (const auto& out : n.outputs) {
      if (out.empty() || external.count(out) || graph.IsInitializer(out)) continue;
      const ValueInfo* vi = graph.FindValue(out);
      if (!vi || !vi->has_shape || !IsStatic(vi->shape))
        return Internal("value [" + out + "] has no static shape for memory planning");
      BufferRequest r;
      r.size = std::max<size_t>(1, static_cast<size_t>(NumElements(vi->shape)) *
                                       DataTypeSize(vi->dtype));
      r.first = step;
      r.last = step;
      index[out] = requests.size();
      names.push_back(out);
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
  for (size_t i = 0; i < names.size(); ++i) plan.offsets[names[i]] = offsets[i];
  return plan;
}

}  // namespace oc
