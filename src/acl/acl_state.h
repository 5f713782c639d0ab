// Process-wide AscendCL state behind the C API. All entry points go through here so
// the C functions stay thin: check arguments, call the runtime, map Status to aclError.
#pragma once

#include <atomic>
#include <map>
#include <memory>
#include <mutex>
#include <new>
#include <stdexcept>
#include <string>
#include <vector>

#include "acl/acl.h"
#include "acl/acl_observers.h"
#include "base/status.h"
#include "runtime/model.h"
#include "runtime/stream.h"

struct aclDataBuffer {
  void* data = nullptr;
  size_t size = 0;
};

struct aclTensorDesc {
  aclDataType dtype = ACL_DT_UNDEFINED;
  aclFormat format = ACL_FORMAT_UNDEFINED;
  std::vector<int64_t> dims;
};

struct aclmdlDataset {
  std::vector<aclDataBuffer*> buffers;
  std::vector<aclTensorDesc*> tensor_descs;  // owned copies, may be null
};

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
// with ACL_SUCCESS). An unknown handle sets *error.
oc::Stream* StreamOf(aclrtStream stream, aclError* error);
// aclFinalize's part in the runtime: every stream the application left is destroyed (queued
// work then fails as uninitialised, running work finishes) so that no worker runs after
// aclFinalize returns. Returns how many streams there were.
size_t ReleaseStreams();

class State {
 public:
  static State& Get();

  bool initialized() const { return initialized_.load(); }
  aclError Init(const char* config_path);
  aclError Finalize();

  // Models
  Result<uint32_t> AddModel(std::shared_ptr<Model> model);
  std::shared_ptr<Model> FindModel(uint32_t id);
  bool RemoveModel(uint32_t id);

  // Device memory bookkeeping: the emulated NPU's allocations.
  void* AllocDevice(size_t size);
  bool FreeDevice(void* p);
  void* AllocHost(size_t size);
  bool FreeHost(void* p);
  // True when [p, p+size) lies inside one device allocation.
  bool IsDevice(const void* p, size_t size = 1) const;
  bool IsHostPinned(const void* p) const;
  // Bytes from p to the end of the aclrtMalloc or aclrtMallocHost allocation holding it;
  // 0 when no allocation does.
  size_t BytesFrom(const void* p) const;
  // The device allocation holding p: its start and size.
  bool DeviceAllocation(const void* p, const void** start, size_t* size) const;

  int num_threads() const { return num_threads_; }
  // How models are loaded: backends in order of preference (aclInit "backends",
  // OCANN_BACKENDS or the default) and the thread count.
  LoadOptions LoadOptionsFor() const;
  const Backend& device_backend() const;

 private:
  State() = default;
  std::atomic<bool> initialized_{false};
  bool ever_finalized_ = false;
  int num_threads_ = 0;
  std::vector<const Backend*> backends_;
  DumpConfig dump_;
  std::shared_ptr<Profiler> profiler_;
  std::mutex mutex_;
  uint32_t next_model_id_ = 1;
  std::map<uint32_t, std::shared_ptr<Model>> models_;
  mutable std::mutex mem_mutex_;
  struct DeviceAllocationInfo {
    size_t size = 0;
    const Backend* backend = nullptr;  // the one that allocated it frees it
  };
  std::map<uintptr_t, DeviceAllocationInfo> device_allocs_;
  std::map<uintptr_t, size_t> host_allocs_;
};

}  // namespace oc::acl

#define OC_ACL_REQUIRE_INIT()                                                          \
  do {                                                                                 \
    if (!::oc::acl::State::Get().initialized())                                        \
      return ::oc::acl::Fail(ACL_ERROR_UNINITIALIZE,                                   \
                             std::string(__func__) + ": aclInit has not been called"); \
  } while (0)

#define OC_ACL_CHECK_NULL(p)                                                                   \
  do {                                                                                         \
    if ((p) == nullptr)                                                                        \
      return ::oc::acl::Fail(ACL_ERROR_INVALID_PARAM,                                          \
                             std::string(__func__) + ": parameter [" #p "] must not be null"); \
  } while (0)
