// A 64-byte aligned, owned byte buffer (arenas, workspaces).
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <utility>

namespace oc {

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
    size_t rounded = (size + 63) / 64 * 64;
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
