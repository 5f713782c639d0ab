// The Ascend C emulation's runtime: blocks as threads, per-core local memory, checks and
// the cost counters, and the launch report.
#include <algorithm>
#include <array>
#include <barrier>
#include <chrono>
#include <condition_variable>
#include <csetjmp>
#include <csignal>
#include <cstdlib>
#include <fstream>
#include <map>
#include <memory>
#include <mutex>
#include <set>
#include <sstream>
#include <system_error>
#include <thread>
#include <utility>
#include <vector>

#include "opencann/soc_table.h"
#include "tikicpulib.h"

namespace AscendC {
namespace detail {
namespace {

constexpr int kMem = static_cast<int>(Memory::kCount);
constexpr int kPipes = static_cast<int>(Pipe::kCount);
const char* const kPipeNames[kPipes] = {"MTE2", "MTE3", "MTE1", "Vector", "Cube", "Scalar"};
constexpr int kScalarPipe = static_cast<int>(Pipe::kScalar);
// The pipes as HardEvent names them (Fixpipe runs on MTE3 here).
const char* const kEventPipeNames[kPipes] = {"MTE2", "MTE3", "MTE1", "V", "M", "S"};

// The emulated chips' facts, from the one SoC table; alignments per memory from the
// reference (GM unchecked here).
const std::vector<SocFacts>& EmulatedSocs() {
  static const std::vector<SocFacts> socs = [] {
    std::vector<SocFacts> v;
    for (const auto& s : opencann::kSocTable) {
      if (!s.ascendc_emulated) continue;
      v.push_back({s.name,
                   s.aic_cores,
                   s.aiv_cores,
                   s.mhz,
                   {0, s.ub_bytes, s.l1_bytes, s.l0a_bytes, s.l0b_bytes, s.l0c_bytes, s.bt_bytes,
                    s.fb_bytes},
                   // The fixpipe buffer's 64 B is the spec table's; a constraints table
                   // says 128 B (not settled).
                   {0, 32, 32, 512, 512, 64, 64, 64}});
    }
    return v;
  }();
  return socs;
}

const SocFacts* FindSocFacts(const char* name) {
  for (const auto& s : EmulatedSocs())
    if (name && std::string(name) == s.name) return &s;
  return nullptr;
}

const SocFacts* g_soc = nullptr;
// Without SetKernelMode or a declared kernel type a kernel runs on vector cores only (CANN's
// CPU debug defaults to MIX_MODE; docs/ascendc.md says why OpenCANN does not).
KernelMode g_mode = KernelMode::AIV_MODE;
bool g_mode_set = false;
uint64_t g_tiling_key = 0;

// A kernel type's cores per blockDim unit (an "AI core" group): cube cores, vector cores.
struct GroupShape {
  int aic = 0, aiv = 1;
};

const char* KernelTypeName(int t) {
  static const char* const names[] = {"KERNEL_TYPE_AIV_ONLY",    "KERNEL_TYPE_AIC_ONLY",
                                      "KERNEL_TYPE_MIX_AIV_1_0", "KERNEL_TYPE_MIX_AIC_1_0",
                                      "KERNEL_TYPE_MIX_AIC_1_1", "KERNEL_TYPE_MIX_AIC_1_2",
                                      "KERNEL_TYPE_AICORE",      "KERNEL_TYPE_VECTORCORE",
                                      "KERNEL_TYPE_MIX_AICORE",  "KERNEL_TYPE_MIX_VECTOR_CORE"};
  return t >= 0 && t < KERNEL_TYPE_MAX ? names[t] : "an unknown kernel type";
}

int TypeOfMode(KernelMode m) {
  return m == KernelMode::AIV_MODE   ? KERNEL_TYPE_AIV_ONLY
         : m == KernelMode::AIC_MODE ? KERNEL_TYPE_AIC_ONLY
                                     : KERNEL_TYPE_MIX_AIC_1_2;  // 1 cube : 2 vector on 910B
}

bool IsMixType(int t) {
  return t == KERNEL_TYPE_MIX_AIV_1_0 || t == KERNEL_TYPE_MIX_AIC_1_0 ||
         t == KERNEL_TYPE_MIX_AIC_1_1 || t == KERNEL_TYPE_MIX_AIC_1_2;
}

GroupShape ShapeOf(int t) {
  switch (t) {
    case KERNEL_TYPE_AIC_ONLY:
    case KERNEL_TYPE_MIX_AIC_1_0:
      return {1, 0};
    case KERNEL_TYPE_MIX_AIC_1_1:
      return {1, 1};
    case KERNEL_TYPE_MIX_AIC_1_2:
      return {1, 2};
    default:
      return {0, 1};
  }
}

// Thrown to end a block normally (the cube core of a mix Matmul) and to end the launch's
// look at the kernel's first statements (KERNEL_TASK_TYPE_DEFAULT).
struct BlockEnd {};
struct ProbeEnd {};

std::mutex g_gm_mutex;
std::map<uintptr_t, uint64_t> g_gm;         // start -> bytes
std::map<uintptr_t, uint64_t> g_gm_padded;  // start -> bytes GmAlloc reserved (rounded up)

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

struct Access {
  const uint8_t* p;
  uint64_t bytes;
  Use use;
  const char* api;
};

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
  std::mutex atomic_mutex;
};

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
  bool needed_cube = false;  // faulted on a cube instruction on a vector core
  std::vector<uint8_t> local[kMem];
  uint32_t used[kMem] = {};
  double cycles[kPipes] = {};  // busy cycles per pipe
  Timeline timeline;
  std::vector<Access> pending;  // operands of the instruction about to be issued
  std::map<std::pair<int, int32_t>, std::array<uint32_t, kPipes>> flags;  // set, not waited
  std::vector<std::pair<uintptr_t, uintptr_t>> gm_writes;  // [start, end), merged in order
  std::set<std::string> reported;  // race and init errors, once per kind and API
  bool atomic_add = false;
  MaskState mask;
};

// The chip of a launch: its own (a model's --soc_version) or the process-wide one.
const SocFacts& SocOf(const LaunchState& l) { return l.soc ? *l.soc : CurrentSoc(); }

// How many blockDim units run at once: one per AI core when the type has cube cores, one
// per vector core otherwise.
int CoresFor(const LaunchState& l) {
  return l.shape.aic ? SocOf(l).ai_cores : SocOf(l).vector_cores;
}

bool IsMixLaunch(const LaunchState& l) { return l.shape.aic > 0 && l.shape.aiv > 0; }

LaunchState g_host_launch;  // API calls outside ICPU_RUN_KF (tests of single calls)
thread_local Block* t_block = nullptr;
thread_local std::unique_ptr<Block> t_host_block;

Block& Current() {
  if (t_block) {
    if (t_block->probe) throw ProbeEnd{};  // the kernel's declarations are over
    return *t_block;
  }
  if (!t_host_block) {
    t_host_block = std::make_unique<Block>();
    t_host_block->launch = &g_host_launch;
  }
  return *t_host_block;
}

std::string BlockLabel(const Block& b) {
  if (!IsMixLaunch(*b.launch)) return "[block " + std::to_string(b.idx) + "]";
  return "[block " + std::to_string(b.idx) + (b.core == AIC ? " AIC" : " AIV") + "]";
}

std::string Where(const char* api) {
  Block& b = Current();
  return "[kernel " + b.launch->name + "]" + BlockLabel(b) + " " + api + ": ";
}

}  // namespace

