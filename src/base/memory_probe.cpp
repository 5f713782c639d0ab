#include "base/memory_probe.h"

#include <sys/uio.h>

#include <atomic>
#include <cstdio>
#include <cstring>

namespace oc {
namespace {

// process_vm_readv/writev on this process: the kernel copies and reports a fault as EFAULT
// (or a short count) instead of raising SIGSEGV. Unavailable where seccomp refuses the calls
// (EPERM, ENOSYS); /proc/self/maps answers then.
std::atomic<bool> g_vm_calls_refused{false};

constexpr size_t kBatch = 256;  // pages probed per call (IOV_MAX is 1024)

uintptr_t PageSize() {
  static const uintptr_t page = static_cast<uintptr_t>(sysconf(_SC_PAGESIZE));
  return page;
}

// Fills `at` with one address per page of [a, a + bytes) from page index `first`, at most
// kBatch of them; returns how many.
size_t ProbeAddresses(uintptr_t a, size_t bytes, uintptr_t first, uintptr_t* at) {
  const uintptr_t page = PageSize();
  const uintptr_t start_page = a / page, end = a + bytes, last_page = (end - 1) / page;
  size_t n = 0;
  for (uintptr_t pg = start_page + first; pg <= last_page && n < kBatch; ++pg)
    at[n++] = pg == start_page ? a : pg * page;
  return n;
}

enum class VmProbe { kYes, kNo, kRefused };

VmProbe ProbeWithVmCalls(uintptr_t a, size_t bytes, bool write) {
  const pid_t self = getpid();
  const uintptr_t pages = (a + bytes - 1) / PageSize() - a / PageSize() + 1;
  uintptr_t at[kBatch];
  unsigned char saved[kBatch];
  iovec remote[kBatch];
  for (uintptr_t done = 0; done < pages;) {
    const size_t n = ProbeAddresses(a, bytes, done, at);
    for (size_t i = 0; i < n; ++i) remote[i] = {reinterpret_cast<void*>(at[i]), 1};
    iovec local{saved, n};
    ssize_t got = process_vm_readv(self, &local, 1, remote, n, 0);
    if (got < 0 && (errno == ENOSYS || errno == EPERM)) return VmProbe::kRefused;
    if (got != static_cast<ssize_t>(n)) return VmProbe::kNo;
    if (write) {
      // The bytes just read go back unchanged: the page takes a write or the call says
      // EFAULT. (The range is one the caller is about to overwrite.)
      got = process_vm_writev(self, &local, 1, remote, n, 0);
      if (got < 0 && (errno == ENOSYS || errno == EPERM)) return VmProbe::kRefused;
      if (got != static_cast<ssize_t>(n)) return VmProbe::kNo;
    }
    done += n;
  }
  return VmProbe::kYes;
}

// The fallback: the permissions /proc/self/maps lists for every page of the range. Unknown
// (true) when the file cannot be read: the mapped-range check is all that is left then.
bool ProbeWithMaps(uintptr_t a, size_t bytes, bool write) {
  FILE* f = std::fopen("/proc/self/maps", "re");
  if (!f) return HostRangeMapped(reinterpret_cast<const void*>(a), bytes);
  uintptr_t need = a;  // the first address not yet found in a suitable mapping
  const uintptr_t end = a + bytes;
  char line[512];
  while (need < end && std::fgets(line, sizeof(line), f)) {
    unsigned long lo = 0, hi = 0;
    char perms[5] = {};
    if (std::sscanf(line, "%lx-%lx %4s", &lo, &hi, perms) != 3) continue;
    if (hi <= need) continue;
    if (lo > need) break;  // a hole: the lines are sorted by address
    if (perms[0] != 'r' || (write && perms[1] != 'w')) break;
    need = hi;
  }
  std::fclose(f);
  return need >= end;
}

bool Probe(const void* p, size_t bytes, bool write) {
  if (bytes == 0) return true;
  const uintptr_t a = reinterpret_cast<uintptr_t>(p);
  if (a == 0 || a + bytes < a) return false;  // null, or wraps around
  if (!g_vm_calls_refused.load(std::memory_order_relaxed)) {
    switch (ProbeWithVmCalls(a, bytes, write)) {
      case VmProbe::kYes:
        return true;
      case VmProbe::kNo:
        return false;
      case VmProbe::kRefused:
        g_vm_calls_refused.store(true, std::memory_order_relaxed);
        break;
    }
  }
  return ProbeWithMaps(a, bytes, write);
}

}  // namespace

bool HostRangeReadable(const void* p, size_t bytes) { return Probe(p, bytes, false); }
bool HostRangeWritable(void* p, size_t bytes) { return Probe(p, bytes, true); }

namespace testing_only {
void ForceMapsProbe(bool on) { g_vm_calls_refused.store(on); }
}  // namespace testing_only

}  // namespace oc
