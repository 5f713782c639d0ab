// The runtime state the aclrt files share (acl_rt.cpp: devices and contexts;
// acl_rt_stream.cpp: streams, events and callbacks): the context and stream behind their
// handles and the registries that tell live handles from stale ones.
#pragma once

#include <atomic>
#include <cstdint>
#include <memory>
#include <mutex>
#include <set>

#include "acl/acl_state.h"

namespace oc::acl::rt {

struct Context {
  int32_t device = 0;
  // Never reused: a thread whose current context was destroyed must not take a new one
  // that happens to get the same address for its own.
  uint64_t serial = NextContextSerial();

 private:
  static uint64_t NextContextSerial() {
    static std::atomic<uint64_t> next{1};
    return next++;
  }
};
struct Stream {
  int32_t device = 0;  // of the context current at its creation (which may go first)
  uint32_t id = 0;
  std::atomic<uint32_t> tasks{0};
  // Shared so that a call using it (aclrtSynchronizeDevice, a submit) keeps it alive while
  // another thread destroys the stream.
  std::shared_ptr<oc::Queue> worker;  // a queue of the device's backend
  // Set (under the callback lock) when the stream is being destroyed: its blocking callbacks
  // stop holding its queue. Shared with the callbacks' tasks, which may outlive the Stream.
  std::shared_ptr<bool> closing = std::make_shared<bool>(false);
};

// Guards the registries below (and the events of acl_rt_stream.cpp).
extern std::mutex g_rt_mutex;
extern std::set<Context*> g_contexts;
extern std::set<Stream*> g_streams;

// The calling thread's context: set by aclrtSetDevice (the device's default context),
// aclrtCreateContext or aclrtSetCurrentContext on this thread. Other threads have none.
// Read under the lock: another thread may destroy the context right after.
struct CurrentCtx {
  Context* handle = nullptr;  // compared and handed out, never dereferenced
  int32_t device = 0;
  explicit operator bool() const { return handle != nullptr; }
};
CurrentCtx CurrentContext();
// aclFinalize: every context goes (the handles the application holds become stale) and the
// devices' references with them.
void ReleaseContexts();

}  // namespace oc::acl::rt