const SocFacts& CurrentSoc() {
  // A launch for a model built for a chip uses that chip (LaunchOptions::soc).
  if (t_block && t_block->launch->soc) return *t_block->launch->soc;
  if (!g_soc) {
    g_soc = FindSocFacts(std::getenv("OCANN_SOC"));
    if (!g_soc) g_soc = FindSocFacts(opencann::kDefaultSoc);
  }
  return *g_soc;
}

bool SetSoc(const char* name) {
  const SocFacts* s = FindSocFacts(name);
  if (s) g_soc = s;
  return s != nullptr;
}

Memory MemoryOf(TPosition pos) {
  switch (pos) {
    case TPosition::GM:
      return Memory::kGM;
    case TPosition::A1:
    case TPosition::B1:
    case TPosition::C1:
    case TPosition::TSCM:
      return Memory::kL1;
    case TPosition::A2:
      return Memory::kL0A;
    case TPosition::B2:
      return Memory::kL0B;
    case TPosition::CO1:
      return Memory::kL0C;
    case TPosition::C2:
      return Memory::kBT;
    case TPosition::C2PIPE2GM:
      return Memory::kFB;
    default:
      return Memory::kUB;  // VECIN, VECOUT, VECCALC, CO2, ...
  }
}

const char* MemoryName(Memory m) {
  static const char* const names[] = {"GM", "UB", "L1", "L0A", "L0B", "L0C", "BT", "FB"};
  return names[static_cast<int>(m)];
}

void Fault(const char* api, const std::string& what) {
  Current().faulted = true;
  throw KernelFault(Where(api) + what);
}

void Warn(const char* api, const std::string& what) {
  Block& b = Current();
  std::lock_guard<std::mutex> lock(b.launch->mutex);
  const std::string key = std::to_string(b.idx) + api + what;
  if (b.launch->warned.insert(key).second) b.launch->warnings.push_back(Where(api) + what);
}

void Error(const char* api, const std::string& what) {
  Block& b = Current();
  if (b.faulted) return;  // the fault already explains the state
  std::lock_guard<std::mutex> lock(b.launch->mutex);
  b.launch->errors.push_back(Where(api) + what);
}

uint8_t* LocalBase(Memory m) {
  Block& b = Current();
  auto& mem = b.local[static_cast<int>(m)];
  // Poisoned (NaN for float and half): on the NPU memory nothing wrote holds garbage.
  if (mem.empty())
    mem.assign(std::max<uint32_t>(CurrentSoc().capacity[static_cast<int>(m)], 32), 0xFF);
  return mem.data();
}

uint32_t ReserveLocal(Memory m, uint32_t bytes, const char* api) {
  Block& b = Current();
  const int i = static_cast<int>(m);
  if (m == Memory::kGM) Fault(api, "queues and buffers cannot be placed in GM");
  const uint32_t cap = CurrentSoc().capacity[i];
  const uint32_t align = std::max<uint32_t>(CurrentSoc().alignment[i], 32);
  const uint32_t off = (b.used[i] + align - 1) / align * align;
  if (uint64_t{off} + bytes > cap)
    Fault(api, std::string(MemoryName(m)) + " capacity exceeded: " + std::to_string(bytes) +
                   " more bytes at offset " + std::to_string(off) + ", but " + MemoryName(m) +
                   " has " + std::to_string(cap) + " bytes per core on " + CurrentSoc().name);
  LocalBase(m);
  b.used[i] = off + bytes;
  return off;
}

void ResetLocal() {
  Block& b = Current();
  for (auto& u : b.used) u = 0;
}

void RegisterGlobal(const void* p, uint64_t bytes) {
  std::lock_guard<std::mutex> lock(g_gm_mutex);
  g_gm[reinterpret_cast<uintptr_t>(p)] = bytes;
}

void UnregisterGlobal(const void* p) {
  std::lock_guard<std::mutex> lock(g_gm_mutex);
  g_gm.erase(reinterpret_cast<uintptr_t>(p));
}

void CheckGlobal(const void* p, uint64_t bytes, const char* api) {
  if (t_block && t_block->probe) throw ProbeEnd{};  // the kernel's declarations are over
  const uintptr_t a = reinterpret_cast<uintptr_t>(p);
  std::string problem;
  {
    std::lock_guard<std::mutex> lock(g_gm_mutex);
    auto next = g_gm.upper_bound(a);
    const bool into_next = next != g_gm.end() && a + bytes > next->first;
    if (next != g_gm.begin()) {
      auto prev = std::prev(next);
      const uint64_t size = prev->second;
      auto pad = g_gm_padded.find(prev->first);
      const uint64_t padded = pad == g_gm_padded.end() ? size : pad->second;
      if (a < prev->first + size) {
        // Inside a known allocation: the access must end inside it too.
        if (a + bytes > prev->first + size)
          problem = "global memory access of " + std::to_string(bytes) + " bytes at offset " +
                    std::to_string(a - prev->first) + " runs past the end of its allocation of " +
                    std::to_string(size) + " bytes";
      } else if (a < prev->first + padded) {
        // In the padding GmAlloc adds: past the end of that allocation, whatever follows.
        problem = "global memory access of " + std::to_string(bytes) + " bytes starts at offset " +
                  std::to_string(a - prev->first) + ", " + std::to_string(a - prev->first - size) +
                  " bytes past the end of an allocation of " + std::to_string(size) + " bytes" +
                  (into_next ? " (and runs into the next allocation)" : "");
      }
    }
    // Pointers outside every allocation are memory the emulation does not know: accepted,
    // unless they run into one.
    if (problem.empty() && into_next &&
        (next == g_gm.begin() || a >= std::prev(next)->first + std::prev(next)->second))
      problem = "global memory access of " + std::to_string(bytes) + " bytes starts " +
                std::to_string(next->first - a) + " bytes before an allocation of " +
                std::to_string(next->second) + " bytes and runs into it";
  }
  if (!problem.empty()) Fault(api, problem);
}

