// The block this thread runs (or the host's stand-in outside a launch): the API's questions
// about it (index, core, mask, atomics), and how its faults, errors and warnings are recorded.
#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <memory>
#include <mutex>
#include <string>

#include "emu_state.h"

namespace AscendC {
namespace detail {

constinit thread_local Block* t_block = nullptr;

namespace {

LaunchState g_host_launch;  // API calls outside ICPU_RUN_KF (tests of single calls)
thread_local std::unique_ptr<Block> t_host_block;

std::string Where(const char* api) {
  Block& b = Current();
  return "[kernel " + b.launch->name + "]" + BlockLabel(b) + " " + api + ": ";
}

}  // namespace

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

void FaultText(const char* api, const char* what) {
  Current().faulted = true;
  throw KernelFault(Where(api) + what);
}

void WarnText(const char* api, const char* what) {
  Block& b = Current();
  std::lock_guard<std::mutex> lock(b.launch->mutex);
  const std::string key = std::to_string(b.idx) + api + what;
  if (b.launch->warned.insert(key).second) b.launch->warnings.push_back(Where(api) + what);
}

void ErrorText(const char* api, const char* what) {
  Block& b = Current();
  if (b.faulted) return;  // the fault already explains the state
  std::lock_guard<std::mutex> lock(b.launch->mutex);
  b.launch->errors.push_back(Where(api) + what);
}

int64_t BlockIdx() { return Current().idx; }
int64_t BlockNum() { return Current().launch->block_dim; }

int32_t CoreType() {
  if (!t_block || t_block->probe) return AIV;
  t_block->asked_core_type = true;
  return t_block->core;
}
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

void RequireCubeUnit(const char* api) {
  if (!t_block) return;
  Block& b = Current();
  if (b.launch->shape.aic > 0) return;
  b.needed_cube = true;
  b.needed_mix = true;
  Fault(api, std::string("the Matmul API needs a cube core, and this ") +
                 KernelTypeName(b.launch->kernel_type) +
                 " launch has none: declare KERNEL_TASK_TYPE_DEFAULT(KERNEL_TYPE_MIX_AIC_1_2) or "
                 "call SetKernelMode(KernelMode::MIX_MODE)");
}

bool IsMixCube() {
  Block& b = Current();
  return b.core == AIC && b.launch->shape.aiv > 0;
}
void EndBlock() { throw BlockEnd{}; }

uint8_t* SystemWorkspace() {
  LaunchState& l = *Current().launch;
  std::lock_guard<std::mutex> lock(l.mutex);
  if (l.system_workspace) return l.system_workspace;
  if (l.workspace.empty()) l.workspace.resize(kSystemWorkspaceBytes);
  return l.workspace.data();
}

void SetSystemWorkspace(uint8_t* workspace) {
  LaunchState& l = *Current().launch;
  if (workspace) CheckGlobal(workspace, 1, "SetSysWorkSpace");
  std::lock_guard<std::mutex> lock(l.mutex);
  l.system_workspace = workspace;
}

bool AtomicAddEnabled() { return Current().atomic_add; }
void SetAtomic(bool add, int, bool) {
  Current().atomic_add = add;
  Current().atomic_op = 0;
}
int AtomicOp() { return Current().atomic_op; }
uint64_t& FixpipeQuantFlag() { return Current().fixpipe_quant; }
void SetPadValueBits(uint64_t bits) {
  Current().pad_value = bits;
  Current().pad_value_set = true;
}
bool PadValueBits(uint64_t* bits) {
  *bits = Current().pad_value;
  return Current().pad_value_set;
}
void SetAtomicOp(int op) {
  Current().atomic_add = true;
  Current().atomic_op = op;
}
void LockAtomics() { Current().launch->atomic_mutex.lock(); }
void UnlockAtomics() { Current().launch->atomic_mutex.unlock(); }
MaskState& Mask() { return Current().mask; }

double ElapsedCycles() { return Current().timeline.issue; }

void AssertFailedText(const char* expr, const char* file, int line, const char* msg) {
  std::string text = std::string("[ASSERT] ") + file + ":" + std::to_string(line) +
                     ": : Assertion `" + expr + "' failed.";
  if (msg && *msg) text += std::string(" ") + msg;
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

}  // namespace detail
}  // namespace AscendC
