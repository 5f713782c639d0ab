#include "frontend/caffe/caffe_builder.h"

#include <cstring>

namespace oc::caffe_import {

Result<std::string> Builder::Bottom(const oc_caffe::LayerParameter& layer, size_t i) const {
  if (i >= static_cast<size_t>(layer.bottom_size()))
    return ParseError("layer [" + layer.name() + "] (" + layer.type() + ") needs bottom " +
                      std::to_string(i) + ", it has " + std::to_string(layer.bottom_size()));
  auto it = blobs_.find(layer.bottom(static_cast<int>(i)));
  if (it == blobs_.end())
    return ParseError("layer [" + layer.name() + "] (" + layer.type() + ") reads blob [" +
                      layer.bottom(static_cast<int>(i)) + "], which no layer before it produces");
  return it->second;
}

Result<Tensor> BlobToTensor(const oc_caffe::BlobProto& blob, const std::string& what) {
  Shape shape;
  if (blob.has_shape()) {
    for (int64_t d : blob.shape().dim()) {
      if (d < 0) return ParseError(what + " has the negative dim " + std::to_string(d));
      shape.push_back(d);
    }
  } else {
    for (int64_t d : {int64_t{blob.num()}, int64_t{blob.channels()}, int64_t{blob.height()},
                      int64_t{blob.width()}}) {
      if (d < 0) return ParseError(what + " has the negative dim " + std::to_string(d));
      shape.push_back(d);
    }
    // A legacy blob that only sets some dims (an old 1-D bias) leaves the others 0.
    if (shape[0] == 0 && shape[1] == 0 && shape[2] == 0) shape = {shape[3]};
  }
  auto bytes = TensorBytes(shape, sizeof(float));
  if (!bytes.ok()) return ParseError(what + ": " + bytes.status().message());
  const size_t count = bytes.value() / sizeof(float);
  // The claim is checked against the values present before anything is allocated: a blob
  // that claims 2^31 elements and holds four costs nothing.
  const bool floats = static_cast<size_t>(blob.data_size()) == count;
  if (!floats && static_cast<size_t>(blob.double_data_size()) != count)
    return ParseError(
        what + " has " + std::to_string(std::max(blob.data_size(), blob.double_data_size())) +
        " values for its shape " + ShapeToString(shape) + " of " + std::to_string(count));
  Tensor t(DataType::kFloat, shape);
  float* out = static_cast<float*>(t.mutable_data());
  if (floats) {
    if (count) std::memcpy(out, blob.data().data(), count * sizeof(float));
  } else {
    for (size_t i = 0; i < count; ++i) out[i] = static_cast<float>(blob.double_data(i));
  }
  return t;
}

}  // namespace oc::caffe_import
