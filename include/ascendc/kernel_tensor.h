// GlobalTensor, LocalTensor, TPipe, TQue and TBuf on the CPU, with the hardware's rules
// checked: capacity of each local memory, 32-byte alignment, queue discipline, bounds.
#pragma once

#include <string>
#include <vector>

#include "ascendc/kernel_runtime.h"

namespace AscendC {

namespace detail {
struct QueueSlot;
}  // namespace detail

template <typename T>
class GlobalTensor {
 public:
  using PrimType = T;
  void SetGlobalBuffer(__gm__ T* buffer, uint64_t count) {
    detail::CheckGlobalView(buffer, count * sizeof(T), "GlobalTensor::SetGlobalBuffer");
    ptr_ = buffer;
    size_ = total_ = count;
    offset_ = 0;
  }
  void SetGlobalBuffer(__gm__ T* buffer) {
    ptr_ = buffer;
    size_ = total_ = ~0ull >> 8;  // unknown: only the allocation bounds apply
    offset_ = 0;
  }
  GlobalTensor operator[](uint64_t offset) const {
    if (offset > size_)
      detail::Fault("GlobalTensor::operator[]", "offset " + std::to_string(offset) +
                                                    " is past the buffer of " +
                                                    std::to_string(size_) + " elements");
    GlobalTensor t;
    t.ptr_ = ptr_ + offset;
    t.size_ = size_ - offset;
    t.total_ = total_;
    t.offset_ = offset_ + offset;
    return t;
  }
  T GetValue(uint64_t i) const {
    Check(i, "GlobalTensor::GetValue");
    detail::AddCycles(detail::Pipe::kScalar, 1);
    return ptr_[i];
  }
  void SetValue(uint64_t i, T v) {
    Check(i, "GlobalTensor::SetValue");
    detail::NoteGlobalWrite(ptr_ + i, sizeof(T));
    detail::AddCycles(detail::Pipe::kScalar, 1);
    ptr_[i] = v;
  }
  uint64_t GetSize() const { return size_; }
  // Where this view starts in the buffer SetGlobalBuffer gave, and that buffer's elements
  // (for messages).
  uint64_t ViewOffset() const { return offset_; }
  uint64_t BufferSize() const { return total_; }
  // An L2 cache hint: it changes how fast, never what, so the emulation only checks it.
  template <CacheRwMode rwMode = CacheRwMode::RW>
  void SetL2CacheHint(CacheMode mode) {
    if (mode != CacheMode::CACHE_MODE_DISABLE && mode != CacheMode::CACHE_MODE_NORMAL &&
        mode != CacheMode::CACHE_MODE_PERSISTENT)
      detail::Fault("GlobalTensor::SetL2CacheHint", "unknown CacheMode");
  }
  __gm__ T* GetPhyAddr() const { return ptr_; }
  __gm__ T* GetPhyAddr(uint64_t offset) const { return ptr_ + offset; }
  T& operator()(uint64_t i) const {
    Check(i, "GlobalTensor::operator()");
    return ptr_[i];
  }