namespace {

constexpr size_t kMaxIssued = 4u << 20;  // instructions kept per block for the critical path
constexpr size_t kMaxOperands = 8;       // local-memory operands kept per instruction

// Which local memory of the block `p` lies in, and its byte offset; kGM when none.
Memory Locate(Block& b, const uint8_t* p, uint64_t* offset) {
  for (int m = 1; m < kMem; ++m) {
    const auto& mem = b.local[m];
    if (!mem.empty() && p >= mem.data() && p < mem.data() + mem.size()) {
      *offset = static_cast<uint64_t>(p - mem.data());
      return static_cast<Memory>(m);
    }
  }
  return Memory::kGM;
}

// A pipe as HardEvent names it: Fixpipe is FIX (the cost model runs it on MTE3).
std::string EventToken(int pipe, const std::string& api) {
  return api.rfind("Fixpipe", 0) == 0 ? "FIX" : kEventPipeNames[pipe];
}

// The reports of the checks below, once per kind and API pair in a block.
bool FirstReport(Block& b, const std::string& key) { return b.reported.insert(key).second; }

void Race(Block& b, const char* kind, const char* api, int pipe, const char* other, int other_pipe,
          Memory m, uint64_t offset) {
  const std::string who = other ? other : "an earlier instruction";
  if (!FirstReport(b, std::string("race ") + kind + api + who)) return;
  Error(api, std::string("race (") + kind + ") on " + MemoryName(m) + " byte " +
                 std::to_string(offset) + ": " + kPipeNames[pipe] + " here, " + who + " on " +
                 kPipeNames[other_pipe] +
                 " before, with nothing ordering them (SetFlag/WaitFlag"
                 "<HardEvent::" +
                 EventToken(other_pipe, who) + "_" + EventToken(pipe, api) +
                 ">, a queue, or PipeBarrier<PIPE_ALL>): correct here, a race on the NPU");
}

void Uninitialized(Block& b, const char* api, Memory m, uint64_t off, uint64_t end, uint64_t at) {
  if (!FirstReport(b, std::string("init ") + api)) return;
  Error(api, "reads " + std::to_string(end - off) + " bytes of " + MemoryName(m) + " at offset " +
                 std::to_string(off) + ", of which byte " + std::to_string(at) +
                 " was never written (uninitialized: garbage on the NPU, NaN here)");
}

void Schedule(Block& b, Pipe pipe, double cycles) {
  Timeline& t = b.timeline;
  const int p = static_cast<int>(pipe);
  double start = t.issue;
  int32_t pred = t.last_issue;
  auto wait = [&](double when, int32_t who) {
    if (when > start) start = when, pred = who;
  };
  if (pipe != Pipe::kScalar) wait(t.pipe_free[p], t.last_on_pipe[p]);
  struct Span {
    Timeline::Marks* marks;
    uint64_t first, last;
    bool write;
    uint64_t byte0, byte1;
    const char* api;
  };
  Span spans[8];
  size_t n = 0;
  ++t.count[p];
  for (const Access& a : b.pending) {
    uint64_t off = 0;
    const Memory m = Locate(b, a.p, &off);
    if (m == Memory::kGM || n == 8) continue;
    const bool write = a.use == Use::kWrite;
    Timeline::Marks& mk = t.marks[static_cast<int>(m)];
    if (mk.written.empty()) {
      const size_t bytes = b.local[static_cast<int>(m)].size();
      const size_t blocks = bytes / 32 + 1;
      mk.written.assign(blocks, 0);
      mk.read.assign(blocks, 0);
      mk.writer.assign(blocks, -1);
      mk.reader.assign(blocks, -1);
      mk.wpipe.assign(blocks, -1);
      mk.rpipe.assign(blocks, -1);
      mk.wcount.assign(blocks, 0);
      mk.rcount.assign(blocks, 0);
      mk.wapi.assign(blocks, nullptr);
      mk.rapi.assign(blocks, nullptr);
      mk.init.assign(bytes, 0);
    }
    const uint64_t end_byte = std::min<uint64_t>(off + a.bytes, mk.init.size());
    if (a.use == Use::kReadChecked)
      for (uint64_t i = off; i < end_byte; ++i)
        if (!mk.init[i]) {
          Uninitialized(b, a.api, m, off, end_byte, i);
          break;
        }
    const uint64_t first = off / 32,
                   last = std::min<uint64_t>((off + a.bytes + 31) / 32, mk.written.size());
    for (uint64_t k = first; k < last; ++k) {
      wait(mk.written[k], mk.writer[k]);          // read after write, write after write
      if (write) wait(mk.read[k], mk.reader[k]);  // write after read
      // Two pipes on the same bytes need an order between them (a flag, a queue, a barrier).
      // Scalar accesses are left out: CANN's compiler orders those itself.
      const int wp = mk.wpipe[k], rp = mk.rpipe[k];
      if (p == kScalarPipe) continue;
      if (wp >= 0 && wp != p && wp != kScalarPipe && t.known[p][wp] < mk.wcount[k])
        Race(b, write ? "write after write" : "read after write", a.api, p, mk.wapi[k], wp, m,
             k * 32);
      else if (write && rp >= 0 && rp != p && rp != kScalarPipe && t.known[p][rp] < mk.rcount[k])
        Race(b, "write after read", a.api, p, mk.rapi[k], rp, m, k * 32);
    }
    spans[n++] = {&mk, first, last, write, off, end_byte, a.api};
  }
  // Every operand is checked against the state before this instruction; then it takes effect.
  for (size_t i = 0; i < n; ++i) {
    Timeline::Marks& mk = *spans[i].marks;
    if (spans[i].write)
      std::fill(mk.init.begin() + spans[i].byte0, mk.init.begin() + spans[i].byte1, 1);
    for (uint64_t k = spans[i].first; k < spans[i].last; ++k) {
      if (spans[i].write) {
        mk.wpipe[k] = static_cast<int8_t>(p), mk.wcount[k] = t.count[p], mk.wapi[k] = spans[i].api;
      } else {
        mk.rpipe[k] = static_cast<int8_t>(p), mk.rcount[k] = t.count[p], mk.rapi[k] = spans[i].api;
      }
    }
  }
  const double end = start + cycles;
  const int32_t id = static_cast<int32_t>(t.issued.size());
  if (t.issued.size() < kMaxIssued)
    t.issued.push_back({start, cycles, pred, static_cast<uint8_t>(p),
                        b.pending.empty() ? kPipeNames[p] : b.pending.front().api});
  else
    t.truncated = true;
  const int32_t me = t.truncated ? -1 : id;
  for (size_t i = 0; i < n; ++i)
    for (uint64_t k = spans[i].first; k < spans[i].last; ++k) {
      Timeline::Marks& mk = *spans[i].marks;
      if (spans[i].write) {
        mk.written[k] = end;
        mk.writer[k] = me;
      } else if (end > mk.read[k]) {
        mk.read[k] = end;
        mk.reader[k] = me;
      }
    }
  if (pipe == Pipe::kScalar) {
    t.issue = end;  // the scalar unit issues in order: what follows comes after it
    t.last_issue = me;
  } else {
    t.pipe_free[p] = end;
    t.last_on_pipe[p] = me;
  }
  if (end >= t.end) t.end = end, t.last_end = me;
  b.pending.clear();
}

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

}  // namespace

void AddCycles(Pipe pipe, double cycles) {
  Block& b = Current();
  b.cycles[static_cast<int>(pipe)] += cycles;
  Schedule(b, pipe, cycles);
}

