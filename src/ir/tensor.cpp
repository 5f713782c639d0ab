#include "ir/tensor.h"

#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <new>

#include "base/half.h"

namespace oc {

Tensor::Tensor(DataType dtype, Shape shape) : dtype_(dtype), shape_(std::move(shape)) {
  size_t bytes = nbytes();
  // 64-byte aligned so kernels can use aligned vector loads on constants too.
  auto* p = new (std::align_val_t(64)) uint8_t[bytes == 0 ? 1 : bytes]();
  holder_ = std::shared_ptr<const void>(
      p, [](const void* q) { operator delete[](const_cast<void*>(q), std::align_val_t(64)); });
  data_ = p;
  owned_ = true;
}

Tensor::Tensor(DataType dtype, Shape shape, const void* data, std::shared_ptr<const void> holder)
    : dtype_(dtype), shape_(std::move(shape)), data_(data), holder_(std::move(holder)) {}

void* Tensor::mutable_data() { return owned_ ? const_cast<void*>(data_) : nullptr; }

double Tensor::GetAsDouble(int64_t i) const {
  switch (dtype_) {
    case DataType::kFloat:
      return data_as<float>()[i];
    case DataType::kDouble:
      return data_as<double>()[i];
    case DataType::kFloat16:
      return HalfToFloat(data_as<uint16_t>()[i]);
    case DataType::kBFloat16:
      return BFloat16ToFloat(data_as<uint16_t>()[i]);
    default:
      return static_cast<double>(GetAsInt(i));
  }
}

int64_t Tensor::GetAsInt(int64_t i) const {
  switch (dtype_) {
    case DataType::kInt64:
      return data_as<int64_t>()[i];
    case DataType::kInt32:
      return data_as<int32_t>()[i];
    case DataType::kInt16:
      return data_as<int16_t>()[i];
    case DataType::kInt8:
      return data_as<int8_t>()[i];
    case DataType::kUint8:
      return data_as<uint8_t>()[i];
    case DataType::kUint16:
      return data_as<uint16_t>()[i];
    case DataType::kUint32:
      return data_as<uint32_t>()[i];
    case DataType::kUint64:
      return static_cast<int64_t>(data_as<uint64_t>()[i]);
    case DataType::kBool:
      return data_as<uint8_t>()[i] != 0;
    case DataType::kFloat:
    case DataType::kDouble:
    case DataType::kFloat16:
    case DataType::kBFloat16: {
      // NaN and values past int64's range have no integer: 0 and the nearest limit, never
      // the undefined conversion.
      const double v = GetAsDouble(i);
      if (std::isnan(v)) return 0;
      if (v >= 9.2233720368547758e18) return INT64_MAX;
      if (v <= -9.2233720368547758e18) return INT64_MIN;
      return static_cast<int64_t>(v);
    }
    default:
      // Strings and undefined elements are no numbers (a damaged file can claim them):
      // 0, and no recursion through GetAsDouble, whose default comes back here.
      return 0;
  }
}

Result<double> Tensor::OneDouble(const std::string& what) const {
  if (numel() != 1)
    return InvalidArgument(what + " must hold one value, not " + std::to_string(numel()));
  if (dtype_ == DataType::kString) return InvalidArgument(what + " is a string");
  return GetAsDouble(0);
}

Result<int64_t> Tensor::OneInt(const std::string& what) const {
  OC_ASSIGN_OR_RETURN(double d, OneDouble(what));
  if (IsFloatType(dtype_) && !(d > -9.2e18 && d < 9.2e18))
    return InvalidArgument(what + " is not a representable integer");
  return GetAsInt(0);
}

std::vector<int64_t> Tensor::ToInt64Vector() const {
  std::vector<int64_t> out(static_cast<size_t>(numel()));
  for (size_t i = 0; i < out.size(); ++i) out[i] = GetAsInt(static_cast<int64_t>(i));
  return out;
}

Tensor Tensor::FromInt64s(const std::vector<int64_t>& values, Shape shape) {
  Tensor t(DataType::kInt64, std::move(shape));
  if (!values.empty()) std::memcpy(t.mutable_data(), values.data(), values.size() * 8);
  return t;
}

Tensor Tensor::Scalar(DataType dtype, double value) {
  Tensor t(dtype, {});
  void* p = t.mutable_data();
  switch (dtype) {
    case DataType::kFloat:
      *static_cast<float*>(p) = static_cast<float>(value);
      break;
    case DataType::kDouble:
      *static_cast<double*>(p) = value;
      break;
    case DataType::kFloat16:
      *static_cast<uint16_t*>(p) = FloatToHalf(static_cast<float>(value));
      break;
    case DataType::kBFloat16:
      *static_cast<uint16_t*>(p) = FloatToBFloat16(static_cast<float>(value));
      break;
    case DataType::kInt64:
      *static_cast<int64_t*>(p) = static_cast<int64_t>(value);
      break;
    case DataType::kInt32:
      *static_cast<int32_t*>(p) = static_cast<int32_t>(value);
      break;
    case DataType::kInt16:
      *static_cast<int16_t*>(p) = static_cast<int16_t>(value);
      break;
    case DataType::kInt8:
      *static_cast<int8_t*>(p) = static_cast<int8_t>(value);
      break;
    case DataType::kUint8:
    case DataType::kBool:
      *static_cast<uint8_t*>(p) = static_cast<uint8_t>(value);
      break;
    case DataType::kUint16:
      *static_cast<uint16_t*>(p) = static_cast<uint16_t>(value);
      break;
    case DataType::kUint32:
      *static_cast<uint32_t*>(p) = static_cast<uint32_t>(value);
      break;
    case DataType::kUint64:
      *static_cast<uint64_t*>(p) = static_cast<uint64_t>(value);
      break;
    default:
      break;
  }
  return t;
}

}  // namespace oc