 private:
  void Check(uint64_t i, const char* api) const {
    if (!ptr_) detail::Fault(api, "the GlobalTensor has no buffer (SetGlobalBuffer)");
    if (i >= size_)
      detail::Fault(api, "index " + std::to_string(i) + " is out of the buffer of " +
                             std::to_string(size_) + " elements");
    detail::CheckGlobal(ptr_ + i, sizeof(T), api);
  }
  T* ptr_ = nullptr;
  uint64_t size_ = 0, total_ = 0, offset_ = 0;
};

template <typename T>
class LocalTensor;
namespace detail {
// `dst = a + b` and friends (Ascend C's operator forms of Add/Sub/Mul/Div/Max/Min/And/Or):
// the expression the operator returns; assigning it runs the instruction (kernel_vector.h).
enum class VecOp { kAdd, kSub, kMul, kDiv, kAnd, kOr };
template <typename T>
struct VecExpr {
  const LocalTensor<T>& a;
  const LocalTensor<T>& b;
  VecOp op;
};
}  // namespace detail

template <typename T>
class LocalTensor {
 public:
  using PrimType = T;
  LocalTensor() = default;
  LocalTensor(const LocalTensor&) = default;
  LocalTensor& operator=(const LocalTensor&) = default;
  // dst = a op b over dst's elements (defined in kernel_vector.h).
  LocalTensor& operator=(const detail::VecExpr<T>& e);
  LocalTensor(T* ptr, uint32_t count, TPosition pos, detail::QueueSlot* slot,
              uint32_t generation = 0)
      : ptr_(ptr), size_(count), pos_(pos), slot_(slot), gen_(generation) {}
  // A static tensor: tileSize elements at byte offset addr of the position's memory.
  LocalTensor(TPosition pos, uint32_t addr, uint32_t tileSize) : size_(tileSize), pos_(pos) {
    const detail::Memory m = detail::MemoryOf(pos);
    const char* api = "LocalTensor(pos, addr, tileSize)";
    if (m == detail::Memory::kGM) detail::Fault(api, "a LocalTensor cannot be in GM");
    const uint64_t cap = detail::CurrentSoc().capacity[static_cast<int>(m)];
    if (uint64_t{addr} + uint64_t{tileSize} * sizeof(T) > cap)
      detail::Fault(api, std::to_string(tileSize) + " elements at byte " + std::to_string(addr) +
                             " run past the " + std::to_string(cap) + " bytes of " +
                             detail::MemoryName(m));
    if (addr % 32)
      detail::Fault(api, "address " + std::to_string(addr) + " is not 32-byte aligned");
    ptr_ = reinterpret_cast<T*>(detail::LocalBase(m) + addr);
  }

  LocalTensor operator[](uint32_t offset) const {
    if (offset > size_)
      detail::Fault("LocalTensor::operator[]", "offset " + std::to_string(offset) +
                                                   " is past the tensor of " +
                                                   std::to_string(size_) + " elements");
    return LocalTensor(ptr_ + offset, size_ - offset, pos_, slot_, gen_);
  }
  T GetValue(uint32_t i) const {
    Check(i, "LocalTensor::GetValue");
    detail::CheckSlotAccess(slot_, gen_, false, "LocalTensor::GetValue");
    detail::NoteLocal(ptr_ + i, sizeof(T), detail::Use::kReadChecked, "LocalTensor::GetValue");
    detail::AddCycles(detail::Pipe::kScalar, 1);
    return ptr_[i];
  }
  void SetValue(uint32_t i, T v) const {
    Check(i, "LocalTensor::SetValue");
    detail::CheckSlotAccess(slot_, gen_, true, "LocalTensor::SetValue");
    detail::NoteLocal(ptr_ + i, sizeof(T), detail::Use::kWrite, "LocalTensor::SetValue");
    detail::AddCycles(detail::Pipe::kScalar, 1);
    ptr_[i] = v;
  }
  T& operator()(uint32_t i) const {
    Check(i, "LocalTensor::operator()");
    return ptr_[i];
  }
  uint32_t GetSize() const { return size_; }
  uint32_t GetLength() const { return size_ * sizeof(T); }
  void SetSize(uint32_t count) { size_ = count; }
  T* GetPhyAddr() const { return ptr_; }
  T* GetPhyAddr(uint32_t offset) const { return ptr_ + offset; }
  TPosition GetPosition() const { return pos_; }
  template <typename U>
  LocalTensor<U> ReinterpretCast() const {
    return LocalTensor<U>(reinterpret_cast<U*>(ptr_),
                          static_cast<uint32_t>(size_ * sizeof(T) / sizeof(U)), pos_, slot_, gen_);
  }
  detail::QueueSlot* slot() const { return slot_; }
  uint32_t generation() const { return gen_; }
  bool empty() const { return ptr_ == nullptr; }
  // The shape the advanced API may read (RmsNorm, LayerNorm callers set it); kept with this
  // handle, not with the buffer.
  void SetShapeInfo(const ShapeInfo& info) { shape_info_ = info; }
  ShapeInfo GetShapeInfo() const { return shape_info_; }

