#include "frontend/caffe/caffe_builder.h"

#include <cstring>

#include "ops/op_schema.h"

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

std::string Builder::Fresh(const std::string& base) {
  std::string name = base.empty() ? "v" : base;
  int& n = used_names_[name];
  std::string out = n == 0 ? name : name + "_" + std::to_string(n);
  ++n;
  while (graph_.values.count(out) || graph_.initializers.count(out))
    out = name + "_" + std::to_string(n++);
  graph_.values[out];  // reserve the name
  return out;
}

std::string Builder::Constant(const std::string& base, Tensor t) {
  const std::string name = Fresh(base);
  graph_.values[name] = ValueInfo{t.dtype(), t.shape(), true};
  graph_.initializers[name] = std::move(t);
  return name;
}

std::string Builder::Ints(const std::string& base, const std::vector<int64_t>& values) {
  return Constant(base, Tensor::FromInt64s(values, {static_cast<int64_t>(values.size())}));
}

std::string Builder::Floats(const std::string& base, const std::vector<float>& values,
                            Shape shape) {
  Tensor t(DataType::kFloat, std::move(shape));
  if (!values.empty()) std::memcpy(t.mutable_data(), values.data(), values.size() * sizeof(float));
  return Constant(base, std::move(t));
}

std::vector<std::string> Builder::Add(const std::string& layer, const std::string& op,
                                      std::vector<std::string> inputs, AttributeMap attrs,
                                      size_t outputs) {
  Node n;
  n.name = Fresh(layer + (op.empty() ? "" : "/" + op));
  graph_.values.erase(n.name);  // node names need no value
  n.op_type = op;
  n.inputs = std::move(inputs);
  n.attrs = std::move(attrs);
  for (size_t i = 0; i < outputs; ++i) {
    std::string out = Fresh(layer + (outputs > 1 ? "_" + std::to_string(i) : ""));
    graph_.values.erase(out);
    n.outputs.push_back(out);
  }
  // Shapes as the net is built, so converters can use ranks (a Scale's broadcast, a
  // Flatten's end axis). Errors are the compiler's to report, with the node named.
  (void)InferNode(graph_, n);
  graph_.nodes.push_back(std::move(n));
  return graph_.nodes.back().outputs;
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
  Tensor t(DataType::kFloat, shape);
  float* out = static_cast<float*>(t.mutable_data());
  if (static_cast<size_t>(blob.data_size()) == count) {
    if (count) std::memcpy(out, blob.data().data(), count * sizeof(float));
  } else if (static_cast<size_t>(blob.double_data_size()) == count) {
    for (size_t i = 0; i < count; ++i) out[i] = static_cast<float>(blob.double_data(i));
  } else {
    return ParseError(
        what + " has " + std::to_string(std::max(blob.data_size(), blob.double_data_size())) +
        " values for its shape " + ShapeToString(shape) + " of " + std::to_string(count));
  }
  return t;
}

}  // namespace oc::caffe_import
