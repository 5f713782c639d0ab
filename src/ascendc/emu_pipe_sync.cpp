// Order between the pipes of one core: HardEvent flags (SetFlag/WaitFlag), the full syncs
// queues and barriers imply, and the flags a block leaves unpaired.
#include <algorithm>
#include <array>
#include <string>
#include <utility>

#include "emu_state.h"

namespace AscendC {
namespace detail {
namespace {

// HardEvent's names in declaration order, and the pipes of each.
const char* const kEventNames[] = {
    "MTE2_MTE1", "MTE1_MTE2", "MTE1_M", "M_MTE1",   "MTE2_V",    "V_MTE2",    "MTE3_V",
    "V_MTE3",    "M_V",       "V_M",    "V_V",      "MTE3_MTE1", "MTE1_MTE3", "MTE1_V",
    "MTE2_M",    "M_MTE2",    "V_MTE1", "M_FIX",    "FIX_M",     "MTE3_MTE2", "MTE2_MTE3",
    "S_V",       "V_S",       "S_MTE2", "MTE2_S",   "S_MTE3",    "MTE3_S",    "MTE2_FIX",
    "FIX_MTE2",  "FIX_S",     "M_S",    "FIX_MTE3", "MTE1_FIX",  "FIX_MTE1",  "FIX_FIX"};
constexpr int kEvents = sizeof(kEventNames) / sizeof(kEventNames[0]);
static_assert(kEvents == static_cast<int>(HardEvent::MAX), "HardEvent names");

int PipeOfToken(const std::string& t) {
  if (t == "MTE2") return static_cast<int>(Pipe::kMTE2);
  if (t == "MTE3" || t == "FIX") return static_cast<int>(Pipe::kMTE3);
  if (t == "MTE1") return static_cast<int>(Pipe::kMTE1);
  if (t == "V") return static_cast<int>(Pipe::kVector);
  if (t == "M") return static_cast<int>(Pipe::kCube);
  return static_cast<int>(Pipe::kScalar);
}

std::pair<int, int> PipesOf(HardEvent e, const char* api) {
  const int i = static_cast<int>(e);
  if (i < 0 || i >= kEvents) Fault(api, "unknown HardEvent " + std::to_string(i));
  const std::string name = kEventNames[i];
  const size_t cut = name.find('_');
  return {PipeOfToken(name.substr(0, cut)), PipeOfToken(name.substr(cut + 1))};
}

}  // namespace

HardEvent EventOf(pipe_t src, pipe_t dst) {
  auto token = [](pipe_t p) {
    switch (p) {
      case PIPE_MTE1:
        return "MTE1";
      case PIPE_MTE2:
        return "MTE2";
      case PIPE_MTE3:
        return "MTE3";
      case PIPE_V:
        return "V";
      case PIPE_M:
        return "M";
      case PIPE_FIX:
        return "FIX";
      default:
        return "S";
    }
  };
  const std::string name = std::string(token(src)) + "_" + token(dst);
  for (int i = 0; i < kEvents; ++i)
    if (name == kEventNames[i]) return static_cast<HardEvent>(i);
  Fault("TQueSync", "there is no HardEvent from " + std::string(token(src)) + " to " + token(dst));
}

void SetFlagEvent(HardEvent e, int32_t id, const char* api) {
  Block& b = Current();
  const int src = PipesOf(e, api).first;
  if (id < 0 || id > 7) Fault(api, "event id " + std::to_string(id) + " is out of 0..7");
  const std::string name = std::string(api) + "<HardEvent::" + kEventNames[static_cast<int>(e)] +
                           ">(" + std::to_string(id) + ")";
  const auto key = std::make_pair(static_cast<int>(e), id);
  if (b.flags.count(key) && FirstReport(b, "set twice " + name))
    Warn(api, name + " again before its WaitFlag: two sets of one flag are undefined on the NPU");
  std::array<uint32_t, kPipes> snapshot{};
  Timeline& t = b.timeline;
  for (int q = 0; q < kPipes; ++q) snapshot[q] = t.known[src][q];
  snapshot[src] = t.count[src];
  b.flags[key] = snapshot;
}

void WaitFlagEvent(HardEvent e, int32_t id, const char* api) {
  Block& b = Current();
  const int dst = PipesOf(e, api).second;
  if (id < 0 || id > 7) Fault(api, "event id " + std::to_string(id) + " is out of 0..7");
  auto it = b.flags.find({static_cast<int>(e), id});
  if (it == b.flags.end())
    Fault(api, std::string("WaitFlag<HardEvent::") + kEventNames[static_cast<int>(e)] + ">(" +
                   std::to_string(id) +
                   ") has no SetFlag before it: on the NPU the pipe would wait forever");
  Timeline& t = b.timeline;
  for (int q = 0; q < kPipes; ++q) t.known[dst][q] = std::max(t.known[dst][q], it->second[q]);
  b.flags.erase(it);
}

void SyncAllPipes() {
  if (!t_block || t_block->probe) return;
  Timeline& t = t_block->timeline;
  for (int q = 0; q < kPipes; ++q)
    for (int p = 0; p < kPipes; ++p) t.known[q][p] = t.count[p];
}

void BarrierAllPipes() {
  SyncAllPipes();
  Timeline& t = Current().timeline;
  for (int p = 0; p < kPipes; ++p)
    if (t.pipe_free[p] > t.issue) t.issue = t.pipe_free[p], t.last_issue = t.last_on_pipe[p];
}

void FinishBlock(Block& b) {
  for (const auto& [key, snapshot] : b.flags)
    Warn("SetFlag", std::string("SetFlag<HardEvent::") + kEventNames[key.first] + ">(" +
                        std::to_string(key.second) +
                        ") has no WaitFlag: an unpaired flag (on the NPU a later PipeBarrier "
                        "or SetFlag of it hangs)");
}

}  // namespace detail
}  // namespace AscendC
