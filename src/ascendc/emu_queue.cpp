// Queues (TQue) and their tensors' lifecycle: buffers handed out in turn, EnQue/DeQue
// hand-overs, and the checks on tensors used after FreeTensor or written after EnQue.
#include <string>
#include <vector>

#include "kernel_operator.h"

namespace AscendC {
namespace detail {

void CheckSlotAccess(const QueueSlot* slot, uint32_t generation, bool write, const char* api) {
  if (!slot) return;
  if (slot->generation != generation || slot->state == QueueSlot::kFree)
    Fault(api,
          "the tensor was freed (FreeTensor) and is used again: after FreeTensor its "
          "buffer belongs to the queue (AllocTensor or DeQue a new one)");
  if (write && slot->state == QueueSlot::kQueued)
    Fault(api,
          "the tensor is written after EnQue: it belongs to the queue until DeQue, and "
          "on the NPU its consumer may already be reading it");
}

// A tensor still held when the kernel ends breaks nothing on the NPU (the queue's buffers go
// with the kernel), so it is a warning; a leak inside a loop shows as AllocTensor running out.
QueueBase::~QueueBase() {
  for (const auto& s : slots_)
    if (s.state != QueueSlot::kFree) {
      Warn("TQue",
           std::string("a tensor of this queue was not freed by the end of the kernel (") +
               (s.state == QueueSlot::kQueued ? "still enqueued" : "allocated, never freed") +
               "): every AllocTensor needs a FreeTensor");
      return;  // one line per queue
    }
}

void QueueBase::Init(uint8_t num, uint32_t bytes, const char* api) {
  if (num == 0) Fault(api, "a queue needs at least one buffer");
  if (!slots_.empty()) Fault(api, "the queue was already given buffers");
  const Memory m = MemoryOf(pos_);
  const uint32_t rounded = (bytes + 31) / 32 * 32;
  slots_.resize(num);
  for (auto& s : slots_) {
    const uint32_t off = ReserveLocal(m, rounded, api);
    s.data = LocalBase(m) + off;
    s.bytes = rounded;
    s.owner = this;
  }
}

void QueueBase::InitAt(const std::vector<uint8_t*>& at, uint32_t bytes, const char* api) {
  if (at.empty()) Fault(api, "a queue needs at least one buffer");
  if (!slots_.empty()) Fault(api, "the queue was already given buffers");
  slots_.resize(at.size());
  for (size_t i = 0; i < at.size(); ++i) {
    slots_[i].data = at[i];
    slots_[i].bytes = bytes;
    slots_[i].owner = this;
  }
}

QueueSlot* QueueBase::Alloc(const char* api) {
  if (slots_.empty()) Fault(api, "the queue has no buffers: call TPipe::InitBuffer first");
  // Buffers are handed out in turn, as TQue does: with two, tile i+1 gets the other buffer
  // even when tile i's is already free, which is what lets the copies overlap the compute.
  for (size_t k = 0; k < slots_.size(); ++k) {
    QueueSlot& s = slots_[(next_ + k) % slots_.size()];
    if (s.state == QueueSlot::kFree) {
      s.state = QueueSlot::kAllocated;
      next_ = (next_ + k + 1) % slots_.size();
      SyncAllPipes();  // FreeTensor/AllocTensor's flags: the next producer after the consumer
      return &s;
    }
  }
  Fault(api, "all " + std::to_string(slots_.size()) +
                 " buffers of the queue are in use: FreeTensor one before allocating again");
}

void QueueBase::Enqueue(QueueSlot* slot, const char* api) {
  if (!slot || slot->owner != this)
    Fault(api, "the tensor does not belong to this queue (AllocTensor it from this queue)");
  // A tensor taken out with DeQue may go back in (CANN's EnQue takes a buffer that is
  // allocated or dequeued): a consumer handing it on to the next stage.
  if (slot->state != QueueSlot::kAllocated && slot->state != QueueSlot::kDequeued)
    Fault(api, "the tensor is not allocated or dequeued (enqueued twice, or already freed)");
  if (static_cast<int>(queued_.size()) >= depth_)
    Fault(api, "the queue already holds " + std::to_string(queued_.size()) +
                   " tensors, its depth is " + std::to_string(depth_));
  slot->state = QueueSlot::kQueued;
  queued_.push_back(slot);
}

QueueSlot* QueueBase::Dequeue(const char* api) {
  if (queued_.empty()) Fault(api, "the queue is empty: DeQue without a matching EnQue");
  QueueSlot* s = queued_.front();
  queued_.erase(queued_.begin());
  s->state = QueueSlot::kDequeued;
  SyncAllPipes();  // the flags EnQue/DeQue insert: the consumer comes after the producer
  return s;
}

void QueueBase::Free(QueueSlot* slot, const char* api) {
  if (!slot || slot->owner != this)
    Fault(api, "the tensor does not belong to this queue (it came from another queue or a TBuf)");
  if (slot->state == QueueSlot::kFree) Fault(api, "the tensor was already freed");
  if (slot->state == QueueSlot::kQueued)
    Fault(api, "the tensor is still enqueued: DeQue it before FreeTensor");
  slot->state = QueueSlot::kFree;
  ++slot->generation;
}

}  // namespace detail
}  // namespace AscendC
