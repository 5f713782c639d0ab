// Whether a host address range is mapped, asked of the kernel (mincore) instead of touching it:
// how the C API and pyACL refuse a made-up pointer with an error rather than a segfault. A
// mapped range can still be read-only or freed heap memory; HostRangeMapped finds only the
// unmapped, HostRangeReadable and HostRangeWritable the pages that would fault too.
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

// Whether every page of [p, p + bytes) can be read (written), found without faulting: a
// PROT_NONE or PROT_READ page, an unmapped one or a range that wraps answers false instead of
// raising SIGSEGV. One kernel copy of a byte per page (process_vm_readv / process_vm_writev on
// this process; the writable probe writes each probed byte back unchanged, so the range must
// be one the caller is about to overwrite anyway); where seccomp refuses those calls,
// /proc/self/maps. A range made read-only between the probe and the use still faults: the
// probe guards against wrong pointers, not against an application changing its mappings
// concurrently.
bool HostRangeReadable(const void* p, size_t bytes);
bool HostRangeWritable(void* p, size_t bytes);

namespace testing_only {
// Makes the probes use /proc/self/maps, as where process_vm_* calls are refused (tests).
void ForceMapsProbe(bool on);
}  // namespace testing_only

}  // namespace oc
