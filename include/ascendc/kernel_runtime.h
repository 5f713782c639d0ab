// The emulation behind the Ascend C API: per-block context, local memory of the SoC, rule
// checks and the cost counters. Implemented in libascendc_emu.
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <stdexcept>
#include <string>
#include <type_traits>

#include "ascendc/kernel_types.h"
#include "securec.h"

namespace AscendC {
namespace detail {

// Local memories of one core, as the SoC has them.
// kBT is the bias table (C2), kFB the fixpipe buffer (C2PIPE2GM).
enum class Memory : uint8_t { kGM, kUB, kL1, kL0A, kL0B, kL0C, kBT, kFB, kCount };
Memory MemoryOf(TPosition pos);
const char* MemoryName(Memory m);

// Pipes the cost model counts (table in docs/ascendc.md).
enum class Pipe : uint8_t { kMTE2, kMTE3, kMTE1, kVector, kCube, kScalar, kCount };

struct SocFacts {
  const char* name;
  int ai_cores, vector_cores;
  double mhz;
  uint32_t capacity[static_cast<int>(Memory::kCount)];  // bytes per core
  uint32_t alignment[static_cast<int>(Memory::kCount)];
};
const SocFacts& CurrentSoc();

// A broken rule: the launcher reports it with the kernel, block, API call and values.
struct KernelFault : std::runtime_error {
  using std::runtime_error::runtime_error;
};

// The library's entry points take C strings only, so kernels built with either C++ string
// ABI (-D_GLIBCXX_USE_CXX11_ABI=0, as CANN's templates set) link against it.
// Raises a fault from an API call (never returns).
[[noreturn]] void FaultText(const char* api, const char* what);
// Records a warning once per (api, message) and block.
void WarnText(const char* api, const char* what);
// Records an error without unwinding (destructors: leaked tensors).
void ErrorText(const char* api, const char* what);
[[noreturn]] inline void Fault(const char* api, const std::string& what) {
  FaultText(api, what.c_str());
}
inline void Warn(const char* api, const std::string& what) { WarnText(api, what.c_str()); }
inline void Error(const char* api, const std::string& what) { ErrorText(api, what.c_str()); }

// Per-core local memory: InitBuffer takes ranges of it.
uint8_t* LocalBase(Memory m);
// Reserves `bytes` of memory `m` for the current pipe; faults when over capacity.
uint32_t ReserveLocal(Memory m, uint32_t bytes, const char* api);
// Bytes of the memory the pipe has handed out in this block.
uint32_t UsedLocal(Memory m);
void ResetLocal();

// Global memory: checks that [p, p+bytes) lies inside one known allocation. Unknown
// pointers (not from GmAlloc or a launch) are accepted.
void CheckGlobal(const void* p, uint64_t bytes, const char* api);
// The same for a view SetGlobalBuffer sets: past the allocation is a warning (nothing is
// accessed yet), the accesses through it are checked as they come.
void CheckGlobalView(const void* p, uint64_t bytes, const char* api);
// Whether [p, p + bytes) lies in one known global allocation, the NPU's padding included.
bool GlobalRangeAllocated(const void* p, uint64_t bytes);
void RegisterGlobal(const void* p, uint64_t bytes);
// The same for memory laid out as the NPU's aclrtMalloc lays it out (rounded up to 32 bytes,
// plus 32): accesses into that padding are legal on the NPU, and reported as a warning.
void RegisterDeviceGlobal(const void* p, uint64_t bytes);
void UnregisterGlobal(const void* p);

// The cost model: each instruction is issued to its pipe with its duration; its local-memory
// operands (noted by the checks as they pass) order it after the instructions that wrote
// what it reads or read what it overwrites, so pipes overlap as far as the data allows
// (double buffering shows its gain). docs/ascendc.md has the model.
void AddCycles(Pipe pipe, double cycles);
// A local-memory operand of the instruction about to be issued: read (kReadChecked: its bytes
// must have been written before), or written.
enum class Use : uint8_t { kRead, kReadChecked, kWrite };
void NoteLocal(const void* p, uint64_t bytes, Use use, const char* api);
// Global memory a block writes (overlaps between blocks are reported at the launch's end).
void NoteGlobalWrite(const void* p, uint64_t bytes);
// A queue tensor used through the API: not after FreeTensor (its generation is gone), not
// written after EnQue.
struct QueueSlot;
void CheckSlotAccess(const QueueSlot* slot, uint32_t generation, bool write, const char* api);
// SetFlag / WaitFlag between pipes, and the flags a queue hand-over implies.
void SetFlagEvent(HardEvent event, int32_t id, const char* api);
void WaitFlagEvent(HardEvent event, int32_t id, const char* api);
void SyncAllPipes();
HardEvent EventOf(pipe_t src, pipe_t dst);
// Vector cycles of the instruction about to be issued, UB bank conflicts counted: operands
// read or written contiguously (count forms), or with block and repeat strides in 32-byte
// blocks for [destination, source 0, source 1] (repeat forms).
double ContiguousVectorCycles(uint64_t bytes);
double StridedVectorCycles(int64_t repeats, const uint32_t blk[3], const uint32_t rep[3]);
// PipeBarrier<PIPE_ALL>: what follows waits for everything before.
void BarrierAllPipes();

int64_t BlockIdx();
int64_t BlockNum();
// The running block's core type (AIC or AIV), its index among the AIVs of its AI core, and
// how many cores of its type the launch runs per blockDim unit (GetTaskRation).
int32_t CoreType();
int64_t SubBlockIdx();
int64_t TaskRatio();
// KERNEL_TASK_TYPE_DEFAULT / KERNEL_TASK_TYPE: the launch reads them before it starts the
// blocks (the kernel's first statements), so the right cores run.
void DeclareKernelType(int type);
void DeclareKernelTypeForKey(uint64_t key, int type);
// Faults when an instruction runs on a core type that has no unit for it.
void RequireCore(int32_t core, const char* api);
// The Matmul high-level API needs a cube core in the launch (it serves the vector cores'
// requests in a mix launch): a launch without one faults, naming the kernel types that have.
void RequireCubeUnit(const char* api);
// A Matmul object registered on the cube core of a mix launch: that core serves the vector
// cores' requests and has nothing else to run (never returns).
bool IsMixCube();
[[noreturn]] void EndBlock();
void BlockBarrier(bool aiv_only);  // SyncAll
void CrossCoreSet(int mode, pipe_t pipe, uint16_t flag);
// IBSet (set) / IBWait over the 32-byte slots of a GM workspace of gm_elems int32s.
void InterBlock(int32_t* slots, uint64_t gm_elems, uint64_t ub_elems, int32_t block, int32_t event,
                bool set, bool aiv_only);
// InitDetermineComputeWorkspace / WaitPreBlock / NotifyNextBlock over 32-byte GM slots.
enum class DetermineStep { kInit, kWait, kNotify };
void DetermineCompute(int32_t* slots, uint64_t gm_elems, uint64_t ub_elems, DetermineStep step);
// GroupBarrier's Arrive (arrive) and Wait over a GM workspace of waitSize x 512 bytes.
void GroupBarrierStep(uint8_t* workspace, uint32_t arrive_size, uint32_t wait_size, uint32_t index,
                      bool arrive);
// The soft SyncAll over `cores` 32-byte slots of GM at `slots`.
void SoftSyncAll(int32_t* slots, int64_t cores, const char* api);
void CrossCoreWait(int mode, pipe_t pipe, uint16_t flag);
uint8_t* SystemWorkspace();
// SetSysWorkSpace: the launch's system workspace is the caller's from here on.
void SetSystemWorkspace(uint8_t* workspace);
constexpr uint64_t kSystemWorkspaceBytes = 16ull * 1024 * 1024;  // GetLibApiWorkSpaceSize
bool AtomicAddEnabled();
void SetAtomic(bool add, int dtype_size, bool is_float);
// With an atomic mode on: 0 accumulates (SetAtomicAdd), 1 keeps the max, 2 the min.
int AtomicOp();
void SetAtomicOp(int op);
// The bytes a copy to global memory writes, after NoteGlobalWrite noted the range.
void NoteGlobalWriteData(const void* dst, const void* src, uint64_t bytes);
// SetPadValue's register: the value DataCopyPad (isPad false) fills the padding with.
void SetPadValueBits(uint64_t bits);
bool PadValueBits(uint64_t* bits);  // false until SetPadValue was called
// Serialises atomic read-modify-write on global memory across blocks.
void LockAtomics();
void UnlockAtomics();
// Vector mask state (SetMaskCount / SetVectorMask).
struct MaskState {
  bool counter = false;
  uint64_t mask[2] = {~0ull, ~0ull};
};
MaskState& Mask();
uint64_t TilingKey();
void Print(const char* text);
// The running block's emulated time so far, in cycles of the SoC clock.
double ElapsedCycles();
// assert() in a kernel: prints CANN's message and fails the block (outside a launch: aborts).
[[noreturn]] void AssertFailedText(const char* expr, const char* file, int line, const char* msg);
[[noreturn]] inline void AssertFailed(const char* expr, const char* file, int line,
                                      const std::string& msg) {
  AssertFailedText(expr, file, line, msg.c_str());
}

// The chip a tikicpulib::<soc> target names (cmake/tikicpulibConfig.cmake), unless
// OCANN_SOC says otherwise at run time.
bool SetSoc(const char* name);
inline bool SelectBuildSoc(const char* name) {
  return std::getenv("OCANN_SOC") ? false : SetSoc(name);
}

}  // namespace detail

// Sizes and helpers kernels use.
inline constexpr int32_t DEFAULT_C0_SIZE = 32;   // bytes of a C0 block
inline constexpr uint64_t MASK_PLACEHOLDER = 0;  // mask argument when SetVectorMask set it
inline constexpr uint32_t TOTAL_VEC_LOCAL_SIZE = 192 * 1024;  // UB of an Atlas A2 vector core
inline constexpr uint32_t ONE_BLK_SIZE = 32;
inline constexpr uint32_t ONE_REPEAT_BYTE_SIZE = 256;
constexpr int32_t CeilDivision(int32_t a, int32_t b) { return b == 0 ? 0 : (a + b - 1) / b; }
// Mixed integer types (a uint32_t length and an int constant) as CANN's overloads take them.
template <typename T, typename U>
constexpr std::common_type_t<T, U> DivCeil(T a, U b) {
  using C = std::common_type_t<T, U>;
  return C(b) == 0 ? C(0) : (C(a) + C(b) - 1) / C(b);
}
template <typename T, typename U>
constexpr std::common_type_t<T, U> Ceil(T a, U b) {
  return DivCeil(a, b);
}
template <typename T, typename U>
constexpr std::common_type_t<T, U> ConstCeil(T a, U b) {
  return DivCeil(a, b);
}
template <typename T>
constexpr T AlignUp(T a, T b) {
  return DivCeil(a, b) * b;
}
namespace Std {
template <typename T>
constexpr const T& max(const T& a, const T& b) {
  return a < b ? b : a;
}
template <typename T>
constexpr const T& min(const T& a, const T& b) {
  return b < a ? b : a;
}
template <typename T>
constexpr T abs(T a) {
  return a < T(0) ? T(-a) : a;
}
}  // namespace Std

// Platform queries available in kernels.
inline int64_t GetBlockIdx() { return detail::BlockIdx(); }
inline int64_t GetBlockNum() { return detail::BlockNum(); }
inline int64_t GetSubBlockIdx() { return detail::SubBlockIdx(); }
// The tik2-era helper: this block's start in a GM buffer split into blocks of `length`
// elements (as those samples use it; not in CANN's current API reference).
template <typename T>
inline GM_ADDR ParamOffset(GM_ADDR base, uint64_t length) {
  return base + static_cast<uint64_t>(detail::BlockIdx()) * length * sizeof(T);
}
inline int64_t GetSubBlockNum() { return detail::TaskRatio(); }
inline int64_t GetTaskRatio() { return detail::TaskRatio(); }
inline int64_t GetTaskRation() { return detail::TaskRatio(); }
inline GM_ADDR GetSysWorkSpacePtr() { return detail::SystemWorkspace(); }
// Kernel-launch code without HAVE_WORKSPACE hands the system workspace over itself: the
// front of the workspace it was given (GetLibApiWorkSpaceSize bytes, 16 MiB on Atlas A2), the
// user's part after it.
inline void SetSysWorkSpace(GM_ADDR workspace) { detail::SetSystemWorkspace(workspace); }
inline void SetSysWorkspace(GM_ADDR workspace) { detail::SetSystemWorkspace(workspace); }
inline GM_ADDR GetUserWorkspace(GM_ADDR workspace) {
  return workspace ? workspace + detail::kSystemWorkspaceBytes : nullptr;
}
inline int64_t GetUBSizeInBytes() {
  return detail::CurrentSoc().capacity[static_cast<int>(detail::Memory::kUB)];
}
inline int64_t GetDataBlockSizeInBytes() { return 32; }
// The system counter (50 MHz on Atlas A2), from the emulated time of the block.
inline int64_t GetSystemCycle() {
  return static_cast<int64_t>(detail::ElapsedCycles() * 50.0 / detail::CurrentSoc().mhz);
}
// Hard SyncAll: every vector core of the launch (isAIVOnly), or every core of a mix launch.
template <bool isAIVOnly = true>
inline void SyncAll() {
  detail::BlockBarrier(isAIVOnly);
}
// Cross-core flags: mode 0 syncs all cores of one type, 1 the two vector cores of an AI core,
// 2 the cube core with the vector cores of its AI core.
template <uint8_t modeId, pipe_t pipe>
inline void CrossCoreSetFlag(uint16_t flagId) {
  detail::CrossCoreSet(modeId, pipe, flagId);
}
template <uint8_t modeId = 0, pipe_t pipe = PIPE_S>
inline void CrossCoreWaitFlag(uint16_t flagId) {
  detail::CrossCoreWait(modeId, pipe, flagId);
}
// A barrier on one pipe orders nothing the data dependences do not already order in the
// emulation; PIPE_ALL makes everything after wait for everything before.
template <pipe_t pipe>
inline void PipeBarrier() {
  if (pipe == PIPE_ALL) detail::BarrierAllPipes();
}
inline void pipe_barrier(pipe_t pipe) {
  if (pipe == PIPE_ALL) detail::BarrierAllPipes();
}
// SetFlag/WaitFlag order one pipe after another; the race checks use them (docs/ascendc.md).
template <HardEvent event>
inline void SetFlag(int32_t id) {
  detail::SetFlagEvent(event, id, "SetFlag");
}
template <HardEvent event>
inline void WaitFlag(int32_t id) {
  detail::WaitFlagEvent(event, id, "WaitFlag");
}
inline void SetFlag(HardEvent event, int32_t id) { detail::SetFlagEvent(event, id, "SetFlag"); }
inline void WaitFlag(HardEvent event, int32_t id) { detail::WaitFlagEvent(event, id, "WaitFlag"); }
// The CCE intrinsics kernels also call directly: set_flag/wait_flag(src pipe, dst pipe, id).
inline void set_flag(pipe_t src, pipe_t dst, int32_t id) {
  detail::SetFlagEvent(detail::EventOf(src, dst), id, "set_flag");
}
inline void wait_flag(pipe_t src, pipe_t dst, int32_t id) {
  detail::WaitFlagEvent(detail::EventOf(src, dst), id, "wait_flag");
}
// TQueSync<src, dst>: the same, named by pipes.
template <pipe_t src, pipe_t dst>
struct TQueSync {
  void SetFlag(TEventID id) {
    detail::SetFlagEvent(detail::EventOf(src, dst), id, "TQueSync::SetFlag");
  }
  void WaitFlag(TEventID id) {
    detail::WaitFlagEvent(detail::EventOf(src, dst), id, "TQueSync::WaitFlag");
  }
};

template <typename T>
inline void SetAtomicAdd() {
  detail::SetAtomic(
      true, sizeof(T),
      std::is_floating_point_v<T> || std::is_same_v<T, half> || std::is_same_v<T, bfloat16_t>);
}
inline void SetAtomicNone() { detail::SetAtomic(false, 0, false); }
// The newer name of SetAtomicNone.
inline void DisableDmaAtomic() { SetAtomicNone(); }
// Copies to GM keep the larger (smaller) of the value there and the one copied.
template <typename T>
inline void SetAtomicMax() {
  detail::SetAtomicOp(1);
}
template <typename T>
inline void SetAtomicMin() {
  detail::SetAtomicOp(2);
}

inline void SetMaskCount() { detail::Mask().counter = true; }
inline void SetMaskNorm() { detail::Mask().counter = false; }
template <typename T, MaskMode mode = MaskMode::NORMAL>
inline void SetVectorMask(uint64_t high, uint64_t low) {
  detail::Mask().mask[0] = low;
  detail::Mask().mask[1] = high;
}
// One-value form: in counter mode the element count, in normal mode the first `len` lanes.
template <typename T, MaskMode mode = MaskMode::NORMAL>
inline void SetVectorMask(int32_t len) {
  if (mode == MaskMode::COUNTER) {
    detail::Mask().mask[0] = static_cast<uint64_t>(len);
    detail::Mask().mask[1] = 0;
    return;
  }
  const uint32_t n = len < 0 ? 0u : len > 128 ? 128u : static_cast<uint32_t>(len);
  detail::Mask().mask[0] = n >= 64 ? ~0ull : ((1ull << n) - 1);
  detail::Mask().mask[1] = n <= 64 ? 0 : n >= 128 ? ~0ull : ((1ull << (n - 64)) - 1);
}
inline void ResetMask() { detail::Mask().mask[0] = detail::Mask().mask[1] = ~0ull; }
// A kernel's first call in static tensor programming: the core's vector mask, mask mode and
// atomic mode back to their defaults.
inline void InitSocState() {
  ResetMask();
  SetMaskNorm();
  SetAtomicNone();
}

// printf from a kernel, prefixed with the block as CANN's CPU debug output does.
template <typename... Args>
inline void printf(const char* fmt, Args... args) {
  char buf[1024];
  std::snprintf(buf, sizeof(buf), fmt, args...);
  detail::Print(buf);
}
template <typename... Args>
inline void PRINTF(const char* fmt, Args... args) {
  AscendC::printf(fmt, args...);
}

namespace detail {
inline std::string AssertText() { return ""; }
template <typename... Args>
std::string AssertText(const char* fmt, Args... args) {
  char buf[512];
  std::snprintf(buf, sizeof(buf), fmt, args...);
  return buf;
}
}  // namespace detail

}  // namespace AscendC