 private:
  void Check(uint32_t i, const char* api) const {
    if (!ptr_) detail::Fault(api, "the LocalTensor has no buffer");
    if (i >= size_)
      detail::Fault(api, "index " + std::to_string(i) + " is out of the tensor of " +
                             std::to_string(size_) + " elements");
  }
  T* ptr_ = nullptr;
  uint32_t size_ = 0;
  ShapeInfo shape_info_;
  TPosition pos_ = TPosition::VECCALC;
  detail::QueueSlot* slot_ = nullptr;
  uint32_t gen_ = 0;
};

namespace detail {

// One buffer of a queue: allocated (AllocTensor) -> queued (EnQue) -> dequeued -> free.
struct QueueSlot {
  enum State { kFree, kAllocated, kQueued, kDequeued } state = kFree;
  uint32_t generation = 0;  // one more at each FreeTensor: older tensors are stale
  uint8_t* data = nullptr;
  uint32_t bytes = 0;
  const void* owner = nullptr;
};

class QueueBase {
 public:
  // `name` (TQue, TQueBind, TBuf) is kept in the signature for the callers; messages name the
  // API call instead.
  QueueBase(TPosition pos, int depth, const char* /*name*/) : pos_(pos), depth_(depth) {}
  ~QueueBase();
  QueueBase(const QueueBase&) = delete;
  QueueBase& operator=(const QueueBase&) = delete;
  void Init(uint8_t num, uint32_t bytes, const char* api);
  // Buffers at the given addresses (a TBufPool's), each `bytes` long.
  void InitAt(const std::vector<uint8_t*>& at, uint32_t bytes, const char* api);
  QueueSlot* Alloc(const char* api);
  void Enqueue(QueueSlot* slot, const char* api);
  QueueSlot* Dequeue(const char* api);
  void Free(QueueSlot* slot, const char* api);
  bool Has() const { return !queued_.empty(); }
  TPosition pos() const { return pos_; }

 private:
  TPosition pos_;
  int depth_;
  std::vector<QueueSlot> slots_;
  std::vector<QueueSlot*> queued_;
  size_t next_ = 0;  // the buffer AllocTensor tries first
};

}  // namespace detail

template <TPosition pos, int32_t depth = 1>
class TQue {
 public:
  TQue() : q_(pos, depth, "TQue") {}
  template <typename T>
  LocalTensor<T> AllocTensor() {
    detail::QueueSlot* s = q_.Alloc("TQue::AllocTensor");
    return LocalTensor<T>(reinterpret_cast<T*>(s->data), s->bytes / sizeof(T), pos, s,
                          s->generation);
  }
  template <typename T>
  bool EnQue(const LocalTensor<T>& t) {
    detail::CheckSlotAccess(t.slot(), t.generation(), false, "TQue::EnQue");
    q_.Enqueue(t.slot(), "TQue::EnQue");
    return true;
  }
  template <typename T>
  LocalTensor<T> DeQue() {
    detail::QueueSlot* s = q_.Dequeue("TQue::DeQue");
    return LocalTensor<T>(reinterpret_cast<T*>(s->data), s->bytes / sizeof(T), pos, s,
                          s->generation);
  }
  template <typename T>
  void FreeTensor(LocalTensor<T>& t) {
    detail::CheckSlotAccess(t.slot(), t.generation(), false, "TQue::FreeTensor");
    q_.Free(t.slot(), "TQue::FreeTensor");
  }
  bool VacantInQue() const { return true; }
  bool HasTensorInQue() const { return q_.Has(); }
  detail::QueueBase& base() { return q_; }

