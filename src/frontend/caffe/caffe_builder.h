// What a Caffe layer converter works with: the layer (V1 files upgraded to the V2 message),
// its weights, and a builder that appends ONNX-semantics nodes to the IR graph. Caffe blobs
// are names that layers may overwrite in place (a ReLU whose top is its bottom); the builder
// maps each blob name to its current IR value, so the graph stays in SSA form.
#pragma once

#include <map>
#include <string>
#include <vector>

#include "base/status.h"
#include "caffe.pb.h"
#include "frontend/converter_table.h"
#include "frontend/graph_builder.h"

namespace oc::caffe_import {

class Builder : public GraphBuilder {
 public:
  // The current value of a blob; an error naming the layer when nobody produced it.
  Result<std::string> Bottom(const oc_caffe::LayerParameter& layer, size_t i) const;
  // Makes `value` the blob's current value.
  void SetTop(const std::string& blob, const std::string& value) { blobs_[blob] = value; }
  bool HasBlob(const std::string& blob) const { return blobs_.count(blob) != 0; }
  // The blob's current value; empty when no layer produced it.
  std::string Current(const std::string& blob) const {
    auto it = blobs_.find(blob);
    return it == blobs_.end() ? std::string() : it->second;
  }

 private:
  std::map<std::string, std::string> blobs_;
};

// A layer's weights (from the .caffemodel, else the prototxt), as float tensors.
struct Weights {
  std::vector<Tensor> blobs;
};

// A blob as a float tensor of its declared shape (the legacy num/channels/height/width when
// it has no shape); an error when its data does not fill the shape.
Result<Tensor> BlobToTensor(const oc_caffe::BlobProto& blob, const std::string& what);

inline constexpr frontend::ParserWords kCaffeWords{"Caffe", "layer", "layer type"};

using LayerConverter = Status (*)(const oc_caffe::LayerParameter& layer, const Weights& w,
                                  Builder& b);
// V2 layer type names -> their converters (caffe_layers.cpp); Input is the importer's own.
const frontend::ConverterTable<LayerConverter>& Converters();

}  // namespace oc::caffe_import
