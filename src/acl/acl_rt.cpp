// Devices and contexts of the emulated NPU: device 0 is backed by the host CPU. Streams,
// events and callbacks are acl_rt_stream.cpp; memory and copies acl_rt_memory.cpp.
#include <memory>
#include <mutex>
#include <set>
#include <string>
#include <vector>

#include "acl/acl_rt_state.h"
#include "acl/acl_state.h"
#include "base/config.h"
#include "opencann/soc_table.h"

using oc::acl::Fail;
// The shared runtime state (acl_rt_state.h) by the short names the C functions use.
using oc::acl::rt::Context;
using oc::acl::rt::CurrentContext;
using oc::acl::rt::g_contexts;
using oc::acl::rt::g_rt_mutex;
using oc::acl::rt::g_streams;
using oc::acl::rt::Stream;

namespace {

Context* g_default_context = nullptr;
int g_device_refs = 0;
thread_local Context* t_current = nullptr;
thread_local uint64_t t_current_serial = 0;

// Under g_rt_mutex.
void MakeCurrent(Context* c) {
  t_current = c;
  t_current_serial = c ? c->serial : 0;
}
bool HasLiveCurrent() {
  return t_current && g_contexts.count(t_current) && t_current->serial == t_current_serial;
}

constexpr uint32_t kDeviceCount = 1;

aclError CheckDevice(int32_t id, const char* fn) {
  if (id < 0 || static_cast<uint32_t>(id) >= kDeviceCount)
    return Fail(ACL_ERROR_RT_INVALID_DEVICEID,
                std::string(fn) + ": device id " + std::to_string(id) +
                    " is invalid; this machine has 1 emulated NPU (device 0)");
  return ACL_SUCCESS;
}

}  // namespace

namespace oc::acl::rt {

std::mutex g_rt_mutex;
std::set<Context*> g_contexts;
std::set<Stream*> g_streams;

CurrentCtx CurrentContext() {
  std::lock_guard<std::mutex> lock(g_rt_mutex);
  if (HasLiveCurrent()) return {t_current, t_current->device};
  return {};
}

void ReleaseContexts() {
  std::lock_guard<std::mutex> lock(g_rt_mutex);
  for (Context* c : g_contexts) delete c;
  g_contexts.clear();
  g_default_context = nullptr;
  g_device_refs = 0;
  MakeCurrent(nullptr);  // other threads' become stale by their serials
}

}  // namespace oc::acl::rt

namespace oc::acl {

aclError RequireContext(const char* fn) {
  std::lock_guard<std::mutex> lock(g_rt_mutex);
  if (HasLiveCurrent()) return ACL_SUCCESS;
  // Work a stream runs belongs to the stream's context.
  if (oc::Queue::OnWorkerThread()) return ACL_SUCCESS;
  if (State::Get().default_device() >= 0) {
    // aclInit's defaultDevice: the device is set for this thread implicitly. The implicit
    // reference is released with the others (aclrtResetDevice or aclFinalize).
    if (!g_default_context) {
      g_default_context = new Context{State::Get().default_device()};
      g_contexts.insert(g_default_context);
      ++g_device_refs;
    }
    MakeCurrent(g_default_context);
    return ACL_SUCCESS;
  }
  return Fail(ACL_ERROR_RT_CONTEXT_NULL,
              std::string(fn) +
                  ": no context is current on this thread (the runtime's \"current context "
                  "null\"); call aclrtSetDevice or aclrtSetCurrentContext on this thread first, "
                  "or name a defaultDevice in aclInit's configuration");
}

}  // namespace oc::acl

extern "C" {

aclError aclrtSetDevice(int32_t deviceId) {
  OC_ACL_REQUIRE_INIT_OR_IMPLICIT();
  if (aclError e = CheckDevice(deviceId, __func__)) return e;
  std::lock_guard<std::mutex> lock(g_rt_mutex);
  if (!g_default_context) {
    g_default_context = new Context{deviceId};
    g_contexts.insert(g_default_context);
  }
  ++g_device_refs;
  MakeCurrent(g_default_context);
  return ACL_SUCCESS;
}

aclError aclrtResetDevice(int32_t deviceId) {
  OC_ACL_REQUIRE_INIT();
  if (aclError e = CheckDevice(deviceId, __func__)) return e;
  std::lock_guard<std::mutex> lock(g_rt_mutex);
  if (g_device_refs > 0 && --g_device_refs == 0 && g_default_context) {
    g_contexts.erase(g_default_context);
    if (t_current == g_default_context) MakeCurrent(nullptr);
    delete g_default_context;
    g_default_context = nullptr;
  }
  return ACL_SUCCESS;
}

aclError aclrtGetDevice(int32_t* deviceId) {
  OC_ACL_REQUIRE_INIT();
  OC_ACL_CHECK_NULL(deviceId);
  const auto c = CurrentContext();
  if (!c) return Fail(ACL_ERROR_RT_CONTEXT_NULL, "aclrtGetDevice: no device is set on this thread");
  *deviceId = c.device;
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
  OC_ACL_REQUIRE_CONTEXT();
  const auto c = CurrentContext();
  if (!c)
    return Fail(ACL_ERROR_RT_CONTEXT_NULL,
                "aclrtSynchronizeDevice: no device is set on this thread (aclrtSetDevice)");
  // Waits for the work of every stream of the device, as CANN does.
  std::vector<std::shared_ptr<oc::Queue>> workers;
  {
    std::lock_guard<std::mutex> lock(g_rt_mutex);
    for (Stream* s : g_streams)
      if (s->device == c.device) workers.push_back(s->worker);
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
  OC_ACL_REQUIRE_INIT_OR_IMPLICIT();
  OC_ACL_CHECK_NULL(context);
  if (aclError e = CheckDevice(deviceId, __func__)) return e;
  auto* c = new Context{deviceId};
  std::lock_guard<std::mutex> lock(g_rt_mutex);
  g_contexts.insert(c);
  MakeCurrent(c);  // CANN makes the new context current
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
  if (t_current == c) MakeCurrent(nullptr);
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
  MakeCurrent(c);
  return ACL_SUCCESS;
}

aclError aclrtGetCurrentContext(aclrtContext* context) {
  OC_ACL_REQUIRE_INIT();
  OC_ACL_CHECK_NULL(context);
  const auto c = CurrentContext();
  if (!c)
    return Fail(ACL_ERROR_RT_CONTEXT_NULL, "aclrtGetCurrentContext: no context on this thread");
  *context = c.handle;
  return ACL_SUCCESS;
}

const char* aclrtGetSocName(void) {
  // Unset and empty alike find no entry: the default SoC.
  const opencann::SocSpec* soc = opencann::FindSocSpec(oc::GlobalConfig().soc.c_str());
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

}  // extern "C"
