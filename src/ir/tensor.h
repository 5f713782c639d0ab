// A constant tensor: type, shape and bytes. The bytes are either owned or borrowed
// from a longer-lived holder (a mapped .om file), so loading weights never copies.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "base/dtype.h"
#include "base/shape.h"

namespace oc {

class Tensor {
 public:
  Tensor() = default;
  // Owned, zero-initialised storage.
  Tensor(DataType dtype, Shape shape);
  // Borrowed storage kept alive by `holder`.
  Tensor(DataType dtype, Shape shape, const void* data, std::shared_ptr<const void> holder);

  DataType dtype() const { return dtype_; }
  const Shape& shape() const { return shape_; }
  int64_t numel() const { return NumElements(shape_); }
  size_t nbytes() const { return static_cast<size_t>(numel()) * DataTypeSize(dtype_); }
  const void* data() const { return data_; }
  // Only owned tensors are writable.
  void* mutable_data();
  template <typename T>
  const T* data_as() const {
    return static_cast<const T*>(data_);
  }
  template <typename T>
  T* mutable_data_as() {
    return static_cast<T*>(mutable_data());
  }

  // Reads element i converted to double / int64, for small shape-like tensors.
  double GetAsDouble(int64_t i) const;
  int64_t GetAsInt(int64_t i) const;
  std::vector<int64_t> ToInt64Vector() const;
  // The value of a tensor that must hold exactly one (an axis, a count, K, a bound, a
  // condition): InvalidArgument naming `what` when it holds none, several or strings, and,
  // for OneInt, a float that no int64 holds. Schemas and kernels read scalar inputs here.
  Result<double> OneDouble(const std::string& what) const;
  Result<int64_t> OneInt(const std::string& what) const;

  static Tensor FromInt64s(const std::vector<int64_t>& values, Shape shape);
  static Tensor Scalar(DataType dtype, double value);

 private:
  DataType dtype_ = DataType::kUndefined;
  Shape shape_;
  const void* data_ = nullptr;
  std::shared_ptr<const void> holder_;
  bool owned_ = false;
};

}  // namespace oc
