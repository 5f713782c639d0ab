// libacl_dvpp: DVPP's memory pair (include/acl/ops/acl_dvpp.h), on AscendCL's public API.
#include "acl/ops/acl_dvpp.h"

#include <cstdint>
#include <mutex>
#include <set>

namespace {

std::mutex g_mutex;
std::set<void*>& DvppBlocks() {
  static std::set<void*> blocks;  // leaked on purpose: frees may run during static teardown
  return blocks;
}

}  // namespace

extern "C" {

aclError acldvppMalloc(void** devPtr, size_t size) {
  if (!devPtr || size == 0) {
    ACL_APP_LOG(ACL_ERROR, "acldvppMalloc: %s", !devPtr ? "devPtr is null" : "size is 0");
    return ACL_ERROR_INVALID_PARAM;
  }
  // CANN's rounding: up to 32 bytes, plus 32 (the engines read past the end in 32-byte steps).
  if (size > SIZE_MAX - 64) return ACL_ERROR_INVALID_PARAM;
  const size_t rounded = ((size + 31) / 32) * 32 + 32;
  void* p = nullptr;
  const aclError ret = aclrtMalloc(&p, rounded, ACL_MEM_MALLOC_HUGE_FIRST);
  if (ret != ACL_SUCCESS) return ret;
  std::lock_guard<std::mutex> lock(g_mutex);
  DvppBlocks().insert(p);
  *devPtr = p;
  return ACL_SUCCESS;
}

aclError acldvppFree(void* devPtr) {
  if (!devPtr) {
    ACL_APP_LOG(ACL_ERROR, "acldvppFree: devPtr is null");
    return ACL_ERROR_INVALID_PARAM;
  }
  {
    std::lock_guard<std::mutex> lock(g_mutex);
    if (DvppBlocks().erase(devPtr) == 0) {
      ACL_APP_LOG(ACL_ERROR,
                  "acldvppFree: %p was not returned by acldvppMalloc (aclrtMalloc "
                  "memory is freed with aclrtFree)",
                  devPtr);
      return ACL_ERROR_INVALID_PARAM;
    }
  }
  return aclrtFree(devPtr);
}

}  // extern "C"
