// acl.media's handles and pointers travel through Python as ints.
#pragma once

#include <cstdint>

namespace oc_media {

template <typename T>
T* H(uintptr_t v) {
  return reinterpret_cast<T*>(v);
}
inline uintptr_t I(const void* p) { return reinterpret_cast<uintptr_t>(p); }

}  // namespace oc_media
