// memcpy_s and memset_s of the secure C library CANN's host and kernel code call: bounds
// checked copies. Return 0 (EOK) on success; on a bad argument an errno value, and for a
// copy larger than the destination the destination is cleared first, as securec does
// (the exact securec error numbers are not confirmed here).
#pragma once

#include <cerrno>
#include <cstddef>
#include <cstring>

#ifndef EOK
#define EOK 0
#endif

inline int memcpy_s(void* dest, size_t destMax, const void* src, size_t count) {
  if (!dest || destMax == 0) return EINVAL;
  if (!src) {
    std::memset(dest, 0, destMax);
    return EINVAL;
  }
  if (count > destMax) {
    std::memset(dest, 0, destMax);
    return ERANGE;
  }
  if (count) std::memmove(dest, src, count);
  return EOK;
}

inline int memset_s(void* dest, size_t destMax, int c, size_t count) {
  if (!dest || destMax == 0) return EINVAL;
  if (count > destMax) {
    std::memset(dest, c, destMax);
    return ERANGE;
  }
  std::memset(dest, c, count);
  return EOK;
}