void NoteLocal(const void* p, uint64_t bytes, Use use, const char* api) {
  Block& b = Current();
  const uint8_t* at = static_cast<const uint8_t*>(p);
  if (b.pending.size() < kMaxOperands) {
    b.pending.push_back({at, bytes, use, api});
    return;
  }
  // Past the operand limit (a strided copy notes each burst) a range joins the hull of an
  // operand of the same kind in the same memory. A write may then cover gaps it did not write (an
  // uninitialized read there goes unreported, never a false one); a read loses its initialization
  // check for the same reason.
  uint64_t off = 0;
  const Memory m = Locate(b, at, &off);
  for (Access& a : b.pending) {
    uint64_t a_off = 0;
    if ((a.use == Use::kWrite) != (use == Use::kWrite) || Locate(b, a.p, &a_off) != m) continue;
    const uint8_t* lo = std::min(a.p, at);
    const uint8_t* hi = std::max(a.p + a.bytes, at + bytes);
    a.p = lo;
    a.bytes = static_cast<uint64_t>(hi - lo);
    if (a.use == Use::kReadChecked) a.use = Use::kRead;
    return;
  }
}

void NoteGlobalWrite(const void* p, uint64_t bytes) {
  if (!t_block || t_block->probe || bytes == 0) return;
  Block& b = *t_block;
  if (b.atomic_add) return;  // atomic accumulation from many blocks is the point
  const uintptr_t a = reinterpret_cast<uintptr_t>(p);
  if (!b.gm_writes.empty() && b.gm_writes.back().second == a)
    b.gm_writes.back().second = a + bytes;
  else
    b.gm_writes.emplace_back(a, a + bytes);
}

void CheckSlotAccess(const QueueSlot* slot, uint32_t generation, bool write, const char* api) {
  if (!slot) return;
  if (slot->generation != generation || slot->state == QueueSlot::kFree)
    Fault(api,
          "the tensor was freed (FreeTensor) and is used again: after FreeTensor its "
          "buffer belongs to the queue (AllocTensor or DeQue a new one)");
  if (write && slot->state == QueueSlot::kQueued)
    Fault(api,
          "the tensor is written after EnQue: it belongs to the queue until DeQue, and "
          "on the NPU its consumer may already be reading it");
}

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

int64_t BlockIdx() { return Current().idx; }
int64_t BlockNum() { return Current().launch->block_dim; }

int32_t CoreType() { return t_block && !t_block->probe ? t_block->core : AIV; }
int64_t SubBlockIdx() { return Current().sub; }
int64_t TaskRatio() {
  Block& b = Current();
  return b.core == AIV ? std::max(b.launch->shape.aiv, 1) : 1;
}

void DeclareKernelType(int type) {
  if (t_block && t_block->probe) t_block->launch->declared_type = type;
}
void DeclareKernelTypeForKey(uint64_t key, int type) {
  if (t_block && t_block->probe) t_block->launch->declared_for_key[key] = type;
}

void RequireCore(int32_t core, const char* api) {
  if (!t_block) return;  // single API calls outside a launch (tests) have no core
  Block& b = Current();
  if (b.core == core) return;
  if (core == AIV)
    Fault(api, "this runs on a vector (AIV) core, and the block is a cube (AIC) core of a " +
                   std::string(KernelTypeName(b.launch->kernel_type)) +
                   " launch: guard vector code with `if ASCEND_IS_AIV`");
  b.needed_cube = true;
  Fault(api, "this runs on a cube (AIC) core, and the block is a vector (AIV) core of a " +
                 std::string(KernelTypeName(b.launch->kernel_type)) +
                 " launch: guard cube code with `if ASCEND_IS_AIC` (or launch with a type that "
                 "has cube cores)");
}

bool IsMixCube() {
  Block& b = Current();
  return b.core == AIC && b.launch->shape.aiv > 0;
}
void EndBlock() { throw BlockEnd{}; }

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
  std::barrier<>* barrier = aiv_only || !IsMixLaunch(l) ? l.barrier.get() : l.all_barrier.get();
  if (barrier) barrier->arrive_and_wait();
  SyncAllPipes();
  AddCycles(Pipe::kScalar, 100);
}

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
    __atomic_add_fetch(slots + slot, 1, __ATOMIC_RELEASE);
    AddCycles(Pipe::kMTE3, 210);
    return;
  }
  const int32_t need = ++b.ib_waits[slot];
  WaitForWord(
      slots + slot, need, [&] { return CoreFinished(l, block, !aiv_only); }, api,
      "core " + std::to_string(block) + " finished without IBSet of event " +
          std::to_string(event) + " (on the NPU this core would spin forever)",
      "core " + std::to_string(block) + "'s event " + std::to_string(event) + " did not come");
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
    __atomic_add_fetch(next, 1, __ATOMIC_RELEASE);
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
    __atomic_add_fetch(counters + index * 8, 1, __ATOMIC_RELEASE);
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
  __atomic_store_n(slots + me * 8, round, __ATOMIC_RELEASE);
  for (int64_t c = 0; c < cores; ++c)
    WaitForWord(
        slots + c * 8, round, [&] { return CoreFinished(l, c, false); }, api,
        "core " + std::to_string(c) + " finished without reaching sync " + std::to_string(round) +
            " (on the NPU the cores would spin forever)",
        "core " + std::to_string(c) + " did not reach sync " + std::to_string(round));
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
}

uint8_t* SystemWorkspace() {
  LaunchState& l = *Current().launch;
  std::lock_guard<std::mutex> lock(l.mutex);
  if (l.workspace.empty()) l.workspace.resize(16 << 20);
  return l.workspace.data();
}

bool AtomicAddEnabled() { return Current().atomic_add; }
void SetAtomic(bool add, int, bool) { Current().atomic_add = add; }
void LockAtomics() { Current().launch->atomic_mutex.lock(); }
void UnlockAtomics() { Current().launch->atomic_mutex.unlock(); }
MaskState& Mask() { return Current().mask; }
uint64_t TilingKey() { return t_block ? t_block->launch->tiling_key : g_tiling_key; }
void SetTilingKey(uint64_t key) { g_tiling_key = key; }

double ElapsedCycles() { return Current().timeline.issue; }

void AssertFailed(const char* expr, const char* file, int line, const std::string& msg) {
  std::string text = std::string("[ASSERT] ") + file + ":" + std::to_string(line) +
                     ": : Assertion `" + expr + "' failed.";
  if (!msg.empty()) text += " " + msg;
  if (!t_block) {
    std::fprintf(stderr, "%s\n", text.c_str());
    std::abort();
  }
  std::printf("%s\n", text.c_str());
  std::fflush(stdout);
  Fault("assert", text);
}

void Print(const char* text) {
  Block& b = Current();
  std::lock_guard<std::mutex> lock(b.launch->mutex);
  std::printf("[block %lld] %s", static_cast<long long>(b.idx), text);
  std::fflush(stdout);
}

// ----- queues -----

QueueBase::~QueueBase() {
  for (const auto& s : slots_)
    if (s.state != QueueSlot::kFree)
      Error("TQue",
            std::string("a tensor of this queue was not freed by the end of the kernel (") +
                (s.state == QueueSlot::kQueued ? "still enqueued" : "allocated, never freed") +
                "): every AllocTensor needs a FreeTensor");
}

