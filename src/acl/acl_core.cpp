// aclInit/aclFinalize, versions, error messages, logging.
#include <unistd.h>

#include <cctype>
#include <chrono>
#include <cstdarg>
#include <cstdio>
#include <cstdlib>
#include <nlohmann/json.hpp>

#include "acl/acl_rt_state.h"
#include "acl/acl_state.h"
#include "base/aligned_buffer.h"
#include "base/file.h"
#include "base/log.h"
#include "opp/opp_loader.h"

// libgomp has read its environment by the time this library is initialized (it is a
// dependency): the GOMP_SPINCOUNT that base/omp_wait_policy.cpp set for it is taken back out
// of the application's environment.
extern "C" int oc_omp_wait_policy_applied();
namespace {

// Drops the freed ranges [start, start + size) overlaps: an allocation took their addresses.
void ForgetFreed(std::map<uintptr_t, size_t>& freed, uintptr_t start, size_t size) {
  auto it = freed.upper_bound(start);
  if (it != freed.begin() && std::prev(it)->first + std::prev(it)->second > start) --it;
  while (it != freed.end() && it->first < start + std::max<size_t>(size, 1)) it = freed.erase(it);
}
__attribute__((constructor)) void ForgetOmpWaitPolicyVariable() {
  if (oc_omp_wait_policy_applied()) unsetenv("GOMP_SPINCOUNT");
}
}  // namespace

