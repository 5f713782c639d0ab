// libruntime: the runtime call applications use to detect the chip, rtGetSocVersion (LLM apps
// call it through ctypes before choosing atc's --soc_version). The chip is AscendCL's.
#include <cstdint>
#include <cstring>

#include "acl/acl.h"

extern "C" {

// rtError_t rtGetSocVersion(char *ver, const uint32_t maxLen): 0, or the runtime's
// invalid-parameter code when the buffer is null or too short for the name and its NUL.
ACL_FUNC_VISIBILITY int32_t rtGetSocVersion(char* ver, const uint32_t maxLen) {
  const char* name = aclrtGetSocName();
  if (!ver || !name || std::strlen(name) + 1 > maxLen) return ACL_ERROR_RT_PARAM_INVALID;
  std::memcpy(ver, name, std::strlen(name) + 1);
  return 0;
}

}  // extern "C"