void QueueBase::Init(uint8_t num, uint32_t bytes, const char* api) {
  if (num == 0) Fault(api, "a queue needs at least one buffer");
  if (!slots_.empty()) Fault(api, "the queue was already given buffers");
  const Memory m = MemoryOf(pos_);
  const uint32_t rounded = (bytes + 31) / 32 * 32;
  slots_.resize(num);
  for (auto& s : slots_) {
    const uint32_t off = ReserveLocal(m, rounded, api);
    s.data = LocalBase(m) + off;
    s.bytes = rounded;
    s.owner = this;
  }
}

void QueueBase::InitAt(const std::vector<uint8_t*>& at, uint32_t bytes, const char* api) {
  if (at.empty()) Fault(api, "a queue needs at least one buffer");
  if (!slots_.empty()) Fault(api, "the queue was already given buffers");
  slots_.resize(at.size());
  for (size_t i = 0; i < at.size(); ++i) {
    slots_[i].data = at[i];
    slots_[i].bytes = bytes;
    slots_[i].owner = this;
  }
}

QueueSlot* QueueBase::Alloc(const char* api) {
  if (slots_.empty()) Fault(api, "the queue has no buffers: call TPipe::InitBuffer first");
  // Buffers are handed out in turn, as TQue does: with two, tile i+1 gets the other buffer
  // even when tile i's is already free, which is what lets the copies overlap the compute.
  for (size_t k = 0; k < slots_.size(); ++k) {
    QueueSlot& s = slots_[(next_ + k) % slots_.size()];
    if (s.state == QueueSlot::kFree) {
      s.state = QueueSlot::kAllocated;
      next_ = (next_ + k + 1) % slots_.size();
      SyncAllPipes();  // FreeTensor/AllocTensor's flags: the next producer after the consumer
      return &s;
    }
  }
  Fault(api, "all " + std::to_string(slots_.size()) +
                 " buffers of the queue are in use: FreeTensor one before allocating again");
}

void QueueBase::Enqueue(QueueSlot* slot, const char* api) {
  if (!slot || slot->owner != this)
    Fault(api, "the tensor does not belong to this queue (AllocTensor it from this queue)");
  if (slot->state != QueueSlot::kAllocated)
    Fault(api, "the tensor is not in the allocated state (enqueued twice, or already freed)");
  if (static_cast<int>(queued_.size()) >= depth_)
    Fault(api, "the queue already holds " + std::to_string(queued_.size()) +
                   " tensors, its depth is " + std::to_string(depth_));
  slot->state = QueueSlot::kQueued;
  queued_.push_back(slot);
}

QueueSlot* QueueBase::Dequeue(const char* api) {
  if (queued_.empty()) Fault(api, "the queue is empty: DeQue without a matching EnQue");
  QueueSlot* s = queued_.front();
  queued_.erase(queued_.begin());
  s->state = QueueSlot::kDequeued;
  SyncAllPipes();  // the flags EnQue/DeQue insert: the consumer comes after the producer
  return s;
}

void QueueBase::Free(QueueSlot* slot, const char* api) {
  if (!slot || slot->owner != this)
    Fault(api, "the tensor does not belong to this queue (it came from another queue or a TBuf)");
  if (slot->state == QueueSlot::kFree) Fault(api, "the tensor was already freed");
  if (slot->state == QueueSlot::kQueued)
    Fault(api, "the tensor is still enqueued: DeQue it before FreeTensor");
  slot->state = QueueSlot::kFree;
  ++slot->generation;
}

// ----- launch -----

