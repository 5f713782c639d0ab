// Devices, contexts, streams, events and memory of the emulated NPU. Device 0 is
// backed by the host CPU; work submitted to a stream completes before the call
// returns, which keeps stream order trivially.
#include <chrono>
#include <cstring>
#include <mutex>
#include <set>

#include "acl/acl_state.h"

using oc::acl::Fail;
using oc::acl::State;

namespace {

struct Context {
  int32_t device = 0;
};
struct Stream {
  Context* ctx = nullptr;
};
struct Event {
  std::chrono::steady_clock::time_point at;
  bool recorded = false;
};

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

Context* CurrentContext() {
  std::lock_guard<std::mutex> lock(g_rt_mutex);
  if (t_current && g_contexts.count(t_current)) return t_current;
  return g_default_context;
}

}  // namespace

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
  if (!t_current) t_current = g_default_context;
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
  OC_ACL_REQUIRE_INIT();
  OC_ACL_CHECK_NULL(runMode);
  *runMode = ACL_HOST;  // the application runs on the host, the "NPU" is device 0
  return ACL_SUCCESS;
}

aclError aclrtSynchronizeDevice(void) {
  OC_ACL_REQUIRE_INIT();
  return ACL_SUCCESS;
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
  auto* s = new Stream{c};
  std::lock_guard<std::mutex> lock(g_rt_mutex);
  g_streams.insert(s);
  *stream = s;
  return ACL_SUCCESS;
}

aclError aclrtDestroyStream(aclrtStream stream) {
  OC_ACL_REQUIRE_INIT();
  OC_ACL_CHECK_NULL(stream);
  std::lock_guard<std::mutex> lock(g_rt_mutex);
  auto* s = static_cast<Stream*>(stream);
  if (!g_streams.erase(s))
    return Fail(ACL_ERROR_INVALID_PARAM, "aclrtDestroyStream: unknown stream");
  delete s;
  return ACL_SUCCESS;
}

aclError aclrtSynchronizeStream(aclrtStream stream) {
  OC_ACL_REQUIRE_INIT();
  if (stream) {
    std::lock_guard<std::mutex> lock(g_rt_mutex);
    if (!g_streams.count(static_cast<Stream*>(stream)))
      return Fail(ACL_ERROR_INVALID_PARAM, "aclrtSynchronizeStream: unknown stream");
  }
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
  if (count) std::memmove(dst, src, count);
  return ACL_SUCCESS;
}

aclError aclrtMemcpyAsync(void* dst, size_t destMax, const void* src, size_t count,
                          aclrtMemcpyKind kind, aclrtStream stream) {
  return aclrtMemcpy(dst, destMax, src, count, kind);
}

aclError aclrtMemset(void* devPtr, size_t maxCount, int32_t value, size_t count) {
  OC_ACL_REQUIRE_INIT();
  OC_ACL_CHECK_NULL(devPtr);
  if (count > maxCount) return Fail(ACL_ERROR_INVALID_PARAM, "aclrtMemset: count exceeds maxCount");
  if (count) std::memset(devPtr, value, count);
  return ACL_SUCCESS;
}

aclError aclrtGetMemInfo(int attr, size_t* free, size_t* total) {
  OC_ACL_REQUIRE_INIT();
  OC_ACL_CHECK_NULL(free);
  OC_ACL_CHECK_NULL(total);
  // The Ascend910B3's 64 GB of HBM; "free" is what the host could still give.
  *total = size_t{64} << 30;
  *free = *total;
  return ACL_SUCCESS;
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
  delete e;
  return ACL_SUCCESS;
}

aclError aclrtRecordEvent(aclrtEvent event, aclrtStream stream) {
  OC_ACL_REQUIRE_INIT();
  OC_ACL_CHECK_NULL(event);
  std::lock_guard<std::mutex> lock(g_rt_mutex);
  auto* e = static_cast<Event*>(event);
  if (!g_events.count(e)) return Fail(ACL_ERROR_INVALID_PARAM, "aclrtRecordEvent: unknown event");
  e->at = std::chrono::steady_clock::now();
  e->recorded = true;
  return ACL_SUCCESS;
}

aclError aclrtSynchronizeEvent(aclrtEvent event) {
  OC_ACL_REQUIRE_INIT();
  OC_ACL_CHECK_NULL(event);
  return ACL_SUCCESS;
}

aclError aclrtEventElapsedTime(float* ms, aclrtEvent start, aclrtEvent end) {
  OC_ACL_REQUIRE_INIT();
  OC_ACL_CHECK_NULL(ms);
  OC_ACL_CHECK_NULL(start);
  OC_ACL_CHECK_NULL(end);
  auto* a = static_cast<Event*>(start);
  auto* b = static_cast<Event*>(end);
  if (!a->recorded || !b->recorded)
    return Fail(ACL_ERROR_RT_EVENT_TIMESTAMP_INVALID, "aclrtEventElapsedTime: event not recorded");
  *ms = std::chrono::duration<float, std::milli>(b->at - a->at).count();
  return ACL_SUCCESS;
}

aclError aclrtSubscribeReport(uint64_t threadId, aclrtStream stream) {
  OC_ACL_REQUIRE_INIT();
  OC_ACL_CHECK_NULL(stream);
  return ACL_SUCCESS;
}

aclError aclrtLaunchCallback(aclrtCallback fn, void* userData, aclrtCallbackBlockType blockType,
                             aclrtStream stream) {
  OC_ACL_REQUIRE_INIT();
  OC_ACL_CHECK_NULL(fn);
  fn(userData);  // work before it on the stream is already complete
  return ACL_SUCCESS;
}

aclError aclrtProcessReport(int32_t timeout) {
  OC_ACL_REQUIRE_INIT();
  return ACL_SUCCESS;
}

aclError aclrtUnSubscribeReport(uint64_t threadId, aclrtStream stream) {
  OC_ACL_REQUIRE_INIT();
  OC_ACL_CHECK_NULL(stream);
  return ACL_SUCCESS;
}

}  // extern "C"
