// The comparison's inputs: read from .npy or raw files (converted to the input's dtype when
// both are float types) or seeded pseudo-random, and widened for the fp32 reference.
#include <cstring>

#include "base/file.h"
#include "base/half.h"
#include "base/npy.h"
#include "compare/compare_internal.h"

namespace oc::compare_internal {
namespace {

// The data an input of `desc` gets: from a file (converted to the input's dtype when it is
// a float type) or seeded pseudo-random values.
Result<std::string> InputBytes(const IoDesc& desc, const std::string& file, uint32_t seed) {
  const size_t n = static_cast<size_t>(NumElements(desc.shape));
  std::vector<double> values(n);
  if (file.empty()) {
    for (auto& v : values) {
      seed = seed * 1664525u + 1013904223u;
      v = desc.dtype == DataType::kFloat || desc.dtype == DataType::kFloat16
              ? static_cast<double>(seed >> 8) / static_cast<double>(1 << 23) - 1.0
              : 0.0;
    }
  } else {
    NpyArray t;
    if (file.size() > 4 && file.compare(file.size() - 4, 4, ".npy") == 0) {
      OC_ASSIGN_OR_RETURN(t, ReadNpy(file));
    } else {
      OC_ASSIGN_OR_RETURN(t.data, ReadFile(file));
      t.dtype = desc.dtype;
      t.shape = desc.shape;
    }
    if (t.dtype == desc.dtype) {
      if (t.data.size() != desc.bytes)
        return InvalidArgument("input file [" + file + "] has " + std::to_string(t.data.size()) +
                               " bytes, input [" + desc.name + "] takes " +
                               std::to_string(desc.bytes));
      return t.data;
    }
    if (static_cast<size_t>(NumElements(t.shape)) != n)
      return InvalidArgument("input file [" + file + "] has shape " + ShapeToString(t.shape) +
                             ", input [" + desc.name + "] is " + ShapeToString(desc.shape));
    if (t.dtype != DataType::kFloat && t.dtype != DataType::kFloat16 &&
        t.dtype != DataType::kDouble)
      return InvalidArgument("input file [" + file + "] must hold " + DataTypeName(desc.dtype) +
                             " data");
    values = FloatValues(t.dtype, t.data.data(), n);
  }
  std::string out(desc.bytes, '\0');
  for (size_t i = 0; i < n; ++i) {
    char* p = out.data() + i * DataTypeSize(desc.dtype);
    switch (desc.dtype) {
      case DataType::kFloat: {
        float f = static_cast<float>(values[i]);
        std::memcpy(p, &f, 4);
        break;
      }
      case DataType::kFloat16: {
        uint16_t h = FloatToHalf(static_cast<float>(values[i]));
        std::memcpy(p, &h, 2);
        break;
      }
      case DataType::kInt64: {
        int64_t v = static_cast<int64_t>(values[i]);
        std::memcpy(p, &v, 8);
        break;
      }
      case DataType::kInt32: {
        int32_t v = static_cast<int32_t>(values[i]);
        std::memcpy(p, &v, 4);
        break;
      }
      default:
        break;  // zero bytes
    }
  }
  return out;
}

}  // namespace

Result<std::vector<std::string>> ModelInputs(const Model& model,
                                             const std::vector<std::string>& files) {
  std::vector<std::string> inputs;
  for (size_t i = 0; i < model.inputs().size(); ++i) {
    OC_ASSIGN_OR_RETURN(
        std::string bytes,
        InputBytes(model.inputs()[i], files.empty() ? "" : files[i], static_cast<uint32_t>(7 + i)));
    inputs.push_back(std::move(bytes));
  }
  return inputs;
}

std::vector<std::string> ReferenceInputs(const Model& target, const Model& reference,
                                         const std::vector<std::string>& inputs) {
  std::vector<std::string> ref_inputs;
  for (size_t i = 0; i < reference.inputs().size(); ++i) {
    const IoDesc& want = reference.inputs()[i];
    const IoDesc& have = target.inputs()[i];
    if (want.dtype == have.dtype) {
      ref_inputs.push_back(inputs[i]);
      continue;
    }
    std::string widened(want.bytes, '\0');
    const size_t n = static_cast<size_t>(NumElements(want.shape));
    for (size_t k = 0; k < n && have.dtype == DataType::kFloat16 && want.dtype == DataType::kFloat;
         ++k) {
      uint16_t h;
      std::memcpy(&h, inputs[i].data() + 2 * k, 2);
      const float f = HalfToFloat(h);
      std::memcpy(widened.data() + 4 * k, &f, 4);
    }
    ref_inputs.push_back(std::move(widened));
  }
  return ref_inputs;
}

}  // namespace oc::compare_internal