namespace {

std::string JsonEscape(const std::string& s) {
  std::string out;
  for (char c : s) {
    if (c == '"' || c == '\\') out += '\\';
    if (c == '\n') {
      out += "\\n";
      continue;
    }
    out += c;
  }
  return out;
}

// Turns SIGSEGV/SIGBUS/SIGFPE/SIGILL on a block's thread into an error of that block.
// Other threads keep the process's previous handling.
thread_local sigjmp_buf* t_jump = nullptr;
thread_local int t_signal = 0;
thread_local void* t_fault_addr = nullptr;
struct sigaction g_previous[32];

void OnFault(int sig, siginfo_t* info, void* ctx) {
  if (t_jump) {
    t_signal = sig;
    t_fault_addr = info ? info->si_addr : nullptr;
    siglongjmp(*t_jump, 1);
  }
  // Not a kernel thread: behave as before we were installed.
  const struct sigaction& prev = g_previous[sig];
  if (prev.sa_flags & SA_SIGINFO) {
    if (prev.sa_sigaction) return prev.sa_sigaction(sig, info, ctx);
  } else if (prev.sa_handler != SIG_DFL && prev.sa_handler != SIG_IGN) {
    return prev.sa_handler(sig);
  }
  signal(sig, SIG_DFL);
  raise(sig);
}

void InstallFaultHandlers() {
  static std::once_flag once;
  std::call_once(once, [] {
    struct sigaction sa {};
    sa.sa_sigaction = OnFault;
    sa.sa_flags = SA_SIGINFO | SA_ONSTACK | SA_NODEFER;
    sigemptyset(&sa.sa_mask);
    for (int sig : {SIGSEGV, SIGBUS, SIGFPE, SIGILL}) sigaction(sig, &sa, &g_previous[sig]);
  });
}

struct CrashGuard {
  sigjmp_buf jump;
  std::vector<char> stack = std::vector<char>(64 * 1024);
  CrashGuard() {
    InstallFaultHandlers();
    stack_t ss{};
    ss.ss_sp = stack.data();
    ss.ss_size = stack.size();
    sigaltstack(&ss, nullptr);  // the handler runs even when the fault is a stack overflow
  }
  ~CrashGuard() {
    Disarm();
    stack_t ss{};
    ss.ss_flags = SS_DISABLE;
    sigaltstack(&ss, nullptr);
  }
  void Arm() { t_jump = &jump; }
  void Disarm() { t_jump = nullptr; }
  std::string Describe() const {
    const char* name = t_signal == SIGSEGV  ? "SIGSEGV (invalid memory access)"
                       : t_signal == SIGBUS ? "SIGBUS (misaligned or unmapped access)"
                       : t_signal == SIGFPE ? "SIGFPE (arithmetic fault)"
                                            : "SIGILL (illegal instruction)";
    char addr[32];
    std::snprintf(addr, sizeof(addr), "%p", t_fault_addr);
    return std::string("the kernel crashed: ") + name + " at address " + addr;
  }
};

// "8 blocks", or for mix launches "2 blocks (2 AIC + 4 AIV)".
std::string LaunchShape(const LaunchState& l) {
  std::string s = std::to_string(l.block_dim) + " blocks";
  if (IsMixLaunch(l))
    s += " (" + std::to_string(l.block_dim * l.shape.aic) + " AIC + " +
         std::to_string(l.block_dim * l.shape.aiv) + " AIV, " + KernelTypeName(l.kernel_type) + ")";
  else if (l.shape.aic)
    s += " (AIC)";
  return s;
}

// Time per pipe on a block's critical path: from its last instruction back through what
// each one waited for.
void CriticalPath(const Timeline& t, double on_path[kPipes]) {
  for (int p = 0; p < kPipes; ++p) on_path[p] = 0;
  for (int32_t i = t.last_end; i >= 0 && i < static_cast<int32_t>(t.issued.size());
       i = t.issued[i].pred)
    on_path[t.issued[i].pipe] += t.issued[i].dur;
}

// The cost estimate of a finished launch: the slowest block's time with its pipes
// overlapping, times the waves; busy cycles per pipe; the pipe that bounds it (the most time
// on the critical path).
struct Estimated {
  double busy[kPipes] = {}, path[kPipes] = {};
  double cycles = 0, us = 0;
  int bound = 0;
  const Block* slowest = nullptr;
};

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

// The pipe timelines as Chrome trace JSON (chrome://tracing, Perfetto): a process per block,
// a thread per pipe, an event per instruction.
void WriteTrace(const LaunchState& l, const std::vector<std::unique_ptr<Block>>& blocks,
                const std::string& path) {
  std::ofstream out(path);
  const double mhz = SocOf(l).mhz;
  out << "{\"displayTimeUnit\": \"ns\", \"traceEvents\": [";
  bool first = true;
  size_t written = 0;
  const size_t limit = 500000;
  for (size_t bi = 0; bi < blocks.size(); ++bi) {
    const Block& b = *blocks[bi];
    out << (first ? "" : ",") << "\n{\"ph\": \"M\", \"name\": \"process_name\", \"pid\": " << bi
        << ", \"args\": {\"name\": \"block " << b.idx << (b.core == AIC ? " AIC" : " AIV")
        << "\"}}";
    first = false;
    for (int p = 0; p < kPipes; ++p)
      out << ",\n{\"ph\": \"M\", \"name\": \"thread_name\", \"pid\": " << bi << ", \"tid\": " << p
          << ", \"args\": {\"name\": \"" << kPipeNames[p] << "\"}}";
    for (const Issued& i : b.timeline.issued) {
      if (written++ >= limit) break;
      out << ",\n{\"ph\": \"X\", \"name\": \"" << JsonEscape(i.api) << "\", \"pid\": " << bi
          << ", \"tid\": " << int(i.pipe) << ", \"ts\": " << i.start / mhz
          << ", \"dur\": " << i.dur / mhz << "}";
    }
  }
  out << "\n]}\n";
  if (!out) std::printf("[WARNING] trace %s could not be written\n", path.c_str());
}

void Report(LaunchState& l, const std::vector<std::unique_ptr<Block>>& blocks) {
  const SocFacts& soc = SocOf(l);
  const int cores = CoresFor(l);
  const double waves = std::ceil(static_cast<double>(l.block_dim) / cores);
  const Estimated e = EstimateOf(l, blocks);
  std::printf(
      "[OpenCANN] %s: %s on %s (%d %s cores, %.0f MHz). Cost ESTIMATE from a "
      "simple model, not a measurement:\n",
      l.name.c_str(), LaunchShape(l).c_str(), soc.name, cores, l.shape.aic ? "AI" : "vector",
      soc.mhz);
  std::printf("  %-7s %16s %14s %16s\n", "pipe", "busy cycles", "busy (us)", "critical path");
  std::ostringstream json;
  json << "{\n  \"kernel\": \"" << JsonEscape(l.name) << "\",\n  \"soc\": \"" << soc.name
       << "\",\n  \"block_dim\": " << l.block_dim << ",\n  \"kernel_type\": \""
       << KernelTypeName(l.kernel_type) << "\",\n  \"cores\": " << cores
       << ",\n  \"mhz\": " << soc.mhz << ",\n  \"estimate\": true,\n  \"cycles\": " << e.cycles
       << ",\n  \"us\": " << e.us << ",\n  \"pipes\": {";
  for (int p = 0; p < kPipes; ++p) {
    const double us = e.busy[p] * waves / soc.mhz;
    std::printf("  %-7s %16.1f %14.3f %16.1f\n", kPipeNames[p], e.busy[p], us, e.path[p]);
    json << (p ? "," : "") << "\n    \"" << kPipeNames[p] << "\": {\"cycles\": " << e.busy[p]
         << ", \"us\": " << us << ", \"critical_path_cycles\": " << e.path[p] << "}";
  }
  std::printf("  time %.1f cycles per block with the pipes overlapping%s: %.3f us; bound by %s\n",
              e.cycles, waves > 1 ? (" x " + std::to_string(int(waves)) + " waves").c_str() : "",
              e.us, kPipeNames[e.bound]);
  json << "\n  },\n  \"bound\": \"" << kPipeNames[e.bound] << "\",\n  \"per_block\": [";
  for (size_t i = 0; i < blocks.size(); ++i) {
    json << (i ? "," : "") << "\n    {\"cycles\": " << blocks[i]->timeline.end;
    for (int p = 0; p < kPipes; ++p)
      json << ", \"" << kPipeNames[p] << "\": " << blocks[i]->cycles[p];
    json << "}";
  }
  json << "\n  ],\n  \"errors\": [";
  for (size_t i = 0; i < l.errors.size(); ++i)
    json << (i ? "," : "") << "\n    \"" << JsonEscape(l.errors[i]) << "\"";
  json << "],\n  \"warnings\": [";
  for (size_t i = 0; i < l.warnings.size(); ++i)
    json << (i ? "," : "") << "\n    \"" << JsonEscape(l.warnings[i]) << "\"";
  json << "]\n}\n";
  // The JSON report and the trace are written only where asked: never into the working
  // folder by default.
  const char* dir = std::getenv("OCANN_ASCENDC_REPORT_DIR");
  if (!dir || !*dir) return;
  const std::string path = std::string(dir) + "/" + l.name + "_cost.json";
  std::ofstream out(path);
  out << json.str();
  if (!out) std::printf("[WARNING] cost report %s could not be written\n", path.c_str());
  WriteTrace(l, blocks, std::string(dir) + "/" + l.name + "_trace.json");
}

}  // namespace

