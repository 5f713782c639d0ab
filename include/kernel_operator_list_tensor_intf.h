// List tensors (dynamic inputs passed as one GM argument): ListTensorDesc reads CANN's GM
// layout of 64-bit words — [0] the byte offset of the pointer array, then per tensor a word
// (dim in the low 32 bits, index in the high 32) followed by its dim shape words, then the
// data pointers — and TensorDesc describes one tensor. Every read is bounds-checked.
#pragma once

#include <string>

#include "kernel_operator.h"

namespace AscendC {

template <typename T>
class TensorDesc {
 public:
  void SetShapeAddr(uint64_t* shapeAddr) { shape_ = shapeAddr; }
  uint64_t GetDim() const { return dim_; }
  uint64_t GetIndex() const { return index_; }
  uint64_t GetShape(uint32_t i) const {
    if (!shape_) detail::Fault("TensorDesc::GetShape", "call SetShapeAddr before GetDesc");
    if (i >= dim_)
      detail::Fault("TensorDesc::GetShape",
                    "axis " + std::to_string(i) + " of a " + std::to_string(dim_) + "-D tensor");
    return shape_[i];
  }
  __gm__ T* GetDataPtr() const { return data_; }
  // Filled by ListTensorDesc::GetDesc.
  void Set(uint64_t dim, uint64_t index, __gm__ T* data) {
    dim_ = dim, index_ = index, data_ = data;
  }
  uint64_t* shape() const { return shape_; }

 private:
  uint64_t* shape_ = nullptr;
  uint64_t dim_ = 0, index_ = 0;
  __gm__ T* data_ = nullptr;
};

class ListTensorDesc {
 public:
  ListTensorDesc() = default;
  ListTensorDesc(__gm__ void* data, uint32_t length = 0xffffffff, uint32_t shapeSize = 0xffffffff) {
    Init(data, length, shapeSize);
  }
  void Init(__gm__ void* data, uint32_t length = 0xffffffff, uint32_t shapeSize = 0xffffffff) {
    const char* api = "ListTensorDesc::Init";
    words_ = static_cast<const uint64_t*>(data);
    if (!words_) detail::Fault(api, "the list is null");
    detail::CheckGlobal(words_, 8, api);
    const uint64_t ptr_offset = words_[0];
    if (ptr_offset < 8 || ptr_offset % 8)
      detail::Fault(api, "the pointer array's offset " + std::to_string(ptr_offset) +
                             " is not a multiple of 8 past the first word");
    detail::CheckGlobal(words_, ptr_offset, api);
    // Walk the descriptors up to the pointer array: one per tensor.
    entries_.clear();
    uint64_t w = 1;
    const uint64_t end = ptr_offset / 8;
    while (w < end) {
      const uint64_t dim = words_[w] & 0xffffffffu;
      if (w + 1 + dim > end)
        detail::Fault(api, "tensor " + std::to_string(entries_.size()) + " claims " +
                               std::to_string(dim) + " dims past the pointer array");
      entries_.push_back(w);
      w += 1 + dim;
    }
    pointers_ = words_ + end;
    detail::CheckGlobal(pointers_, entries_.size() * 8, api);
    if (length != 0xffffffff && uint64_t{length} < ptr_offset + entries_.size() * 8)
      detail::Fault(api, "length " + std::to_string(length) + " is less than the list's " +
                             std::to_string(ptr_offset + entries_.size() * 8) + " bytes");
    (void)shapeSize;
  }
  uint32_t GetSize() const { return static_cast<uint32_t>(entries_.size()); }
  template <class T>
  void GetDesc(TensorDesc<T>& desc, uint32_t index) const {
    const uint64_t w = Entry(index, "ListTensorDesc::GetDesc");
    const uint64_t dim = words_[w] & 0xffffffffu;
    if (!desc.shape()) detail::Fault("ListTensorDesc::GetDesc", "call SetShapeAddr first");
    for (uint64_t i = 0; i < dim; ++i) desc.shape()[i] = words_[w + 1 + i];
    desc.Set(dim, words_[w] >> 32, reinterpret_cast<__gm__ T*>(pointers_[index]));
  }
  template <class T>
  __gm__ T* GetDataPtr(uint32_t index) const {
    Entry(index, "ListTensorDesc::GetDataPtr");
    return reinterpret_cast<__gm__ T*>(pointers_[index]);
  }

 private:
  uint64_t Entry(uint32_t index, const char* api) const {
    if (index >= entries_.size())
      detail::Fault(api, "index " + std::to_string(index) + " of a list of " +
                             std::to_string(entries_.size()) + " tensors");
    return entries_[index];
  }
  const uint64_t* words_ = nullptr;
  const uint64_t* pointers_ = nullptr;
  std::vector<uint64_t> entries_;
};

}  // namespace AscendC
