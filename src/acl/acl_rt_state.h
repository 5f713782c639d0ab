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
};
struct Stream {
  Context* ctx = nullptr;
  uint32_t id = 0;
  std::atomic<uint32_t> tasks{0};
  // Shared so that aclrtSynchronizeDevice can wait on it while another thread destroys it.
  std::shared_ptr<oc::Queue> worker;  // a queue of the device's backend
};

// Guards the registries below (and the events of acl_rt_stream.cpp).
extern std::mutex g_rt_mutex;
extern std::set<Context*> g_contexts;
extern std::set<Stream*> g_streams;

// The calling thread's context: set by aclrtSetDevice (the device's default context),
// aclrtCreateContext or aclrtSetCurrentContext on this thread. Other threads have none.
Context* CurrentContext();

}  // namespace oc::acl::rt