namespace oc::acl {
namespace {
thread_local std::string g_recent_error;
}

// The error-message code of an aclError: an application's mistake (a bad parameter, a call
// out of order, something not supported) is EH0001, as AscendCL reports user errors (module H,
// a number below 9000); only failures inside the library (ACL_ERROR_INTERNAL_ERROR, the
// 5xxxxx runtime codes) are EH9999 / EE9999. The exact catalog numbers are OpenCANN's: CANN
// does not publish its message catalog.
const char* MessageCode(aclError code) {
  if (code == ACL_ERROR_INTERNAL_ERROR || code == ACL_ERROR_FAILURE) return "EH9999";
  if (code >= 500000) return "EE9999";
  return "EH0001";
}

// CANN's "Solution" line for the codes whose remedy is always the same (the wording is
// OpenCANN's); empty for the others, whose message says what to change.
const char* Solution(aclError code) {
  switch (code) {
    case ACL_ERROR_UNINITIALIZE:
      return "Call aclInit before other AscendCL calls.";
    case ACL_ERROR_REPEAT_INITIALIZE:
      return "Call aclInit once per process (and aclFinalize at its end).";
    case ACL_ERROR_RT_CONTEXT_NULL:
      return "Call aclrtSetDevice or aclrtSetCurrentContext on this thread first.";
    case ACL_ERROR_INVALID_MODEL_ID:
      return "Use the id aclmdlLoadFromFile / aclmdlLoadFromMem returned, before aclmdlUnload.";
    case ACL_ERROR_OP_NOT_FOUND:
      return "Compile the operator with atc --singleop for these descriptions and attributes "
             "and load it with aclopSetModelDir or aclopLoad.";
    case ACL_ERROR_RT_INVALID_DEVICEID:
      return "Use device 0: the emulation has one device.";
    default:
      return "";
  }
}

aclError Fail(aclError code, const std::string& message) {
  g_recent_error = std::string(MessageCode(code)) + ": [" + std::to_string(code) + "] " + message;
  if (const char* solution = Solution(code); *solution)
    g_recent_error += std::string("\n        Solution: ") + solution;
  OC_LOG(kError, message << " (error " << code << ")");
  return code;
}

aclError ToAclError(const Status& s, Phase phase) {
  // A numeric CANN code travels with the status (kernel faults: 507015; gears: 145013).
  const std::string& cann = s.cann_code();
  if (!cann.empty() && std::isdigit(static_cast<unsigned char>(cann[0])))
    return static_cast<aclError>(std::stol(cann));
  // A node no backend here can run: the model cannot be placed.
  if (cann == "EZ3003") return ACL_ERROR_OP_NOT_FOUND;
  switch (s.code()) {
    case StatusCode::kInvalidArgument:
      return ACL_ERROR_INVALID_PARAM;
    case StatusCode::kShapeMismatch:
      // At load the model contradicts itself (as the per-call map had it before);
      // at execution a kernel met shapes it cannot run.
      if (phase == Phase::kLoad) return ACL_ERROR_PARSE_MODEL;
      return phase == Phase::kExecute ? ACL_ERROR_RT_MODEL_EXECUTE : ACL_ERROR_INVALID_PARAM;
    case StatusCode::kOutOfMemory:
      return ACL_ERROR_BAD_ALLOC;
    case StatusCode::kUnsupported:
      return ACL_ERROR_FEATURE_UNSUPPORTED;
    case StatusCode::kNotFound:
    case StatusCode::kIoError:
      return phase == Phase::kLoad ? ACL_ERROR_READ_MODEL_FAILURE : ACL_ERROR_INVALID_FILE;
    case StatusCode::kParseError:
      return phase == Phase::kLoad ? ACL_ERROR_PARSE_MODEL : ACL_ERROR_PARSE_FILE;
    default:
      break;
  }
  switch (phase) {
    case Phase::kLoad:
      return ACL_ERROR_PARSE_MODEL;
    case Phase::kExecute:
      return ACL_ERROR_RT_MODEL_EXECUTE;
    case Phase::kCall:
      break;
  }
  return ACL_ERROR_INTERNAL_ERROR;
}

aclError FailStatus(const Status& s, Phase phase, const char* api) {
  return Fail(ToAclError(s, phase), std::string(api) + ": " + s.ToString());
}

void ClearError() { g_recent_error.clear(); }

State& State::Get() {
  static State* state = new State();  // never destroyed: apps may call us at exit
  return *state;
}

aclError State::InitImplicitly(const char* fn) {
  if (initialized_) return ACL_SUCCESS;
  {
    std::lock_guard<std::mutex> lock(mutex_);
    if (ever_finalized_)
      return Fail(ACL_ERROR_UNINITIALIZE,
                  std::string(fn) + ": aclFinalize has been called; call aclInit again first");
  }
  const aclError e = Init(nullptr);
  if (e == ACL_ERROR_REPEAT_INITIALIZE) return ACL_SUCCESS;  // another thread got there first
  if (e != ACL_SUCCESS) return e;
  {
    std::lock_guard<std::mutex> lock(mutex_);
    implicit_ = true;
  }
  std::fprintf(stderr,
               "[WARNING] %s: aclInit has not been called: initialised with the defaults, as "
               "CANN's runtime does; call aclInit first to pass a configuration\n",
               fn);
  return ACL_SUCCESS;
}

aclError State::Init(const char* config_path) {
  std::lock_guard<std::mutex> lock(mutex_);
  if (initialized_ && implicit_) {
    // aclInit after a runtime call initialised implicitly: without a configuration there is
    // nothing left to do; a configuration comes too late to apply, and saying so is better
    // than ignoring it.
    if (config_path == nullptr || config_path[0] == '\0') {
      implicit_ = false;
      return ACL_SUCCESS;
    }
    return Fail(ACL_ERROR_REPEAT_INITIALIZE,
                "aclInit: the runtime was initialised implicitly by an earlier aclrtSetDevice; "
                "its configuration [" +
                    std::string(config_path) +
                    "] would not apply: call aclInit before any runtime call");
  }
  if (initialized_) return Fail(ACL_ERROR_REPEAT_INITIALIZE, "aclInit: already initialized");
  std::vector<const Backend*> order;  // from the config, else the default
  int default_device = -1;
  if (config_path != nullptr && config_path[0] != '\0') {
    auto text = ReadFile(config_path);
    if (!text.ok())
      return Fail(ACL_ERROR_INVALID_FILE,
                  "aclInit: cannot read config file [" + std::string(config_path) + "]");
    nlohmann::json cfg = nlohmann::json::parse(text.value(), nullptr, false);
    if (cfg.is_discarded() || !cfg.is_object())
      return Fail(ACL_ERROR_PARSE_FILE,
                  "aclInit: config file [" + std::string(config_path) + "] is not a JSON object");
    if (cfg.contains("num_threads")) {
      const auto& n = cfg["num_threads"];
      int64_t threads = 0;
      if (n.is_number_unsigned())
        threads = n.get<uint64_t>() <= 4096 ? static_cast<int64_t>(n.get<uint64_t>()) : 0;
      else if (n.is_number_integer())
        threads = n.get<int64_t>();
      if (threads < 1 || threads > 4096)
        return Fail(ACL_ERROR_INVALID_PARAM,
                    "aclInit: num_threads must be an integer from 1 to 4096");
      num_threads_ = static_cast<int>(threads);
      setenv("OCANN_NUM_THREADS", std::to_string(num_threads_).c_str(), 1);
    }
    if (cfg.contains("defaultDevice")) {
      // CANN writes the id as a string ("0"); a number is taken too.
      const auto& d = cfg["defaultDevice"];
      const nlohmann::json* id =
          d.is_object() && d.contains("default_device") ? &d["default_device"] : nullptr;
      long long device = -1;
      if (id && id->is_string()) {
        const std::string t = id->get<std::string>();
        char* end = nullptr;
        device = t.empty() ? -1 : std::strtoll(t.c_str(), &end, 10);
        if (end && *end) device = -1;
      } else if (id && id->is_number_integer()) {
        device = id->get<long long>();
      }
      if (device != 0)
        return Fail(ACL_ERROR_INVALID_PARAM,
                    "aclInit: defaultDevice.default_device must name a device of this machine; "
                    "OpenCANN emulates 1 NPU (device \"0\")");
      default_device = 0;
    }
    // OpenCANN's own key: which backends run the nodes, in order of preference
    // ("reference,cpu" or a list); OCANN_BACKENDS or the default when absent.
    if (cfg.contains("backends")) {
      std::string names;
      const auto& b = cfg["backends"];
      if (b.is_string()) {
        names = b.get<std::string>();
      } else if (b.is_array()) {
        for (const auto& e : b) {
          if (!e.is_string())
            return Fail(ACL_ERROR_INVALID_PARAM, "aclInit: backends must list backend names");
          names += (names.empty() ? "" : ",") + e.get<std::string>();
        }
      } else {
        return Fail(ACL_ERROR_INVALID_PARAM, "aclInit: backends must be a string or a list");
      }
      auto named = BackendRegistry::Global().Order(names);
      if (!named.ok()) return Fail(ACL_ERROR_INVALID_PARAM, "aclInit: " + named.status().message());
      order = named.value();
    }
    DumpConfig dump;
    ProfileConfig profile;
    Status s = ParseDumpConfig(text.value(), &dump, &profile);
    if (!s.ok())
      return Fail(ACL_ERROR_INVALID_PARAM,
                  "aclInit: config file [" + std::string(config_path) + "]: " + s.message());
    // Folders that cannot be created are an aclInit error, not silence at execution.
    for (const std::string* dir :
         {dump.enabled ? &dump.path : nullptr, profile.enabled ? &profile.output : nullptr}) {
      if (!dir) continue;
      if (Status d = CreateDirectories(*dir); !d.ok())
        return Fail(ACL_ERROR_INVALID_PARAM,
                    "aclInit: config file [" + std::string(config_path) + "]: " + d.message());
    }
    dump_ = dump;
    if (profile.enabled)
      profiler_ = std::make_shared<Profiler>(profile.output + "/PROF_" + std::to_string(getpid()));
  }
  // Custom operator packages: a broken one must not stop applications that do not use it,
  // so its error is reported here; a model that needs its op then fails with EZ3003.
  if (Status p = LoadCustomOpPackages(); !p.ok())
    std::fprintf(stderr, "[WARNING] aclInit: %s\n", p.ToString().c_str());
  if (order.empty()) {
    auto fallback = BackendRegistry::Global().Order();
    if (!fallback.ok())
      return Fail(ACL_ERROR_INVALID_PARAM, "aclInit: " + fallback.status().message());
    order = fallback.value();
  }
  // Written only here, before initialized_ is set: readers need no lock.
  backends_ = std::move(order);
  default_device_ = default_device;
  initialized_ = true;
  return ACL_SUCCESS;
}

LoadOptions State::LoadOptionsFor() const {
  LoadOptions o;
  o.backends = backends_;
  o.num_threads = num_threads_;
  o.io_backend = &device_backend();  // datasets hold device memory (aclrtMalloc)
  return o;
}

// Device memory belongs to the device's backend: the first in the preference order.
const Backend& State::device_backend() const {
  if (!backends_.empty()) return *backends_.front();
  auto order = BackendRegistry::Global().Order();
  return order.ok() ? *order.value().front() : BackendRegistry::Global().First();
}

aclError State::Finalize() {
  std::unique_lock<std::mutex> lock(mutex_);
  if (!initialized_) {
    return ever_finalized_
               ? Fail(ACL_ERROR_REPEAT_FINALIZE, "aclFinalize: already finalized")
               : Fail(ACL_ERROR_UNINITIALIZE, "aclFinalize: aclInit has not been called");
  }
  // Work still queued on the application's streams: from here on it fails as uninitialised
  // (as a device reset drops it on the NPU), what runs finishes, and no stream worker
  // outlives aclFinalize. The lock is let go meanwhile: the queued work takes it.
  initialized_ = false;
  implicit_ = false;
  lock.unlock();
  if (const size_t left = ReleaseStreams())
    OC_LOG(kWarning, "aclFinalize: " << left << " streams were still alive; destroyed");
  lock.lock();
  models_.clear();
  if (profiler_) {
    Status s = profiler_->Flush();
    if (!s.ok()) OC_LOG(kWarning, "profiling data not written: " << s.ToString());
    profiler_.reset();
  }
  dump_ = DumpConfig{};
  default_device_ = -1;
  ever_finalized_ = true;
  lock.unlock();
  oc::acl::rt::ReleaseContexts();
  return ACL_SUCCESS;
}

Result<uint32_t> State::AddModel(std::shared_ptr<Model> model) {
  std::lock_guard<std::mutex> lock(mutex_);
  uint32_t id = next_model_id_++;
  // Dump and profiling observe the model from its first execution.
  if (auto observer = MakeObserver(dump_, profiler_, model->name(), id))
    model->SetObserver(observer);
  models_[id] = std::move(model);
  return id;
}

std::shared_ptr<Profiler> State::profiler() {
  std::lock_guard<std::mutex> lock(mutex_);
  return profiler_;
}

double NowUs() {
  return std::chrono::duration<double, std::micro>(
             std::chrono::steady_clock::now().time_since_epoch())
      .count();
}

void TimelineEvent(const char* name, const char* category, double start_us) {
  if (auto p = State::Get().profiler())
    p->RecordEvent(name, category, start_us, NowUs() - start_us);
}

void State::ObserveSingleOp(const std::shared_ptr<Model>& model) {
  std::lock_guard<std::mutex> lock(mutex_);
  // dump_op_switch dumps every single-op execution (the op's model under its type's name);
  // profiling records them as it records models.
  DumpConfig d = dump_;
  d.enabled = dump_.op_switch;
  d.models = {{model->name(), {}}};
  if (auto observer = MakeObserver(d, profiler_, model->name(), 0)) model->SetObserver(observer);
}

std::shared_ptr<Model> State::FindModel(uint32_t id) {
  std::lock_guard<std::mutex> lock(mutex_);
  auto it = models_.find(id);
  return it == models_.end() ? nullptr : it->second;
}

bool State::RemoveModel(uint32_t id) {
  std::lock_guard<std::mutex> lock(mutex_);
  current_gears_.erase(id);
  return models_.erase(id) != 0;
}

void State::SetCurrentGear(uint32_t id, std::vector<int64_t> gear) {
  std::lock_guard<std::mutex> lock(mutex_);
  if (models_.count(id)) current_gears_[id] = std::move(gear);
}

std::optional<std::vector<int64_t>> State::CurrentGear(uint32_t id) {
  std::lock_guard<std::mutex> lock(mutex_);
  auto it = current_gears_.find(id);
  if (it == current_gears_.end()) return std::nullopt;
  return it->second;
}

void* State::AllocDevice(size_t size) {
  const Backend& backend = device_backend();
  void* p = backend.AllocateDeviceMemory(size);
  if (!p) return nullptr;
  std::lock_guard<std::mutex> lock(mem_mutex_);
  device_allocs_[reinterpret_cast<uintptr_t>(p)] = {size, &backend};
  ForgetFreed(freed_device_, reinterpret_cast<uintptr_t>(p), size);
  return p;
}

bool State::WasFreedDevice(const void* p) const {
  const auto a = reinterpret_cast<uintptr_t>(p);
  std::lock_guard<std::mutex> lock(mem_mutex_);
  auto it = freed_device_.upper_bound(a);
  if (it == freed_device_.begin()) return false;
  --it;
  return a - it->first < it->second;
}

size_t State::DeviceBytesInUse() const {
  std::lock_guard<std::mutex> lock(mem_mutex_);
  size_t used = 0;
  for (const auto& [addr, info] : device_allocs_)
    if (!info.freeing) used += info.size;
  return used;
}

bool State::FreeDevice(void* p) {
  const Backend* owner = nullptr;
  {
    std::unique_lock<std::mutex> lock(mem_mutex_);
    auto it = device_allocs_.find(reinterpret_cast<uintptr_t>(p));
    if (it == device_allocs_.end() || it->second.freeing) return false;
    // No longer an allocation for anyone who looks from now on; the copies and executions
    // that pinned it before finish first.
    it->second.freeing = true;
    unpinned_.wait(lock, [&] { return it->second.pins == 0; });
    owner = it->second.backend;
    // Remembered as freed (the latest 4096 frees), so that a copy naming it as device memory
    // is refused rather than reading memory the heap may have handed to someone else.
    const uintptr_t a = reinterpret_cast<uintptr_t>(p);
    freed_device_[a] = std::max<size_t>(it->second.size, 1);
    freed_order_.push_back(a);
    if (freed_order_.size() > 4096) {
      freed_device_.erase(freed_order_.front());
      freed_order_.pop_front();
    }
    device_allocs_.erase(it);
  }
  owner->FreeDeviceMemory(p);
  return true;
}

void* State::AllocHost(size_t size) {
  size_t rounded = 0;
  if (!RoundUpTo64(std::max<size_t>(size, 1), &rounded)) return nullptr;  // no wrap-around
  void* p = std::aligned_alloc(64, rounded);
  if (!p) return nullptr;
  std::lock_guard<std::mutex> lock(mem_mutex_);
  host_allocs_[reinterpret_cast<uintptr_t>(p)] = {size};
  ForgetFreed(freed_device_, reinterpret_cast<uintptr_t>(p), size);
  return p;
}

bool State::FreeHost(void* p) {
  {
    std::unique_lock<std::mutex> lock(mem_mutex_);
    auto it = host_allocs_.find(reinterpret_cast<uintptr_t>(p));
    if (it == host_allocs_.end() || it->second.freeing) return false;
    it->second.freeing = true;
    unpinned_.wait(lock, [&] { return it->second.pins == 0; });
    host_allocs_.erase(it);
  }
  std::free(p);
  return true;
}

namespace {
// The live allocation of `allocs` holding address a, or end().
template <typename Map>
auto Holding(Map& allocs, uintptr_t a) -> decltype(allocs.begin()) {
  auto it = allocs.upper_bound(a);
  if (it == allocs.begin()) return allocs.end();
  --it;
  const uintptr_t end = it->first + std::max<size_t>(it->second.size, 1);
  if (a < it->first || a >= end || it->second.freeing) return allocs.end();
  return it;
}
}  // namespace

bool State::IsDevice(const void* p, size_t size) const {
  const uintptr_t a = reinterpret_cast<uintptr_t>(p);
  std::lock_guard<std::mutex> lock(mem_mutex_);
  auto it = Holding(device_allocs_, a);
  if (it == device_allocs_.end()) return false;
  const uintptr_t end = it->first + std::max<size_t>(it->second.size, 1);
  return size <= end - a;  // no a + size: it may wrap
}

size_t State::BytesFrom(const void* p) const {
  const uintptr_t a = reinterpret_cast<uintptr_t>(p);
  std::lock_guard<std::mutex> lock(mem_mutex_);
  if (auto dev = Holding(device_allocs_, a); dev != device_allocs_.end())
    return dev->first + std::max<size_t>(dev->second.size, 1) - a;
  if (auto host = Holding(host_allocs_, a); host != host_allocs_.end())
    return host->first + std::max<size_t>(host->second.size, 1) - a;
  return 0;
}

bool State::DeviceAllocation(const void* p, const void** start, size_t* size) const {
  std::lock_guard<std::mutex> lock(mem_mutex_);
  auto it = Holding(device_allocs_, reinterpret_cast<uintptr_t>(p));
  if (it == device_allocs_.end()) return false;
  *start = reinterpret_cast<const void*>(it->first);
  *size = it->second.size;
  return true;
}

bool State::IsHostPinned(const void* p) const {
  std::lock_guard<std::mutex> lock(mem_mutex_);
  return Holding(host_allocs_, reinterpret_cast<uintptr_t>(p)) != host_allocs_.end();
}

bool State::PinAllocation(const void* p, const void** start, size_t* size, bool* device) {
  const uintptr_t a = reinterpret_cast<uintptr_t>(p);
  std::lock_guard<std::mutex> lock(mem_mutex_);
  if (auto dev = Holding(device_allocs_, a); dev != device_allocs_.end()) {
    ++dev->second.pins;
    *start = reinterpret_cast<const void*>(dev->first);
    *size = dev->second.size;
    *device = true;
    return true;
  }
  if (auto host = Holding(host_allocs_, a); host != host_allocs_.end()) {
    ++host->second.pins;
    *start = reinterpret_cast<const void*>(host->first);
    *size = host->second.size;
    *device = false;
    return true;
  }
  return false;
}

void State::UnpinAllocation(const void* start) {
  const uintptr_t a = reinterpret_cast<uintptr_t>(start);
  std::lock_guard<std::mutex> lock(mem_mutex_);
  // Freeing entries included: their aclrtFree waits for this.
  auto dev = device_allocs_.find(a);
  int* pins = dev != device_allocs_.end() ? &dev->second.pins : nullptr;
  if (!pins) {
    auto host = host_allocs_.find(a);
    if (host != host_allocs_.end()) pins = &host->second.pins;
  }
  if (pins && --*pins == 0) unpinned_.notify_all();
}

PinnedAllocation::PinnedAllocation(const void* p) {
  if (p && !State::Get().PinAllocation(p, &start_, &size_, &device_)) start_ = nullptr;
}

PinnedAllocation& PinnedAllocation::operator=(PinnedAllocation&& o) noexcept {
  if (this != &o) {
    Release();
    start_ = o.start_;
    size_ = o.size_;
    device_ = o.device_;
    o.start_ = nullptr;
  }
  return *this;
}

size_t PinnedAllocation::BytesFrom(const void* p) const {
  const uintptr_t a = reinterpret_cast<uintptr_t>(p), s = reinterpret_cast<uintptr_t>(start_);
  const uintptr_t end = s + std::max<size_t>(size_, 1);
  return start_ && a >= s && a < end ? end - a : 0;
}

void PinnedAllocation::Release() {
  if (start_) State::Get().UnpinAllocation(start_);
  start_ = nullptr;
}

}  // namespace oc::acl

