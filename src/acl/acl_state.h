// Process-wide AscendCL state behind the C API. All entry points go through here so
// the C functions stay thin: check arguments, call the runtime, map Status to aclError.
#pragma once

#include <atomic>
#include <condition_variable>
#include <deque>
#include <map>
#include <memory>
#include <mutex>
#include <new>
#include <optional>
#include <shared_mutex>
#include <stdexcept>
#include <string>
#include <vector>

#include "acl/acl.h"
#include "acl/acl_observers.h"
#include "backend/queue.h"
#include "base/memory_probe.h"
#include "base/status.h"
#include "runtime/model.h"

struct aclDataBuffer {
  void* data = nullptr;
  size_t size = 0;
};

struct aclTensorDesc {
  aclDataType dtype = ACL_DT_UNDEFINED;
  aclFormat format = ACL_FORMAT_UNDEFINED;
  std::vector<int64_t> dims;
  void* address = nullptr;  // set in the arrays aclmdlCreateAndGetOpDesc makes
  size_t array_size = 1;    // descriptions in the array this one starts (aclGetTensorDescByIndex)
  // aclSetTensorConst: the tensor's value, which a single op reads instead of its buffer.
  std::shared_ptr<const std::vector<uint8_t>> const_value;
};

struct aclmdlDataset {
  std::vector<aclDataBuffer*> buffers;
  std::vector<aclTensorDesc*> tensor_descs;  // owned copies, may be null
};

struct aclmdlAIPP;
struct aclopAttr;

struct aclmdlDesc {
  uint32_t model_id = 0;
  bool filled = false;
  std::vector<oc::IoDesc> inputs, outputs;
  std::string gear_mode;  // "batch", "image_size", "dims" or empty
  std::vector<std::vector<int64_t>> gears;
  int gear_input = -1;
};