 private:
  detail::QueueBase q_;
};

// TQueBind<src, dst, depth>: a queue between two positions (its buffers live at src).
template <TPosition src, TPosition dst, int32_t depth = 1>
class TQueBind : public TQue<src, depth> {};

template <TPosition pos = TPosition::VECCALC>
class TBuf {
 public:
  template <typename T>
  LocalTensor<T> Get() const {
    if (!data_) detail::Fault("TBuf::Get", "the TBuf has no memory: call TPipe::InitBuffer first");
    return LocalTensor<T>(reinterpret_cast<T*>(data_), bytes_ / sizeof(T), pos, nullptr);
  }
  // `count` elements from byte offset `offset` of the buffer (32-byte aligned).
  template <typename T>
  LocalTensor<T> GetWithOffset(uint32_t count, uint32_t offset) const {
    const char* api = "TBuf::GetWithOffset";
    if (!data_) detail::Fault(api, "the TBuf has no memory: call TPipe::InitBuffer first");
    if (offset % 32)
      detail::Fault(api, "offset " + std::to_string(offset) + " is not 32-byte aligned");
    if (uint64_t{offset} + uint64_t{count} * sizeof(T) > bytes_)
      detail::Fault(api, std::to_string(count) + " elements at byte " + std::to_string(offset) +
                             " run past the " + std::to_string(bytes_) + "-byte TBuf");
    return LocalTensor<T>(reinterpret_cast<T*>(data_ + offset), count, pos, nullptr);
  }
  template <typename T>
  LocalTensor<T> Get(uint32_t count) const {
    if (count * sizeof(T) > bytes_)
      detail::Fault("TBuf::Get", "asks for " + std::to_string(count * sizeof(T)) + " bytes of a " +
                                     std::to_string(bytes_) + "-byte TBuf");
    LocalTensor<T> t = Get<T>();
    t.SetSize(count);
    return t;
  }
  // CANN's TBuf also answers the queue calls: AllocTensor is the whole buffer, FreeTensor
  // gives nothing back (a TBuf is not a queue; its memory lives as long as the pipe).
  template <typename T>
  LocalTensor<T> AllocTensor() const {
    return Get<T>();
  }
  template <typename T>
  void FreeTensor(const LocalTensor<T>& /*tensor*/) const {}
  void Init(uint8_t* data, uint32_t bytes) {
    data_ = data;
    bytes_ = bytes;
  }

 private:
  uint8_t* data_ = nullptr;
  uint32_t bytes_ = 0;
};

// The static-tensor style's allocator: tensors taken one after another from the start of a
// local memory (not to be mixed with TPipe in one kernel, as in CANN).
enum class Hardware : uint8_t { GM, UB, L1, L0A, L0B, L0C, BIAS, FIXBUF, MAX };

template <Hardware hard = Hardware::UB>
class LocalMemAllocator {
  static_assert(hard != Hardware::GM && hard != Hardware::MAX,
                "LocalMemAllocator takes a local memory (UB, L1, L0A, L0B, L0C, BIAS, FIXBUF)");
  static constexpr TPosition kDefault = hard == Hardware::UB       ? TPosition::VECCALC
                                        : hard == Hardware::L1     ? TPosition::A1
                                        : hard == Hardware::L0A    ? TPosition::A2
                                        : hard == Hardware::L0B    ? TPosition::B2
                                        : hard == Hardware::BIAS   ? TPosition::C2
                                        : hard == Hardware::FIXBUF ? TPosition::C2PIPE2GM
                                                                   : TPosition::CO1;

 public:
  LocalMemAllocator() = default;
  uint32_t GetCurAddr() const { return cur_; }
  template <class DataType, uint32_t tileSize>
  LocalTensor<DataType> Alloc() {
    return Take<DataType>(kDefault, tileSize);
  }
  template <TPosition pos, class DataType, uint32_t tileSize>
  LocalTensor<DataType> Alloc() {
    return Take<DataType>(pos, tileSize);
  }
  template <class DataType>
  LocalTensor<DataType> Alloc(uint32_t tileSize) {
    return Take<DataType>(kDefault, tileSize);
  }
  template <TPosition pos, class DataType>
  LocalTensor<DataType> Alloc(uint32_t tileSize) {
    return Take<DataType>(pos, tileSize);
  }

