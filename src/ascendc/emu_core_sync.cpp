// Synchronization between cores: SyncAll (hard and soft), IBSet/IBWait, DetermineCompute's
// turns, GroupBarrier, and the cross-core flags of mix kernels.
#include <algorithm>
#include <array>
#include <barrier>
#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <cstdlib>
#include <functional>
#include <mutex>
#include <string>
#include <thread>

#include "emu_state.h"

namespace AscendC {
namespace detail {
namespace {

// Waits until *word reaches `need`, as a core spinning on GM does. A core that will never
// write it (`writer_gone` says it finished) is reported at once; otherwise after the sync
// timeout (OCANN_ASCENDC_SYNC_TIMEOUT_S, 10 s by default). Yields while it waits.
void WaitForWord(const int32_t* word, int32_t need, const std::function<bool()>& writer_gone,
                 const char* api, const std::string& never, const std::string& late) {
  const char* env = std::getenv("OCANN_ASCENDC_SYNC_TIMEOUT_S");
  const double timeout_s = env && std::atof(env) > 0 ? std::atof(env) : 10.0;
  const auto deadline = std::chrono::steady_clock::now() +
                        std::chrono::milliseconds(static_cast<int64_t>(timeout_s * 1000));
  for (uint64_t spins = 0; __atomic_load_n(word, __ATOMIC_ACQUIRE) < need; ++spins) {
    if (spins % 1024 == 1023 && writer_gone() && __atomic_load_n(word, __ATOMIC_ACQUIRE) < need)
      Fault(api, never);
    if (std::chrono::steady_clock::now() > deadline)
      Fault(api, late + " within " + std::to_string(timeout_s) + " s");
    std::this_thread::yield();
  }
}

// Whether the core `idx` of the launch (a vector core unless `any_core`) has finished.
bool CoreFinished(LaunchState& l, int64_t idx, bool any_core) {
  std::lock_guard<std::mutex> lock(l.flag_mutex);
  for (const Block* o : l.blocks)
    if (o->idx == idx && (o->core == AIV || any_core)) return o->finished;
  return true;  // no such core in the launch
}

}  // namespace

void BlockBarrier(bool aiv_only) {
  Block& b = Current();
  LaunchState& l = *b.launch;
  const int cores = CoresFor(l);
  // All blocks must be resident at once for SyncAll; more blocks than cores run in waves
  // on the NPU and the barrier never completes.
  if (l.block_dim > static_cast<uint32_t>(cores))
    Fault("SyncAll", "blockDim " + std::to_string(l.block_dim) + " is more than the " +
                         std::to_string(cores) + (l.shape.aic ? " AI" : " vector") + " cores of " +
                         SocOf(l).name + ": the blocks would wait for each other forever");
  if (aiv_only && b.core == AIC && l.shape.aiv > 0)
    Fault("SyncAll",
          "SyncAll<true> syncs the vector cores, and this is a cube core of a mix "
          "launch: guard it with `if ASCEND_IS_AIV`, or use SyncAll<false> for every "
          "core");
  const bool vector_barrier = aiv_only || !IsMixLaunch(l);
  std::barrier<>* barrier = vector_barrier ? l.barrier.get() : l.all_barrier.get();
  if (barrier) {
    std::pair<int, int64_t> round;
    {
      std::lock_guard<std::mutex> lock(l.flag_mutex);
      round = ArriveBarrier(l, b, vector_barrier ? 0 : 1);
    }
    barrier->arrive_and_wait();
    std::lock_guard<std::mutex> lock(l.flag_mutex);
    LeaveBarrier(l, b, round);
  }
  SyncAllPipes();
  AddCycles(Pipe::kScalar, 100);
}

void InterBlock(int32_t* slots, uint64_t gm_elems, uint64_t ub_elems, int32_t block, int32_t event,
                bool set, bool aiv_only) {
  const char* api = set ? "IBSet" : "IBWait";
  Block& b = Current();
  LaunchState& l = *b.launch;
  if (aiv_only) RequireCore(AIV, api);
  // The documented count: GetBlockNum() for isAIVOnly (here: the launch's vector cores),
  // GetBlockNum() x 2 for mix kernels.
  const int64_t cores =
      aiv_only ? int64_t{l.block_dim} * std::max(l.shape.aiv, 1) : int64_t{l.block_dim} * 2;
  if (l.block_dim > static_cast<uint32_t>(CoresFor(l)))
    Fault(api, "blockDim " + std::to_string(l.block_dim) +
                   " is more than the cores that run at once: the cores would wait forever");
  if (block < 0 || block >= cores)
    Fault(api, "blockIdx " + std::to_string(block) + " is out of 0.." + std::to_string(cores - 1));
  if (!set && block == b.idx) Fault(api, "a core cannot wait for itself");
  if (event < 0 || event > 255) Fault(api, "eventID " + std::to_string(event) + " is out of range");
  if (ub_elems * 4 < 32) Fault(api, "the UB workspace needs 32 bytes");
  const uint64_t slot = (uint64_t(event) * cores + block) * 8;
  if ((slot + 8) * 4 > gm_elems * 4)
    Fault(api, "the GM workspace of " + std::to_string(gm_elems * 4) + " bytes has no slot for " +
                   "event " + std::to_string(event) + " of core " + std::to_string(block) +
                   " (it needs cores x 32 B x events + 32 B per core)");
  CheckGlobal(slots + slot, 4, api);
  if (set) {
    NoteGlobalWrite(slots + slot, 4);
    std::lock_guard<std::mutex> lock(l.flag_mutex);
    ReleaseWord(l, b, slots + slot, __atomic_add_fetch(slots + slot, 1, __ATOMIC_RELEASE));
    AddCycles(Pipe::kMTE3, 210);
    return;
  }
  const int32_t need = ++b.ib_waits[slot];
  WaitForWord(
      slots + slot, need, [&] { return CoreFinished(l, block, !aiv_only); }, api,
      "core " + std::to_string(block) + " finished without IBSet of event " +
          std::to_string(event) + " (on the NPU this core would spin forever)",
      "core " + std::to_string(block) + "'s event " + std::to_string(event) + " did not come");
  {
    std::lock_guard<std::mutex> lock(l.flag_mutex);
    AcquireWord(l, b, slots + slot, need);
  }
  SyncAllPipes();
  AddCycles(Pipe::kMTE2, 210);
}

void DetermineCompute(int32_t* slots, uint64_t gm_elems, uint64_t ub_elems, DetermineStep step) {
  const char* api = step == DetermineStep::kInit   ? "InitDetermineComputeWorkspace"
                    : step == DetermineStep::kWait ? "WaitPreBlock"
                                                   : "NotifyNextBlock";
  Block& b = Current();
  LaunchState& l = *b.launch;
  RequireCore(AIV, api);
  const int64_t n = int64_t{l.block_dim} * std::max(l.shape.aiv, 1);  // the vector cores
  if (l.block_dim > static_cast<uint32_t>(CoresFor(l)))
    Fault(api, "blockDim " + std::to_string(l.block_dim) +
                   " is more than the cores that run at once: the cores would wait forever");
  if (gm_elems * 4 < uint64_t(n) * 32)
    Fault(api, "the GM workspace has " + std::to_string(gm_elems * 4) + " bytes; " +
                   std::to_string(n) + " cores need " + std::to_string(n * 32) + " (32 per core)");
  if (ub_elems * 4 < uint64_t(n) * 32 + 32)
    Fault(api, "the UB workspace has " + std::to_string(ub_elems * 4) + " bytes; " +
                   std::to_string(n) + " cores need " + std::to_string(n * 32 + 32) +
                   " (32 per core + 32)");
  CheckGlobal(slots, uint64_t(n) * 32, api);
  if (step == DetermineStep::kInit) {
    // Zeroed once per launch, by whichever core comes first: a later core's zeroing must
    // not erase a notify that has already been given.
    std::lock_guard<std::mutex> lock(l.flag_mutex);
    if (l.determine_ready.insert(slots).second)
      for (int64_t c = 0; c < n; ++c) __atomic_store_n(slots + c * 8, 0, __ATOMIC_RELEASE);
    AddCycles(Pipe::kMTE3, 210);
    return;
  }
  {
    std::lock_guard<std::mutex> lock(l.flag_mutex);
    if (!l.determine_ready.count(slots))
      Fault(api, "InitDetermineComputeWorkspace was not called on this GM workspace");
  }
  const int64_t me = b.idx;
  if (step == DetermineStep::kNotify) {
    int32_t* next = slots + ((me + 1) % n) * 8;
    NoteGlobalWrite(next, 4);
    std::lock_guard<std::mutex> lock(l.flag_mutex);
    ReleaseWord(l, b, next, __atomic_add_fetch(next, 1, __ATOMIC_RELEASE));
    AddCycles(Pipe::kMTE3, 210);
    return;
  }
  // Round k: core 0 waits for the last core's notify of round k - 1, every other core for
  // its predecessor's notify of round k; so the cores take turns 0, 1, ..., n - 1, 0, ...
  const int32_t round = ++b.pre_block_waits;
  const int64_t prev = (me + n - 1) % n;
  const int32_t need = me == 0 ? round - 1 : round;
  WaitForWord(
      slots + me * 8, need, [&] { return prev != me && CoreFinished(l, prev, false); }, api,
      "core " + std::to_string(prev) + " finished without NotifyNextBlock for round " +
          std::to_string(round) + " (on the NPU core " + std::to_string(me) +
          " would spin forever; every core must call them the same number of times)",
      "core " + std::to_string(prev) + "'s NotifyNextBlock for round " + std::to_string(round) +
          " did not come");
  {
    std::lock_guard<std::mutex> lock(l.flag_mutex);
    AcquireWord(l, b, slots + me * 8, need);
  }
  SyncAllPipes();
  AddCycles(Pipe::kMTE2, 210);
}

void GroupBarrierStep(uint8_t* workspace, uint32_t arrive_size, uint32_t wait_size, uint32_t index,
                      bool arrive) {
  const char* api = arrive ? "GroupBarrier::Arrive" : "GroupBarrier::Wait";
  Block& b = Current();
  LaunchState& l = *b.launch;
  RequireCore(AIV, api);
  if (arrive_size == 0 || wait_size == 0)
    Fault(api, "the Arrive and Wait groups need at least one core each (" +
                   std::to_string(arrive_size) + " and " + std::to_string(wait_size) + ")");
  if (uint64_t(arrive_size) * 32 > uint64_t(wait_size) * 512)
    Fault(api, std::to_string(arrive_size) + " arriving cores do not fit the " +
                   std::to_string(wait_size * 512) + "-byte workspace (waitSize x 512 B)");
  const uint32_t size = arrive ? arrive_size : wait_size;
  if (index >= size)
    Fault(api, std::string(arrive ? "arriveIndex " : "waitIndex ") + std::to_string(index) +
                   " is out of 0.." + std::to_string(size - 1));
  if (l.block_dim > static_cast<uint32_t>(CoresFor(l)))
    Fault(api, "blockDim " + std::to_string(l.block_dim) +
                   " is more than the cores that run at once: the cores would wait forever");
  CheckGlobal(workspace, uint64_t(wait_size) * 512, api);
  // The arriving core `i` counts its arrivals in the first word of the workspace's 32-byte
  // slot i; the workspace is the user's to zero, as in CANN.
  auto* counters = reinterpret_cast<int32_t*>(workspace);
  if (arrive) {
    NoteGlobalWrite(counters + index * 8, 4);
    SyncAllPipes();  // the group's work is done before the message goes out
    std::lock_guard<std::mutex> lock(l.flag_mutex);
    ReleaseWord(l, b, counters + index * 8,
                __atomic_add_fetch(counters + index * 8, 1, __ATOMIC_RELEASE));
    AddCycles(Pipe::kMTE3, 210);
    return;
  }
  const int32_t round = ++b.group_waits[{workspace, index}];
  if (round > 1048575) Fault(api, "more than 1,048,575 rounds (CANN's limit)");
  auto everyone_else_done = [&] {
    std::lock_guard<std::mutex> lock(l.flag_mutex);
    for (const Block* o : l.blocks)
      if (o != &b && !o->finished) return false;
    return true;
  };
  for (uint32_t i = 0; i < arrive_size; ++i)
    WaitForWord(counters + i * 8, round, everyone_else_done, api,
                "arriving core " + std::to_string(i) + " never arrived for round " +
                    std::to_string(round) + " (every other core finished; on the NPU this " +
                    "core would spin forever)",
                "arriving core " + std::to_string(i) + " did not arrive for round " +
                    std::to_string(round));
  {
    std::lock_guard<std::mutex> lock(l.flag_mutex);
    for (uint32_t i = 0; i < arrive_size; ++i) AcquireWord(l, b, counters + i * 8, round);
  }
  SyncAllPipes();
  AddCycles(Pipe::kMTE2, 210);
}

void SoftSyncAll(int32_t* slots, int64_t cores, const char* api) {
  Block& b = Current();
  LaunchState& l = *b.launch;
  if (l.block_dim > static_cast<uint32_t>(CoresFor(l)))
    Fault(api, "blockDim " + std::to_string(l.block_dim) +
                   " is more than the cores that run at "
                   "once: the cores would wait forever");
  const int64_t me = b.idx;
  if (me >= cores) return;  // not one of the usedCores
  CheckGlobal(slots, uint64_t(cores) * 32, api);
  NoteGlobalWrite(slots + me * 8, 4);
  const int32_t round = ++b.soft_syncs;
  {
    std::lock_guard<std::mutex> lock(l.flag_mutex);
    ReleaseWord(l, b, slots + me * 8, round);
    __atomic_store_n(slots + me * 8, round, __ATOMIC_RELEASE);
  }
  for (int64_t c = 0; c < cores; ++c)
    WaitForWord(
        slots + c * 8, round, [&] { return CoreFinished(l, c, false); }, api,
        "core " + std::to_string(c) + " finished without reaching sync " + std::to_string(round) +
            " (on the NPU the cores would spin forever)",
        "core " + std::to_string(c) + " did not reach sync " + std::to_string(round));
  {
    std::lock_guard<std::mutex> lock(l.flag_mutex);
    for (int64_t c = 0; c < cores; ++c) AcquireWord(l, b, slots + c * 8, round);
  }
  SyncAllPipes();
  AddCycles(Pipe::kScalar, 100);
}

namespace {

const char* ModeName(int mode) {
  return mode == 0   ? "mode 0 (all cores of one type)"
         : mode == 1 ? "mode 1 (the two vector cores of an AI core)"
                     : "mode 2 (a cube core and its vector cores)";
}

// Whether the cross-core flag a block waits for has been set often enough, and whether
// anyone who could still set it is running.
struct FlagWait {
  bool satisfied = false, hopeless = false;
};

FlagWait CheckFlag(const LaunchState& l, const Block& b, int mode, uint16_t flag, int64_t need) {
  FlagWait w;
  auto sets = [&](int64_t scope, int64_t kind) {
    auto it = l.flag_sets.find({mode, scope, flag, kind});
    return it == l.flag_sets.end() ? int64_t{0} : it->second;
  };
  bool setter_alive = false;
  if (mode == 0) {
    int64_t of_type = 0;
    for (const Block* o : l.blocks)
      if (o->core == b.core) {
        ++of_type;
        if (o != &b && !o->finished) setter_alive = true;
      }
    w.satisfied = sets(b.core, 0) >= need * of_type;
  } else if (mode == 1) {
    w.satisfied = sets(b.group, 1 - b.sub) >= need;
    for (const Block* o : l.blocks)
      if (o->core == AIV && o->group == b.group && o->sub != b.sub && !o->finished)
        setter_alive = true;
  } else if (b.core == AIV) {
    w.satisfied = sets(b.group, 100) >= need;
    for (const Block* o : l.blocks)
      if (o->core == AIC && o->group == b.group && !o->finished) setter_alive = true;
  } else {
    w.satisfied = true;
    for (int s = 0; s < l.shape.aiv; ++s) w.satisfied = w.satisfied && sets(b.group, s) >= need;
    for (const Block* o : l.blocks)
      if (o->core == AIV && o->group == b.group && !o->finished) setter_alive = true;
  }
  w.hopeless = !w.satisfied && !setter_alive;
  return w;
}

FlagWait AnyModeWait(const LaunchState& l, const Block& b, uint16_t flag, int64_t need) {
  FlagWait any;
  any.hopeless = true;
  for (int m = 0; m <= 2; ++m) {
    if (m > 0 && !IsMixLaunch(l)) continue;
    if (m == 1 && (b.core != AIV || l.shape.aiv < 2)) continue;
    const FlagWait w = CheckFlag(l, b, m, flag, need);
    any.satisfied = any.satisfied || w.satisfied;
    any.hopeless = any.hopeless && w.hopeless;
  }
  return any;
}

// The writes before the sets a completed wait consumed come before this core's next ones:
// the keys CheckFlag counts, up to the sets the wait needed.
void AcquireFlags(LaunchState& l, Block& b, uint16_t flag, int64_t need) {
  int64_t of_type = 0;
  for (const Block* o : l.blocks) of_type += o->core == b.core;
  AcquireFlag(l, b, {0, b.core, flag, 0}, need * of_type);
  if (!IsMixLaunch(l)) return;
  if (b.core == AIV) {
    AcquireFlag(l, b, {1, b.group, flag, 1 - b.sub}, need);
    AcquireFlag(l, b, {2, b.group, flag, 100}, need);
  } else {
    for (int s = 0; s < l.shape.aiv; ++s) AcquireFlag(l, b, {2, b.group, flag, s}, need);
  }
}

void CheckCrossCore(const char* api, int mode, uint16_t flag) {
  Block& b = Current();
  const LaunchState& l = *b.launch;
  if (mode < 0 || mode > 2)
    Fault(api, "mode " + std::to_string(mode) + " is not one of 0, 1, 2 (Atlas A2/A3)");
  if (flag > 15) Fault(api, "flagId " + std::to_string(flag) + " is out of 0..15");
  if (!IsMixType(l.kernel_type))
    Fault(api, std::string("cross-core flags need a mix kernel type, and this launch is ") +
                   KernelTypeName(l.kernel_type) +
                   " (KERNEL_TASK_TYPE_DEFAULT(KERNEL_TYPE_MIX_AIC_1_2) or "
                   "SetKernelMode(KernelMode::MIX_MODE))");
  if (mode > 0 && !IsMixLaunch(l))
    Fault(api, std::string(ModeName(mode)) + " needs KERNEL_TYPE_MIX_AIC_1_1 or _1_2, not " +
                   KernelTypeName(l.kernel_type));
  if (mode == 1 && (b.core != AIV || l.shape.aiv < 2))
    Fault(api, std::string(ModeName(mode)) + " pairs the two vector cores of a 1:2 launch");
  if (mode == 0 && l.block_dim > static_cast<uint32_t>(CoresFor(l)))
    Fault(api, "mode 0 waits for every core of the launch, and blockDim " +
                   std::to_string(l.block_dim) + " is more than the cores that run at once");
}

}  // namespace

void CrossCoreSet(int mode, pipe_t pipe, uint16_t flag) {
  const char* api = "CrossCoreSetFlag";
  CheckCrossCore(api, mode, flag);
  if (pipe == PIPE_S || pipe == PIPE_ALL)
    Fault(api, "the pipe must be PIPE_V, PIPE_M, PIPE_MTE1, PIPE_MTE2, PIPE_MTE3 or PIPE_FIX");
  Block& b = Current();
  LaunchState& l = *b.launch;
  std::lock_guard<std::mutex> lock(l.flag_mutex);
  const int64_t scope = mode == 0 ? b.core : b.group;
  const int64_t kind = mode == 0 ? 0 : (mode == 2 && b.core == AIC) ? 100 : b.sub;
  const int64_t n = ++l.flag_sets[{mode, scope, flag, kind}];
  ReleaseFlag(l, b, {mode, scope, flag, kind});
  // The hardware keeps one 4-bit counter per flag: sets nobody has waited for pile up.
  if (mode > 0) {
    int64_t least_waited = INT64_MAX;
    for (const Block* o : l.blocks) {
      const bool consumer = mode == 1 ? (o->core == AIV && o->group == b.group && o != &b)
                                      : (o->group == b.group && o->core != b.core);
      if (!consumer) continue;
      auto it = o->flag_waits.find({0, flag});
      least_waited = std::min(least_waited, it == o->flag_waits.end() ? 0 : it->second);
    }
    if (least_waited != INT64_MAX && n - least_waited > 15)
      Fault(api, "flag " + std::to_string(flag) + " was set " + std::to_string(n - least_waited) +
                     " times without a wait: its hardware counter holds 15");
  }
  l.flag_cv.notify_all();
}

// On Atlas A2 a wait ignores its template arguments: it waits on the core's own counter for
// the flag, which sets of any mode aimed at this core raise. So a wait completes when the
// sets of any mode that reach this core have come.
void CrossCoreWait(int mode, pipe_t, uint16_t flag) {
  const char* api = "CrossCoreWaitFlag";
  CheckCrossCore(api, mode, flag);
  Block& b = Current();
  LaunchState& l = *b.launch;
  const char* env = std::getenv("OCANN_ASCENDC_SYNC_TIMEOUT_S");
  const double timeout_s = env && std::atof(env) > 0 ? std::atof(env) : 10.0;
  const auto deadline = std::chrono::steady_clock::now() +
                        std::chrono::milliseconds(static_cast<int64_t>(timeout_s * 1000));
  std::unique_lock<std::mutex> lock(l.flag_mutex);
  int64_t& waits = b.flag_waits[{0, flag}];
  auto state = [&] { return AnyModeWait(l, b, flag, waits + 1); };
  // Every running block waiting for a flag that has not come: nobody is left to set one.
  auto all_waiting = [&] {
    for (const Block* o : l.blocks) {
      if (!o->started || o->finished) continue;
      if (!o->flag_waiting || AnyModeWait(l, *o, o->wait_flag, o->wait_need).satisfied)
        return false;
    }
    return true;
  };
  struct Waiting {
    Block& b;
    explicit Waiting(Block& blk, uint16_t f, int64_t need) : b(blk) {
      b.flag_waiting = true;
      b.wait_flag = f;
      b.wait_need = need;
    }
    ~Waiting() { b.flag_waiting = false; }
  } waiting(b, flag, waits + 1);
  for (;;) {
    const FlagWait w = state();
    if (w.satisfied) break;
    if (all_waiting())
      Fault(api, "flag " + std::to_string(flag) + " (waited in " + ModeName(mode) +
                     "): every running core is waiting for a cross-core flag, so none will be "
                     "set (a deadlock: on the NPU the kernel hangs)");
    if (w.hopeless)
      Fault(api, "flag " + std::to_string(flag) + " (waited in " + ModeName(mode) +
                     ") is never set: the cores that could set it have finished (on the NPU "
                     "this core would hang)");
    if (l.flag_cv.wait_until(lock, deadline) == std::cv_status::timeout && !state().satisfied)
      Fault(api, "waited " + std::to_string(timeout_s) + " s for flag " + std::to_string(flag) +
                     ": the cores that set it are waiting too (a deadlock; "
                     "OCANN_ASCENDC_SYNC_TIMEOUT_S sets the wait)");
  }
  ++waits;
  AcquireFlags(l, b, flag, waits);
}

}  // namespace detail
}  // namespace AscendC
