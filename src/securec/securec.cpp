// The bounds-checked C functions of the secure C library (libc_sec) that CANN's host code,
// tiling functions and kernels call. Each checks the destination size before writing, and on
// a bad argument returns an error and, where securec does, leaves the destination emptied
// ("_AND_RESET" codes). The error numbers are securec's public ones (EOK 0, EINVAL 22, ERANGE
// 34, and the reset variants with bit 7 set); that every corner case returns the same code as
// Huawei's implementation is not confirmed.
#include "securec.h"

#include <cstdarg>
#include <cstdio>
#include <cstring>

namespace {

constexpr size_t kMaxLen = 0x7fffffffUL;  // securec's SECUREC_MEM_MAX_LEN / STRING_MAX_LEN

bool Overlap(const void* a, size_t a_len, const void* b, size_t b_len) {
  const auto* pa = static_cast<const char*>(a);
  const auto* pb = static_cast<const char*>(b);
  return pa < pb + b_len && pb < pa + a_len;
}

// Length of s within max bytes, or max when no terminator lies inside.
size_t BoundedLen(const char* s, size_t max) {
  const void* nul = std::memchr(s, 0, max);
  return nul ? static_cast<size_t>(static_cast<const char*>(nul) - s) : max;
}

int CopyString(char* dest, size_t destMax, const char* src, size_t count) {
  if (destMax == 0 || destMax > kMaxLen) return ERANGE;
  if (!dest) return EINVAL;
  if (!src) {
    dest[0] = '\0';
    return EINVAL_AND_RESET;
  }
  const size_t n = BoundedLen(src, count < destMax ? count : destMax);
  if (n >= destMax) {
    dest[0] = '\0';
    return ERANGE_AND_RESET;
  }
  if (Overlap(dest, n + 1, src, n + 1)) {
    dest[0] = '\0';
    return EOVERLAP_AND_RESET;
  }
  std::memcpy(dest, src, n);
  dest[n] = '\0';
  return EOK;
}

int AppendString(char* dest, size_t destMax, const char* src, size_t count) {
  if (destMax == 0 || destMax > kMaxLen) return ERANGE;
  if (!dest) return EINVAL;
  if (!src) {
    dest[0] = '\0';
    return EINVAL_AND_RESET;
  }
  const size_t used = BoundedLen(dest, destMax);
  if (used == destMax) {  // dest is not a string that fits its own buffer
    dest[0] = '\0';
    return EINVAL_AND_RESET;
  }
  const size_t n = BoundedLen(src, count < destMax ? count : destMax);
  if (used + n >= destMax) {
    dest[0] = '\0';
    return ERANGE_AND_RESET;
  }
  if (Overlap(dest, used + n + 1, src, n + 1)) {
    dest[0] = '\0';
    return EOVERLAP_AND_RESET;
  }
  std::memcpy(dest + used, src, n);
  dest[used + n] = '\0';
  return EOK;
}

// Formats at most `count` characters into dest; -1 on a bad argument or when the result was
// cut (dest then holds the cut text when count < destMax, or is emptied).
int Format(char* dest, size_t destMax, size_t count, const char* format, va_list args) {
  if (!dest || destMax == 0 || destMax > kMaxLen) return -1;
  if (!format || count == 0) {
    dest[0] = '\0';
    return -1;
  }
  const size_t limit = count < destMax ? count + 1 : destMax;
  const int n = std::vsnprintf(dest, limit, format, args);
  if (n < 0) {
    dest[0] = '\0';
    return -1;
  }
  if (static_cast<size_t>(n) >= limit) {
    if (count >= destMax) dest[0] = '\0';  // it did not fit the buffer at all
    return -1;
  }
  return n;
}

}  // namespace

extern "C" {

errno_t memcpy_s(void* dest, size_t destMax, const void* src, size_t count) {
  if (destMax == 0 || destMax > kMaxLen) return ERANGE;
  if (!dest) return EINVAL;
  if (!src) {
    std::memset(dest, 0, destMax);
    return EINVAL_AND_RESET;
  }
  if (count > destMax) {
    std::memset(dest, 0, destMax);
    return ERANGE_AND_RESET;
  }
  if (count == 0 || dest == src) return EOK;
  if (Overlap(dest, count, src, count)) {
    std::memset(dest, 0, destMax);
    return EOVERLAP_AND_RESET;
  }
  std::memcpy(dest, src, count);
  return EOK;
}

errno_t memmove_s(void* dest, size_t destMax, const void* src, size_t count) {
  if (destMax == 0 || destMax > kMaxLen) return ERANGE;
  if (!dest) return EINVAL;
  if (!src) {
    std::memset(dest, 0, destMax);
    return EINVAL_AND_RESET;
  }
  if (count > destMax) {
    std::memset(dest, 0, destMax);
    return ERANGE_AND_RESET;
  }
  if (count) std::memmove(dest, src, count);
  return EOK;
}

errno_t memset_s(void* dest, size_t destMax, int c, size_t count) {
  if (destMax == 0 || destMax > kMaxLen) return ERANGE;
  if (!dest) return EINVAL;
  if (count > destMax) {
    std::memset(dest, c, destMax);
    return ERANGE_AND_RESET;
  }
  std::memset(dest, c, count);
  return EOK;
}

errno_t strcpy_s(char* dest, size_t destMax, const char* src) {
  return CopyString(dest, destMax, src, kMaxLen);
}

errno_t strncpy_s(char* dest, size_t destMax, const char* src, size_t count) {
  if (count > kMaxLen) return ERANGE;
  return CopyString(dest, destMax, src, count);
}

errno_t strcat_s(char* dest, size_t destMax, const char* src) {
  return AppendString(dest, destMax, src, kMaxLen);
}

errno_t strncat_s(char* dest, size_t destMax, const char* src, size_t count) {
  if (count > kMaxLen) return ERANGE;
  return AppendString(dest, destMax, src, count);
}

int vsprintf_s(char* dest, size_t destMax, const char* format, va_list args) {
  return Format(dest, destMax, kMaxLen, format, args);
}

int sprintf_s(char* dest, size_t destMax, const char* format, ...) {
  va_list args;
  va_start(args, format);
  const int n = Format(dest, destMax, kMaxLen, format, args);
  va_end(args);
  return n;
}

int vsnprintf_s(char* dest, size_t destMax, size_t count, const char* format, va_list args) {
  return Format(dest, destMax, count, format, args);
}

int snprintf_s(char* dest, size_t destMax, size_t count, const char* format, ...) {
  va_list args;
  va_start(args, format);
  const int n = Format(dest, destMax, count, format, args);
  va_end(args);
  return n;
}

}  // extern "C"
