// The cost model's formulas and totals: vector cycles with UB bank conflicts counted, a
// block's critical path, and a finished launch's estimate.
#include <algorithm>
#include <cmath>
#include <memory>
#include <utility>
#include <vector>

#include "emu_state.h"

namespace AscendC {
namespace detail {
namespace {

// Cycles of one repeat: each of the 16 UB bank groups serves one 32-byte row per cycle for
// reads and one for writes; a group asked for k rows takes k cycles.
struct RepeatRows {
  int reads[16] = {}, writes[16] = {};
  void Add(uint64_t ub_offset, bool write) { (write ? writes : reads)[(ub_offset / 32) % 16]++; }
  int Cycles() const {
    int c = 1;
    for (int g = 0; g < 16; ++g) c = std::max({c, reads[g], writes[g]});
    return c;
  }
};

// Time per pipe on a block's critical path: from its last instruction back through what
// each one waited for.
void CriticalPath(const Timeline& t, double on_path[kPipes]) {
  for (int p = 0; p < kPipes; ++p) on_path[p] = 0;
  for (int32_t i = t.last_end; i >= 0 && i < static_cast<int32_t>(t.issued.size());
       i = t.issued[i].pred)
    on_path[t.issued[i].pipe] += t.issued[i].dur;
}

}  // namespace

double ContiguousVectorCycles(uint64_t bytes) {
  Block& b = Current();
  const uint64_t repeats = (bytes + 255) / 256;
  std::vector<std::pair<uint64_t, const Access*>> ub;  // UB operands: offset, access
  for (const Access& a : b.pending) {
    uint64_t off = 0;
    if (Locate(b, a.p, &off) == Memory::kUB) ub.emplace_back(off, &a);
  }
  if (ub.empty()) return static_cast<double>(repeats);
  double cycles = 0;
  for (uint64_t r = 0; r < repeats; ++r) {
    RepeatRows rows;
    for (const auto& [off, a] : ub)
      for (uint64_t k = 0; k < 8 && r * 256 + k * 32 < a->bytes; ++k)
        rows.Add(off + r * 256 + k * 32, a->use == Use::kWrite);
    cycles += rows.Cycles();
  }
  return cycles;
}

double StridedVectorCycles(int64_t repeats, const uint32_t blk[3], const uint32_t rep[3]) {
  Block& b = Current();
  // The repeat forms note [destination, source 0(, source 1)] in that order.
  uint64_t base[3] = {};
  bool ub[3] = {};
  const size_t n = std::min<size_t>(b.pending.size(), 3);
  for (size_t k = 0; k < n; ++k) ub[k] = Locate(b, b.pending[k].p, &base[k]) == Memory::kUB;
  double cycles = 0;
  for (int64_t r = 0; r < repeats; ++r) {
    RepeatRows rows;
    for (size_t k = 0; k < n; ++k)
      if (ub[k])
        for (uint64_t j = 0; j < 8; ++j)
          rows.Add(base[k] + (uint64_t(r) * rep[k] + j * blk[k]) * 32, k == 0);
    cycles += rows.Cycles();
  }
  return cycles;
}

Estimated EstimateOf(const LaunchState& l, const std::vector<std::unique_ptr<Block>>& blocks) {
  Estimated e;
  for (const auto& b : blocks) {
    for (int p = 0; p < kPipes; ++p) e.busy[p] = std::max(e.busy[p], b->cycles[p]);
    if (!e.slowest || b->timeline.end > e.slowest->timeline.end) e.slowest = b.get();
  }
  const double waves = std::ceil(static_cast<double>(l.block_dim) / CoresFor(l));
  if (e.slowest) {
    e.cycles = e.slowest->timeline.end;
    if (!e.slowest->timeline.truncated) CriticalPath(e.slowest->timeline, e.path);
  }
  e.us = e.cycles * waves / SocOf(l).mhz;
  const double* by = e.slowest && !e.slowest->timeline.truncated ? e.path : e.busy;
  for (int p = 1; p < kPipes; ++p)
    if (by[p] > by[e.bound]) e.bound = p;
  return e;
}

void Estimate(const LaunchState& l, const std::vector<std::unique_ptr<Block>>& blocks,
              LaunchResult* r) {
  const Estimated e = EstimateOf(l, blocks);
  const double waves = std::ceil(static_cast<double>(l.block_dim) / CoresFor(l));
  for (int p = 0; p < kPipes; ++p) {
    r->cycles[p] = e.busy[p];
    r->us[p] = e.busy[p] * waves / SocOf(l).mhz;
  }
  r->total_cycles = e.cycles;
  r->total_us = e.us;
  r->bound = kPipeNames[e.bound];
}

}  // namespace detail
}  // namespace AscendC
