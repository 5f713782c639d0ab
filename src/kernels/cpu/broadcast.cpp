#include "kernels/cpu/dispatch.h"

namespace oc {

bool BroadcastPlan::Valid(const Shape& out, const std::vector<Shape>& ins) {
  for (const auto& in : ins) {
    if (in.size() > out.size()) return false;
    for (size_t i = 0; i < in.size(); ++i) {
      const int64_t d = in[i], o = out[out.size() - in.size() + i];
      if (d != o && d != 1) return false;
    }
  }
  return true;
}

BroadcastPlan BroadcastPlan::Make(const Shape& out, const std::vector<Shape>& ins) {
  BroadcastPlan p;
  const size_t rank = out.size();
  const size_t n = ins.size();
  // Each input's shape aligned right to the output rank.
  std::vector<Shape> aligned(n, Shape(rank, 1));
  for (size_t k = 0; k < n; ++k)
    for (size_t i = 0; i < ins[k].size(); ++i) aligned[k][rank - ins[k].size() + i] = ins[k][i];
  // Grow the inner block from the last dim while every input is either full or
  // broadcast (size 1) consistently over the whole block.
  size_t split = rank;
  p.inner_step.assign(n, 1);
  std::vector<int> mode(n, -1);  // -1 undecided, 0 broadcast, 1 full
  while (split > 0) {
    size_t d = split - 1;
    bool ok = true;
    std::vector<int> next = mode;
    for (size_t k = 0; k < n; ++k) {
      int m = (aligned[k][d] == out[d]) ? (out[d] == 1 ? next[k] : 1) : 0;
      if (m == -1) continue;  // dim of size 1 everywhere: fits any mode
      if (next[k] == -1) next[k] = m;
      if (next[k] != m) ok = false;
    }
    if (!ok) break;
    mode = next;
    --split;
  }
  for (size_t k = 0; k < n; ++k) p.inner_step[k] = mode[k] == 0 ? 0 : 1;
  for (size_t d = split; d < rank; ++d) p.inner *= out[d];
  p.outer_dims.assign(out.begin(), out.begin() + split);
  for (int64_t d : p.outer_dims) p.outer *= d;
  p.strides.assign(n, std::vector<int64_t>(split, 0));
  for (size_t k = 0; k < n; ++k) {
    int64_t stride = 1;
    for (size_t d = rank; d-- > 0;) {
      if (d < split) p.strides[k][d] = aligned[k][d] == 1 ? 0 : stride;
      stride *= aligned[k][d];
    }
  }
  return p;
}

void BroadcastPlan::RowOffsets(int64_t row, int64_t* offsets) const {
  const size_t n = strides.size();
  for (size_t k = 0; k < n; ++k) offsets[k] = 0;
  for (size_t d = outer_dims.size(); d-- > 0;) {
    int64_t idx = row % outer_dims[d];
    row /= outer_dims[d];
    for (size_t k = 0; k < n; ++k) offsets[k] += idx * strides[k][d];
  }
}

}  // namespace oc
