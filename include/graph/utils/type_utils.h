// ge::TypeUtils as operator host code calls it: the element size of a data type.
#pragma once

#include <cstdint>

#include "graph/types.h"

namespace ge {

class TypeUtils {
 public:
  // False (length untouched) for a type without a fixed element size.
  static bool GetDataTypeLength(DataType type, uint32_t& length) {
    const int size = GetSizeByDataType(type);
    if (size <= 0) return false;
    length = static_cast<uint32_t>(size);
    return true;
  }
};

}  // namespace ge
