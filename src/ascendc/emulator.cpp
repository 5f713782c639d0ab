// The Ascend C emulation's runtime: blocks as threads, per-core local memory, checks and
// the cost counters, and the launch report.
#include <algorithm>
#include <barrier>
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
                   {0, s.ub_bytes, s.l1_bytes, s.l0a_bytes, s.l0b_bytes, s.l0c_bytes},
                   {0, 32, 32, 512, 512, 64}});
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
KernelMode g_mode = KernelMode::AIV_MODE;
uint64_t g_tiling_key = 0;

std::mutex g_gm_mutex;
std::map<uintptr_t, uint64_t> g_gm;  // start -> bytes

struct LaunchState {
  std::string name = "kernel";
  uint32_t block_dim = 1;
  uint64_t tiling_key = 0;
  KernelMode mode = KernelMode::AIV_MODE;
  const SocFacts* soc = nullptr;  // null: the process-wide chip (SetSoc, OCANN_SOC)
  std::unique_ptr<std::barrier<>> barrier;
  std::mutex mutex;
  std::vector<std::string> errors, warnings;
  std::set<std::string> warned;
  std::vector<uint8_t> workspace;
  std::mutex atomic_mutex;
};

struct Block {
  LaunchState* launch = nullptr;
  int64_t idx = 0;
  bool faulted = false;
  std::vector<uint8_t> local[kMem];
  uint32_t used[kMem] = {};
  double cycles[kPipes] = {};
  bool atomic_add = false;
  MaskState mask;
};

// The chip of a launch: its own (a model's --soc_version) or the process-wide one.
const SocFacts& SocOf(const LaunchState& l) { return l.soc ? *l.soc : CurrentSoc(); }

int CoresFor(const LaunchState& l) {
  return l.mode == KernelMode::AIV_MODE ? SocOf(l).vector_cores : SocOf(l).ai_cores;
}

LaunchState g_host_launch;  // API calls outside ICPU_RUN_KF (tests of single calls)
thread_local Block* t_block = nullptr;
thread_local std::unique_ptr<Block> t_host_block;

Block& Current() {
  if (t_block) return *t_block;
  if (!t_host_block) {
    t_host_block = std::make_unique<Block>();
    t_host_block->launch = &g_host_launch;
  }
  return *t_host_block;
}

std::string Where(const char* api) {
  Block& b = Current();
  return "[kernel " + b.launch->name + "][block " + std::to_string(b.idx) + "] " + api + ": ";
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
    default:
      return Memory::kUB;  // VECIN, VECOUT, VECCALC, CO2, C2, ...
  }
}

const char* MemoryName(Memory m) {
  static const char* const names[] = {"GM", "UB", "L1", "L0A", "L0B", "L0C"};
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
  if (mem.empty()) mem.resize(std::max<uint32_t>(CurrentSoc().capacity[static_cast<int>(m)], 32));
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
  const uintptr_t a = reinterpret_cast<uintptr_t>(p);
  std::string problem;
  {
    std::lock_guard<std::mutex> lock(g_gm_mutex);
    auto it = g_gm.upper_bound(a);
    if (it != g_gm.end() && a + bytes > it->first)
      problem = "global memory access of " + std::to_string(bytes) + " bytes starts " +
                std::to_string(it->first - a) + " bytes before an allocation of " +
                std::to_string(it->second) + " bytes and runs into it";
    if (problem.empty() && it != g_gm.begin()) {
      --it;
      // Inside a known allocation: the access must end inside it too. Pointers outside
      // every allocation are memory the emulation does not know: accepted.
      if (a < it->first + it->second && a + bytes > it->first + it->second)
        problem = "global memory access of " + std::to_string(bytes) + " bytes at offset " +
                  std::to_string(a - it->first) + " runs past the end of its allocation of " +
                  std::to_string(it->second) + " bytes";
    }
  }
  if (!problem.empty()) Fault(api, problem);
}

void AddCycles(Pipe pipe, double cycles) { Current().cycles[static_cast<int>(pipe)] += cycles; }

int64_t BlockIdx() { return Current().idx; }
int64_t BlockNum() { return Current().launch->block_dim; }

