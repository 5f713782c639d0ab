// Memory of the emulated NPU and the copies between it and the host: device memory is the
// device backend's, host memory pinned host memory in CANN's terms.
#include <unistd.h>

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include "acl/acl_state.h"
#include "base/memory_probe.h"
#include "opencann/soc_table.h"

using oc::acl::Fail;
using oc::acl::State;

namespace {

// The emulated device's memory: the SoC's HBM (what aclrtGetMemInfo reports as total).
size_t DeviceMemoryTotal() {
  const opencann::SocSpec* soc = opencann::FindSocSpec(aclrtGetSocName());
  return static_cast<size_t>(soc ? soc->hbm_gib : 64) << 30;
}

// The host's physical memory: pinned host memory (aclrtMallocHost) cannot exceed it.
size_t HostMemoryTotal() {
  const long pages = sysconf(_SC_PHYS_PAGES), page = sysconf(_SC_PAGESIZE);
  if (pages <= 0 || page <= 0) return SIZE_MAX;
  const size_t p = static_cast<size_t>(pages), b = static_cast<size_t>(page);
  return p > SIZE_MAX / b ? SIZE_MAX : p * b;
}

}  // namespace

extern "C" {

aclError aclrtMalloc(void** devPtr, size_t size, aclrtMemMallocPolicy policy) {
  OC_ACL_REQUIRE_CONTEXT();
  OC_ACL_CHECK_NULL(devPtr);
  if (size == 0) return Fail(ACL_ERROR_INVALID_PARAM, "aclrtMalloc: size must be positive");
  if (policy < ACL_MEM_MALLOC_HUGE_FIRST || policy > ACL_MEM_MALLOC_NORMAL_ONLY_P2P)
    return Fail(ACL_ERROR_INVALID_PARAM, "aclrtMalloc: unknown policy");
  // More than the device has is refused before the host allocator sees it (a sanitizer's
  // allocator aborts on such sizes instead of failing).
  if (size > DeviceMemoryTotal())
    return Fail(ACL_ERROR_RT_MEMORY_ALLOCATION, "aclrtMalloc: " + std::to_string(size) +
                                                    " bytes are more than the device's " +
                                                    std::to_string(DeviceMemoryTotal()));
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
  OC_ACL_REQUIRE_CONTEXT();
  OC_ACL_CHECK_NULL(hostPtr);
  if (size == 0) return Fail(ACL_ERROR_INVALID_PARAM, "aclrtMallocHost: size must be positive");
  if (size > HostMemoryTotal())
    return Fail(ACL_ERROR_RT_MEMORY_ALLOCATION,
                "aclrtMallocHost: " + std::to_string(size) +
                    " bytes are more than the host's memory, which pinned memory cannot exceed");
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
  OC_ACL_REQUIRE_CONTEXT();
  OC_ACL_CHECK_NULL(dst);
  OC_ACL_CHECK_NULL(src);
  if (count > destMax)
    return Fail(ACL_ERROR_INVALID_PARAM, "aclrtMemcpy: count " + std::to_string(count) +
                                             " exceeds destMax " + std::to_string(destMax));
  if (kind < ACL_MEMCPY_HOST_TO_HOST || kind > ACL_MEMCPY_DEFAULT)
    return Fail(ACL_ERROR_INVALID_PARAM, "aclrtMemcpy: unknown kind");
  // Our own allocations on either side stay allocated until the copy is done (an aclrtFree
  // meanwhile waits); the lookup is the only cost a copy between them has.
  const oc::acl::PinnedAllocation dpin(dst), spin(src);
  const size_t span = std::max<size_t>(count, 1);
  const bool dst_dev = dpin.device() && dpin.Holds(dst, span);
  const bool src_dev = spin.device() && spin.Holds(src, span);
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
  // A device pointer whose allocation does not hold the range cannot be copied.
  if ((dpin.device() && !dst_dev) || (spin.device() && !src_dev))
    return Fail(ACL_ERROR_RT_PARAM_INVALID, std::string("aclrtMemcpy: ") +
                                                (dpin.device() && !dst_dev ? "dst" : "src") +
                                                ": the range of " + std::to_string(count) +
                                                " bytes exceeds its device allocation");
  if (!ok) {
    // CANN's runtime judges the direction from the pointers (its documentation calls kind a
    // reserved parameter; Ascend's acllite and memcpy_host_DVPP samples rely on it both ways).
    // A side the kind calls device that is freed device memory is refused, never read.
    const bool claims_dst_dev =
        kind == ACL_MEMCPY_HOST_TO_DEVICE || kind == ACL_MEMCPY_DEVICE_TO_DEVICE;
    const bool claims_src_dev =
        kind == ACL_MEMCPY_DEVICE_TO_HOST || kind == ACL_MEMCPY_DEVICE_TO_DEVICE;
    for (const bool is_dst : {true, false}) {
      const bool claims = is_dst ? claims_dst_dev : claims_src_dev;
      const bool live = is_dst ? dst_dev : src_dev;
      const void* p = is_dst ? static_cast<const void*>(dst) : src;
      if (claims && !live && State::Get().WasFreedDevice(p))
        return Fail(ACL_ERROR_RT_PARAM_INVALID,
                    std::string("aclrtMemcpy: ") + (is_dst ? "dst" : "src") +
                        " is device memory freed with aclrtFree (a stale pointer)");
    }
    static std::once_flag warned;
    std::call_once(warned, [&] {
      std::fprintf(stderr,
                   "[WARNING] OpenCANN: aclrtMemcpy kind %d does not match the memory (dst is %s, "
                   "src is %s memory); copied by the pointers, as CANN's runtime does\n",
                   static_cast<int>(kind), dst_dev ? "device" : "host",
                   src_dev ? "device" : "host");
    });
  }
  // Host sides: aclrtMallocHost memory must hold the range; other memory must take the write
  // (read) without a fault: a made-up, freed-and-unmapped or read-only pointer is an error,
  // not a crash.
  for (const auto* side : {&dpin, &spin}) {
    const bool is_dst = side == &dpin;
    const void* p = is_dst ? static_cast<const void*>(dst) : src;
    if (!count || (is_dst ? dst_dev : src_dev)) continue;
    if (*side) {
      if (!side->Holds(p, count))
        return Fail(ACL_ERROR_INVALID_PARAM,
                    std::string("aclrtMemcpy: ") + (is_dst ? "dst" : "src") + " has " +
                        std::to_string(side->BytesFrom(p)) +
                        " bytes of its aclrtMallocHost allocation left, not " +
                        std::to_string(count));
      continue;
    }
    if (is_dst ? !oc::HostRangeWritable(dst, count) : !oc::HostRangeReadable(src, count))
      return Fail(ACL_ERROR_INVALID_PARAM, std::string("aclrtMemcpy: ") + (is_dst ? "dst" : "src") +
                                               " is not " + (is_dst ? "writable" : "readable") +
                                               " host memory for " + std::to_string(count) +
                                               " bytes (a stale, made-up or read-only pointer?)");
  }
  // The device's backend owns its memory and how bytes reach it.
  using Kind = oc::Backend::CopyKind;
  const Kind k = dst_dev ? (src_dev ? Kind::kDeviceToDevice : Kind::kHostToDevice)
                         : (src_dev ? Kind::kDeviceToHost : Kind::kHostToHost);
  const double t0 = oc::acl::NowUs();
  oc::Status copied = State::Get().device_backend().Copy(dst, src, count, k);
  static const char* const kNames[] = {"copy host-to-host", "copy host-to-device",
                                       "copy device-to-host", "copy device-to-device"};
  oc::acl::TimelineEvent(kNames[static_cast<int>(k) & 3], "memcpy", t0);
  if (!copied.ok()) return oc::acl::FailStatus(copied, oc::acl::Phase::kCall, "aclrtMemcpy");
  return ACL_SUCCESS;
}

aclError aclrtMemcpyAsync(void* dst, size_t destMax, const void* src, size_t count,
                          aclrtMemcpyKind kind, aclrtStream stream) {
  OC_ACL_REQUIRE_CONTEXT();
  aclError e = ACL_SUCCESS;
  std::shared_ptr<oc::Queue> worker = oc::acl::StreamOf(stream, &e);
  if (e != ACL_SUCCESS) return e;
  if (!worker) return aclrtMemcpy(dst, destMax, src, count, kind);
  // Arguments are checked now (the copy checks them again when the stream reaches it); the
  // copy happens in stream order.
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
    if (State::Get().DeviceAllocation(p, &start, &size)) {
      keys.push_back(start);
      continue;
    }
    // Host memory that is not ours must take the copy without a fault.
    const bool is_dst = p == dst;
    if (count && !State::Get().IsHostPinned(p) &&
        !(is_dst ? oc::HostRangeWritable(dst, count) : oc::HostRangeReadable(src, count)))
      return Fail(ACL_ERROR_INVALID_PARAM,
                  std::string("aclrtMemcpyAsync: ") + (is_dst ? "dst" : "src") + " is not " +
                      (is_dst ? "writable" : "readable") + " host memory for " +
                      std::to_string(count) + " bytes");
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
  OC_ACL_REQUIRE_CONTEXT();
  OC_ACL_CHECK_NULL(devPtr);
  if (count > maxCount) return Fail(ACL_ERROR_INVALID_PARAM, "aclrtMemset: count exceeds maxCount");
  // maxCount is the application's word: the allocation itself bounds the write, and stays
  // allocated until it is done.
  const oc::acl::PinnedAllocation pin(devPtr);
  const size_t avail = pin.BytesFrom(devPtr);
  if (avail == 0)
    return Fail(ACL_ERROR_INVALID_PARAM,
                "aclrtMemset: the pointer is not memory from aclrtMalloc or aclrtMallocHost");
  if (maxCount > avail)
    return Fail(ACL_ERROR_INVALID_PARAM, "aclrtMemset: maxCount " + std::to_string(maxCount) +
                                             " exceeds the " + std::to_string(avail) +
                                             " bytes left in the allocation");
  // Device memory is the device backend's to write (the host may not reach it).
  if (count) {
    const oc::Backend& owner =
        pin.device() ? State::Get().device_backend() : oc::BackendRegistry::Global().First();
    if (oc::Status s = owner.Fill(devPtr, value, count); !s.ok())
      return Fail(ACL_ERROR_INVALID_PARAM, "aclrtMemset: " + s.message());
  }
  return ACL_SUCCESS;
}

aclError aclrtGetMemInfo(aclrtMemAttr attr, size_t* free, size_t* total) {
  OC_ACL_REQUIRE_CONTEXT();
  OC_ACL_CHECK_NULL(free);
  OC_ACL_CHECK_NULL(total);
  if (attr < ACL_DDR_MEM || attr > ACL_HBM_MEM_P2P_NORMAL)
    return Fail(ACL_ERROR_INVALID_PARAM, "aclrtGetMemInfo: attr " +
                                             std::to_string(static_cast<int>(attr)) +
                                             " is not an aclrtMemAttr");
  *total = DeviceMemoryTotal();
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
  OC_ACL_REQUIRE_CONTEXT();
  aclError e = ACL_SUCCESS;
  std::shared_ptr<oc::Queue> worker = oc::acl::StreamOf(stream, &e);
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

}  // extern "C"
