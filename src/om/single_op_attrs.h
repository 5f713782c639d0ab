// What a single-operator .om records for the runtime to match calls against (atc --singleop
// writes it, aclopExecuteV2 reads it): the model attributes' names and how attribute values
// compare. Header-only: the compile side and the run side share only this and the .om.
#pragma once

#include <cmath>
#include <nlohmann/json.hpp>
#include <string>

#include "base/dtype.h"

namespace oc {

inline constexpr const char* kSingleOpTypeAttr = "_oc_singleop_type";
inline constexpr const char* kSingleOpAttrsAttr = "_oc_singleop_attrs";      // JSON object
inline constexpr const char* kSingleOpFormatsAttr = "_oc_singleop_formats";  // "0,2,2"

// A data type given by name in the JSON ("float16") as its aclDataType number; -1 if unknown.
inline int AclDataTypeByName(const std::string& s) {
  const DataType t = DataTypeFromCannName(s);
  return t == DataType::kUndefined ? -1 : ToAclDataType(t);
}

// Whether two attribute values ({"type": ..., "value": ...}) are the same setting: numbers by
// value (floats as float32, the attribute's width), data types by number, lists element-wise.
inline bool SingleOpValueEqual(const nlohmann::json& a, const nlohmann::json& b) {
  if (a.is_string() && b.is_number_integer()) return AclDataTypeByName(a) == b.get<int>();
  if (b.is_string() && a.is_number_integer()) return AclDataTypeByName(b) == a.get<int>();
  if (a.is_number() && b.is_number()) {
    if (a.is_number_float() || b.is_number_float())
      return static_cast<float>(a.get<double>()) == static_cast<float>(b.get<double>());
    return a.get<int64_t>() == b.get<int64_t>();
  }
  if (a.is_array() && b.is_array()) {
    if (a.size() != b.size()) return false;
    for (size_t i = 0; i < a.size(); ++i)
      if (!SingleOpValueEqual(a[i], b[i])) return false;
    return true;
  }
  return a == b;
}

inline bool SingleOpAttrEqual(const nlohmann::json& recorded, const nlohmann::json& given) {
  if (!recorded.contains("value") || !given.contains("value")) return false;
  return SingleOpValueEqual(recorded["value"], given["value"]);
}

}  // namespace oc
