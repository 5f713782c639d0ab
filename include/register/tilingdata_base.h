// Tiling data declared once and shared by the host tiling function and the kernel:
//   BEGIN_TILING_DATA_DEF(TilingData)
//     TILING_DATA_FIELD_DEF(uint32_t, totalLength);
//   END_TILING_DATA_DEF;
//   REGISTER_TILING_DATA_CLASS(AddCustom, TilingData)
// The struct is plain data: the host saves its bytes, the kernel reads them back with
// GET_TILING_DATA (kernel_operator.h).
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstring>
// CANN's host headers bring in <iostream>; operator packages' tiling code uses std::cout.
#include <iostream>

#define BEGIN_TILING_DATA_DEF(name) \
  struct name {                     \
    using OcSelf = name;

#define TILING_DATA_FIELD_DEF(type, field) \
  type field = type();                     \
  void set_##field(type v) { field = v; }  \
  type get_##field() const { return field; }

#define TILING_DATA_FIELD_DEF_ARR(type, count, field)                                       \
  type field[count] = {};                                                                   \
  void set_##field(const type* v) {                                                         \
    for (size_t oc_i = 0; oc_i < static_cast<size_t>(count); ++oc_i) field[oc_i] = v[oc_i]; \
  }                                                                                         \
  const type* get_##field() const { return field; }

#define TILING_DATA_FIELD_DEF_STRUCT(type, field) type field;

#define END_TILING_DATA_DEF                                                           \
  void SaveToBuffer(void* buffer, size_t capacity) const {                            \
    std::memcpy(buffer, this, sizeof(OcSelf) < capacity ? sizeof(OcSelf) : capacity); \
  }                                                                                   \
  size_t GetDataSize() const { return sizeof(OcSelf); }                               \
  }

// The kernel of the op reads this type with GET_TILING_DATA.
#define REGISTER_TILING_DATA_CLASS(op, name) using OcTilingDataOf = name;