 private:
  template <class DataType>
  LocalTensor<DataType> Take(TPosition pos, uint32_t count) {
    if (detail::MemoryOf(pos) != detail::MemoryOf(kDefault))
      detail::Fault("LocalMemAllocator::Alloc", "the position is not in this allocator's memory");
    const uint32_t align = std::max<uint32_t>(
        32, detail::CurrentSoc().alignment[static_cast<int>(detail::MemoryOf(pos))]);
    const uint32_t at = (cur_ + align - 1) / align * align;
    LocalTensor<DataType> t(pos, at, count);  // checks the memory's capacity
    cur_ = at + (count * static_cast<uint32_t>(sizeof(DataType)) + 31) / 32 * 32;
    return t;
  }
  uint32_t cur_ = 0;
};

// A region of one local memory that queues and buffers are carved from, and that Reset
// hands out again (to switch between stages of a kernel that do not live at once).
template <TPosition pos, uint32_t bufIDSize = 4>
class TBufPool {
 public:
  template <TPosition p, int32_t depth>
  bool InitBuffer(TQue<p, depth>& que, uint8_t num, uint32_t len) {
    const char* api = "TBufPool::InitBuffer";
    SameMemory(p, api);
    const uint32_t rounded = (len + 31) / 32 * 32;
    std::vector<uint8_t*> at;
    for (uint8_t i = 0; i < num; ++i) at.push_back(Take(rounded, api));
    que.base().InitAt(at, rounded, api);
    return true;
  }
  template <TPosition p>
  bool InitBuffer(TBuf<p>& buf, uint32_t len) {
    const char* api = "TBufPool::InitBuffer(TBuf)";
    SameMemory(p, api);
    const uint32_t rounded = (len + 31) / 32 * 32;
    buf.Init(Take(rounded, api), rounded);
    return true;
  }
  template <class Pool>
  bool InitBufPool(Pool& sub, uint32_t len) {
    const uint32_t rounded = (len + 31) / 32 * 32;
    sub.Bind(Take(rounded, "TBufPool::InitBufPool"), rounded);
    return true;
  }
  void Reset() { used_ = 0; }
  // Set up by TPipe::InitBufPool or an enclosing pool.
  void Bind(uint8_t* base, uint32_t len) {
    base_ = base;
    len_ = len;
    used_ = 0;
  }
  uint8_t* base() const { return base_; }
  uint32_t length() const { return len_; }

