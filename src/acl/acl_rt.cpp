// Devices, contexts, streams, events and memory of the emulated NPU. Device 0 is
// backed by the host CPU; each stream has a worker thread that runs its work in order.
#include <pthread.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cctype>
#include <chrono>
#include <condition_variable>
#include <cstring>
#include <deque>
#include <map>
#include <memory>
#include <mutex>
#include <set>

#include "acl/acl_state.h"
#include "base/memory_probe.h"
#include "opencann/soc_table.h"

using oc::acl::Fail;
using oc::acl::State;

namespace {

struct Context {
  int32_t device = 0;
};
struct Stream {
  Context* ctx = nullptr;
  uint32_t id = 0;
  std::atomic<uint32_t> tasks{0};
  // Shared so that aclrtSynchronizeDevice can wait on it while another thread destroys it.
  std::shared_ptr<oc::Stream> worker = std::make_shared<oc::Stream>();
};
struct Event {
  std::chrono::steady_clock::time_point at;
  bool recorded = false;
  int pending = 0;         // records submitted to streams and not yet reached
  bool destroyed = false;  // aclrtDestroyEvent came first: the last pending record frees it
};

// Callbacks launched on a subscribed stream are handed to the subscribed thread, which
// runs them inside aclrtProcessReport.
struct PendingCallback {
  aclrtCallback fn;
  void* data;
  bool done = false;
};
std::mutex g_cb_mutex;
std::condition_variable g_cb_cv;
std::map<Stream*, uint64_t> g_subscriptions;  // stream -> thread
std::set<Stream*> g_closing_streams;          // being destroyed: blocking callbacks let go
std::map<uint64_t, std::deque<std::shared_ptr<PendingCallback>>> g_callbacks;  // per thread
std::condition_variable g_event_cv;

std::mutex g_rt_mutex;
std::set<Context*> g_contexts;
std::set<Stream*> g_streams;
std::set<Event*> g_events;
Context* g_default_context = nullptr;
int g_device_refs = 0;
thread_local Context* t_current = nullptr;

constexpr uint32_t kDeviceCount = 1;

aclError CheckDevice(int32_t id, const char* fn) {
  if (id < 0 || static_cast<uint32_t>(id) >= kDeviceCount)
    return Fail(ACL_ERROR_RT_INVALID_DEVICEID,
                std::string(fn) + ": device id " + std::to_string(id) +
                    " is invalid; this machine has 1 emulated NPU (device 0)");
  return ACL_SUCCESS;
}

// The calling thread's context: set by aclrtSetDevice (the device's default context),
// aclrtCreateContext or aclrtSetCurrentContext on this thread. Other threads have none.
Context* CurrentContext() {
  std::lock_guard<std::mutex> lock(g_rt_mutex);
  if (t_current && g_contexts.count(t_current)) return t_current;
  return nullptr;
}

}  // namespace

namespace oc::acl {

oc::Stream* StreamOf(aclrtStream stream, aclError* error) {
  *error = ACL_SUCCESS;
  if (!stream) return nullptr;
  std::lock_guard<std::mutex> lock(g_rt_mutex);
  auto* s = static_cast<::Stream*>(stream);
  if (!g_streams.count(s)) {
    *error = Fail(ACL_ERROR_INVALID_PARAM, "unknown stream handle");
    return nullptr;
  }
  return s->worker.get();
}

uint32_t StreamIdOf(aclrtStream stream) {
  std::lock_guard<std::mutex> lock(g_rt_mutex);
  auto* s = static_cast<::Stream*>(stream);
  return stream && g_streams.count(s) ? s->id : 0;
}

size_t ReleaseStreams() {
  std::set<::Stream*> streams;
  {
    std::lock_guard<std::mutex> lock(g_rt_mutex);
    streams.swap(g_streams);
  }
  {
    std::lock_guard<std::mutex> lock(g_cb_mutex);
    for (auto* s : streams) {
      g_subscriptions.erase(s);
      g_closing_streams.insert(s);
    }
    g_cb_cv.notify_all();
  }
  for (auto* s : streams) {
    delete s;  // queued work runs (and fails fast: aclFinalize came first), then the join
    std::lock_guard<std::mutex> lock(g_cb_mutex);
    g_closing_streams.erase(s);
  }
  return streams.size();
}

}  // namespace oc::acl

