// The emulation's inner parts that its files share: a launch, its blocks (one per core) and
// their pipe timelines, and what each emu_*.cpp file offers the others. Not installed.
#pragma once

#include <array>
#include <barrier>
#include <condition_variable>
#include <csetjmp>
#include <cstdint>
#include <map>
#include <memory>
#include <mutex>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "tikicpulib.h"

// Hidden: these are the library's inner parts; it exports the Ascend C API only.
#pragma GCC visibility push(hidden)

namespace AscendC {
namespace detail {

constexpr int kMem = static_cast<int>(Memory::kCount);
constexpr int kPipes = static_cast<int>(Pipe::kCount);
inline constexpr const char* kPipeNames[kPipes] = {"MTE2",   "MTE3", "MTE1",
                                                   "Vector", "Cube", "Scalar"};
constexpr int kScalarPipe = static_cast<int>(Pipe::kScalar);

// A kernel type's cores per blockDim unit (an "AI core" group): cube cores, vector cores.
struct GroupShape {
  int aic = 0, aiv = 1;
};

// Thrown to end a block normally (the cube core of a mix Matmul) and to end the launch's
// look at the kernel's first statements (KERNEL_TASK_TYPE_DEFAULT).
struct BlockEnd {};
struct ProbeEnd {};

struct Block;

// One issued instruction of the cost model.
struct Issued {
  double start, dur;
  int32_t pred;  // the instruction this one waited for (critical path), -1 for none
  uint8_t pipe;
  const char* api;
};

// A block's pipes as timelines: when each pipe is free, when the scalar unit issues the next
// instruction, and per 32-byte block of each local memory when it was last written and
// read (and by which instruction).
struct Timeline {
  double pipe_free[kPipes] = {};
  int32_t last_on_pipe[kPipes] = {-1, -1, -1, -1, -1, -1};
  double issue = 0, end = 0;
  int32_t last_issue = -1, last_end = -1;
  struct Marks {
    std::vector<double> written, read;
    std::vector<int32_t> writer, reader;
    // The race checks: per 32-byte block, the pipe and pipe-instruction number of the last
    // write and read, and the API that did it; per byte, whether anything wrote it.
    std::vector<int8_t> wpipe, rpipe;
    std::vector<uint32_t> wcount, rcount;
    std::vector<const char*> wapi, rapi;
    std::vector<uint8_t> init;
  };
  // Instructions per pipe so far, and per pipe what it is known to come after: known[q][p]
  // = how many of pipe p's instructions pipe q is ordered after (flags, queues, barriers).
  uint32_t count[kPipes] = {};
  uint32_t known[kPipes][kPipes] = {};
  Marks marks[kMem];
  std::vector<Issued> issued;
  bool truncated = false;  // too many instructions to keep them all (critical path approximate)
};

// A local-memory operand of the instruction about to be issued (NoteLocal).
struct Access {
  const uint8_t* p;
  uint64_t bytes;
  Use use;
  const char* api;
};

// One launch: its settings, its blocks, and what they share.
struct LaunchState {
  std::string name = "kernel";
  uint32_t block_dim = 1;
  uint64_t tiling_key = 0;
  int kernel_type = KERNEL_TYPE_AIV_ONLY;
  GroupShape shape;
  const SocFacts* soc = nullptr;  // null: the process-wide chip (SetSoc, OCANN_SOC)
  // What the kernel's first statements declared (read before the blocks start).
  int declared_type = -1;
  std::map<uint64_t, int> declared_for_key;
  std::unique_ptr<std::barrier<>> barrier;      // SyncAll<true>: the vector cores
  std::unique_ptr<std::barrier<>> all_barrier;  // SyncAll<false>: every core
  std::vector<Block*> blocks;
  // Cross-core flags: counts of sets per (mode, scope, flag, setter).
  std::mutex flag_mutex;
  std::condition_variable flag_cv;
  std::map<std::array<int64_t, 4>, int64_t> flag_sets;
  std::set<const int32_t*> determine_ready;  // InitDetermineComputeWorkspace done, per workspace
  std::mutex mutex;
  std::vector<std::string> errors, warnings;
  std::set<std::string> warned;
  std::vector<uint8_t> workspace;
  uint8_t* system_workspace = nullptr;  // SetSysWorkSpace's; else `workspace`
  std::mutex atomic_mutex;
  // Happens-before between blocks (emu_happens_before.cpp), under flag_mutex: per flag key
  // the joined clocks of its sets so far (entry k: sets 0..k); per (GM word, value) the
  // clock of the block that stored it; per (barrier, round) the join of its arrivals.
  std::map<std::array<int64_t, 4>, std::vector<std::vector<uint32_t>>> flag_clocks;
  std::map<std::pair<uintptr_t, int64_t>, std::vector<uint32_t>> word_clocks;
  std::map<std::pair<int, int64_t>, std::vector<uint32_t>> barrier_clocks;
};

// A run of global bytes one block wrote in one epoch of its clock.
struct GmWrite {
  uintptr_t start, end;  // [start, end)
  uint32_t epoch;
  // What was written, where the write path tells (DataCopy to GM): a hash of the bytes, over
  // `hashed` of the `pieces` merged into this range. Identical writes by two blocks are
  // harmless, and only then can the overlap check tell them apart from a race.
  uint64_t hash = 1469598103934665603ull;
  uint32_t pieces = 1, hashed = 0;
};

// One core's run of the kernel: its place in the launch, local memory, timeline and checks.
struct Block {
  LaunchState* launch = nullptr;
  int64_t idx = 0;
  int32_t core = AIV;
  int64_t sub = 0, group = 0;  // index among its group's vector cores; its group (AI core)
  bool probe = false;          // reading the kernel type only
  bool finished = false;       // under launch->flag_mutex
  bool started = false;        // under launch->flag_mutex
  bool flag_waiting = false;   // in CrossCoreWaitFlag, under launch->flag_mutex
  uint16_t wait_flag = 0;      // what it waits for
  int32_t soft_syncs = 0;      // soft SyncAll calls so far
  std::map<uint64_t, int32_t> ib_waits;                             // IBWait calls per slot
  int32_t pre_block_waits = 0;                                      // WaitPreBlock calls so far
  std::map<std::pair<const void*, uint32_t>, int32_t> group_waits;  // (barrier, waitIndex)
  int64_t wait_need = 0;
  std::map<std::array<int64_t, 2>, int64_t> flag_waits;  // (mode, flag) -> waits done
  bool faulted = false;
  bool needed_cube = false;      // faulted on a cube instruction on a vector core
  bool needed_mix = false;       // faulted on the Matmul API in a launch without cube cores
  bool asked_core_type = false;  // read g_coreType / ASCEND_IS_AIC and friends
  std::vector<uint8_t> local[kMem];
  uint32_t used[kMem] = {};
  double cycles[kPipes] = {};  // busy cycles per pipe
  Timeline timeline;
  std::vector<Access> pending;  // operands of the instruction about to be issued
  std::map<std::pair<int, int32_t>, std::array<uint32_t, kPipes>> flags;  // set, not waited
  std::vector<GmWrite> gm_writes;  // merged in order within an epoch
  // Its vector clock: clock[pos] counts its own epochs (a new one after each release and
  // acquire), clock[i] the epoch of block i it is ordered after; learned[i] records when
  // that grew, as (own epoch, block i's epoch), so any past epoch's knowledge can be read.
  size_t pos = 0;
  std::vector<uint32_t> clock;
  std::vector<std::vector<std::pair<uint32_t, uint32_t>>> learned;
  std::map<int, int64_t> barrier_rounds;  // SyncAll calls per barrier
  std::set<std::string> reported;         // race and init errors, once per kind and API
  bool atomic_add = false;                // an atomic mode is on (add, max or min: atomic_op)
  int atomic_op = 0;                      // 0 add, 1 max, 2 min
  uint64_t fixpipe_quant = 0;             // SetFixpipePreQuantFlag
  uint64_t pad_value = 0;                 // SetPadValue's bits
  bool pad_value_set = false;
  bool wrote_global = false;  // any global write, atomic ones included
  MaskState mask;
};

// The reports of the checks, once per kind and API pair in a block.
inline bool FirstReport(Block& b, const std::string& key) { return b.reported.insert(key).second; }

// ----- emu_soc.cpp: the emulated chips, and the kernel types' cores on them -----

const std::vector<SocFacts>& EmulatedSocs();
const SocFacts* FindSocFacts(const char* name);
const char* KernelTypeName(int t);
int TypeOfMode(KernelMode m);
bool IsMixType(int t);
GroupShape ShapeOf(int t);
const SocFacts& SocOf(const LaunchState& l);
int CoresFor(const LaunchState& l);
bool IsMixLaunch(const LaunchState& l);

// ----- emu_context.cpp: the block this thread runs -----

// constinit: no dynamic initialisation, so other files reach it without a TLS wrapper call
// (which clang would emit as an undefined hidden symbol in the shared library).
extern thread_local constinit Block* t_block;  // null outside a launch
// The running block; outside a launch, a stand-in for API calls made from the host (tests of
// single calls). Ends the look at a kernel's declarations (throws ProbeEnd).
Block& Current();
// "[block 3]", or "[block 1 AIC]" in a mix launch.
std::string BlockLabel(const Block& b);

// ----- emu_happens_before.cpp: the order between blocks' global writes -----

// Sizes every block's clock (after the launch's blocks are made).
void InitClocks(LaunchState& l);
// The block's clock as it lets go of its earlier writes (a flag set, a stored GM word, a
// barrier arrival); later writes are a new epoch.
std::vector<uint32_t> ReleaseClock(Block& b);
// The block is now ordered after what `c` had seen.
void AcquireClock(Block& b, const std::vector<uint32_t>& c);
// Under l.flag_mutex: the release of a flag set, of a GM word reaching `value`, and the
// acquires that take them; a barrier round's arrival and departure.
void ReleaseFlag(LaunchState& l, Block& b, const std::array<int64_t, 4>& key);
void AcquireFlag(LaunchState& l, Block& b, const std::array<int64_t, 4>& key, int64_t sets);
void ReleaseWord(LaunchState& l, Block& b, const void* word, int64_t value);
void AcquireWord(LaunchState& l, Block& b, const void* word, int64_t value);
std::pair<int, int64_t> ArriveBarrier(LaunchState& l, Block& b, int barrier);
void LeaveBarrier(LaunchState& l, Block& b, const std::pair<int, int64_t>& round);
// Whether block a's write in epoch ea is ordered with block b's in epoch eb.
bool Ordered(const Block& a, uint32_t ea, const Block& b, uint32_t eb);

// ----- emu_memory.cpp -----

// Which local memory of the block `p` lies in, and its byte offset; kGM when none.
Memory Locate(Block& b, const uint8_t* p, uint64_t* offset);
// Two blocks writing the same global bytes without atomics, reported into the launch's errors.
void CheckGlobalOverlaps(LaunchState& l);

// ----- emu_cost.cpp: a finished launch's cost -----

// The cost estimate of a finished launch: the slowest block's time with its pipes
// overlapping, times the waves; busy cycles per pipe; the pipe that bounds it (the most time
// on the critical path).
struct Estimated {
  double busy[kPipes] = {}, path[kPipes] = {};
  double cycles = 0, us = 0;
  int bound = 0;
  const Block* slowest = nullptr;
};
Estimated EstimateOf(const LaunchState& l, const std::vector<std::unique_ptr<Block>>& blocks);
void Estimate(const LaunchState& l, const std::vector<std::unique_ptr<Block>>& blocks,
              LaunchResult* r);

// ----- emu_pipe_sync.cpp -----

// The end of a block that ran to its end: flags set and never waited for (synccheck).
void FinishBlock(Block& b);

// ----- emu_fault.cpp: hardware faults on a block's thread -----

// While armed, SIGSEGV/SIGBUS/SIGFPE/SIGILL on this thread jump back to `jump` (sigsetjmp
// it first) instead of ending the process.
struct CrashGuard {
  sigjmp_buf jump;
  std::vector<char> stack = std::vector<char>(64 * 1024);
  CrashGuard();
  ~CrashGuard();
  void Arm();
  void Disarm();
  std::string Describe() const;
};

// ----- emu_report.cpp -----

// The launch's end on stdout: its warnings and errors, the cost report of a launch that ran
// (and the JSON report and trace where asked), and the verdict.
void PrintOutcome(LaunchState& l, const std::vector<std::unique_ptr<Block>>& blocks, bool ok);

}  // namespace detail
}  // namespace AscendC

#pragma GCC visibility pop
