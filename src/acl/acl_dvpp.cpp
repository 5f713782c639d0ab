// libacl_dvpp: DVPP (include/acl/ops/acl_dvpp.h) on AscendCL's public API. This file holds
// DVPP memory and what the other acl_dvpp files share; acl_dvpp_desc.cpp the descriptions,
// acl_dvpp_ops.cpp the VPC and JPEGD calls.
#include "acl/ops/acl_dvpp.h"

#include <cstdint>
#include <map>
#include <mutex>

#include "acl/acl_dvpp_abi.h"
#include "acl/acl_dvpp_objects.h"
#include "acl/acl_internal_abi.h"

namespace oc::acl_dvpp {
namespace {

std::map<const void*, Kind>& Handles() {
  static auto* handles = new std::map<const void*, Kind>();  // outlives static teardown
  return *handles;
}

std::mutex g_memory_mutex;
std::map<const uint8_t*, size_t>& DvppBlocks() {
  static auto* blocks = new std::map<const uint8_t*, size_t>();  // frees may run at teardown
  return *blocks;
}

}  // namespace

std::mutex& Mutex() {
  static std::mutex m;
  return m;
}
void Add(const void* handle, Kind kind) { Handles()[handle] = kind; }
bool Remove(const void* handle, Kind kind) {
  auto it = Handles().find(handle);
  if (it == Handles().end() || it->second != kind) return false;
  Handles().erase(it);
  return true;
}
bool Live(const void* handle, Kind kind) {
  auto it = Handles().find(handle);
  return it != Handles().end() && it->second == kind;
}

aclError Fail(aclError code, const std::string& message) {
  oc_internal_acl_fail(code, message.c_str());
  return code;
}

aclError FailStatus(const Status& s, const char* fn) {
  aclError code = ACL_ERROR_INVALID_PARAM;
  if (s.code() == StatusCode::kUnsupported) code = ACL_ERROR_FEATURE_UNSUPPORTED;
  if (s.code() == StatusCode::kOutOfMemory) code = ACL_ERROR_BAD_ALLOC;
  if (s.code() == StatusCode::kInternal) code = ACL_ERROR_INTERNAL_ERROR;
  return Fail(code, std::string(fn) + ": " + s.message());
}

aclError Unavailable(const char* fn, dvpp::Chip chip) {
  return Fail(ACL_ERROR_FEATURE_UNSUPPORTED,
              std::string(fn) + ": " + dvpp::ChipName(chip) + "'s DVPP has no such operation");
}

bool InDvppMemory(const void* p, size_t bytes) {
  const auto* q = static_cast<const uint8_t*>(p);
  std::lock_guard<std::mutex> lock(g_memory_mutex);
  auto& blocks = DvppBlocks();
  auto it = blocks.upper_bound(q);
  if (it == blocks.begin()) return false;
  --it;
  return q >= it->first && bytes <= it->second &&
         q - it->first <= static_cast<ptrdiff_t>(it->second - bytes);
}

dvpp::Chip CurrentChip() {
  const char* soc = aclrtGetSocName();
  return dvpp::ChipOf(soc ? soc : "");
}

aclError CheckBuffer(const void* p, size_t bytes, const char* fn, const char* what) {
  if (!p) return Fail(ACL_ERROR_INVALID_PARAM, std::string(fn) + ": " + what + " is null");
  if (InDvppMemory(p, bytes)) return ACL_SUCCESS;
  const dvpp::Chip chip = CurrentChip();
  const bool any_device = chip == dvpp::Chip::k910B || chip == dvpp::Chip::k310B;
  if (any_device && oc_internal_device_range(p, bytes)) return ACL_SUCCESS;
  return Fail(ACL_ERROR_INVALID_PARAM,
              std::string(fn) + ": " + what + " (" + std::to_string(bytes) + " bytes) is not " +
                  (any_device ? "inside device memory (acldvppMalloc or aclrtMalloc): on "
                              : "inside memory from acldvppMalloc: on ") +
                  dvpp::ChipName(chip) +
                  (any_device ? " DVPP reads and writes device memory, not host memory"
                              : " DVPP reads and writes only its reserved memory (the 910B and "
                                "310B families take aclrtMalloc memory too)"));
}

aclError OpenReportStream(uint64_t thread, const char* fn, aclrtStream* stream) {
  if (aclError e = aclrtCreateStream(stream)) return e;
  if (aclError e = aclrtSubscribeReport(thread, *stream)) {
    aclrtDestroyStream(*stream);
    *stream = nullptr;
    return Fail(e, std::string(fn) +
                       ": the report thread (SetChannelDescThreadId) cannot be "
                       "subscribed");
  }
  return ACL_SUCCESS;
}

aclError CloseReportStream(uint64_t thread, aclrtStream stream) {
  const aclError e = aclrtSynchronizeStream(stream);
  aclrtUnSubscribeReport(thread, stream);
  aclrtDestroyStream(stream);
  return e;
}

}  // namespace oc::acl_dvpp

extern "C" {

aclError acldvppMalloc(void** devPtr, size_t size) {
  using oc::acl_dvpp::Fail;
  if (!devPtr || size == 0)
    return Fail(ACL_ERROR_INVALID_PARAM,
                std::string("acldvppMalloc: ") + (!devPtr ? "devPtr is null" : "size is 0"));
  // CANN's rounding: up to 32 bytes, plus 32 (the engines read past the end in 32-byte steps).
  if (size > SIZE_MAX - 64)
    return Fail(ACL_ERROR_INVALID_PARAM,
                "acldvppMalloc: size " + std::to_string(size) + " cannot be allocated");
  const size_t rounded = ((size + 31) / 32) * 32 + 32;
  void* p = nullptr;
  const aclError ret = aclrtMalloc(&p, rounded, ACL_MEM_MALLOC_HUGE_FIRST);
  if (ret != ACL_SUCCESS) return ret;
  std::lock_guard<std::mutex> lock(oc::acl_dvpp::g_memory_mutex);
  oc::acl_dvpp::DvppBlocks()[static_cast<const uint8_t*>(p)] = rounded;
  *devPtr = p;
  return ACL_SUCCESS;
}

int oc_internal_dvpp_range(const void* p, size_t bytes) {
  return p && oc::acl_dvpp::InDvppMemory(p, bytes) ? 1 : 0;
}

aclError acldvppFree(void* devPtr) {
  using oc::acl_dvpp::Fail;
  if (!devPtr) return Fail(ACL_ERROR_INVALID_PARAM, "acldvppFree: devPtr is null");
  {
    std::lock_guard<std::mutex> lock(oc::acl_dvpp::g_memory_mutex);
    if (oc::acl_dvpp::DvppBlocks().erase(static_cast<const uint8_t*>(devPtr)) == 0)
      return Fail(ACL_ERROR_INVALID_PARAM,
                  "acldvppFree: the pointer was not returned by acldvppMalloc (aclrtMalloc "
                  "memory is freed with aclrtFree)");
  }
  return aclrtFree(devPtr);
}

}  // extern "C"