void BlockBarrier() {
  Block& b = Current();
  const int cores = CoresFor(*b.launch);
  // All blocks must be resident at once for SyncAll; more blocks than cores run in waves
  // on the NPU and the barrier never completes.
  if (b.launch->block_dim > static_cast<uint32_t>(cores))
    Fault("SyncAll", "blockDim " + std::to_string(b.launch->block_dim) + " is more than the " +
                         std::to_string(cores) + " cores of " + SocOf(*b.launch).name +
                         ": the blocks would wait for each other forever");
  if (b.launch->barrier) b.launch->barrier->arrive_and_wait();
  AddCycles(Pipe::kScalar, 100);
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

QueueSlot* QueueBase::Alloc(const char* api) {
  if (slots_.empty()) Fault(api, "the queue has no buffers: call TPipe::InitBuffer first");
  for (auto& s : slots_)
    if (s.state == QueueSlot::kFree) {
      s.state = QueueSlot::kAllocated;
      return &s;
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
  return s;
}

void QueueBase::Free(QueueSlot* slot, const char* api) {
  if (!slot || slot->owner != this)
    Fault(api, "the tensor does not belong to this queue (it came from another queue or a TBuf)");
  if (slot->state == QueueSlot::kFree) Fault(api, "the tensor was already freed");
  if (slot->state == QueueSlot::kQueued)
    Fault(api, "the tensor is still enqueued: DeQue it before FreeTensor");
  slot->state = QueueSlot::kFree;
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

// The cost estimate of a finished launch: per-pipe maximum over blocks, waves, bound pipe.
void Estimate(const LaunchState& l, const std::vector<std::unique_ptr<Block>>& blocks,
              LaunchResult* r) {
  const int cores = CoresFor(l);
  const double waves = std::ceil(static_cast<double>(l.block_dim) / cores);
  int bound = 0;
  for (int p = 0; p < kPipes; ++p) {
    r->cycles[p] = 0;
    for (const auto& b : blocks) r->cycles[p] = std::max(r->cycles[p], b->cycles[p]);
    r->us[p] = r->cycles[p] * waves / SocOf(l).mhz;
    if (r->cycles[p] > r->cycles[bound]) bound = p;
  }
  r->bound = kPipeNames[bound];
}

void Report(LaunchState& l, const std::vector<std::unique_ptr<Block>>& blocks) {
  const SocFacts& soc = SocOf(l);
  const int cores = CoresFor(l);
  const double waves = std::ceil(static_cast<double>(l.block_dim) / cores);
  double worst[kPipes] = {};
  for (const auto& b : blocks)
    for (int p = 0; p < kPipes; ++p) worst[p] = std::max(worst[p], b->cycles[p]);
  int bound = 0;
  for (int p = 1; p < kPipes; ++p)
    if (worst[p] > worst[bound]) bound = p;
  std::printf(
      "[OpenCANN] %s: %u blocks on %s (%d %s cores, %.0f MHz). Cost ESTIMATE from a "
      "simple model, not a measurement:\n",
      l.name.c_str(), l.block_dim, soc.name, cores,
      l.mode == KernelMode::AIV_MODE ? "vector" : "AI", soc.mhz);
  std::printf("  %-7s %16s %14s\n", "pipe", "cycles/block", "time (us)");
  std::ostringstream json;
  json << "{\n  \"kernel\": \"" << JsonEscape(l.name) << "\",\n  \"soc\": \"" << soc.name
       << "\",\n  \"block_dim\": " << l.block_dim << ",\n  \"cores\": " << cores
       << ",\n  \"mhz\": " << soc.mhz << ",\n  \"estimate\": true,\n  \"pipes\": {";
  for (int p = 0; p < kPipes; ++p) {
    const double us = worst[p] * waves / soc.mhz;
    std::printf("  %-7s %16.1f %14.3f\n", kPipeNames[p], worst[p], us);
    json << (p ? "," : "") << "\n    \"" << kPipeNames[p] << "\": {\"cycles\": " << worst[p]
         << ", \"us\": " << us << "}";
  }
  std::printf("  bound by %s\n", kPipeNames[bound]);
  json << "\n  },\n  \"bound\": \"" << kPipeNames[bound] << "\",\n  \"per_block\": [";
  for (size_t i = 0; i < blocks.size(); ++i) {
    json << (i ? "," : "") << "\n    {";
    for (int p = 0; p < kPipes; ++p)
      json << (p ? ", " : "") << "\"" << kPipeNames[p] << "\": " << blocks[i]->cycles[p];
    json << "}";
  }
  json << "\n  ],\n  \"errors\": [";
  for (size_t i = 0; i < l.errors.size(); ++i)
    json << (i ? "," : "") << "\n    \"" << JsonEscape(l.errors[i]) << "\"";
  json << "],\n  \"warnings\": [";
  for (size_t i = 0; i < l.warnings.size(); ++i)
    json << (i ? "," : "") << "\n    \"" << JsonEscape(l.warnings[i]) << "\"";
  json << "]\n}\n";
  // The JSON report is written only where asked: never into the working folder by default.
  const char* dir = std::getenv("OCANN_ASCENDC_REPORT_DIR");
  if (!dir || !*dir) return;
  const std::string path = std::string(dir) + "/" + l.name + "_cost.json";
  std::ofstream out(path);
  out << json.str();
  if (!out) std::printf("[WARNING] cost report %s could not be written\n", path.c_str());
}

}  // namespace

LaunchResult Launch(const char* name, uint32_t block_dim, const std::function<void()>& body,
                    const LaunchOptions& options) {
  LaunchResult result;
  LaunchState l;
  l.name = name;
  l.block_dim = block_dim;
  l.tiling_key = options.tiling_key ? *options.tiling_key : g_tiling_key;
  l.mode = options.mode ? *options.mode : g_mode;
  if (options.soc && *options.soc) {
    l.soc = FindSocFacts(options.soc);
    if (!l.soc) {
      std::string known;
      for (const auto& s : EmulatedSocs())
        known += (known.empty() ? "" : ", ") + std::string(s.name);
      result.errors.push_back("[kernel " + l.name + "] the model is built for " + options.soc +
                              ", which the Ascend C emulation does not model (it models " + known +
                              ")");
      if (options.report) std::printf("[ERROR] %s\n", result.errors.back().c_str());
      return result;
    }
  }
  if (block_dim == 0 || block_dim > 65535) {
    result.errors.push_back("[kernel " + l.name + "] blockDim " + std::to_string(block_dim) +
                            " must be 1..65535");
    if (options.report) std::printf("[ERROR] %s\n", result.errors.back().c_str());
    return result;
  }
  // Blocks run as the NPU runs them: at most one per core at a time, in waves.
  const uint32_t resident = std::min<uint32_t>(block_dim, static_cast<uint32_t>(CoresFor(l)));
  l.barrier = std::make_unique<std::barrier<>>(static_cast<std::ptrdiff_t>(resident));
  std::vector<std::unique_ptr<Block>> blocks;
  for (uint32_t i = 0; i < block_dim; ++i) {
    blocks.push_back(std::make_unique<Block>());
    blocks.back()->launch = &l;
    blocks.back()->idx = i;
  }
  auto run_block = [&](uint32_t i) {
    t_block = blocks[i].get();
    // A hardware fault (a wild pointer outside the checked API) ends this block, not the
    // process: the signal handler jumps back here.
    CrashGuard guard;
    if (sigsetjmp(guard.jump, 1) != 0) {
      std::lock_guard<std::mutex> lock(l.mutex);
      l.errors.push_back("[kernel " + l.name + "][block " + std::to_string(i) + "] " +
                         guard.Describe() +
                         " (the kernel touched memory outside the Ascend C API's checks)");
      t_block->faulted = true;
      t_block = nullptr;
      return;
    }
    guard.Arm();
    try {
      body();
    } catch (const KernelFault& f) {
      std::lock_guard<std::mutex> lock(l.mutex);
      l.errors.push_back(f.what());
    } catch (const std::exception& e) {
      std::lock_guard<std::mutex> lock(l.mutex);
      l.errors.push_back("[kernel " + l.name + "][block " + std::to_string(i) +
                         "] C++ exception: " + e.what());
    }
    guard.Disarm();
    t_block = nullptr;
  };
  for (uint32_t first = 0; first < block_dim; first += resident) {
    const uint32_t last = std::min(block_dim, first + resident);
    std::vector<std::thread> threads;
    for (uint32_t i = first; i < last; ++i) {
      try {
        threads.emplace_back([&, i] {
          run_block(i);
          // A finished (or failed) block no longer takes part in SyncAll.
          if (block_dim <= resident) l.barrier->arrive_and_drop();
        });
      } catch (const std::system_error& e) {
        // No thread for this block: the launch fails and says why.
        std::lock_guard<std::mutex> lock(l.mutex);
        l.errors.push_back("[kernel " + l.name + "][block " + std::to_string(i) +
                           "] could not start a thread: " + e.what());
      }
    }
    for (auto& t : threads) t.join();
  }
  result.errors = l.errors;
  result.warnings = l.warnings;
  result.ok = l.errors.empty();
  Estimate(l, blocks, &result);
  if (options.report) {
    for (const auto& w : l.warnings) std::printf("[WARNING] %s\n", w.c_str());
    for (const auto& e : l.errors) std::printf("[ERROR] %s\n", e.c_str());
    Report(l, blocks);
    if (result.ok)
      std::printf("[SUCCESS] %s: %u blocks exit success\n", name, block_dim);
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
  return p;
}

void GmFree(void* ptr) {
  if (!ptr) return;
  {
    std::lock_guard<std::mutex> lock(detail::g_gm_mutex);
    if (!detail::g_gm.erase(reinterpret_cast<uintptr_t>(ptr))) {
      std::fprintf(stderr, "[ERROR] GmFree: %p was not returned by GmAlloc (or freed twice)\n",
                   ptr);
      return;
    }
  }
  std::free(ptr);
}

void SetKernelMode(KernelMode mode) { detail::g_mode = mode; }

}  // namespace AscendC
