#include "base/dtype.h"

namespace oc {

size_t DataTypeSize(DataType t) {
  switch (t) {
    case DataType::kFloat:
      return 4;
    case DataType::kUint8:
      return 1;
    case DataType::kInt8:
      return 1;
    case DataType::kUint16:
      return 2;
    case DataType::kInt16:
      return 2;
    case DataType::kInt32:
      return 4;
    case DataType::kInt64:
      return 8;
    case DataType::kBool:
      return 1;
    case DataType::kFloat16:
      return 2;
    case DataType::kDouble:
      return 8;
    case DataType::kUint32:
      return 4;
    case DataType::kUint64:
      return 8;
    case DataType::kBFloat16:
      return 2;
    default:
      return 0;
  }
}

const char* DataTypeName(DataType t) {
  switch (t) {
    case DataType::kFloat:
      return "float32";
    case DataType::kUint8:
      return "uint8";
    case DataType::kInt8:
      return "int8";
    case DataType::kUint16:
      return "uint16";
    case DataType::kInt16:
      return "int16";
    case DataType::kInt32:
      return "int32";
    case DataType::kInt64:
      return "int64";
    case DataType::kString:
      return "string";
    case DataType::kBool:
      return "bool";
    case DataType::kFloat16:
      return "float16";
    case DataType::kDouble:
      return "float64";
    case DataType::kUint32:
      return "uint32";
    case DataType::kUint64:
      return "uint64";
    case DataType::kBFloat16:
      return "bfloat16";
    default:
      return "undefined";
  }
}

bool IsFloatType(DataType t) {
  return t == DataType::kFloat || t == DataType::kFloat16 || t == DataType::kDouble ||
         t == DataType::kBFloat16;
}

bool IsValidDataType(int32_t v) { return DataTypeSize(static_cast<DataType>(v)) != 0 || v == 8; }

namespace {
struct TypeRow {
  DataType ours;
  int32_t ge;
  int32_t acl;
  const char* ge_name;
  const char* cann_name;  // null: single ops do not take the type
};
constexpr TypeRow kRows[] = {
    {DataType::kFloat, 1, 0, "DT_FLOAT", "float"},
    {DataType::kFloat16, 2, 1, "DT_FLOAT16", "float16"},
    {DataType::kInt8, 3, 2, "DT_INT8", "int8"},
    {DataType::kUint8, 4, 4, "DT_UINT8", "uint8"},
    {DataType::kInt16, 5, 6, "DT_INT16", "int16"},
    {DataType::kUint16, 6, 7, "DT_UINT16", "uint16"},
    {DataType::kInt32, 7, 3, "DT_INT32", "int32"},
    {DataType::kInt64, 8, 9, "DT_INT64", "int64"},
    {DataType::kUint32, 9, 8, "DT_UINT32", "uint32"},
    {DataType::kUint64, 10, 10, "DT_UINT64", "uint64"},
    {DataType::kBool, 11, 12, "DT_BOOL", "bool"},
    {DataType::kDouble, 12, 11, "DT_DOUBLE", "double"},
    {DataType::kString, 13, 13, "DT_STRING", nullptr},
    {DataType::kBFloat16, 27, 27, "DT_BF16", "bfloat16"},
};
}  // namespace

int32_t ToGeDataType(DataType t) {
  for (const auto& r : kRows)
    if (r.ours == t) return r.ge;
  return 0;
}
DataType FromGeDataType(int32_t ge) {
  for (const auto& r : kRows)
    if (r.ge == ge) return r.ours;
  return DataType::kUndefined;
}
const char* GeDataTypeName(int32_t ge) {
  for (const auto& r : kRows)
    if (r.ge == ge) return r.ge_name;
  return "DT_UNDEFINED";
}
int32_t ToAclDataType(DataType t) {
  for (const auto& r : kRows)
    if (r.ours == t) return r.acl;
  return -1;
}
DataType FromAclDataType(int32_t acl) {
  for (const auto& r : kRows)
    if (r.acl == acl) return r.ours;
  return DataType::kUndefined;
}
DataType DataTypeFromCannName(std::string_view name) {
  if (name == "float32") return DataType::kFloat;  // CANN's JSON takes both spellings
  for (const auto& r : kRows)
    if (r.cann_name && name == r.cann_name) return r.ours;
  return DataType::kUndefined;
}
DataType DataTypeFromGeName(std::string_view name) {
  for (const auto& r : kRows)
    if (r.cann_name && name == r.ge_name) return r.ours;
  return DataType::kUndefined;
}
const char* CannDataTypeName(DataType t) {
  for (const auto& r : kRows)
    if (r.ours == t) return r.cann_name;
  return nullptr;
}

}  // namespace oc
