// The order between blocks: vector clocks carried by cross-core flags, GM words other cores
// spin on (IBSet, soft SyncAll, NotifyNextBlock, GroupBarrier) and SyncAll, so that two
// blocks writing the same global bytes one after the other (a cube core's result that the
// vector core, told by a flag, then overwrites) are not reported as a race.
#include <algorithm>
#include <array>
#include <cstdint>
#include <utility>
#include <vector>

#include "emu_state.h"

namespace AscendC {
namespace detail {

void InitClocks(LaunchState& l) {
  const size_t n = l.blocks.size();
  for (size_t i = 0; i < n; ++i) {
    Block& b = *l.blocks[i];
    b.pos = i;
    b.clock.assign(n, 0);
    b.clock[i] = 1;  // epochs count from 1: 0 is "nothing seen" of another block
    b.learned.assign(n, {});
  }
}

std::vector<uint32_t> ReleaseClock(Block& b) {
  if (b.clock.empty()) return {};
  std::vector<uint32_t> c = b.clock;
  ++b.clock[b.pos];
  return c;
}

void AcquireClock(Block& b, const std::vector<uint32_t>& c) {
  if (b.clock.size() != c.size()) return;
  bool grew = false;
  for (size_t i = 0; i < c.size(); ++i) {
    if (i == b.pos || c[i] <= b.clock[i]) continue;
    if (!grew) ++b.clock[b.pos];  // writes from here on know more than those before
    grew = true;
    b.clock[i] = c[i];
    b.learned[i].emplace_back(b.clock[b.pos], c[i]);
  }
}

namespace {
void Join(std::vector<uint32_t>& into, const std::vector<uint32_t>& c) {
  if (into.size() < c.size()) into.resize(c.size(), 0);
  for (size_t i = 0; i < c.size(); ++i) into[i] = std::max(into[i], c[i]);
}
}  // namespace

void ReleaseFlag(LaunchState& l, Block& b, const std::array<int64_t, 4>& key) {
  std::vector<uint32_t> c = ReleaseClock(b);
  auto& sets = l.flag_clocks[key];
  if (!sets.empty()) Join(c, sets.back());  // entry k joins sets 0..k
  sets.push_back(std::move(c));
}

void AcquireFlag(LaunchState& l, Block& b, const std::array<int64_t, 4>& key, int64_t sets) {
  auto it = l.flag_clocks.find(key);
  if (it == l.flag_clocks.end() || sets <= 0 || it->second.empty()) return;
  const size_t k = std::min<size_t>(static_cast<size_t>(sets), it->second.size()) - 1;
  AcquireClock(b, it->second[k]);
}

void ReleaseWord(LaunchState& l, Block& b, const void* word, int64_t value) {
  l.word_clocks[{reinterpret_cast<uintptr_t>(word), value}] = ReleaseClock(b);
}

void AcquireWord(LaunchState& l, Block& b, const void* word, int64_t value) {
  const uintptr_t a = reinterpret_cast<uintptr_t>(word);
  // Every store that brought the word up to `value` (a slot may have more than one writer).
  for (auto it = l.word_clocks.lower_bound({a, INT64_MIN});
       it != l.word_clocks.end() && it->first.first == a && it->first.second <= value; ++it)
    AcquireClock(b, it->second);
}

std::pair<int, int64_t> ArriveBarrier(LaunchState& l, Block& b, int barrier) {
  const std::pair<int, int64_t> round{barrier, ++b.barrier_rounds[barrier]};
  Join(l.barrier_clocks[round], ReleaseClock(b));
  return round;
}

void LeaveBarrier(LaunchState& l, Block& b, const std::pair<int, int64_t>& round) {
  auto it = l.barrier_clocks.find(round);
  if (it != l.barrier_clocks.end()) AcquireClock(b, it->second);
}

namespace {
// Whether `later`, in its epoch `e_later`, had seen block `earlier`'s epoch `e_earlier`.
bool Saw(const Block& later, uint32_t e_later, const Block& earlier, uint32_t e_earlier) {
  if (earlier.pos >= later.learned.size()) return false;
  const auto& hist = later.learned[earlier.pos];
  // The last knowledge gained at or before e_later.
  auto it = std::upper_bound(hist.begin(), hist.end(), std::make_pair(e_later, UINT32_MAX));
  return it != hist.begin() && std::prev(it)->second >= e_earlier;
}
}  // namespace

bool Ordered(const Block& a, uint32_t ea, const Block& b, uint32_t eb) {
  return Saw(b, eb, a, ea) || Saw(a, ea, b, eb);
}

}  // namespace detail
}  // namespace AscendC
