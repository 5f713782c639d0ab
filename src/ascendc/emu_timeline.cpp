// Each instruction on its block's pipe timeline: when it can start (its pipe free, its operands
// ready), and the data races and uninitialized reads those operand marks reveal.
#include <algorithm>
#include <string>
#include <vector>

#include "emu_state.h"

namespace AscendC {
namespace detail {
namespace {

// The pipes as HardEvent names them (Fixpipe runs on MTE3 here).
const char* const kEventPipeNames[kPipes] = {"MTE2", "MTE3", "MTE1", "V", "M", "S"};

constexpr size_t kMaxIssued = 4u << 20;  // instructions kept per block for the critical path
constexpr size_t kMaxOperands = 8;       // local-memory operands kept per instruction

// A pipe as HardEvent names it: Fixpipe is FIX (the cost model runs it on MTE3).
std::string EventToken(int pipe, const std::string& api) {
  return api.rfind("Fixpipe", 0) == 0 ? "FIX" : kEventPipeNames[pipe];
}

// Two pipes on the same bytes with nothing ordering them: reported once per kind and API pair.
void Race(Block& b, const char* kind, const char* api, int pipe, const char* other, int other_pipe,
          Memory m, uint64_t offset) {
  const std::string who = other ? other : "an earlier instruction";
  if (!FirstReport(b, std::string("race ") + kind + api + who)) return;
  Error(api, std::string("race (") + kind + ") on " + MemoryName(m) + " byte " +
                 std::to_string(offset) + ": " + kPipeNames[pipe] + " here, " + who + " on " +
                 kPipeNames[other_pipe] +
                 " before, with nothing ordering them (SetFlag/WaitFlag"
                 "<HardEvent::" +
                 EventToken(other_pipe, who) + "_" + EventToken(pipe, api) +
                 ">, a queue, or PipeBarrier<PIPE_ALL>): correct here, a race on the NPU");
}

// A read of bytes nothing wrote: reported once per API. Copying them out to global memory
// is an error (garbage lands in the kernel's output on the NPU), and so is a cube operand;
// a vector computation reading them is a warning, as its garbage may never leave local
// memory (a vector length rounded up to the repeat, lanes the copy-out leaves behind).
void Uninitialized(Block& b, const char* api, Memory m, uint64_t off, uint64_t end, uint64_t at) {
  if (!FirstReport(b, std::string("init ") + api)) return;
  const std::string what = "reads " + std::to_string(end - off) + " bytes of " + MemoryName(m) +
                           " at offset " + std::to_string(off) + ", of which byte " +
                           std::to_string(at) +
                           " was never written (uninitialized: garbage on the NPU, NaN here)";
  const std::string name = api;
  if (name.find("->GM") != std::string::npos || name.rfind("Fixpipe", 0) == 0)
    Error(api, what + ", and copies it out to global memory");
  else if (name.rfind("Mmad", 0) == 0 || name.rfind("LoadData", 0) == 0)
    Error(api, what);  // a cube operand: every product of it lands in the result
  else
    Warn(api, what + "; an error if it reaches global memory");
}

void Schedule(Block& b, Pipe pipe, double cycles) {
  Timeline& t = b.timeline;
  const int p = static_cast<int>(pipe);
  double start = t.issue;
  int32_t pred = t.last_issue;
  auto wait = [&](double when, int32_t who) {
    if (when > start) start = when, pred = who;
  };
  if (pipe != Pipe::kScalar) wait(t.pipe_free[p], t.last_on_pipe[p]);
  struct Span {
    Timeline::Marks* marks;
    uint64_t first, last;
    bool write;
    uint64_t byte0, byte1;
    const char* api;
  };
  Span spans[8];
  size_t n = 0;
  ++t.count[p];
  for (const Access& a : b.pending) {
    uint64_t off = 0;
    const Memory m = Locate(b, a.p, &off);
    if (m == Memory::kGM || n == 8) continue;
    const bool write = a.use == Use::kWrite;
    Timeline::Marks& mk = t.marks[static_cast<int>(m)];
    if (mk.written.empty()) {
      const size_t bytes = b.local[static_cast<int>(m)].size();
      const size_t blocks = bytes / 32 + 1;
      mk.written.assign(blocks, 0);
      mk.read.assign(blocks, 0);
      mk.writer.assign(blocks, -1);
      mk.reader.assign(blocks, -1);
      mk.wpipe.assign(blocks, -1);
      mk.rpipe.assign(blocks, -1);
      mk.wcount.assign(blocks, 0);
      mk.rcount.assign(blocks, 0);
      mk.wapi.assign(blocks, nullptr);
      mk.rapi.assign(blocks, nullptr);
      mk.init.assign(bytes, 0);
    }
    const uint64_t end_byte = std::min<uint64_t>(off + a.bytes, mk.init.size());
    if (a.use == Use::kReadChecked)
      for (uint64_t i = off; i < end_byte; ++i)
        if (!mk.init[i]) {
          Uninitialized(b, a.api, m, off, end_byte, i);
          break;
        }
    const uint64_t first = off / 32,
                   last = std::min<uint64_t>((off + a.bytes + 31) / 32, mk.written.size());
    for (uint64_t k = first; k < last; ++k) {
      wait(mk.written[k], mk.writer[k]);          // read after write, write after write
      if (write) wait(mk.read[k], mk.reader[k]);  // write after read
      // Two pipes on the same bytes need an order between them (a flag, a queue, a barrier).
      // Scalar accesses are left out: CANN's compiler orders those itself.
      const int wp = mk.wpipe[k], rp = mk.rpipe[k];
      if (p == kScalarPipe) continue;
      if (wp >= 0 && wp != p && wp != kScalarPipe && t.known[p][wp] < mk.wcount[k])
        Race(b, write ? "write after write" : "read after write", a.api, p, mk.wapi[k], wp, m,
             k * 32);
      else if (write && rp >= 0 && rp != p && rp != kScalarPipe && t.known[p][rp] < mk.rcount[k])
        Race(b, "write after read", a.api, p, mk.rapi[k], rp, m, k * 32);
    }
    spans[n++] = {&mk, first, last, write, off, end_byte, a.api};
  }
  // Every operand is checked against the state before this instruction; then it takes effect.
  for (size_t i = 0; i < n; ++i) {
    Timeline::Marks& mk = *spans[i].marks;
    if (spans[i].write)
      std::fill(mk.init.begin() + spans[i].byte0, mk.init.begin() + spans[i].byte1, 1);
    for (uint64_t k = spans[i].first; k < spans[i].last; ++k) {
      if (spans[i].write) {
        mk.wpipe[k] = static_cast<int8_t>(p), mk.wcount[k] = t.count[p], mk.wapi[k] = spans[i].api;
      } else {
        mk.rpipe[k] = static_cast<int8_t>(p), mk.rcount[k] = t.count[p], mk.rapi[k] = spans[i].api;
      }
    }
  }
  const double end = start + cycles;
  const int32_t id = static_cast<int32_t>(t.issued.size());
  if (t.issued.size() < kMaxIssued)
    t.issued.push_back({start, cycles, pred, static_cast<uint8_t>(p),
                        b.pending.empty() ? kPipeNames[p] : b.pending.front().api});
  else
    t.truncated = true;
  const int32_t me = t.truncated ? -1 : id;
  for (size_t i = 0; i < n; ++i)
    for (uint64_t k = spans[i].first; k < spans[i].last; ++k) {
      Timeline::Marks& mk = *spans[i].marks;
      if (spans[i].write) {
        mk.written[k] = end;
        mk.writer[k] = me;
      } else if (end > mk.read[k]) {
        mk.read[k] = end;
        mk.reader[k] = me;
      }
    }
  if (pipe == Pipe::kScalar) {
    t.issue = end;  // the scalar unit issues in order: what follows comes after it
    t.last_issue = me;
  } else {
    t.pipe_free[p] = end;
    t.last_on_pipe[p] = me;
  }
  if (end >= t.end) t.end = end, t.last_end = me;
  b.pending.clear();
}

}  // namespace

void AddCycles(Pipe pipe, double cycles) {
  Block& b = Current();
  b.cycles[static_cast<int>(pipe)] += cycles;
  Schedule(b, pipe, cycles);
}

void NoteLocal(const void* p, uint64_t bytes, Use use, const char* api) {
  Block& b = Current();
  const uint8_t* at = static_cast<const uint8_t*>(p);
  if (b.pending.size() < kMaxOperands) {
    b.pending.push_back({at, bytes, use, api});
    return;
  }
  // Past the operand limit (a strided copy notes each burst) a range joins the hull of an
  // operand of the same kind in the same memory. A write may then cover gaps it did not write (an
  // uninitialized read there goes unreported, never a false one); a read loses its initialization
  // check for the same reason.
  uint64_t off = 0;
  const Memory m = Locate(b, at, &off);
  for (Access& a : b.pending) {
    uint64_t a_off = 0;
    if ((a.use == Use::kWrite) != (use == Use::kWrite) || Locate(b, a.p, &a_off) != m) continue;
    const uint8_t* lo = std::min(a.p, at);
    const uint8_t* hi = std::max(a.p + a.bytes, at + bytes);
    a.p = lo;
    a.bytes = static_cast<uint64_t>(hi - lo);
    if (a.use == Use::kReadChecked) a.use = Use::kRead;
    return;
  }
}

}  // namespace detail
}  // namespace AscendC
