// Each core's local memories (reserved by InitBuffer and queues) and global memory: the known
// allocations that bound every access, and the writes of different blocks that must not overlap.
#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <map>
#include <mutex>
#include <string>
#include <string_view>
#include <vector>

#include "emu_state.h"

namespace AscendC {
namespace detail {
namespace {

std::mutex g_gm_mutex;
std::map<uintptr_t, uint64_t> g_gm;         // start -> bytes
std::map<uintptr_t, uint64_t> g_gm_padded;  // start -> bytes GmAlloc reserved (rounded up)

}  // namespace

Memory MemoryOf(TPosition pos) {
  switch (pos) {
    case TPosition::GM:
      return Memory::kGM;
    case TPosition::A1:
    case TPosition::B1:
    case TPosition::C1:
    case TPosition::TSCM:
      return Memory::kL1;
    case TPosition::A2:
      return Memory::kL0A;
    case TPosition::B2:
      return Memory::kL0B;
    case TPosition::CO1:
      return Memory::kL0C;
    case TPosition::C2:
      return Memory::kBT;
    case TPosition::C2PIPE2GM:
      return Memory::kFB;
    default:
      return Memory::kUB;  // VECIN, VECOUT, VECCALC, CO2, ...
  }
}

const char* MemoryName(Memory m) {
  static const char* const names[] = {"GM", "UB", "L1", "L0A", "L0B", "L0C", "BT", "FB"};
  return names[static_cast<int>(m)];
}

uint8_t* LocalBase(Memory m) {
  Block& b = Current();
  auto& mem = b.local[static_cast<int>(m)];
  // Poisoned (NaN for float and half): on the NPU memory nothing wrote holds garbage.
  if (mem.empty())
    mem.assign(std::max<uint32_t>(CurrentSoc().capacity[static_cast<int>(m)], 32), 0xFF);
  return mem.data();
}

uint32_t ReserveLocal(Memory m, uint32_t bytes, const char* api) {
  Block& b = Current();
  const int i = static_cast<int>(m);
  if (m == Memory::kGM) Fault(api, "queues and buffers cannot be placed in GM");
  const uint32_t cap = CurrentSoc().capacity[i];
  const uint32_t align = std::max<uint32_t>(CurrentSoc().alignment[i], 32);
  const uint32_t off = (b.used[i] + align - 1) / align * align;
  if (uint64_t{off} + bytes > cap)
    Fault(api, std::string(MemoryName(m)) + " capacity exceeded: " + std::to_string(bytes) +
                   " more bytes at offset " + std::to_string(off) + ", but " + MemoryName(m) +
                   " has " + std::to_string(cap) + " bytes per core on " + CurrentSoc().name);
  LocalBase(m);
  b.used[i] = off + bytes;
  return off;
}

uint32_t UsedLocal(Memory m) { return Current().used[static_cast<int>(m)]; }

void ResetLocal() {
  Block& b = Current();
  for (auto& u : b.used) u = 0;
}

void RegisterGlobal(const void* p, uint64_t bytes) {
  std::lock_guard<std::mutex> lock(g_gm_mutex);
  g_gm[reinterpret_cast<uintptr_t>(p)] = bytes;
}

void RegisterDeviceGlobal(const void* p, uint64_t bytes) {
  std::lock_guard<std::mutex> lock(g_gm_mutex);
  g_gm[reinterpret_cast<uintptr_t>(p)] = bytes;
  if (bytes <= UINT64_MAX - 64)
    g_gm_padded[reinterpret_cast<uintptr_t>(p)] = (bytes + 31) / 32 * 32 + 32;
}

void UnregisterGlobal(const void* p) {
  std::lock_guard<std::mutex> lock(g_gm_mutex);
  g_gm.erase(reinterpret_cast<uintptr_t>(p));
  g_gm_padded.erase(reinterpret_cast<uintptr_t>(p));
}

namespace {
// `view`: SetGlobalBuffer, which only records where the tensor is; what would be a fault for
// an access is a warning there (blocks often set views past the data they never touch).
void CheckGlobalBytes(const void* p, uint64_t bytes, const char* api, bool view) {
  if (t_block && t_block->probe) throw ProbeEnd{};  // the kernel's declarations are over
  const uintptr_t a = reinterpret_cast<uintptr_t>(p);
  std::string problem, warning;
  {
    std::lock_guard<std::mutex> lock(g_gm_mutex);
    auto next = g_gm.upper_bound(a);
    const bool into_next = next != g_gm.end() && a + bytes > next->first;
    if (next != g_gm.begin()) {
      auto prev = std::prev(next);
      const uint64_t size = prev->second;
      auto pad = g_gm_padded.find(prev->first);
      const uint64_t padded = pad == g_gm_padded.end() ? size : pad->second;
      if (a < prev->first + padded && a + bytes > prev->first + size &&
          a + bytes <= prev->first + padded && !into_next) {
        // Past the size asked for, inside what the NPU allocates for it (rounded up to 32
        // bytes, plus 32): legal there, so a warning, not a fault.
        warning = "global memory access of " + std::to_string(bytes) + " bytes at offset " +
                  std::to_string(a - prev->first) + " reaches " +
                  std::to_string(a + bytes - prev->first - size) + " bytes past the " +
                  std::to_string(size) +
                  " bytes allocated, into the padding the NPU's allocator adds (legal there; "
                  "those bytes hold no data of yours)";
      } else if (a < prev->first + size) {
        // Inside a known allocation: the access must end inside it (or its padding) too.
        if (a + bytes > prev->first + size)
          problem = "global memory access of " + std::to_string(bytes) + " bytes at offset " +
                    std::to_string(a - prev->first) + " runs past the end of its allocation of " +
                    std::to_string(size) + " bytes";
      } else if (a < prev->first + padded) {
        // In the padding GmAlloc adds: past the end of that allocation, whatever follows.
        problem = "global memory access of " + std::to_string(bytes) + " bytes starts at offset " +
                  std::to_string(a - prev->first) + ", " + std::to_string(a - prev->first - size) +
                  " bytes past the end of an allocation of " + std::to_string(size) + " bytes" +
                  (into_next ? " (and runs into the next allocation)" : "");
      }
    }
    // Pointers outside every allocation are memory the emulation does not know: accepted,
    // unless they run into one.
    if (problem.empty() && into_next &&
        (next == g_gm.begin() || a >= std::prev(next)->first + std::prev(next)->second))
      problem = "global memory access of " + std::to_string(bytes) + " bytes starts " +
                std::to_string(next->first - a) + " bytes before an allocation of " +
                std::to_string(next->second) + " bytes and runs into it";
  }
  if (!problem.empty() && view)
    Warn(api, "the view " + problem.substr(problem.find("of ") + 3) +
                  " (setting a view accesses nothing on the NPU; an access there is an error)");
  else if (!problem.empty())
    Fault(api, problem);
  if (!warning.empty() && !view) Warn(api, warning);
}
}  // namespace

void CheckGlobal(const void* p, uint64_t bytes, const char* api) {
  CheckGlobalBytes(p, bytes, api, false);
}
void CheckGlobalView(const void* p, uint64_t bytes, const char* api) {
  CheckGlobalBytes(p, bytes, api, true);
}

bool GlobalRangeAllocated(const void* p, uint64_t bytes) {
  const uintptr_t a = reinterpret_cast<uintptr_t>(p);
  std::lock_guard<std::mutex> lock(g_gm_mutex);
  auto next = g_gm.upper_bound(a);
  if (next == g_gm.begin()) return false;
  auto prev = std::prev(next);
  auto pad = g_gm_padded.find(prev->first);
  const uint64_t padded = pad == g_gm_padded.end() ? prev->second : pad->second;
  return a >= prev->first && a + bytes <= prev->first + padded;
}

Memory Locate(Block& b, const uint8_t* p, uint64_t* offset) {
  for (int m = 1; m < kMem; ++m) {
    const auto& mem = b.local[m];
    if (!mem.empty() && p >= mem.data() && p < mem.data() + mem.size()) {
      *offset = static_cast<uint64_t>(p - mem.data());
      return static_cast<Memory>(m);
    }
  }
  return Memory::kGM;
}

void NoteGlobalWrite(const void* p, uint64_t bytes) {
  if (!t_block || t_block->probe || bytes == 0) return;
  Block& b = *t_block;
  b.wrote_global = true;
  if (b.atomic_add) return;  // atomic accumulation from many blocks is the point
  const uintptr_t a = reinterpret_cast<uintptr_t>(p);
  const uint32_t epoch = b.clock.empty() ? 0 : b.clock[b.pos];
  if (!b.gm_writes.empty() && b.gm_writes.back().end == a && b.gm_writes.back().epoch == epoch) {
    b.gm_writes.back().end = a + bytes;
    ++b.gm_writes.back().pieces;
  } else {
    GmWrite w;
    w.start = a;
    w.end = a + bytes;
    w.epoch = epoch;
    b.gm_writes.push_back(w);
  }
}

void NoteGlobalWriteData(const void* dst, const void* src, uint64_t bytes) {
  if (!t_block || t_block->probe || bytes == 0 || t_block->atomic_add) return;
  Block& b = *t_block;
  if (b.gm_writes.empty()) return;
  GmWrite& w = b.gm_writes.back();
  const uintptr_t a = reinterpret_cast<uintptr_t>(dst);
  if (a + bytes != w.end || a < w.start) return;  // not the write just noted
  // Every store to GM passes here: the library's string hash, folded into the range's.
  const size_t h = std::hash<std::string_view>{}(
      std::string_view(static_cast<const char*>(src), static_cast<size_t>(bytes)));
  w.hash = (w.hash ^ h) * 1099511628211ull;
  ++w.hashed;
}

// Two blocks writing the same global bytes without atomics, and with nothing ordering the
// writes (a cross-core flag, SyncAll, a GM word one waits on): which value lands is
// undefined on the NPU (the emulation runs blocks as threads, so here too).
void CheckGlobalOverlaps(LaunchState& l) {
  struct Write {
    uintptr_t start, end;
    uint32_t epoch;
    const Block* block;
    bool known;  // every piece's bytes hashed
    uint64_t hash;
  };
  std::vector<Write> all;
  for (const Block* b : l.blocks)
    for (const GmWrite& w : b->gm_writes)
      all.push_back({w.start, w.end, w.epoch, b, w.hashed == w.pieces, w.hash});
  // The same bytes written with the same values by several blocks (a kernel that has every
  // core compute the whole output): whichever lands, the result is the same on the NPU.
  auto identical = [](const Write& x, const Write& y) {
    return x.known && y.known && x.start == y.start && x.end == y.end && x.hash == y.hash;
  };
  bool identical_noted = false;
  std::sort(all.begin(), all.end(),
            [](const Write& a, const Write& b) { return a.start < b.start; });
  std::vector<const Write*> open;       // writes that reach past the current start
  uint64_t budget = uint64_t{1} << 26;  // pair checks; a pathological kernel stops early
  int reported = 0;
  for (const Write& w : all) {
    std::erase_if(open, [&](const Write* o) { return o->end <= w.start; });
    const Write* clash = nullptr;
    for (const Write* o : open) {
      if (budget == 0) break;
      --budget;
      if (o->block != w.block && !Ordered(*o->block, o->epoch, *w.block, w.epoch)) {
        if (identical(*o, w)) {
          if (!identical_noted)
            l.warnings.push_back("[kernel " + l.name + "]" + BlockLabel(*o->block) + " and" +
                                 BlockLabel(*w.block) + " write the same " +
                                 std::to_string(w.end - w.start) +
                                 " bytes of global memory with the same values, unordered: "
                                 "harmless, but the work is done twice");
          identical_noted = true;
          continue;
        }
        clash = o;
        break;
      }
    }
    open.push_back(&w);
    if (clash && reported < 4) {
      ++reported;
      const Write* reach = clash;
      const uintptr_t from = w.start, to = std::min(w.end, reach->end);
      std::string where;
      {
        std::lock_guard<std::mutex> lock(g_gm_mutex);
        auto it = g_gm.upper_bound(from);
        if (it != g_gm.begin()) {
          --it;
          if (from < it->first + it->second)
            where = " (bytes " + std::to_string(from - it->first) + ".." +
                    std::to_string(to - it->first) + " of an allocation of " +
                    std::to_string(it->second) + ")";
        }
      }
      l.errors.push_back("[kernel " + l.name + "]" + BlockLabel(*reach->block) + " and" +
                         BlockLabel(*w.block) + " both write " + std::to_string(to - from) +
                         " bytes of global memory" + where +
                         " without atomics: on the NPU which block's value lands is undefined "
                         "(give each block its own range, order the writes with a "
                         "cross-core flag or SyncAll, or SetAtomicAdd)");
    }
  }
}

}  // namespace detail

void* GmAlloc(size_t size) {
  if (size > SIZE_MAX - 128) return nullptr;  // the roundings below would wrap
  // As the NPU's aclrtMalloc lays it out: rounded up to 32 bytes, plus 32.
  const size_t reserved = (std::max<size_t>(size, 1) + 31) / 32 * 32 + 32;
  void* p = std::aligned_alloc(64, (reserved + 63) / 64 * 64);
  if (!p) return nullptr;
  std::memset(p, 0, reserved);
  detail::RegisterGlobal(p, size);
  {
    std::lock_guard<std::mutex> lock(detail::g_gm_mutex);
    detail::g_gm_padded[reinterpret_cast<uintptr_t>(p)] = reserved;
  }
  return p;
}

void GmFree(void* ptr) {
  if (!ptr) return;
  {
    std::lock_guard<std::mutex> lock(detail::g_gm_mutex);
    detail::g_gm_padded.erase(reinterpret_cast<uintptr_t>(ptr));
    if (!detail::g_gm.erase(reinterpret_cast<uintptr_t>(ptr))) {
      std::fprintf(stderr, "[ERROR] GmFree: %p was not returned by GmAlloc (or freed twice)\n",
                   ptr);
      return;
    }
  }
  std::free(ptr);
}

}  // namespace AscendC
