// The live-handle registry behind CheckLive, and the lock that makes a check and the use
// after it one step (acl_state.h).
#include <condition_variable>
#include <mutex>
#include <shared_mutex>
#include <unordered_map>

#include "acl/acl_state.h"

namespace oc::acl {
namespace {
std::mutex g_handles_mutex;
std::shared_mutex& HandleFields() {
  static auto* lock = new std::shared_mutex();  // never destroyed, as the registry
  return *lock;
}
std::unordered_map<const void*, const char*>& Handles() {
  static auto* handles = new std::unordered_map<const void*, const char*>();  // never destroyed:
  return *handles;  // handles may be destroyed from static destructors of the application
}
}  // namespace

void AddHandle(const void* p, const char* kind) {
  if (!p) return;
  std::lock_guard<std::mutex> lock(g_handles_mutex);
  Handles()[p] = kind;
}

bool DropHandle(const void* p, const char* kind) {
  std::lock_guard<std::mutex> lock(g_handles_mutex);
  auto it = Handles().find(p);
  if (it == Handles().end() || std::string(it->second) != kind) return false;
  Handles().erase(it);
  return true;
}

const char* HandleKindOf(const void* p) {
  std::lock_guard<std::mutex> lock(g_handles_mutex);
  auto it = Handles().find(p);
  return it == Handles().end() ? nullptr : it->second;
}

std::shared_lock<std::shared_mutex> ReadHandles() {
  return std::shared_lock<std::shared_mutex>(HandleFields());
}

std::unique_lock<std::shared_mutex> WriteHandles() {
  return std::unique_lock<std::shared_mutex>(HandleFields());
}

}  // namespace oc::acl

namespace oc::acl {
namespace {
std::mutex g_pins_mutex;
std::condition_variable g_pins_cv;
std::unordered_map<const void*, int>& Pins() {
  static auto* pins = new std::unordered_map<const void*, int>();
  return *pins;
}
}  // namespace

const void* ModelKey(uint32_t model_id) {
  // Model ids share the key space with object addresses: odd values are never the address of
  // one of them (all are at least 2-byte aligned).
  return reinterpret_cast<const void*>((static_cast<uintptr_t>(model_id) << 1) | 1u);
}

InFlight::InFlight(std::vector<const void*> keys) : keys_(std::move(keys)) {
  std::lock_guard<std::mutex> lock(g_pins_mutex);
  for (const void* k : keys_) ++Pins()[k];
}

InFlight::~InFlight() {
  std::lock_guard<std::mutex> lock(g_pins_mutex);
  for (const void* k : keys_) {
    auto it = Pins().find(k);
    if (it != Pins().end() && --it->second == 0) Pins().erase(it);
  }
  g_pins_cv.notify_all();
}

void WaitUnpinned(const void* key) {
  std::unique_lock<std::mutex> lock(g_pins_mutex);
  g_pins_cv.wait(lock, [&] { return Pins().count(key) == 0; });
}

}  // namespace oc::acl
