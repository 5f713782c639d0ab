// A launch: the chip and kernel type it runs with, its blocks as threads in waves, and the
// launcher's entry points with the process-wide tiling key and kernel mode.
#include <algorithm>
#include <barrier>
#include <csetjmp>
#include <cstdio>
#include <exception>
#include <functional>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <system_error>
#include <thread>
#include <utility>
#include <vector>

#include "emu_state.h"

namespace AscendC {
namespace detail {
namespace {

// Without SetKernelMode or a declared kernel type a kernel runs on vector cores only (CANN's
// CPU debug defaults to MIX_MODE; docs/ascendc.md says why OpenCANN does not).
KernelMode g_mode = KernelMode::AIV_MODE;
bool g_mode_set = false;
uint64_t g_tiling_key = 0;

// A launch that cannot run: its one error, printed when the launch reports.
LaunchResult Refuse(const LaunchState& l, const LaunchOptions& options, const std::string& msg) {
  LaunchResult result;
  result.errors.push_back("[kernel " + l.name + "] " + msg);
  if (options.report) {
    std::printf("[ERROR] %s\n[FAILED] %s: the launch did not run\n", result.errors.back().c_str(),
                l.name.c_str());
    std::fflush(stdout);
  }
  return result;
}

// The chip a model was built for (LaunchOptions::soc), when one is named; a refusal when the
// emulation does not model it.
std::optional<std::string> ChooseSoc(LaunchState& l, const char* soc) {
  if (!soc || !*soc) return std::nullopt;
  l.soc = FindSocFacts(soc);
  if (l.soc) return std::nullopt;
  std::string known;
  for (const auto& s : EmulatedSocs()) known += (known.empty() ? "" : ", ") + std::string(s.name);
  return std::string("the model is built for ") + soc +
         ", which the Ascend C emulation does not model (it models " + known + ")";
}

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

// What the kernel declares for the launch's tiling key, else for every key; -1 for nothing.
int DeclaredType(const LaunchState& l) {
  auto keyed = l.declared_for_key.find(l.tiling_key);
  return keyed != l.declared_for_key.end() ? keyed->second : l.declared_type;
}

// The kernel type: what the kernel declares, else SetKernelMode's layout; a refusal for the
// types of chips the emulation does not model.
std::optional<std::string> ChooseKernelType(LaunchState& l, KernelMode mode, bool mode_given) {
  const int declared = DeclaredType(l);
  l.kernel_type = declared >= 0 ? declared : TypeOfMode(mode);
  if (l.kernel_type >= KERNEL_TYPE_AICORE)
    return std::string(KernelTypeName(l.kernel_type)) +
           " is a kernel type of coupled-architecture chips (Atlas 300I/310P), which "
           "the emulation does not model; on Atlas A2 use KERNEL_TYPE_AIV_ONLY, "
           "_AIC_ONLY or a MIX_AIC type";
  l.shape = ShapeOf(l.kernel_type);
  if (declared >= 0 && mode_given && TypeOfMode(mode) != declared &&
      !(mode == KernelMode::MIX_MODE && IsMixType(declared)))
    l.warnings.push_back("[kernel " + l.name + "] the kernel declares " + KernelTypeName(declared) +
                         "; SetKernelMode's layout (" + KernelTypeName(TypeOfMode(mode)) +
                         ") is not used");
  return std::nullopt;
}

// Blocks: per blockDim unit, its cube core (index = unit) and its vector cores (index =
// unit * vector cores per unit + sub-block), as the NPU numbers them.
std::vector<std::unique_ptr<Block>> MakeBlocks(LaunchState& l) {
  std::vector<std::unique_ptr<Block>> blocks;
  for (uint32_t g = 0; g < l.block_dim; ++g) {
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
  return blocks;
}

// One block on this thread. A hardware fault (a wild pointer outside the checked API) ends
// this block, not the process: the signal handler jumps back here.
void RunBlock(LaunchState& l, Block* blk, const std::function<void()>& body) {
  t_block = blk;
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
}

// One wave: the blockDim units [first, last), each of their cores' blocks on its own thread.
void RunWave(LaunchState& l, const std::function<void()>& body, uint32_t first, uint32_t last,
             bool one_wave) {
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
        RunBlock(l, blk, body);
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

// Blocks run as the NPU runs them: at most one unit per core at a time, in waves.
void RunBlocks(LaunchState& l, const std::function<void()>& body) {
  const uint32_t resident = std::min<uint32_t>(l.block_dim, static_cast<uint32_t>(CoresFor(l)));
  const int per_unit = l.shape.aic + l.shape.aiv;
  const int synced = l.shape.aiv ? l.shape.aiv : l.shape.aic;
  l.barrier = std::make_unique<std::barrier<>>(static_cast<std::ptrdiff_t>(resident) * synced);
  l.all_barrier =
      std::make_unique<std::barrier<>>(static_cast<std::ptrdiff_t>(resident) * per_unit);
  const bool one_wave = l.block_dim <= resident;
  for (uint32_t first = 0; first < l.block_dim; first += resident)
    RunWave(l, body, first, std::min(l.block_dim, first + resident), one_wave);
}

// A kernel with cube instructions, launched with neither a kernel type nor SetKernelMode,
// ran on vector cores (OpenCANN's default) and stopped at its first cube instruction
// before writing any global memory. Or it asked each core its type (`if (g_coreType ==
// AIV) return;`, a cube-side Matmul kernel) and so wrote nothing at all on vector cores.
bool StoppedAtCube(const LaunchState& l, bool mode_given) {
  if (DeclaredType(l) >= 0 || mode_given) return false;
  bool cube = false, wrote = false, asked = false;
  for (const Block* b : l.blocks) {
    cube = cube || b->needed_cube;
    wrote = wrote || !b->gm_writes.empty() || b->wrote_global;
    asked = asked || b->asked_core_type;
  }
  if (wrote) return false;
  return l.errors.empty() ? asked : cube;
}

// Such a kernel runs again on cube cores, and says so: a Matmul API kernel in MIX_MODE (CANN's
// CPU debug default, in which its vector cores drive the cube core), others on cube cores.
LaunchResult RelaunchOnCube(const LaunchState& l, const std::function<void()>& body,
                            const LaunchOptions& options) {
  bool mix = false, cube = false;
  for (const Block* b : l.blocks) {
    mix = mix || b->needed_mix;
    cube = cube || b->needed_cube;
  }
  // A kernel that only asked its core type is run as CANN's CPU debug runs it by default.
  mix = mix || !cube;
  const std::string note =
      "[kernel " + l.name + "] " +
      (mix && !cube && l.errors.empty()
           ? "wrote nothing on vector cores after asking its core type, and declares no kernel "
             "type: run in MIX_MODE (1 AIC + 2 AIV per block, CANN's CPU debug default)"
       : mix ? "uses the Matmul API and declares no kernel type: run in MIX_MODE (1 AIC + 2 AIV "
               "per block, CANN's CPU debug default)"
             : "runs cube instructions and declares no kernel type: run on cube cores "
               "(AIC_ONLY)") +
      "; declare KERNEL_TASK_TYPE_DEFAULT or call SetKernelMode to choose";
  if (options.report) std::printf("[WARNING] %s\n", note.c_str());
  LaunchOptions again = options;
  again.mode = mix ? KernelMode::MIX_MODE : KernelMode::AIC_MODE;
  LaunchResult r = Launch(l.name.c_str(), l.block_dim, body, again);
  r.warnings.insert(r.warnings.begin(), note);
  return r;
}

}  // namespace

LaunchResult Launch(const char* name, uint32_t block_dim, const std::function<void()>& body,
                    const LaunchOptions& options) {
  LaunchState l;
  l.name = name;
  l.block_dim = block_dim;
  l.tiling_key = options.tiling_key ? *options.tiling_key : g_tiling_key;
  const bool mode_given = options.mode.has_value() || g_mode_set;
  const KernelMode mode = options.mode ? *options.mode : g_mode;
  if (auto refusal = ChooseSoc(l, options.soc)) return Refuse(l, options, *refusal);
  if (block_dim == 0 || block_dim > 65535)
    return Refuse(l, options, "blockDim " + std::to_string(block_dim) + " must be 1..65535");
  ReadDeclarations(l, body);
  if (auto refusal = ChooseKernelType(l, mode, mode_given)) return Refuse(l, options, *refusal);
  const std::vector<std::unique_ptr<Block>> blocks = MakeBlocks(l);
  InitClocks(l);
  RunBlocks(l, body);
  CheckGlobalOverlaps(l);
  if (StoppedAtCube(l, mode_given)) return RelaunchOnCube(l, body, options);
  // A launch that ran to the end without writing a byte of global memory produced nothing
  // (a skeleton kernel, a path its #if left out): legal, and almost never meant.
  if (l.errors.empty() && std::none_of(l.blocks.begin(), l.blocks.end(),
                                       [](const Block* b) { return b->wrote_global; }))
    l.warnings.push_back("[kernel " + l.name +
                         "] no block wrote global memory: the kernel's outputs are untouched");
  LaunchResult result;
  result.errors = l.errors;
  result.warnings = l.warnings;
  result.ok = l.errors.empty();
  Estimate(l, blocks, &result);
  if (options.report) PrintOutcome(l, blocks, result.ok);
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

uint64_t TilingKey() { return t_block ? t_block->launch->tiling_key : g_tiling_key; }
void SetTilingKey(uint64_t key) { g_tiling_key = key; }

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