namespace {

// Runs the kernel's first statements on this thread until its first API call, to read what
// KERNEL_TASK_TYPE_DEFAULT / KERNEL_TASK_TYPE declare. Nothing else runs: the first other
// API call ends the look.
void ReadDeclarations(LaunchState& l, const std::function<void()>& body) {
  Block probe;
  probe.launch = &l;
  probe.probe = true;
  Block* saved = t_block;
  t_block = &probe;
  {
    CrashGuard guard;
    if (sigsetjmp(guard.jump, 1) == 0) {
      guard.Arm();
      try {
        body();
      } catch (...) {  // ProbeEnd, or anything the real run will report
      }
    }
    guard.Disarm();
  }
  t_block = saved;
}

// The end of a block that ran to its end: flags set and never waited for (synccheck).
void FinishBlock(Block& b) {
  for (const auto& [key, snapshot] : b.flags)
    Warn("SetFlag", std::string("SetFlag<HardEvent::") + kEventNames[key.first] + ">(" +
                        std::to_string(key.second) +
                        ") has no WaitFlag: an unpaired flag (on the NPU a later PipeBarrier "
                        "or SetFlag of it hangs)");
}

// Two blocks writing the same global bytes without atomics: which value lands is undefined
// on the NPU (the emulation runs blocks as threads, so here too).
void CheckGlobalOverlaps(LaunchState& l) {
  struct Write {
    uintptr_t start, end;
    const Block* block;
  };
  std::vector<Write> all;
  for (const Block* b : l.blocks)
    for (const auto& [start, end] : b->gm_writes) all.push_back({start, end, b});
  std::sort(all.begin(), all.end(),
            [](const Write& a, const Write& b) { return a.start < b.start; });
  const Write* reach = nullptr;
  int reported = 0;
  for (const Write& w : all) {
    if (reach && w.start < reach->end && w.block != reach->block && reported < 4) {
      ++reported;
      const uintptr_t from = w.start, to = std::min(w.end, reach->end);
      std::string where;
      {
        std::lock_guard<std::mutex> lock(g_gm_mutex);
        auto it = g_gm.upper_bound(from);
        if (it != g_gm.begin()) {
          --it;
          if (from < it->first + it->second)
            where = " (bytes " + std::to_string(from - it->first) + ".." +
                    std::to_string(to - it->first) + " of an allocation of " +
                    std::to_string(it->second) + ")";
        }
      }
      l.errors.push_back("[kernel " + l.name + "]" + BlockLabel(*reach->block) + " and" +
                         BlockLabel(*w.block) + " both write " + std::to_string(to - from) +
                         " bytes of global memory" + where +
                         " without atomics: on the NPU which block's value lands is undefined "
                         "(give each block its own range, or SetAtomicAdd)");
    }
    if (!reach || w.end > reach->end) reach = &w;
  }
}

// Errors that differ only in the block are printed once, with the blocks listed.
std::vector<std::string> Collapse(const std::vector<std::string>& lines) {
  std::vector<std::string> keys;
  std::map<std::string, std::vector<std::string>> blocks;
  for (const auto& line : lines) {
    std::string key = line, which;
    const size_t at = line.find("[block ");
    if (at != std::string::npos) {
      const size_t close = line.find(']', at);
      which = line.substr(at + 7, close - at - 7);
      key = line.substr(0, at) + "[block *]" + line.substr(close + 1);
    }
    if (!blocks.count(key)) keys.push_back(key);
    blocks[key].push_back(which);
  }
  std::vector<std::string> out;
  for (const auto& key : keys) {
    auto& b = blocks[key];
    std::stable_sort(b.begin(), b.end(), [](const std::string& x, const std::string& y) {
      return std::atoll(x.c_str()) < std::atoll(y.c_str());
    });
    if (b.size() == 1) {
      out.push_back(b[0].empty() ? key
                                 : key.substr(0, key.find("[block *]")) + "[block " + b[0] + "]" +
                                       key.substr(key.find("[block *]") + 9));
      continue;
    }
    std::string list;
    for (size_t i = 0; i < b.size() && i < 8; ++i) list += (i ? ", " : "") + b[i];
    if (b.size() > 8) list += ", ...";
    const size_t at = key.find("[block *]");
    out.push_back(key.substr(0, at) + "[blocks " + list + "]" + key.substr(at + 9) + " (" +
                  std::to_string(b.size()) + " blocks)");
  }
  return out;
}

}  // namespace