namespace oc::acl {

// Records the message for aclGetRecentErrMsg and returns `code`.
aclError Fail(aclError code, const std::string& message);

// Whether model input `index` is an image static AIPP reads as YUV420SP: its tensor holds
// H * 3/2 rows, and CANN reports it as [N, H, W, C] (acl_aipp.cpp).
bool StaticYuv420SpAippInput(const oc::Model& m, size_t index);

// What failed, for the one Status -> aclError mapping: a model load reports file and
// parse errors with the model codes, an execution its unexpected failures as
// ACL_ERROR_RT_MODEL_EXECUTE, any other call as ACL_ERROR_INTERNAL_ERROR.
enum class Phase { kCall, kLoad, kExecute };
aclError ToAclError(const Status& s, Phase phase);
// Fail(ToAclError(s, phase), "<api>: <status>").
aclError FailStatus(const Status& s, Phase phase, const char* api);
void ClearError();

// Runs `f` (returning aclError), turning an escaping C++ exception into an error code:
// nothing may unwind through the C API.
template <typename F>
aclError Guard(const char* fn, F&& f) {
  try {
    return f();
  } catch (const std::bad_alloc&) {
    return Fail(ACL_ERROR_BAD_ALLOC, std::string(fn) + ": out of memory");
  } catch (const std::exception& e) {
    return Fail(ACL_ERROR_INTERNAL_ERROR, std::string(fn) + ": " + e.what());
  }
}

// The worker behind an aclrtStream handle; null handle = synchronous (returns nullptr
// with ACL_SUCCESS). An unknown handle sets *error. The queue stays alive while the caller
// holds it, even when another thread destroys the stream meanwhile.
std::shared_ptr<oc::Queue> StreamOf(aclrtStream stream, aclError* error);
// aclFinalize's part in the runtime: every stream the application left is destroyed (queued
// work then fails as uninitialised, running work finishes) so that no worker runs after
// aclFinalize returns. Returns how many streams there were.
size_t ReleaseStreams();

// Handles the application holds (data buffers, tensor descriptions, datasets, model
// descriptions, AIPP sets, operator attributes and handles, aclnn tensors and executors): live
// from their create call to their destroy. Every call taking one checks it first, so a stale,
// doubly destroyed or made-up handle is refused with ACL_ERROR_INVALID_PARAM instead of being
// dereferenced (pyACL passes handles as plain integers, and double destroys in cleanup paths
// are common).
//
// The check and the use form one step: a call reading a handle's fields holds ReadHandles()
// from its check to its last read, a call changing or destroying one holds WriteHandles().
// A destroy racing a use therefore comes strictly before it (the use then finds the handle
// gone: ACL_ERROR_INVALID_PARAM) or after it (the use saw a whole object); nothing reads freed
// memory. The lock is held for the reads only, never across a model's execution or any wait:
// an execution copies what it needs out of its datasets, and the device memory it uses stays
// allocated through PinnedAllocation.
void AddHandle(const void* p, const char* kind);
// Removes a live handle of that kind; false when there is none. Call with WriteHandles() held.
bool DropHandle(const void* p, const char* kind);
// The kind a live handle was registered with, or null.
const char* HandleKindOf(const void* p);
// Whether `p` is a live handle of exactly that kind.
inline bool IsHandleKind(const void* p, const char* kind) {
  const char* k = HandleKindOf(p);
  return k && std::string(k) == kind;
}
// Shared while reading handles' fields, exclusive while changing or destroying one. Not
// recursive: a call holding it calls no other public function that takes it.
std::shared_lock<std::shared_mutex> ReadHandles();
std::unique_lock<std::shared_mutex> WriteHandles();

inline const char* HandleKind(const aclDataBuffer*) { return "aclDataBuffer"; }
inline const char* HandleKind(const aclTensorDesc*) { return "aclTensorDesc"; }
inline const char* HandleKind(const aclmdlDataset*) { return "aclmdlDataset"; }
inline const char* HandleKind(const aclmdlDesc*) { return "aclmdlDesc"; }
inline const char* HandleKind(const aclmdlAIPP*) { return "aclmdlAIPP"; }
inline const char* HandleKind(const aclopAttr*) { return "aclopAttr"; }
inline const char* HandleKind(const aclmdlConfigHandle*) { return "aclmdlConfigHandle"; }
// A dataset's own tensor descriptions: readable like any, destroyed with the dataset only.
inline constexpr const char* kDatasetTensorDesc = "aclTensorDesc (owned by a dataset)";
// The arrays aclmdlCreateAndGetOpDesc makes: the first element is destroyed (with the whole
// array) by aclDestroyTensorDesc, the others are read through aclGetTensorDescByIndex.
inline constexpr const char* kTensorDescArray = "aclTensorDesc array";
inline constexpr const char* kTensorDescArrayElement = "aclTensorDesc (element of an array)";

// ACL_SUCCESS when `p` is a live handle of its type; otherwise the error, recorded. The caller
// holds ReadHandles() or WriteHandles() until it has finished with the handle.
template <typename T>
aclError CheckLive(const T* p, const char* name, const char* fn) {
  if (p == nullptr)
    return Fail(ACL_ERROR_INVALID_PARAM,
                std::string(fn) + ": parameter [" + name + "] must not be null");
  const char* kind = HandleKindOf(p);
  const std::string want = HandleKind(p);
  if (kind) {
    const std::string k = kind;
    if (k == want ||
        (want == "aclTensorDesc" &&
         (k == kDatasetTensorDesc || k == kTensorDescArray || k == kTensorDescArrayElement)))
      return ACL_SUCCESS;
  }
  return Fail(ACL_ERROR_INVALID_PARAM,
              std::string(fn) + ": parameter [" + name + "] is not a live " + want + " (" +
                  (kind ? std::string("it is a ") + kind
                        : "destroyed already, or never created by the matching create call") +
                  ")");
}

// What aclCreateTensorDesc (and every call taking or making a tensor description's fields)
// accepts: a dataType and format of acl_base.h (UNDEFINED included), 0 to kMaxTensorDescDims
// dims, each a size, -1 (unknown) or, alone, -2 (unknown rank), describing fewer than 2^63
// bytes. CANN's own documentation states no rank limit for aclCreateTensorDesc (only
// numDims >= 0; ACL_MAX_DIM_CNT, 128, bounds aclmdlIODims); its operators take at most 8 dims
// (aclnn's per-operator tables, Ascend C's K_MAX_DIM), which is the bound taken here.
inline constexpr int64_t kMaxTensorDescDims = 8;
inline constexpr int64_t kUnknownDim = -1;
inline constexpr int64_t kUnknownRankDim = -2;
bool KnownDataType(int v);
bool KnownFormat(int v);
// Empty when the fields are acceptable, else why not.
std::string TensorDescProblem(int dtype, int format, int64_t num_dims, const int64_t* dims);

// An aclrtMalloc or aclrtMallocHost allocation kept allocated while the object lives: aclrtFree
// and aclrtFreeHost wait for it, so a copy or an execution never meets memory freed under it.
// Empty (false) when no live allocation holds `p`.
class PinnedAllocation {
 public:
  PinnedAllocation() = default;
  explicit PinnedAllocation(const void* p);
  ~PinnedAllocation() { Release(); }
  PinnedAllocation(PinnedAllocation&& o) noexcept { *this = std::move(o); }
  PinnedAllocation& operator=(PinnedAllocation&& o) noexcept;
  PinnedAllocation(const PinnedAllocation&) = delete;
  PinnedAllocation& operator=(const PinnedAllocation&) = delete;