using oc::acl::Fail;
using oc::acl::State;

extern "C" {

aclError aclInit(const char* configPath) {
  oc::acl::ClearError();
  return State::Get().Init(configPath);
}

aclError aclFinalize(void) { return State::Get().Finalize(); }

aclError aclrtGetVersion(int32_t* majorVersion, int32_t* minorVersion, int32_t* patchVersion) {
  OC_ACL_CHECK_NULL(majorVersion);
  OC_ACL_CHECK_NULL(minorVersion);
  OC_ACL_CHECK_NULL(patchVersion);
  // The AscendCL interface version we implement (CANN 7.0 series).
  *majorVersion = 1;
  *minorVersion = 0;
  *patchVersion = 0;
  return ACL_SUCCESS;
}

const char* aclGetRecentErrMsg(void) {
  thread_local std::string copy;
  copy = oc::acl::g_recent_error;
  return copy.empty() ? nullptr : copy.c_str();
}

void aclAppLog(aclLogLevel logLevel, const char* func, const char* file, uint32_t line,
               const char* fmt, ...) {
  // Read as an int: an application may pass any number, and loading an enum outside its
  // values is undefined in C++.
  int level = 0;
  std::memcpy(&level, &logLevel, sizeof(level));
  if (level < ACL_DEBUG || level > ACL_ERROR || fmt == nullptr) return;
  if (level < static_cast<int>(oc::MinLogLevel())) return;
  // CANN keeps one message to 1024 bytes.
  char buf[1024];
  va_list ap;
  va_start(ap, fmt);
  std::vsnprintf(buf, sizeof(buf), fmt, ap);
  va_end(ap);
  // Where CANN's application log goes: the plog (ASCEND_GLOBAL_LOG_LEVEL, error by default),
  // and stderr at OCANN_LOG_LEVEL.
  oc::LogMessage(static_cast<oc::LogLevel>(level), std::string(func ? func : "") + ": " + buf,
                 file ? file : "", static_cast<int>(line));
}

}  // extern "C"
