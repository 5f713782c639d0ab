// Type dispatch and the broadcast iteration shared by element-wise kernels.
#pragma once

#include <cmath>
#include <cstdint>
#include <limits>
#include <type_traits>
#include <vector>

#include "base/dtype.h"
#include "base/shape.h"

namespace oc {

// As DispatchNumeric, but false for bool without calling FN: for kernels whose arithmetic
// (sums, products, averages, ranges) bool does not have, so that a bool tensor reaches their
// "unsupported type" error instead of a body that skips it and leaves the output unwritten.
template <typename Fn>
bool DispatchArithmetic(DataType dt, Fn&& fn) {
  if (dt == DataType::kBool) return false;
  return DispatchNumeric(dt, [&]<typename T>() {
    if constexpr (!std::is_same_v<T, bool>) fn.template operator()<T>();
  });
}

// Integer +, - and * as ONNX Runtime and the NPU compute them: two's complement, wrapping on
// overflow. C++ leaves signed overflow undefined (and promotes 16-bit operands to int, where a
// product can overflow too), so integers go through uint64_t; floats are plain arithmetic.
template <typename T>
constexpr bool kWrapsIntegers = std::is_integral_v<T> && !std::is_same_v<T, bool>;
template <typename T>
T WrapAdd(T a, T b) {
  if constexpr (kWrapsIntegers<T>)
    return static_cast<T>(static_cast<uint64_t>(a) + static_cast<uint64_t>(b));
  else
    return static_cast<T>(a + b);
}
template <typename T>
T WrapSub(T a, T b) {
  if constexpr (kWrapsIntegers<T>)
    return static_cast<T>(static_cast<uint64_t>(a) - static_cast<uint64_t>(b));
  else
    return static_cast<T>(a - b);
}
template <typename T>
T WrapMul(T a, T b) {
  if constexpr (kWrapsIntegers<T>)
    return static_cast<T>(static_cast<uint64_t>(a) * static_cast<uint64_t>(b));
  else
    return static_cast<T>(a * b);
}

// A computed double stored as T: C++ leaves NaN and out-of-range float-to-integer conversions
// undefined, so integers saturate and NaN stores 0 (as Cast does); bool is v != 0.
template <typename To>
To SaturatingCast(double v) {
  if constexpr (std::is_same_v<To, bool>) {
    return v != 0;
  } else if constexpr (std::is_integral_v<To>) {
    if (std::isnan(v)) return 0;
    // The limits compared as doubles: int64's max rounds up to 2^63, itself out of range,
    // so the comparison is >=, not a clamp to it.
    constexpr double lo = static_cast<double>(std::numeric_limits<To>::lowest());
    constexpr double hi = static_cast<double>(std::numeric_limits<To>::max());
    return v >= hi   ? std::numeric_limits<To>::max()
           : v <= lo ? std::numeric_limits<To>::lowest()
                     : static_cast<To>(v);
  } else {
    return static_cast<To>(v);
  }
}

// Calls FN.template operator()<T>() for the C++ type of `dt`; returns false when the
// type is not one of the listed numeric types.
template <typename Fn>
bool DispatchNumeric(DataType dt, Fn&& fn) {
  switch (dt) {
    case DataType::kFloat:
      fn.template operator()<float>();
      return true;
    case DataType::kDouble:
      fn.template operator()<double>();
      return true;
    case DataType::kInt8:
      fn.template operator()<int8_t>();
      return true;
    case DataType::kInt16:
      fn.template operator()<int16_t>();
      return true;
    case DataType::kInt32:
      fn.template operator()<int32_t>();
      return true;
    case DataType::kInt64:
      fn.template operator()<int64_t>();
      return true;
    case DataType::kUint8:
      fn.template operator()<uint8_t>();
      return true;
    case DataType::kUint16:
      fn.template operator()<uint16_t>();
      return true;
    case DataType::kUint32:
      fn.template operator()<uint32_t>();
      return true;
    case DataType::kUint64:
      fn.template operator()<uint64_t>();
      return true;
    case DataType::kBool:
      fn.template operator()<bool>();
      return true;
    default:
      return false;
  }
}

// Row-major element strides of a shape.
inline std::vector<int64_t> ContiguousStrides(const Shape& s) {
  std::vector<int64_t> st(s.size(), 1);
  for (size_t d = s.size(); d-- > 1;) st[d - 1] = st[d] * s[d];
  return st;
}

// Iteration plan for an N-ary broadcast: the output is walked as `outer` rows of
// `inner` contiguous elements; within a row each input advances by 0 or 1.
struct BroadcastPlan {
  int64_t inner = 1;
  int64_t outer = 1;
  Shape outer_dims;                           // output dims outside the inner block
  std::vector<std::vector<int64_t>> strides;  // per input, per outer dim (0 = broadcast)
  std::vector<int64_t> inner_step;            // per input: 0 or 1

  // Make requires Valid: every input broadcasts to `out`.
  static bool Valid(const Shape& out, const std::vector<Shape>& ins);
  static BroadcastPlan Make(const Shape& out, const std::vector<Shape>& ins);
  // Offsets of each input at the start of row `row`.
  void RowOffsets(int64_t row, int64_t* offsets) const;
  // Input k's rows follow one another (offset = row * inner) or it is the same row for
  // every row (offset 0): the cases that need no per-row index arithmetic.
  bool RowsContiguous(size_t k) const {
    int64_t stride = inner;
    for (size_t d = outer_dims.size(); d-- > 0;) {
      if (outer_dims[d] != 1 && strides[k][d] != stride) return false;
      stride *= outer_dims[d];
    }
    return true;
  }
  bool RowsConstant(size_t k) const {
    for (int64_t s : strides[k])
      if (s != 0) return false;
    return true;
  }
};

}  // namespace oc
