// A 64-byte aligned, owned byte buffer (arenas, workspaces).
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <utility>

namespace oc {

// size rounded up to a multiple of 64 (aligned_alloc's rule for 64-byte alignment); false
// when that does not fit in size_t, so a huge request fails instead of wrapping to a small
// allocation.
inline bool RoundUpTo64(size_t size, size_t* rounded) {
  if (size > SIZE_MAX - 63) return false;
  *rounded = (size + 63) / 64 * 64;
  return true;
}

class AlignedBuffer {
 public:
  AlignedBuffer() = default;
  explicit AlignedBuffer(size_t size) { Resize(size); }
  ~AlignedBuffer() { std::free(data_); }
  AlignedBuffer(AlignedBuffer&& o) noexcept : data_(o.data_), size_(o.size_) {
    o.data_ = nullptr;
    o.size_ = 0;
  }
  AlignedBuffer& operator=(AlignedBuffer&& o) noexcept {
    std::swap(data_, o.data_);
    std::swap(size_, o.size_);
    return *this;
  }
  AlignedBuffer(const AlignedBuffer&) = delete;
  AlignedBuffer& operator=(const AlignedBuffer&) = delete;

  // Returns false when the allocation fails; contents are not preserved.
  bool Resize(size_t size) {
    if (size <= size_) return true;
    std::free(data_);
    data_ = nullptr;
    size_ = 0;
    size_t rounded = 0;
    if (!RoundUpTo64(size, &rounded)) return false;
    data_ = static_cast<uint8_t*>(std::aligned_alloc(64, rounded));
    size_ = data_ ? rounded : 0;
    return data_ != nullptr;
  }
  uint8_t* data() const { return data_; }
  size_t size() const { return size_; }

 private:
  uint8_t* data_ = nullptr;
  size_t size_ = 0;
};

}  // namespace oc