extern "C" {

aclError aclrtSetDevice(int32_t deviceId) {
  OC_ACL_REQUIRE_INIT();
  if (aclError e = CheckDevice(deviceId, __func__)) return e;
  std::lock_guard<std::mutex> lock(g_rt_mutex);
  if (!g_default_context) {
    g_default_context = new Context{deviceId};
    g_contexts.insert(g_default_context);
  }
  ++g_device_refs;
  t_current = g_default_context;
  return ACL_SUCCESS;
}

aclError aclrtResetDevice(int32_t deviceId) {
  OC_ACL_REQUIRE_INIT();
  if (aclError e = CheckDevice(deviceId, __func__)) return e;
  std::lock_guard<std::mutex> lock(g_rt_mutex);
  if (g_device_refs > 0 && --g_device_refs == 0 && g_default_context) {
    g_contexts.erase(g_default_context);
    if (t_current == g_default_context) t_current = nullptr;
    delete g_default_context;
    g_default_context = nullptr;
  }
  return ACL_SUCCESS;
}

aclError aclrtGetDevice(int32_t* deviceId) {
  OC_ACL_REQUIRE_INIT();
  OC_ACL_CHECK_NULL(deviceId);
  Context* c = CurrentContext();
  if (!c) return Fail(ACL_ERROR_RT_CONTEXT_NULL, "aclrtGetDevice: no device is set on this thread");
  *deviceId = c->device;
  return ACL_SUCCESS;
}

aclError aclrtGetDeviceCount(uint32_t* count) {
  OC_ACL_CHECK_NULL(count);
  *count = kDeviceCount;
  return ACL_SUCCESS;
}

aclError aclrtGetRunMode(aclrtRunMode* runMode) {
  // Answered without aclInit, as CANN does: applications ask it first.
  OC_ACL_CHECK_NULL(runMode);
  *runMode = ACL_HOST;  // the application runs on the host, the "NPU" is device 0
  return ACL_SUCCESS;
}

aclError aclrtSynchronizeDevice(void) {
  OC_ACL_REQUIRE_INIT();
  Context* c = CurrentContext();
  if (!c)
    return Fail(ACL_ERROR_RT_CONTEXT_NULL,
                "aclrtSynchronizeDevice: no device is set on this thread (aclrtSetDevice)");
  // Waits for the work of every stream of the device, as CANN does.
  std::vector<std::shared_ptr<oc::Stream>> workers;
  {
    std::lock_guard<std::mutex> lock(g_rt_mutex);
    for (Stream* s : g_streams)
      if (s->ctx && s->ctx->device == c->device) workers.push_back(s->worker);
  }
  aclError result = ACL_SUCCESS;
  for (const auto& w : workers) {
    oc::Status st = w->Synchronize();
    if (!st.ok() && result == ACL_SUCCESS)
      result = oc::acl::FailStatus(st, oc::acl::Phase::kExecute, "aclrtSynchronizeDevice");
  }
  return result;
}

aclError aclrtCreateContext(aclrtContext* context, int32_t deviceId) {
  OC_ACL_REQUIRE_INIT();
  OC_ACL_CHECK_NULL(context);
  if (aclError e = CheckDevice(deviceId, __func__)) return e;
  auto* c = new Context{deviceId};
  std::lock_guard<std::mutex> lock(g_rt_mutex);
  g_contexts.insert(c);
  t_current = c;  // CANN makes the new context current
  *context = c;
  return ACL_SUCCESS;
}

aclError aclrtDestroyContext(aclrtContext context) {
  OC_ACL_REQUIRE_INIT();
  OC_ACL_CHECK_NULL(context);
  std::lock_guard<std::mutex> lock(g_rt_mutex);
  auto* c = static_cast<Context*>(context);
  if (!g_contexts.count(c) || c == g_default_context)
    return Fail(ACL_ERROR_INVALID_PARAM, "aclrtDestroyContext: unknown context");
  g_contexts.erase(c);
  if (t_current == c) t_current = nullptr;
  delete c;
  return ACL_SUCCESS;
}

aclError aclrtSetCurrentContext(aclrtContext context) {
  OC_ACL_REQUIRE_INIT();
  OC_ACL_CHECK_NULL(context);
  std::lock_guard<std::mutex> lock(g_rt_mutex);
  auto* c = static_cast<Context*>(context);
  if (!g_contexts.count(c))
    return Fail(ACL_ERROR_INVALID_PARAM, "aclrtSetCurrentContext: unknown context");
  t_current = c;
  return ACL_SUCCESS;
}

aclError aclrtGetCurrentContext(aclrtContext* context) {
  OC_ACL_REQUIRE_INIT();
  OC_ACL_CHECK_NULL(context);
  Context* c = CurrentContext();
  if (!c)
    return Fail(ACL_ERROR_RT_CONTEXT_NULL, "aclrtGetCurrentContext: no context on this thread");
  *context = c;
  return ACL_SUCCESS;
}

aclError aclrtCreateStream(aclrtStream* stream) {
  OC_ACL_REQUIRE_INIT();
  OC_ACL_CHECK_NULL(stream);
  Context* c = CurrentContext();
  if (!c) return Fail(ACL_ERROR_RT_CONTEXT_NULL, "aclrtCreateStream: call aclrtSetDevice first");
  static std::atomic<uint32_t> next_id{1};
  auto* s = new Stream();
  s->ctx = c;
  s->id = next_id++;
  std::lock_guard<std::mutex> lock(g_rt_mutex);
  g_streams.insert(s);
  *stream = s;
  return ACL_SUCCESS;
}

aclError aclrtDestroyStream(aclrtStream stream) {
  OC_ACL_REQUIRE_INIT();
  OC_ACL_CHECK_NULL(stream);
  auto* s = static_cast<Stream*>(stream);
  {
    std::lock_guard<std::mutex> lock(g_rt_mutex);
    if (!g_streams.erase(s))
      return Fail(ACL_ERROR_INVALID_PARAM, "aclrtDestroyStream: unknown stream");
  }
  {
    // A blocking callback still queued holds the stream's worker until a report thread runs
    // it: it stops holding once its stream goes (the callback itself stays queued for
    // aclrtProcessReport), so destroying never waits on a thread that may be this one.
    std::lock_guard<std::mutex> lock(g_cb_mutex);
    g_subscriptions.erase(s);
    g_closing_streams.insert(s);
    g_cb_cv.notify_all();
  }
  delete s;  // runs what is queued, then joins the worker
  {
    std::lock_guard<std::mutex> lock(g_cb_mutex);
    g_closing_streams.erase(s);
  }
  return ACL_SUCCESS;
}

aclError aclrtSynchronizeStream(aclrtStream stream) {
  OC_ACL_REQUIRE_INIT();
  aclError e = ACL_SUCCESS;
  oc::Stream* worker = oc::acl::StreamOf(stream, &e);
  if (e != ACL_SUCCESS) return e;
  if (!worker) return ACL_SUCCESS;
  oc::Status st = worker->Synchronize();
  if (!st.ok()) return oc::acl::FailStatus(st, oc::acl::Phase::kExecute, "aclrtSynchronizeStream");
  return ACL_SUCCESS;
}

aclError aclrtSynchronizeStreamWithTimeout(aclrtStream stream, int32_t timeout) {
  OC_ACL_REQUIRE_INIT();
  if (timeout < -1)
    return Fail(ACL_ERROR_INVALID_PARAM, "aclrtSynchronizeStreamWithTimeout: timeout " +
                                             std::to_string(timeout) + " must be -1 or more");
  aclError e = ACL_SUCCESS;
  oc::Stream* worker = oc::acl::StreamOf(stream, &e);
  if (e != ACL_SUCCESS) return e;
  if (!worker) return ACL_SUCCESS;
  oc::Status st = worker->Synchronize(timeout);
  if (st.cann_code() == "507046")
    return Fail(ACL_ERROR_RT_STREAM_SYNC_TIMEOUT,
                "aclrtSynchronizeStreamWithTimeout: " + st.message());
  if (!st.ok())
    return oc::acl::FailStatus(st, oc::acl::Phase::kExecute, "aclrtSynchronizeStreamWithTimeout");
  return ACL_SUCCESS;
}

aclError aclrtMalloc(void** devPtr, size_t size, aclrtMemMallocPolicy policy) {
  OC_ACL_REQUIRE_INIT();
  OC_ACL_CHECK_NULL(devPtr);
  if (size == 0) return Fail(ACL_ERROR_INVALID_PARAM, "aclrtMalloc: size must be positive");
  if (policy < ACL_MEM_MALLOC_HUGE_FIRST || policy > ACL_MEM_MALLOC_NORMAL_ONLY_P2P)
    return Fail(ACL_ERROR_INVALID_PARAM, "aclrtMalloc: unknown policy");
  void* p = State::Get().AllocDevice(size);
  if (!p) return Fail(ACL_ERROR_RT_MEMORY_ALLOCATION, "aclrtMalloc: out of memory");
  *devPtr = p;
  return ACL_SUCCESS;
}

aclError aclrtFree(void* devPtr) {
  OC_ACL_REQUIRE_INIT();
  OC_ACL_CHECK_NULL(devPtr);
  oc::acl::WaitUnpinned(devPtr);  // queued copies and executions using it finish first
  if (!State::Get().FreeDevice(devPtr))
    return Fail(ACL_ERROR_INVALID_PARAM,
                "aclrtFree: the pointer was not returned by aclrtMalloc or was already freed");
  return ACL_SUCCESS;
}

aclError aclrtMallocHost(void** hostPtr, size_t size) {
  OC_ACL_REQUIRE_INIT();
  OC_ACL_CHECK_NULL(hostPtr);
  if (size == 0) return Fail(ACL_ERROR_INVALID_PARAM, "aclrtMallocHost: size must be positive");
  void* p = State::Get().AllocHost(size);
  if (!p) return Fail(ACL_ERROR_RT_MEMORY_ALLOCATION, "aclrtMallocHost: out of memory");
  *hostPtr = p;
  return ACL_SUCCESS;
}

aclError aclrtFreeHost(void* hostPtr) {
  OC_ACL_REQUIRE_INIT();
  OC_ACL_CHECK_NULL(hostPtr);
  if (!State::Get().FreeHost(hostPtr))
    return Fail(
        ACL_ERROR_INVALID_PARAM,
        "aclrtFreeHost: the pointer was not returned by aclrtMallocHost or was already freed");
  return ACL_SUCCESS;
}

aclError aclrtMemcpy(void* dst, size_t destMax, const void* src, size_t count,
                     aclrtMemcpyKind kind) {
  OC_ACL_REQUIRE_INIT();
  OC_ACL_CHECK_NULL(dst);
  OC_ACL_CHECK_NULL(src);
  if (count > destMax)
    return Fail(ACL_ERROR_INVALID_PARAM, "aclrtMemcpy: count " + std::to_string(count) +
                                             " exceeds destMax " + std::to_string(destMax));
  if (kind < ACL_MEMCPY_HOST_TO_HOST || kind > ACL_MEMCPY_DEFAULT)
    return Fail(ACL_ERROR_INVALID_PARAM, "aclrtMemcpy: unknown kind");
  const State& st = State::Get();
  const bool dst_dev = st.IsDevice(dst, std::max<size_t>(count, 1));
  const bool src_dev = st.IsDevice(src, std::max<size_t>(count, 1));
  bool ok = true;
  switch (kind) {
    case ACL_MEMCPY_HOST_TO_DEVICE:
      ok = dst_dev && !src_dev;
      break;
    case ACL_MEMCPY_DEVICE_TO_HOST:
      ok = src_dev && !dst_dev;
      break;
    case ACL_MEMCPY_DEVICE_TO_DEVICE:
      ok = src_dev && dst_dev;
      break;
    case ACL_MEMCPY_HOST_TO_HOST:
      ok = !src_dev && !dst_dev;
      break;
    default:
      break;
  }
  if (!ok)
    return Fail(ACL_ERROR_RT_PARAM_INVALID, "aclrtMemcpy: kind " + std::to_string(kind) +
                                                " does not match the memory: dst is " +
                                                (dst_dev ? "device" : "host") + " memory, src is " +
                                                (src_dev ? "device" : "host") +
                                                " memory (or the range exceeds its allocation)");
  // Host sides are checked for being mapped: a made-up pointer is an error, not a crash.
  if (count && !dst_dev && !oc::HostRangeMapped(dst, count))
    return Fail(ACL_ERROR_INVALID_PARAM, "aclrtMemcpy: dst is not mapped host memory for " +
                                             std::to_string(count) +
                                             " bytes (a stale or made-up "
                                             "pointer?)");
  if (count && !src_dev && !oc::HostRangeMapped(src, count))
    return Fail(ACL_ERROR_INVALID_PARAM, "aclrtMemcpy: src is not mapped host memory for " +
                                             std::to_string(count) +
                                             " bytes (a stale or made-up "
                                             "pointer?)");
  // The device's backend owns its memory and how bytes reach it.
  using Kind = oc::Backend::CopyKind;
  const Kind k = dst_dev ? (src_dev ? Kind::kDeviceToDevice : Kind::kHostToDevice)
                         : (src_dev ? Kind::kDeviceToHost : Kind::kHostToHost);
  const double t0 = oc::acl::NowUs();
  oc::Status copied = st.device_backend().Copy(dst, src, count, k);
  static const char* const kNames[] = {"copy host-to-host", "copy host-to-device",
                                       "copy device-to-host", "copy device-to-device"};
  oc::acl::TimelineEvent(kNames[static_cast<int>(k) & 3], "memcpy", t0);
  if (!copied.ok()) return oc::acl::FailStatus(copied, oc::acl::Phase::kCall, "aclrtMemcpy");
  return ACL_SUCCESS;
}

aclError aclrtMemcpyAsync(void* dst, size_t destMax, const void* src, size_t count,
                          aclrtMemcpyKind kind, aclrtStream stream) {
  OC_ACL_REQUIRE_INIT();
  aclError e = ACL_SUCCESS;
  oc::Stream* worker = oc::acl::StreamOf(stream, &e);
  if (e != ACL_SUCCESS) return e;
  if (!worker) return aclrtMemcpy(dst, destMax, src, count, kind);
  // Arguments are checked now; the copy happens in stream order.
  if (kind == ACL_MEMCPY_HOST_TO_HOST)
    return Fail(ACL_ERROR_INVALID_PARAM,
                "aclrtMemcpyAsync: host-to-host copies are not asynchronous");
  OC_ACL_CHECK_NULL(dst);
  OC_ACL_CHECK_NULL(src);
  if (count > destMax)
    return Fail(ACL_ERROR_INVALID_PARAM, "aclrtMemcpyAsync: count exceeds destMax");
  std::vector<const void*> keys;
  for (const void* p : {static_cast<const void*>(dst), src}) {
    const void* start = nullptr;
    size_t size = 0;
    if (State::Get().DeviceAllocation(p, &start, &size)) keys.push_back(start);
  }
  auto pins = std::make_shared<oc::acl::InFlight>(std::move(keys));
  worker->Submit([=] {
    (void)pins;  // the device memory stays allocated until the copy is done
    aclError r = aclrtMemcpy(dst, destMax, src, count, kind);
    return r == ACL_SUCCESS
               ? oc::Status::Ok()
               : oc::InvalidArgument("aclrtMemcpyAsync failed with " + std::to_string(r));
  });
  return ACL_SUCCESS;
}

aclError aclrtMemset(void* devPtr, size_t maxCount, int32_t value, size_t count) {
  OC_ACL_REQUIRE_INIT();
  OC_ACL_CHECK_NULL(devPtr);
  if (count > maxCount) return Fail(ACL_ERROR_INVALID_PARAM, "aclrtMemset: count exceeds maxCount");
  // maxCount is the application's word: the allocation itself bounds the write.
  const size_t avail = State::Get().BytesFrom(devPtr);
  if (avail == 0)
    return Fail(ACL_ERROR_INVALID_PARAM,
                "aclrtMemset: the pointer is not memory from aclrtMalloc or aclrtMallocHost");
  if (maxCount > avail)
    return Fail(ACL_ERROR_INVALID_PARAM, "aclrtMemset: maxCount " + std::to_string(maxCount) +
                                             " exceeds the " + std::to_string(avail) +
                                             " bytes left in the allocation");
  if (count) std::memset(devPtr, value, count);
  return ACL_SUCCESS;
}

aclError aclrtGetMemInfo(aclrtMemAttr attr, size_t* free, size_t* total) {
  OC_ACL_REQUIRE_INIT();
  OC_ACL_CHECK_NULL(free);
  OC_ACL_CHECK_NULL(total);
  if (attr < ACL_DDR_MEM || attr > ACL_HBM_MEM_P2P_NORMAL)
    return Fail(ACL_ERROR_INVALID_PARAM, "aclrtGetMemInfo: attr " +
                                             std::to_string(static_cast<int>(attr)) +
                                             " is not an aclrtMemAttr");
  const opencann::SocSpec* soc = opencann::FindSocSpec(aclrtGetSocName());
  *total = static_cast<size_t>(soc ? soc->hbm_gib : 64) << 30;
  const size_t used = std::min(State::Get().DeviceBytesInUse(), *total);
  *free = *total - used;
  // The emulated device's memory is the host's: never report more than it can still give.
  const long pages = sysconf(_SC_AVPHYS_PAGES), page = sysconf(_SC_PAGESIZE);
  if (pages > 0 && page > 0)
    *free = std::min(*free, static_cast<size_t>(pages) * static_cast<size_t>(page));
  return ACL_SUCCESS;
}

aclError aclrtMemsetAsync(void* devPtr, size_t maxCount, int32_t value, size_t count,
                          aclrtStream stream) {
  OC_ACL_REQUIRE_INIT();
  aclError e = ACL_SUCCESS;
  oc::Stream* worker = oc::acl::StreamOf(stream, &e);
  if (e != ACL_SUCCESS) return e;
  if (!worker) return aclrtMemset(devPtr, maxCount, value, count);
  OC_ACL_CHECK_NULL(devPtr);
  if (count > maxCount)
    return Fail(ACL_ERROR_INVALID_PARAM, "aclrtMemsetAsync: count exceeds maxCount");
  const size_t avail = State::Get().BytesFrom(devPtr);
  if (avail == 0 || count > avail)
    return Fail(ACL_ERROR_INVALID_PARAM,
                "aclrtMemsetAsync: the range is not inside one aclrtMalloc or aclrtMallocHost "
                "allocation");
  const void* start = nullptr;
  size_t size = 0;
  std::vector<const void*> keys;
  if (State::Get().DeviceAllocation(devPtr, &start, &size)) keys.push_back(start);
  auto pins = std::make_shared<oc::acl::InFlight>(std::move(keys));
  worker->Submit([=] {
    (void)pins;
    aclError r = aclrtMemset(devPtr, maxCount, value, count);
    return r == ACL_SUCCESS
               ? oc::Status::Ok()
               : oc::InvalidArgument("aclrtMemsetAsync failed with " + std::to_string(r));
  });
  return ACL_SUCCESS;
}

const char* aclrtGetSocName(void) {
  const char* env = std::getenv("OCANN_SOC");
  const opencann::SocSpec* soc = opencann::FindSocSpec(env);
  return soc ? soc->name : opencann::kDefaultSoc;
}

aclError aclGetDeviceCapability(uint32_t deviceId, aclDeviceInfo deviceInfo, int64_t* value) {
  OC_ACL_CHECK_NULL(value);
  if (deviceId >= kDeviceCount)
    return Fail(ACL_ERROR_RT_INVALID_DEVICEID,
                "aclGetDeviceCapability: device id " + std::to_string(deviceId) +
                    " is invalid; this machine has 1 emulated NPU (device 0)");
  const char* name = aclrtGetSocName();
  const opencann::SocSpec* soc = opencann::FindSocSpec(name);
  if (!soc) return Fail(ACL_ERROR_INTERNAL_ERROR, "aclGetDeviceCapability: no SoC table entry");
  switch (deviceInfo) {
    case ACL_DEVICE_INFO_AI_CORE_NUM:
      *value = soc->aic_cores;
      return ACL_SUCCESS;
    case ACL_DEVICE_INFO_VECTOR_CORE_NUM:
      // Chips whose AI cores carry their own vector unit have no separate vector cores.
      *value = soc->aiv_cores;
      return ACL_SUCCESS;
    case ACL_DEVICE_INFO_L2_SIZE:
      if (soc->l2_bytes == 0)
        return Fail(
            ACL_ERROR_FEATURE_UNSUPPORTED,
            std::string("aclGetDeviceCapability: OpenCANN's SoC table has no L2 size for ") + name +
                " (it is known for the Ascend910B chips)");
      *value = static_cast<int64_t>(soc->l2_bytes);
      return ACL_SUCCESS;
    default:
      return Fail(ACL_ERROR_INVALID_PARAM, "aclGetDeviceCapability: deviceInfo " +
                                               std::to_string(static_cast<int>(deviceInfo)) +
                                               " is not an aclDeviceInfo");
  }
}

aclError aclrtCreateEvent(aclrtEvent* event) {
  OC_ACL_REQUIRE_INIT();
  OC_ACL_CHECK_NULL(event);
  auto* e = new Event();
  std::lock_guard<std::mutex> lock(g_rt_mutex);
  g_events.insert(e);
  *event = e;
  return ACL_SUCCESS;
}

aclError aclrtDestroyEvent(aclrtEvent event) {
  OC_ACL_REQUIRE_INIT();
  OC_ACL_CHECK_NULL(event);
  std::lock_guard<std::mutex> lock(g_rt_mutex);
  auto* e = static_cast<Event*>(event);
  if (!g_events.erase(e)) return Fail(ACL_ERROR_INVALID_PARAM, "aclrtDestroyEvent: unknown event");
  // A record still queued on a stream writes the event when the stream reaches it: it frees
  // the event then, and waiters see it gone.
  if (e->pending > 0)
    e->destroyed = true;
  else
    delete e;
  g_event_cv.notify_all();
  return ACL_SUCCESS;
}

aclError aclrtRecordEvent(aclrtEvent event, aclrtStream stream) {
  OC_ACL_REQUIRE_INIT();
  OC_ACL_CHECK_NULL(event);
  aclError e = ACL_SUCCESS;
  oc::Stream* worker = oc::acl::StreamOf(stream, &e);
  if (e != ACL_SUCCESS) return e;
  auto* ev = static_cast<Event*>(event);
  {
    std::lock_guard<std::mutex> lock(g_rt_mutex);
    if (!g_events.count(ev))
      return Fail(ACL_ERROR_INVALID_PARAM, "aclrtRecordEvent: unknown event");
    ++ev->pending;
  }
  auto record = [ev] {
    std::lock_guard<std::mutex> lock(g_rt_mutex);
    ev->at = std::chrono::steady_clock::now();
    ev->recorded = true;
    --ev->pending;
    if (ev->destroyed && ev->pending == 0) delete ev;
    g_event_cv.notify_all();
    return oc::Status::Ok();
  };
  if (worker)
    worker->Submit(record, /*always=*/true);
  else
    record().IgnoreError();
  return ACL_SUCCESS;
}

aclError aclrtSynchronizeEvent(aclrtEvent event) {
  OC_ACL_REQUIRE_INIT();
  OC_ACL_CHECK_NULL(event);
  auto* ev = static_cast<Event*>(event);
  std::unique_lock<std::mutex> lock(g_rt_mutex);
  if (!g_events.count(ev))
    return Fail(ACL_ERROR_INVALID_PARAM, "aclrtSynchronizeEvent: unknown event");
  // Destroyed meanwhile (its last record may have freed it): membership first.
  g_event_cv.wait(lock, [&] { return !g_events.count(ev) || ev->pending == 0; });
  return ACL_SUCCESS;
}

aclError aclrtEventElapsedTime(float* ms, aclrtEvent start, aclrtEvent end) {
  OC_ACL_REQUIRE_INIT();
  OC_ACL_CHECK_NULL(ms);
  OC_ACL_CHECK_NULL(start);
  OC_ACL_CHECK_NULL(end);
  std::lock_guard<std::mutex> lock(g_rt_mutex);
  auto* a = static_cast<Event*>(start);
  auto* b = static_cast<Event*>(end);
  if (!g_events.count(a) || !g_events.count(b))
    return Fail(ACL_ERROR_INVALID_PARAM, "aclrtEventElapsedTime: unknown event");
  if (!a->recorded || !b->recorded || a->pending || b->pending)
    return Fail(ACL_ERROR_RT_EVENT_TIMESTAMP_INVALID,
                "aclrtEventElapsedTime: an event has not completed; synchronize it first");
  *ms = std::chrono::duration<float, std::milli>(b->at - a->at).count();
  return ACL_SUCCESS;
}

aclError aclrtSubscribeReport(uint64_t threadId, aclrtStream stream) {
  OC_ACL_REQUIRE_INIT();
  OC_ACL_CHECK_NULL(stream);
  aclError e = ACL_SUCCESS;
  oc::acl::StreamOf(stream, &e);
  if (e != ACL_SUCCESS) return e;
  std::lock_guard<std::mutex> lock(g_cb_mutex);
  auto* s = static_cast<Stream*>(stream);
  if (g_subscriptions.count(s))
    return Fail(ACL_ERROR_REPEAT_SUBSCRIBE,
                "aclrtSubscribeReport: the stream is already subscribed");
  g_subscriptions[s] = threadId;
  g_callbacks[threadId];
  return ACL_SUCCESS;
}

aclError aclrtLaunchCallback(aclrtCallback fn, void* userData, aclrtCallbackBlockType blockType,
                             aclrtStream stream) {
  OC_ACL_REQUIRE_INIT();
  OC_ACL_CHECK_NULL(fn);
  OC_ACL_CHECK_NULL(stream);
  aclError e = ACL_SUCCESS;
  oc::Stream* worker = oc::acl::StreamOf(stream, &e);
  if (e != ACL_SUCCESS) return e;
  if (blockType != ACL_CALLBACK_NO_BLOCK && blockType != ACL_CALLBACK_BLOCK)
    return Fail(ACL_ERROR_INVALID_PARAM, "aclrtLaunchCallback: unknown block type");
  uint64_t thread = 0;
  {
    std::lock_guard<std::mutex> lock(g_cb_mutex);
    auto it = g_subscriptions.find(static_cast<Stream*>(stream));
    if (it == g_subscriptions.end())
      return Fail(ACL_ERROR_STREAM_NOT_SUBSCRIBE,
                  "aclrtLaunchCallback: call aclrtSubscribeReport for this stream first");
    thread = it->second;
  }
  const bool block = blockType == ACL_CALLBACK_BLOCK;
  auto* owner = static_cast<Stream*>(stream);
  worker->Submit(
      [=] {
        auto cb = std::make_shared<PendingCallback>(PendingCallback{fn, userData});
        std::unique_lock<std::mutex> lock(g_cb_mutex);
        g_callbacks[thread].push_back(cb);
        g_cb_cv.notify_all();
        // A blocking callback holds the stream until the report thread has run it (or the
        // stream is being destroyed).
        if (block)
          g_cb_cv.wait(lock, [&] {
            return cb->done || !g_callbacks.count(thread) || g_closing_streams.count(owner);
          });
        return oc::Status::Ok();
      },
      /*always=*/true);
  return ACL_SUCCESS;
}

aclError aclrtProcessReport(int32_t timeout) {
  OC_ACL_REQUIRE_INIT();
  if (timeout < -1)
    return Fail(ACL_ERROR_INVALID_PARAM, "aclrtProcessReport: timeout must be -1 or more");
  const uint64_t self = static_cast<uint64_t>(pthread_self());
  std::unique_lock<std::mutex> lock(g_cb_mutex);
  if (!g_callbacks.count(self))
    return Fail(ACL_ERROR_THREAD_NOT_SUBSCRIBE,
                "aclrtProcessReport: no stream is subscribed to this thread");
  auto ready = [&] { return g_callbacks.count(self) && !g_callbacks[self].empty(); };
  if (timeout < 0) {
    g_cb_cv.wait(lock, ready);
  } else if (!g_cb_cv.wait_for(lock, std::chrono::milliseconds(timeout), ready)) {
    return Fail(ACL_ERROR_WAIT_CALLBACK_TIMEOUT,
                "aclrtProcessReport: no callback within the timeout");
  }
  auto cb = g_callbacks[self].front();
  g_callbacks[self].pop_front();
  lock.unlock();
  const double t0 = oc::acl::NowUs();
  cb->fn(cb->data);
  oc::acl::TimelineEvent("callback", "callback", t0);
  lock.lock();
  cb->done = true;
  g_cb_cv.notify_all();
  return ACL_SUCCESS;
}

aclError aclrtUnSubscribeReport(uint64_t threadId, aclrtStream stream) {
  OC_ACL_REQUIRE_INIT();
  OC_ACL_CHECK_NULL(stream);
  std::lock_guard<std::mutex> lock(g_cb_mutex);
  auto it = g_subscriptions.find(static_cast<Stream*>(stream));
  if (it == g_subscriptions.end() || it->second != threadId)
    return Fail(ACL_ERROR_STREAM_NOT_SUBSCRIBE,
                "aclrtUnSubscribeReport: the stream is not subscribed to this thread");
  g_subscriptions.erase(it);
  bool still = false;
  for (const auto& [st, th] : g_subscriptions) still |= th == threadId;
  if (!still) g_callbacks.erase(threadId);
  g_cb_cv.notify_all();
  return ACL_SUCCESS;
}

}  // extern "C"