 private:
  void SameMemory(TPosition p, const char* api) const {
    if (detail::MemoryOf(p) != detail::MemoryOf(pos))
      detail::Fault(api, std::string("a buffer in ") + detail::MemoryName(detail::MemoryOf(p)) +
                             " cannot come from a pool in " +
                             detail::MemoryName(detail::MemoryOf(pos)));
  }
  uint8_t* Take(uint32_t bytes, const char* api) {
    if (!base_) detail::Fault(api, "the pool has no memory: TPipe::InitBufPool it first");
    if (uint64_t{used_} + bytes > len_)
      detail::Fault(api, std::to_string(bytes) + " more bytes at offset " + std::to_string(used_) +
                             " do not fit the pool of " + std::to_string(len_) + " bytes");
    uint8_t* p = base_ + used_;
    used_ += bytes;
    return p;
  }
  uint8_t* base_ = nullptr;
  uint32_t len_ = 0, used_ = 0;
};

template <TPosition pos, uint32_t n>
constexpr TPosition PoolPosition(const TBufPool<pos, n>&) {
  return pos;
}

class TPipe;
namespace detail {
// The pipe GetTPipePtr returns: per block (blocks run on their own threads).
inline TPipe*& CurrentPipe() {
  static thread_local TPipe* pipe = nullptr;
  return pipe;
}
}  // namespace detail

// Owns the core's local memories for the kernel: InitBuffer carves queues and buffers out
// of UB / L1 / L0 and fails when the SoC's capacity is exceeded.
class TPipe {
 public:
  // The block's pipe is the one constructed last (GetTPipePtr), as CANN's global one is.
  TPipe() {
    detail::ResetLocal();
    detail::CurrentPipe() = this;
  }
  ~TPipe() {
    if (detail::CurrentPipe() == this) detail::CurrentPipe() = nullptr;
  }
  template <TPosition pos, int32_t depth>
  bool InitBuffer(TQue<pos, depth>& que, uint8_t num, uint32_t len) {
    que.base().Init(num, len, "TPipe::InitBuffer");
    return true;
  }
  template <TPosition src, TPosition dst, int32_t depth>
  bool InitBuffer(TQueBind<src, dst, depth>& que, uint8_t num, uint32_t len) {
    que.base().Init(num, len, "TPipe::InitBuffer");
    return true;
  }
  // The queue form on a TBuf (CANN's TBuf is a queue binding with no depth): one buffer.
  template <TPosition pos>
  bool InitBuffer(TBuf<pos>& buf, uint8_t num, uint32_t len) {
    if (num != 1)
      detail::Fault("TPipe::InitBuffer(TBuf)",
                    "a TBuf holds one buffer: num is " + std::to_string(num) + ", not 1");
    return InitBuffer(buf, len);
  }
  template <TPosition pos>
  bool InitBuffer(TBuf<pos>& buf, uint32_t len) {
    const detail::Memory m = detail::MemoryOf(pos);
    const uint32_t rounded = (len + 31) / 32 * 32;
    const uint32_t off = detail::ReserveLocal(m, rounded, "TPipe::InitBuffer(TBuf)");
    buf.Init(detail::LocalBase(m) + off, rounded);
    return true;
  }
  void Destroy() {}
  void Reset() { detail::ResetLocal(); }
  // A pool of `len` bytes of the pool's memory; with `shareBuf`, the same bytes as that
  // pool (two stages that take turns).
  template <class T>
  bool InitBufPool(T& bufPool, uint32_t len) {
    const detail::Memory m = detail::MemoryOf(PoolPosition(bufPool));
    const uint32_t rounded = (len + 31) / 32 * 32;
    const uint32_t off = detail::ReserveLocal(m, rounded, "TPipe::InitBufPool");
    bufPool.Bind(detail::LocalBase(m) + off, rounded);
    return true;
  }
  template <class T, class U>
  bool InitBufPool(T& bufPool, uint32_t len, U& shareBuf) {
    if (!shareBuf.base())
      detail::Fault("TPipe::InitBufPool", "the pool to share has no memory yet");
    if ((len + 31) / 32 * 32 > shareBuf.length())
      detail::Fault("TPipe::InitBufPool", std::to_string(len) + " bytes do not fit the " +
                                              std::to_string(shareBuf.length()) +
                                              "-byte pool they share");
    bufPool.Bind(shareBuf.base(), (len + 31) / 32 * 32);
    return true;
  }
  // Event ids for SetFlag/WaitFlag, 0-7 per event type, as TPipe hands them out.
  template <HardEvent evt>
  TEventID AllocEventID() {
    uint8_t& used = event_ids_[static_cast<int>(evt)];
    for (int id = 0; id < 8; ++id)
      if (!(used & (1u << id))) {
        used = static_cast<uint8_t>(used | (1u << id));
        return static_cast<TEventID>(id);
      }
    detail::Fault("TPipe::AllocEventID",
                  "all 8 event ids of this event type are in use: "
                  "ReleaseEventID one first");
  }
  template <HardEvent evt>
  void ReleaseEventID(TEventID id) {
    if (id < 0 || id > 7 || !(event_ids_[static_cast<int>(evt)] & (1u << id)))
      detail::Fault("TPipe::ReleaseEventID",
                    "event id " + std::to_string(id) + " was not allocated for this event type");
    event_ids_[static_cast<int>(evt)] &= static_cast<uint8_t>(~(1u << id));
  }
  template <HardEvent evt>
  TEventID FetchEventID() {
    return FetchEventID(evt);
  }
  TEventID FetchEventID(HardEvent evt) {
    const uint8_t used = event_ids_[static_cast<int>(evt)];
    for (int id = 0; id < 8; ++id)
      if (!(used & (1u << id))) return static_cast<TEventID>(id);
    detail::Fault("TPipe::FetchEventID", "all 8 event ids of this event type are in use");
  }

