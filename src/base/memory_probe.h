// Whether a host address range is mapped, asked of the kernel (mincore) instead of touching it:
// how the C API and pyACL refuse a made-up pointer with an error rather than a segfault. A
// mapped range can still be read-only or freed heap memory; this finds only the unmapped.
#pragma once

#include <sys/mman.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstddef>
#include <cstdint>
#include <vector>

namespace oc {

inline bool HostRangeMapped(const void* p, size_t bytes) {
  if (bytes == 0) return true;
  const uintptr_t page = static_cast<uintptr_t>(sysconf(_SC_PAGESIZE));
  const uintptr_t a = reinterpret_cast<uintptr_t>(p);
  if (a + bytes < a) return false;  // wraps around
  const uintptr_t start = a / page * page, end = (a + bytes + page - 1) / page * page;
  // One probe per 1024 pages keeps the vector small for large ranges.
  std::vector<unsigned char> vec(1024);
  for (uintptr_t at = start; at < end; at += 1024 * page) {
    const size_t len = static_cast<size_t>(std::min<uintptr_t>(end - at, 1024 * page));
    if (mincore(reinterpret_cast<void*>(at), len, vec.data()) != 0 && errno == ENOMEM) return false;
  }
  return true;
}

}  // namespace oc
