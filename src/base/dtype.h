// Element types. Our numbering follows ONNX's TensorProto.DataType; conversions to
// GE (ModelDef descriptors) and AscendCL (aclDataType) numbering live here too.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

namespace oc {

enum class DataType : int32_t {
  kUndefined = 0,
  kFloat = 1,
  kUint8 = 2,
  kInt8 = 3,
  kUint16 = 4,
  kInt16 = 5,
  kInt32 = 6,
  kInt64 = 7,
  kString = 8,
  kBool = 9,
  kFloat16 = 10,
  kDouble = 11,
  kUint32 = 12,
  kUint64 = 13,
  kBFloat16 = 16,
};

size_t DataTypeSize(DataType t);
const char* DataTypeName(DataType t);  // "float32", "int64", ...
bool IsFloatType(DataType t);
bool IsValidDataType(int32_t onnx_value);

// GE ge.proto DataType (DT_FLOAT = 1, DT_FLOAT16 = 2, ...).
int32_t ToGeDataType(DataType t);
DataType FromGeDataType(int32_t ge);
const char* GeDataTypeName(int32_t ge);  // "DT_FLOAT"

// AscendCL aclDataType (ACL_FLOAT = 0, ACL_FLOAT16 = 1, ...).
int32_t ToAclDataType(DataType t);
DataType FromAclDataType(int32_t acl);

// The names CANN's JSON descriptions give element types (atc --singleop's op list, aclop
// attribute values): "float" (or "float32"), "float16", "double", "bfloat16", ... Any other
// name (string, float64) is kUndefined: single ops take no other types.
DataType DataTypeFromCannName(std::string_view name);
// GE's names ("DT_FLOAT16", "DT_BF16") of the types single ops take; kUndefined otherwise.
DataType DataTypeFromGeName(std::string_view name);
// t's CANN name ("float", "double"); nullptr for a type without one (string, undefined).
const char* CannDataTypeName(DataType t);

}  // namespace oc