 private:
  uint8_t event_ids_[static_cast<int>(HardEvent::MAX)] = {};
};

// Fills `size` elements of global memory with `value` (InitGlobalMemory is its old name).
template <typename T>
void Fill(GlobalTensor<T>& gm, const uint64_t size, const T value) {
  const char* api = "Fill";
  if (size > gm.GetSize())
    detail::Fault(api, std::to_string(size) + " elements do not fit the GlobalTensor of " +
                           std::to_string(gm.GetSize()));
  detail::CheckGlobal(gm.GetPhyAddr(), size * sizeof(T), api);
  detail::NoteGlobalWrite(gm.GetPhyAddr(), size * sizeof(T));
  for (uint64_t i = 0; i < size; ++i) gm.GetPhyAddr()[i] = value;
  detail::AddCycles(detail::Pipe::kMTE3, 200.0 + 10.0 + double(size * sizeof(T)) / 64.0);
}
template <typename T>
void InitGlobalMemory(GlobalTensor<T>& gm, const uint64_t size, const T value) {
  Fill(gm, size, value);
}

// IBSet / IBWait: one core marks an event done, another waits for it, through 32-byte slots
// of a zero-initialized GM workspace (slot eventID * cores + blockIdx). IBSet names the core
// whose slot it raises (its own), IBWait the core it waits for. Each wait completes on one
// more set than the waits before it (the documented single-use pattern works the same).
template <bool isAIVOnly = true>
void IBSet(const GlobalTensor<int32_t>& gmWorkspace, const LocalTensor<int32_t>& ubWorkspace,
           int32_t blockIdx, int32_t eventID) {
  detail::InterBlock(gmWorkspace.GetPhyAddr(), gmWorkspace.GetSize(), ubWorkspace.GetSize(),
                     blockIdx, eventID, true, isAIVOnly);
}
template <bool isAIVOnly = true>
void IBWait(const GlobalTensor<int32_t>& gmWorkspace, const LocalTensor<int32_t>& ubWorkspace,
            int32_t blockIdx, int32_t eventID) {
  detail::InterBlock(gmWorkspace.GetPhyAddr(), gmWorkspace.GetSize(), ubWorkspace.GetSize(),
                     blockIdx, eventID, false, isAIVOnly);
}

// Deterministic ordering across cores: InitDetermineComputeWorkspace zeroes one 32-byte
// slot per core of a GM workspace (blockNum x 32 bytes; the UB workspace blockNum x 32 + 32);
// WaitPreBlock waits for the previous core's NotifyNextBlock, so the cores take turns in
// block order, round after round (core 0's turn in round k follows the last core's in
// round k - 1). Every core must call them the same number of times.
inline void InitDetermineComputeWorkspace(GlobalTensor<int32_t>& gmWorkspace,
                                          LocalTensor<int32_t>& ubWorkspace) {
  detail::DetermineCompute(gmWorkspace.GetPhyAddr(), gmWorkspace.GetSize(), ubWorkspace.GetSize(),
                           detail::DetermineStep::kInit);
}
inline void WaitPreBlock(GlobalTensor<int32_t>& gmWorkspace, LocalTensor<int32_t>& ubWorkspace) {
  detail::DetermineCompute(gmWorkspace.GetPhyAddr(), gmWorkspace.GetSize(), ubWorkspace.GetSize(),
                           detail::DetermineStep::kWait);
}
inline void NotifyNextBlock(GlobalTensor<int32_t>& gmWorkspace, LocalTensor<int32_t>& ubWorkspace) {
  detail::DetermineCompute(gmWorkspace.GetPhyAddr(), gmWorkspace.GetSize(), ubWorkspace.GetSize(),
                           detail::DetermineStep::kNotify);
}

// GroupBarrier: `waitSize` vector cores wait until `arriveSize` others have arrived, round
// after round (Wait's k-th call needs every arriving core's k-th Arrive). The workspace is
// waitSize x 512 bytes of GM that the user zeroes; only MTE3_MODE exists, as in CANN. Its
// 512-byte alignment is not checked (this emulation's GM allocations are 64-byte aligned).
enum class PipeMode : uint8_t { SCALAR_MODE = 0, MTE3_MODE = 1, MAX };
template <PipeMode pipeMode>
class GroupBarrier {
  static_assert(pipeMode == PipeMode::MTE3_MODE, "GroupBarrier supports only PipeMode::MTE3_MODE");