  explicit operator bool() const { return start_ != nullptr; }
  bool device() const { return device_; }
  const void* start() const { return start_; }
  // Bytes from p to the allocation's end (0 when p is outside it).
  size_t BytesFrom(const void* p) const;
  // Whether [p, p + bytes) lies inside the allocation.
  bool Holds(const void* p, size_t bytes) const { return bytes <= BytesFrom(p); }
  void Release();

 private:
  const void* start_ = nullptr;
  size_t size_ = 0;
  bool device_ = false;
};

// Work queued on a stream pins what it will touch (the model, datasets, data buffers, device
// allocations) from submission to completion; the calls that destroy or free one of them
// wait for its pins first, so work in flight never meets freed memory.
class InFlight {
 public:
  explicit InFlight(std::vector<const void*> keys);
  ~InFlight();
  InFlight(const InFlight&) = delete;
  InFlight& operator=(const InFlight&) = delete;

 private:
  std::vector<const void*> keys_;
};
void WaitUnpinned(const void* key);
const void* ModelKey(uint32_t model_id);

// The numeric id of a stream (aclrtGetStreamIdFromExceptionInfo), 0 for the default stream.
uint32_t StreamIdOf(aclrtStream stream);
// A failed asynchronous task: kept for aclmdlCreateAndGetOpDesc, and handed to the callback
// aclrtSetExceptionInfoCallback registered (on the stream's thread).
struct FailedTask {
  uint32_t stream_id = 0, task_id = 0, thread_id = 0, error = 0;
  std::string op_name;
  std::vector<aclTensorDesc> inputs, outputs;
};
void ReportFailedTask(FailedTask task);
// Steady-clock microseconds (the clock the model's step records use), and an event from
// `start_us` to now in the profiler's timeline when profiling is on.
double NowUs();
void TimelineEvent(const char* name, const char* category, double start_us);
bool DestroyTensorDescArray(const aclTensorDesc* head);

class State {
 public:
  static State& Get();

  bool initialized() const { return initialized_.load(); }
  aclError Init(const char* config_path);
  // CANN's runtime sets a device up without aclInit (its own samples skip it): the first
  // such call initialises with the defaults, once, and says so. After aclFinalize it does not.
  aclError InitImplicitly(const char* fn);
  aclError Finalize();

  // Models
  Result<uint32_t> AddModel(std::shared_ptr<Model> model);
  std::shared_ptr<Model> FindModel(uint32_t id);
  // A single-operator model loaded by aclopSetModelDir / aclopLoad: dumped under
  // dump_op_switch, profiled as models are.
  void ObserveSingleOp(const std::shared_ptr<Model>& model);
  // The profiler of aclInit's config, or null: copies and callbacks add timeline events.
  std::shared_ptr<Profiler> profiler();
  bool RemoveModel(uint32_t id);
  // The gear an application last set for a model (any dataset): aclmdlGetCurOutputDims.
  void SetCurrentGear(uint32_t id, std::vector<int64_t> gear);
  std::optional<std::vector<int64_t>> CurrentGear(uint32_t id);

  // Device memory bookkeeping: the emulated NPU's allocations.
  void* AllocDevice(size_t size);
  bool FreeDevice(void* p);
  void* AllocHost(size_t size);
  bool FreeHost(void* p);
  // True when [p, p+size) lies inside one device allocation.
  bool IsDevice(const void* p, size_t size = 1) const;
  // True when p lies in device memory freed since (the latest frees whose addresses no
  // allocation took again): a stale device pointer, which aclrtMemcpy must not read.
  bool WasFreedDevice(const void* p) const;
  bool IsHostPinned(const void* p) const;
  // Bytes from p to the end of the aclrtMalloc or aclrtMallocHost allocation holding it;
  // 0 when no allocation does.
  size_t BytesFrom(const void* p) const;
  // Bytes the application holds in aclrtMalloc allocations.
  size_t DeviceBytesInUse() const;
  // The device allocation holding p: its start and size.
  bool DeviceAllocation(const void* p, const void** start, size_t* size) const;
  // PinnedAllocation's part: counts a pin on the live allocation holding p (device or pinned
  // host memory); false when there is none. FreeDevice and FreeHost wait for the pins.
  bool PinAllocation(const void* p, const void** start, size_t* size, bool* device);
  void UnpinAllocation(const void* start);