// The CCE compiler's scalar min/max builtins, which kernels call unqualified. Plain overloads
// (not templates): with `using namespace std` an exact match is chosen over std::min.
#define OC_CCE_SCALAR_MIN_MAX(T)                   \
  inline T min(T a, T b) { return b < a ? b : a; } \
  inline T max(T a, T b) { return a < b ? b : a; }
OC_CCE_SCALAR_MIN_MAX(int)
OC_CCE_SCALAR_MIN_MAX(unsigned)
OC_CCE_SCALAR_MIN_MAX(long)
OC_CCE_SCALAR_MIN_MAX(unsigned long)
OC_CCE_SCALAR_MIN_MAX(long long)
OC_CCE_SCALAR_MIN_MAX(unsigned long long)
OC_CCE_SCALAR_MIN_MAX(float)
#undef OC_CCE_SCALAR_MIN_MAX

// In CPU debug the core type is known only at run time: these are plain conditions.
// The block's core type as older kernels read it (g_coreType == AIV): AIC, AIV or MIX.
#define g_coreType (::AscendC::detail::CoreType())
#define ASCEND_IS_AIV (::AscendC::detail::CoreType() == ::AscendC::AIV)
#define ASCEND_IS_AIC (::AscendC::detail::CoreType() == ::AscendC::AIC)
#define ASCEND_IS_NOT_AIV (::AscendC::detail::CoreType() != ::AscendC::AIV)
#define ASCEND_IS_NOT_AIC (::AscendC::detail::CoreType() != ::AscendC::AIC)
#define KERNEL_TASK_TYPE_DEFAULT(type) ::AscendC::detail::DeclareKernelType(static_cast<int>(type))
#define KERNEL_TASK_TYPE(key, type) \
  ::AscendC::detail::DeclareKernelTypeForKey(static_cast<uint64_t>(key), static_cast<int>(type))

