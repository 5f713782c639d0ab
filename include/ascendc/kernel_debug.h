// DumpTensor and DumpAccChkPoint: a tensor's values printed from a kernel, in CANN's layout
// ("DumpTensor: desc=..., addr=..., data_type=..., position=..., dump_size=..." and the
// values), prefixed with the block.
#pragma once

#include <string>

#include "ascendc/kernel_tensor.h"

namespace AscendC {

inline int GetShapeSize(const ShapeInfo& s) {
  int n = 1;
  for (int i = 0; i < s.shapeDim; ++i) n *= static_cast<int>(s.shape[i]);
  return n;
}

namespace detail {

template <typename T>
const char* DumpTypeName() {
  if constexpr (std::is_same_v<T, half>) return "float16";
  if constexpr (std::is_same_v<T, bfloat16_t>) return "bfloat16";
  if constexpr (std::is_same_v<T, float>) return "float32";
  if constexpr (std::is_same_v<T, int8_t>) return "int8";
  if constexpr (std::is_same_v<T, uint8_t>) return "uint8";
  if constexpr (std::is_same_v<T, int16_t>) return "int16";
  if constexpr (std::is_same_v<T, uint16_t>) return "uint16";
  if constexpr (std::is_same_v<T, int32_t>) return "int32";
  if constexpr (std::is_same_v<T, uint32_t>) return "uint32";
  if constexpr (std::is_same_v<T, int64_t>) return "int64";
  if constexpr (std::is_same_v<T, uint64_t>) return "uint64";
  return "unknown";
}

template <typename T>
std::string DumpValue(T v) {
  char buf[48];
  if constexpr (std::is_same_v<T, half> || std::is_same_v<T, bfloat16_t> ||
                std::is_floating_point_v<T>)
    std::snprintf(buf, sizeof(buf), "%f", static_cast<double>(float(v)));
  else if constexpr (std::is_signed_v<T>)
    std::snprintf(buf, sizeof(buf), "%lld", static_cast<long long>(v));
  else
    std::snprintf(buf, sizeof(buf), "%llu", static_cast<unsigned long long>(v));
  return buf;
}

// Values [from, from + count) of `data` (of `available` elements), `per_row` to a line when
// a shape is given; missing values print as "-".
template <typename T>
void Dump(const char* api, const T* data, uint64_t available, uint32_t desc, uint64_t addr,
          const char* position, uint64_t from, uint32_t count, const ShapeInfo* shape) {
  if (uint64_t{count} * sizeof(T) > 30 * 1024) {
    Warn(api, "dump_size " + std::to_string(count) +
                  " is over the 30 KB a dump may print: nothing printed, as on the NPU");
    return;
  }
  std::string text = std::string(api) + ": desc=" + std::to_string(desc) +
                     ", addr=" + std::to_string(addr) + ", data_type=" + DumpTypeName<T>() +
                     ", position=" + position + ", dump_size=" + std::to_string(count) + "\n";
  const uint64_t per_row = shape && shape->shapeDim ? shape->shape[shape->shapeDim - 1] : 0;
  const uint64_t total = shape && shape->shapeDim ? GetShapeSize(*shape) : count;
  text += "[";
  for (uint64_t i = 0; i < total; ++i) {
    if (i) text += (per_row && i % per_row == 0) ? ",\n " : ", ";
    const uint64_t at = from + i;
    text += i < count && at < available ? DumpValue(data[at]) : "-";
  }
  text += "]\n";
  Print(text.c_str());
}

}  // namespace detail

template <typename T>
void DumpTensor(const LocalTensor<T>& t, uint32_t desc, uint32_t dumpSize) {
  const detail::Memory m = detail::MemoryOf(t.GetPosition());
  detail::Dump("DumpTensor", t.GetPhyAddr(), t.GetSize(), desc,
               reinterpret_cast<uintptr_t>(t.GetPhyAddr()) -
                   reinterpret_cast<uintptr_t>(detail::LocalBase(m)),
               detail::MemoryName(m), 0, dumpSize, nullptr);
}
template <typename T>
void DumpTensor(const LocalTensor<T>& t, uint32_t desc, uint32_t dumpSize, const ShapeInfo& s) {
  const detail::Memory m = detail::MemoryOf(t.GetPosition());
  detail::Dump("DumpTensor", t.GetPhyAddr(), t.GetSize(), desc,
               reinterpret_cast<uintptr_t>(t.GetPhyAddr()) -
                   reinterpret_cast<uintptr_t>(detail::LocalBase(m)),
               detail::MemoryName(m), 0, dumpSize, &s);
}
template <typename T>
void DumpTensor(const GlobalTensor<T>& t, uint32_t desc, uint32_t dumpSize) {
  detail::CheckGlobal(t.GetPhyAddr(), uint64_t{dumpSize} * sizeof(T), "DumpTensor");
  detail::Dump("DumpTensor", t.GetPhyAddr(), t.GetSize(), desc,
               reinterpret_cast<uintptr_t>(t.GetPhyAddr()), "GM", 0, dumpSize, nullptr);
}
template <typename T>
void DumpTensor(const GlobalTensor<T>& t, uint32_t desc, uint32_t dumpSize, const ShapeInfo& s) {
  detail::CheckGlobal(t.GetPhyAddr(), uint64_t{dumpSize} * sizeof(T), "DumpTensor");
  detail::Dump("DumpTensor", t.GetPhyAddr(), t.GetSize(), desc,
               reinterpret_cast<uintptr_t>(t.GetPhyAddr()), "GM", 0, dumpSize, &s);
}
// DumpAccChkPoint: dumpSize values from element countOff, `index` as the descriptor.
template <typename T>
void DumpAccChkPoint(const LocalTensor<T>& t, uint32_t index, uint32_t countOff,
                     uint32_t dumpSize) {
  const detail::Memory m = detail::MemoryOf(t.GetPosition());
  detail::Dump("DumpAccChkPoint", t.GetPhyAddr(), t.GetSize(), index,
               reinterpret_cast<uintptr_t>(t.GetPhyAddr()) -
                   reinterpret_cast<uintptr_t>(detail::LocalBase(m)),
               detail::MemoryName(m), countOff, dumpSize, nullptr);
}
template <typename T>
void DumpAccChkPoint(const GlobalTensor<T>& t, uint32_t index, uint32_t countOff,
                     uint32_t dumpSize) {
  detail::Dump("DumpAccChkPoint", t.GetPhyAddr(), t.GetSize(), index,
               reinterpret_cast<uintptr_t>(t.GetPhyAddr()), "GM", countOff, dumpSize, nullptr);
}

}  // namespace AscendC