  int num_threads() const { return num_threads_; }
  // aclInit's {"defaultDevice":{"default_device":"N"}}: the device a thread without a
  // context uses implicitly; -1 when not configured.
  int default_device() const { return default_device_.load(); }
  // How models are loaded: backends in order of preference (aclInit "backends",
  // OCANN_BACKENDS or the default) and the thread count.
  LoadOptions LoadOptionsFor() const;
  const Backend& device_backend() const;

 private:
  State() = default;
  std::atomic<bool> initialized_{false};
  bool ever_finalized_ = false;
  bool implicit_ = false;  // initialised by a runtime call, not aclInit
  int num_threads_ = 0;
  std::atomic<int> default_device_{-1};  // read by the runtime without mutex_
  std::vector<const Backend*> backends_;
  DumpConfig dump_;
  std::shared_ptr<Profiler> profiler_;
  std::mutex mutex_;
  uint32_t next_model_id_ = 1;
  std::map<uint32_t, std::shared_ptr<Model>> models_;
  std::map<uint32_t, std::vector<int64_t>> current_gears_;  // under mutex_
  mutable std::mutex mem_mutex_;
  std::condition_variable unpinned_;          // a pin count dropped to 0
  std::map<uintptr_t, size_t> freed_device_;  // start -> size, under mem_mutex_
  std::deque<uintptr_t> freed_order_;         // oldest first, to bound freed_device_
  struct DeviceAllocationInfo {
    size_t size = 0;
    const Backend* backend = nullptr;  // the one that allocated it frees it
    int pins = 0;                      // PinnedAllocation objects holding it
    bool freeing = false;              // aclrtFree waits for its pins: no longer allocated
  };
  struct HostAllocationInfo {
    size_t size = 0;
    int pins = 0;
    bool freeing = false;
  };
  std::map<uintptr_t, DeviceAllocationInfo> device_allocs_;
  std::map<uintptr_t, HostAllocationInfo> host_allocs_;
};

}  // namespace oc::acl

// For the runtime calls that set a device up (aclrtSetDevice, aclrtCreateContext).
#define OC_ACL_REQUIRE_INIT_OR_IMPLICIT()                                          \
  do {                                                                             \
    if (aclError implicit_init = ::oc::acl::State::Get().InitImplicitly(__func__); \
        implicit_init != ACL_SUCCESS)                                              \
      return implicit_init;                                                        \
  } while (0)

#define OC_ACL_REQUIRE_INIT()                                                          \
  do {                                                                                 \
    if (!::oc::acl::State::Get().initialized())                                        \
      return ::oc::acl::Fail(ACL_ERROR_UNINITIALIZE,                                   \
                             std::string(__func__) + ": aclInit has not been called"); \
  } while (0)

namespace oc::acl {
// CANN's context rule: runtime calls without an explicit context use the calling thread's
// current one (aclrtSetDevice, aclrtCreateContext, aclrtSetCurrentContext) and fail with
// ACL_ERROR_RT_CONTEXT_NULL without it, unless aclInit configured a default device.
aclError RequireContext(const char* fn);
}  // namespace oc::acl

#define OC_ACL_REQUIRE_CONTEXT()                                                \
  do {                                                                          \
    OC_ACL_REQUIRE_INIT();                                                      \
    if (aclError oc_ctx_ = ::oc::acl::RequireContext(__func__)) return oc_ctx_; \
  } while (0)

#define OC_ACL_CHECK_LIVE(p)                                                          \
  do {                                                                                \
    if (aclError oc_live_ = ::oc::acl::CheckLive((p), #p, __func__)) return oc_live_; \
  } while (0)

#define OC_ACL_CHECK_NULL(p)                                                                   \
  do {                                                                                         \
    if ((p) == nullptr)                                                                        \
      return ::oc::acl::Fail(ACL_ERROR_INVALID_PARAM,                                          \
                             std::string(__func__) + ": parameter [" #p "] must not be null"); \
  } while (0)

// A caller's output buffer of `bytes` bytes: null, unmapped or read-only memory is refused with
// ACL_ERROR_INVALID_PARAM (base/memory_probe.h) instead of faulting in the write.
#define OC_ACL_CHECK_OUT(p, bytes)                                                          \
  do {                                                                                      \
    OC_ACL_CHECK_NULL(p);                                                                   \
    if (!::oc::HostRangeWritable((p), (bytes)))                                             \
      return ::oc::acl::Fail(ACL_ERROR_INVALID_PARAM,                                       \
                             std::string(__func__) + ": parameter [" #p "] is not " +       \
                                 "writable memory of " + std::to_string(bytes) + " bytes"); \
  } while (0)
