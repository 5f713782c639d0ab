// A replacement C++ allocator that counts operator new calls while a window is open,
// telling OpenCANN's own allocations from those oneDNN makes inside its primitive
// execution. Included by exactly one file of each test binary (it defines the global
// operator new). Sanitizer builds bring their own allocator: OC_COUNTING_ALLOCATOR is 0.
#pragma once

#include <dlfcn.h>
#include <execinfo.h>
#include <unistd.h>

#include <atomic>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <new>

#if defined(__SANITIZE_ADDRESS__) || defined(__SANITIZE_THREAD__)
#define OC_COUNTING_ALLOCATOR 0
#elif defined(__has_feature)
#if __has_feature(address_sanitizer) || __has_feature(thread_sanitizer)
#define OC_COUNTING_ALLOCATOR 0
#endif
#endif
#ifndef OC_COUNTING_ALLOCATOR
#define OC_COUNTING_ALLOCATOR 1
#endif

namespace {
std::atomic<bool> g_counting{false};
std::atomic<size_t> g_allocations{0};  // OpenCANN's own
std::atomic<size_t> g_onednn{0};       // inside oneDNN's primitive execution
// OC_ALLOC_TRACE=N prints the call stacks of the first N allocations of OpenCANN's own to
// stderr, so a failure says where they come from.
std::atomic<long> g_trace_budget{0};
thread_local bool t_in_hook = false;

// oneDNN builds a hash map of a primitive's arguments (and some std::function objects)
// inside dnnl_primitive_execute on every call; that is oneDNN's, outside what OpenCANN
// can change. An allocation counts as oneDNN's when dnnl_primitive_execute is on the
// stack, or when a oneDNN frame is on a thread OpenCANN did not call oneDNN from.
bool InsideOneDnnExecute(void* const* frames, int depth) {
  bool in_onednn = false;
  for (int i = 0; i < depth; ++i) {
    Dl_info info;
    if (!dladdr(frames[i], &info)) continue;
    if (info.dli_sname && std::strcmp(info.dli_sname, "dnnl_primitive_execute") == 0) return true;
    if (info.dli_fname && std::strstr(info.dli_fname, "libdnnl")) in_onednn = true;
  }
  // A worker thread of oneDNN's parallel regions: its stack starts in the OpenMP runtime.
  return in_onednn && gettid() != getpid();
}

void Count() {
  if (t_in_hook) return;
  t_in_hook = true;
  void* frames[48];
  const int depth = backtrace(frames, 48);
  if (InsideOneDnnExecute(frames, depth)) {
    g_onednn.fetch_add(1);
  } else {
    g_allocations.fetch_add(1);
    if (g_trace_budget.fetch_sub(1) > 0) {
      static const char kHeader[] = "--- allocation in steady state:\n";
      (void)!write(2, kHeader, sizeof(kHeader) - 1);
      backtrace_symbols_fd(frames, depth, 2);
    }
  }
  t_in_hook = false;
}

// The counting window: opened after warm-up runs, closed before the checks.
void StartCounting() {
  if (const char* trace = std::getenv("OC_ALLOC_TRACE"))
    g_trace_budget = std::strtol(trace, nullptr, 10);
  void* warm[1];
  backtrace(warm, 1);  // loads the unwinder before counting starts
  g_allocations = 0;
  g_onednn = 0;
  g_counting = true;
}
void StopCounting() { g_counting = false; }

void* Allocate(std::size_t n, std::size_t align) {
  if (g_counting.load(std::memory_order_relaxed)) Count();
  if (n == 0) n = 1;
  void* p = align > alignof(std::max_align_t)
                ? std::aligned_alloc(align, (n + align - 1) / align * align)
                : std::malloc(n);
  if (!p) throw std::bad_alloc();
  return p;
}
}  // namespace

#if OC_COUNTING_ALLOCATOR
void* operator new(std::size_t n) { return Allocate(n, 0); }
void* operator new[](std::size_t n) { return Allocate(n, 0); }
void* operator new(std::size_t n, std::align_val_t a) {
  return Allocate(n, static_cast<size_t>(a));
}
void* operator new[](std::size_t n, std::align_val_t a) {
  return Allocate(n, static_cast<size_t>(a));
}
void operator delete(void* p) noexcept { std::free(p); }
void operator delete[](void* p) noexcept { std::free(p); }
void operator delete(void* p, std::size_t) noexcept { std::free(p); }
void operator delete[](void* p, std::size_t) noexcept { std::free(p); }
void operator delete(void* p, std::align_val_t) noexcept { std::free(p); }
void operator delete[](void* p, std::align_val_t) noexcept { std::free(p); }
void operator delete(void* p, std::size_t, std::align_val_t) noexcept { std::free(p); }
void operator delete[](void* p, std::size_t, std::align_val_t) noexcept { std::free(p); }
#endif
