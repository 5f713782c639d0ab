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

// Where each op's tiling data is declared, for opc (which compiles the op's kernel with the
// declaration, as CANN compiles kernels with the struct of the installed package). Weak:
// code that includes the header without libopregister (CPU-debug kernels) links as before.
extern "C" __attribute__((weak, visibility("default"))) void OcRegisterTilingDataHeader(
    const char* op_type, const char* struct_name, const char* header);
struct OcTilingDataRegisterer {
  OcTilingDataRegisterer(const char* op_type, const char* struct_name, const char* header) {
    if (OcRegisterTilingDataHeader) OcRegisterTilingDataHeader(op_type, struct_name, header);
  }
};

// The kernel of the op reads this type with GET_TILING_DATA.
#define REGISTER_TILING_DATA_CLASS(op, name) \
  using OcTilingDataOf = name;               \
  static OcTilingDataRegisterer g_oc_tiling_data_##op(#op, #name, __FILE__);