 public:
  GroupBarrier(GM_ADDR groupWorkspace, uint32_t arriveSizeIn, uint32_t waitSizeIn)
      : workspace_(reinterpret_cast<uint8_t*>(groupWorkspace)),
        arrive_size_(arriveSizeIn),
        wait_size_(waitSizeIn) {}
  void Arrive(uint32_t arriveIndex) {
    detail::GroupBarrierStep(workspace_, arrive_size_, wait_size_, arriveIndex, true);
  }
  void Wait(uint32_t waitIndex) {
    detail::GroupBarrierStep(workspace_, arrive_size_, wait_size_, waitIndex, false);
  }
  uint64_t GetWorkspaceLen() { return uint64_t{wait_size_} * 512; }

 private:
  uint8_t* workspace_;
  uint32_t arrive_size_, wait_size_;
};

// The soft SyncAll: each vector core raises its own 32-byte slot of a zero-initialized GM
// workspace to the number of times it has synced, then waits until every core's slot has
// reached it, as CANN's implementation does. A workspace that was not zeroed lets cores run
// ahead, as on the NPU; a core that never arrives is reported after the sync timeout.
template <bool isAIVOnly = true>
void SyncAll(const GlobalTensor<int32_t>& gmWorkspace, const LocalTensor<int32_t>& ubWorkspace,
             const int32_t usedCores = 0) {
  const char* api = "SyncAll(gmWorkspace, ubWorkspace)";
  detail::RequireCore(AIV, api);
  const int64_t cores = usedCores > 0 ? usedCores : GetBlockNum() * GetTaskRatio();
  if (usedCores < 0) detail::Fault(api, "usedCores must not be negative");
  if (gmWorkspace.GetSize() * sizeof(int32_t) < uint64_t(cores) * 32)
    detail::Fault(api, "the GM workspace has " + std::to_string(gmWorkspace.GetSize() * 4) +
                           " bytes; " + std::to_string(cores) + " cores need " +
                           std::to_string(cores * 32));
  if (uint64_t{ubWorkspace.GetSize()} * sizeof(int32_t) < uint64_t(cores) * 32)
    detail::Fault(api, "the UB workspace has " + std::to_string(ubWorkspace.GetSize() * 4) +
                           " bytes; " + std::to_string(cores) + " cores need " +
                           std::to_string(cores * 32));
  detail::SoftSyncAll(gmWorkspace.GetPhyAddr(), cores, api);
}

// PopStackBuffer: the rest of a local memory past what the pipe has handed out, as a
// tensor (the advanced API's temporary space). Later InitBuffer calls may overlap it, as on
// the NPU.
template <typename T, TPosition pos>
bool PopStackBuffer(LocalTensor<T>& buffer) {
  const detail::Memory m = detail::MemoryOf(pos);
  const uint32_t start = (detail::UsedLocal(m) + 31) / 32 * 32;
  const uint32_t cap = static_cast<uint32_t>(detail::CurrentSoc().capacity[static_cast<int>(m)]);
  if (start >= cap) return false;
  buffer = LocalTensor<T>(reinterpret_cast<T*>(detail::LocalBase(m) + start),
                          (cap - start) / sizeof(T), pos, nullptr);
  return true;
}

// The kernel's TPipe, for code that does not get it passed (CANN keeps a global one).
inline TPipe* GetTPipePtr() { return detail::CurrentPipe(); }

}  // namespace AscendC

// CANN declares it at global scope too: kernels call GetTPipePtr() without AscendC::.
using AscendC::GetTPipePtr;