LaunchResult Launch(const char* name, uint32_t block_dim, const std::function<void()>& body,
                    const LaunchOptions& options) {
  LaunchResult result;
  LaunchState l;
  l.name = name;
  l.block_dim = block_dim;
  l.tiling_key = options.tiling_key ? *options.tiling_key : g_tiling_key;
  const bool mode_given = options.mode.has_value() || g_mode_set;
  const KernelMode mode = options.mode ? *options.mode : g_mode;
  auto refuse = [&](const std::string& msg) {
    result.errors.push_back("[kernel " + l.name + "] " + msg);
    if (options.report) {
      std::printf("[ERROR] %s\n[FAILED] %s: the launch did not run\n", result.errors.back().c_str(),
                  name);
      std::fflush(stdout);
    }
    return result;
  };
  if (options.soc && *options.soc) {
    l.soc = FindSocFacts(options.soc);
    if (!l.soc) {
      std::string known;
      for (const auto& s : EmulatedSocs())
        known += (known.empty() ? "" : ", ") + std::string(s.name);
      return refuse(std::string("the model is built for ") + options.soc +
                    ", which the Ascend C emulation does not model (it models " + known + ")");
    }
  }
  if (block_dim == 0 || block_dim > 65535)
    return refuse("blockDim " + std::to_string(block_dim) + " must be 1..65535");
  // The kernel type: what the kernel declares, else SetKernelMode's layout.
  ReadDeclarations(l, body);
  auto keyed = l.declared_for_key.find(l.tiling_key);
  const int declared = keyed != l.declared_for_key.end() ? keyed->second : l.declared_type;
  l.kernel_type = declared >= 0 ? declared : TypeOfMode(mode);
  if (l.kernel_type >= KERNEL_TYPE_AICORE)
    return refuse(std::string(KernelTypeName(l.kernel_type)) +
                  " is a kernel type of coupled-architecture chips (Atlas 300I/310P), which "
                  "the emulation does not model; on Atlas A2 use KERNEL_TYPE_AIV_ONLY, "
                  "_AIC_ONLY or a MIX_AIC type");
  l.shape = ShapeOf(l.kernel_type);
  if (declared >= 0 && mode_given && TypeOfMode(mode) != declared &&
      !(mode == KernelMode::MIX_MODE && IsMixType(declared)))
    l.warnings.push_back("[kernel " + l.name + "] the kernel declares " + KernelTypeName(declared) +
                         "; SetKernelMode's layout (" + KernelTypeName(TypeOfMode(mode)) +
                         ") is not used");
  // Blocks: per blockDim unit, its cube core (index = unit) and its vector cores (index =
  // unit * vector cores per unit + sub-block), as the NPU numbers them.
  std::vector<std::unique_ptr<Block>> blocks;
  for (uint32_t g = 0; g < block_dim; ++g) {
    for (int c = 0; c < l.shape.aic; ++c) {
      blocks.push_back(std::make_unique<Block>());
      blocks.back()->core = AIC;
      blocks.back()->idx = g;
    }
    for (int v = 0; v < l.shape.aiv; ++v) {
      blocks.push_back(std::make_unique<Block>());
      blocks.back()->core = AIV;
      blocks.back()->idx = int64_t{g} * l.shape.aiv + v;
      blocks.back()->sub = v;
    }
    for (size_t k = blocks.size() - l.shape.aic - l.shape.aiv; k < blocks.size(); ++k) {
      blocks[k]->launch = &l;
      blocks[k]->group = g;
      l.blocks.push_back(blocks[k].get());
    }
  }
  // Blocks run as the NPU runs them: at most one unit per core at a time, in waves.
  const uint32_t resident = std::min<uint32_t>(block_dim, static_cast<uint32_t>(CoresFor(l)));
  const int per_unit = l.shape.aic + l.shape.aiv;
  const int synced = l.shape.aiv ? l.shape.aiv : l.shape.aic;
  l.barrier = std::make_unique<std::barrier<>>(static_cast<std::ptrdiff_t>(resident) * synced);
  l.all_barrier =
      std::make_unique<std::barrier<>>(static_cast<std::ptrdiff_t>(resident) * per_unit);
  const bool one_wave = block_dim <= resident;
  auto run_block = [&](Block* blk) {
    t_block = blk;
    // A hardware fault (a wild pointer outside the checked API) ends this block, not the
    // process: the signal handler jumps back here.
    CrashGuard guard;
    if (sigsetjmp(guard.jump, 1) != 0) {
      std::lock_guard<std::mutex> lock(l.mutex);
      l.errors.push_back("[kernel " + l.name + "]" + BlockLabel(*blk) + " " + guard.Describe() +
                         " (the kernel touched memory outside the Ascend C API's checks)");
      blk->faulted = true;
      t_block = nullptr;
      return;
    }
    guard.Arm();
    try {
      body();
      FinishBlock(*blk);
    } catch (const BlockEnd&) {
    } catch (const KernelFault& f) {
      std::lock_guard<std::mutex> lock(l.mutex);
      l.errors.push_back(f.what());
    } catch (const std::exception& e) {
      std::lock_guard<std::mutex> lock(l.mutex);
      l.errors.push_back("[kernel " + l.name + "]" + BlockLabel(*blk) +
                         " C++ exception: " + e.what());
    }
    guard.Disarm();
    t_block = nullptr;
  };
  for (uint32_t first = 0; first < block_dim; first += resident) {
    const uint32_t last = std::min(block_dim, first + resident);
    std::vector<std::thread> threads;
    {
      // The whole wave counts as running before any of it starts (deadlock detection).
      std::lock_guard<std::mutex> lock(l.flag_mutex);
      for (Block* blk : l.blocks)
        if (blk->group >= first && blk->group < last) blk->started = true;
    }
    for (Block* blk : l.blocks) {
      if (blk->group < first || blk->group >= last) continue;
      try {
        threads.emplace_back([&, blk] {
          run_block(blk);
          {
            std::lock_guard<std::mutex> lock(l.flag_mutex);
            blk->finished = true;
          }
          l.flag_cv.notify_all();
          // A finished (or failed) block no longer takes part in SyncAll.
          if (one_wave) {
            if (blk->core == AIV || !l.shape.aiv) l.barrier->arrive_and_drop();
            l.all_barrier->arrive_and_drop();
          }
        });
      } catch (const std::system_error& e) {
        // No thread for this block: the launch fails and says why.
        {
          std::lock_guard<std::mutex> lock(l.flag_mutex);
          blk->finished = true;
        }
        std::lock_guard<std::mutex> lock(l.mutex);
        l.errors.push_back("[kernel " + l.name + "]" + BlockLabel(*blk) +
                           " could not start a thread: " + e.what());
      }
    }
    for (auto& t : threads) t.join();
  }
  CheckGlobalOverlaps(l);
  // A kernel with cube instructions, launched with neither a kernel type nor SetKernelMode,
  // ran on vector cores (OpenCANN's default) and stopped at its first cube instruction
  // before writing any global memory: run it again on cube cores, and say so.
  if (declared < 0 && !mode_given && !l.errors.empty()) {
    bool cube = false, wrote = false;
    for (const Block* b : l.blocks) {
      cube = cube || b->needed_cube;
      wrote = wrote || !b->gm_writes.empty();
    }
    if (cube && !wrote) {
      const std::string note = "[kernel " + l.name +
                               "] runs cube instructions and declares no kernel type: run on cube "
                               "cores (AIC_ONLY); declare KERNEL_TASK_TYPE_DEFAULT or call "
                               "SetKernelMode to choose";
      if (options.report) std::printf("[WARNING] %s\n", note.c_str());
      LaunchOptions again = options;
      again.mode = KernelMode::AIC_MODE;
      LaunchResult r = Launch(name, block_dim, body, again);
      r.warnings.insert(r.warnings.begin(), note);
      return r;
    }
  }
  result.errors = l.errors;
  result.warnings = l.warnings;
  result.ok = l.errors.empty();
  Estimate(l, blocks, &result);
  if (options.report) {
    for (const auto& w : Collapse(l.warnings)) std::printf("[WARNING] %s\n", w.c_str());
    for (const auto& e : Collapse(l.errors)) std::printf("[ERROR] %s\n", e.c_str());
    // The cost of a launch that failed says nothing: only launches that ran get one.
    if (result.ok) Report(l, blocks);
    if (result.ok)
      std::printf("[SUCCESS] %s: %s exit success\n", name, LaunchShape(l).c_str());
    else
      std::printf("[FAILED] %s: %zu errors\n", name, l.errors.size());
    std::fflush(stdout);
  }
  return result;
}

namespace {
template <size_t... I>
void CallWith(void* fn, uint8_t* const* a, std::index_sequence<I...>) {
  using Fn = void (*)(decltype((void)I, static_cast<uint8_t*>(nullptr))...);
  reinterpret_cast<Fn>(fn)(a[I]...);
}
template <size_t... N>
bool Dispatch(void* fn, size_t n, uint8_t* const* a, std::index_sequence<N...>) {
  return ((n == N ? (CallWith(fn, a, std::make_index_sequence<N>{}), true) : false) || ...);
}
}  // namespace

bool CallKernel(void* function, size_t num_args, uint8_t* const* args) {
  return Dispatch(function, num_args, args, std::make_index_sequence<33>{});
}

bool RunKernel(const char* name, uint32_t block_dim, const std::function<void()>& body) {
  return Launch(name, block_dim, body, LaunchOptions{}).ok;
}

}  // namespace detail

void* GmAlloc(size_t size) {
  const size_t rounded = (std::max<size_t>(size, 1) + 31) / 32 * 32;
  void* p = std::aligned_alloc(64, (rounded + 63) / 64 * 64);
  if (!p) return nullptr;
  std::memset(p, 0, rounded);
  detail::RegisterGlobal(p, size);
  {
    std::lock_guard<std::mutex> lock(detail::g_gm_mutex);
    detail::g_gm_padded[reinterpret_cast<uintptr_t>(p)] = (rounded + 63) / 64 * 64;
  }
  return p;
}

void GmFree(void* ptr) {
  if (!ptr) return;
  {
    std::lock_guard<std::mutex> lock(detail::g_gm_mutex);
    detail::g_gm_padded.erase(reinterpret_cast<uintptr_t>(ptr));
    if (!detail::g_gm.erase(reinterpret_cast<uintptr_t>(ptr))) {
      std::fprintf(stderr, "[ERROR] GmFree: %p was not returned by GmAlloc (or freed twice)\n",
                   ptr);
      return;
    }
  }
  std::free(ptr);
}

namespace detail {
void ClearKernelMode() {
  g_mode = KernelMode::AIV_MODE;
  g_mode_set = false;
}
}  // namespace detail

void SetKernelMode(KernelMode mode) {
  detail::g_mode = mode;
  detail::g_mode_set = true;
}

}  // namespace AscendC