// assert(expr) and assert(expr, fmt, ...) in kernels, as CANN's: a failed one prints
// "[ASSERT] file:line: : Assertion `expr' failed." and fails the block. Disabled by NDEBUG.
#include <cassert>
#undef assert
#ifdef NDEBUG
#define assert(...) ((void)0)
#else
#define assert(expr, ...)                                              \
  ((expr) ? (void)0                                                    \
          : ::AscendC::detail::AssertFailed(#expr, __FILE__, __LINE__, \
                                            ::AscendC::detail::AssertText(__VA_ARGS__)))
#endif
#define ascendc_assert assert
// ASSERT(expr): the spelling public kernels use for the same check (13 kernels of the census
// in issue 33 used it); a program's own ASSERT, defined before, wins.
// Compiled as for the NPU (ccec, operator packages: OCANN_NPU_COMPILE), ASSERT expands to
// nothing, as CANN's device compile has it: public kernels that build for the NPU write
// `x ASSERT(...);` after a statement (inferred from such kernels; not confirmed from CANN's
// headers). assert() stays checked there.
#ifndef ASSERT
#ifdef OCANN_NPU_COMPILE
#define ASSERT(...)
#else
#define ASSERT(...) assert(__VA_ARGS__)
#endif
#endif

// KERNEL_LOG(level, fmt, ...): a line from a kernel with its level, as CANN's CPU debug logs
// it; ASCENDC_ASSERT(cond, behaviour): the CPU-debug check that runs `behaviour` (typically
// a KERNEL_LOG) and fails the block when cond is false.
enum KernelLogLevel { KERNEL_DEBUG = 0, KERNEL_INFO, KERNEL_WARN, KERNEL_ERROR };
#define KERNEL_LOG(level, fmt, ...)                     \
  ::AscendC::printf("[%s] " fmt "\n",                   \
                    (level) == KERNEL_ERROR  ? "ERROR"  \
                    : (level) == KERNEL_WARN ? "WARN"   \
                    : (level) == KERNEL_INFO ? "INFO"   \
                                             : "DEBUG", \
                    ##__VA_ARGS__)
#ifndef ASCENDC_ASSERT
#define ASCENDC_ASSERT(cond, behavior)                                           \
  do {                                                                           \
    if (!(cond)) {                                                               \
      behavior;                                                                  \
      ::AscendC::detail::AssertFailed(#cond, __FILE__, __LINE__, std::string()); \
    }                                                                            \
  } while (0)
#endif

#define TILING_KEY_IS(k) (::AscendC::detail::TilingKey() == static_cast<uint64_t>(k))

// Tiling data in a kernel of an operator package: the struct its tiling header registered
// (REGISTER_TILING_DATA_CLASS), copied from the tiling argument.
#define GET_TILING_DATA(var, tiling) \
  ::optiling::OcTilingDataOf var;    \
  std::memcpy(&var, reinterpret_cast<const void*>(tiling), sizeof(var))
// REGISTER_TILING_DEFAULT(Struct): kernels of standard C++ tiling structs; GET_TILING_DATA
// then reads that struct.
#define REGISTER_TILING_DEFAULT(type) \
  namespace optiling {                \
  using OcTilingDataOf = type;        \
  }                                   \
  static_assert(std::is_trivially_copyable_v<type>, "a tiling struct is copied as bytes")
#define GET_TILING_DATA_WITH_STRUCT(type, var, tiling) \
  type var;                                            \
  std::memcpy(&var, reinterpret_cast<const void*>(tiling), sizeof(var))

#ifdef OCANN_TIKICPU_UNMODELLED_SOC
#error \
    "tikicpulib: OpenCANN's Ascend C emulation models Ascend910B1-B4 (split cube/vector cores); the chip this target names is not modelled (see OCANN_TIKICPU_UNMODELLED_SOC)"
#endif
#ifdef OCANN_TIKICPU_SOC
namespace {
[[maybe_unused]] const bool oc_tikicpu_soc_selected =
    ::AscendC::detail::SelectBuildSoc(OCANN_TIKICPU_SOC);
}  // namespace
#endif

// The device compiler's built-in variables block_idx and block_num (kernels compiled as for
// the NPU use them in place of GetBlockIdx/GetBlockNum): objects that read the running
// block's values, so a local variable of the same name still shadows them.
#ifdef OCANN_NPU_COMPILE
namespace AscendC::detail {
struct BlockIdxVariable {
  operator int64_t() const { return ::AscendC::GetBlockIdx(); }
};
struct BlockNumVariable {
  operator int64_t() const { return ::AscendC::GetBlockNum(); }
};
}  // namespace AscendC::detail
inline constexpr ::AscendC::detail::BlockIdxVariable block_idx{};
inline constexpr ::AscendC::detail::BlockNumVariable block_num{};
#endif
