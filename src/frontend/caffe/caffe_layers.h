// What the Caffe layer converter files share: the helpers every family uses and each
// family's converters, which caffe_layers.cpp puts in the table FindConverter reads.
#pragma once

#include <string>
#include <vector>

#include "frontend/caffe/caffe_builder.h"

namespace oc::caffe_import {

using oc_caffe::LayerParameter;

// A malformed layer (E19005 when atc reports it), naming the layer.
Status LayerError(const LayerParameter& l, const std::string& msg);
// What OpenCANN's Caffe parser does not convert (E19010), naming the layer.
Status Unsupported(const LayerParameter& l, const std::string& what);
int64_t Rank(Builder& b, const std::string& v);
const Shape* KnownShape(Builder& b, const std::string& v);
// An error unless the layer has at least n weight blobs.
Status NeedBlobs(const LayerParameter& l, const Weights& w, size_t n);
// The layer's tops become `values`, one each.
Status SetTops(const LayerParameter& l, Builder& b, const std::vector<std::string>& values);
Tensor Reshaped(const Tensor& t, Shape shape);
// A per-channel parameter of C values broadcast along axis 1 of x: [C, 1, ...].
std::string ChannelParam(const LayerParameter& l, Builder& b, const std::string& x, const Tensor& t,
                         const std::string& suffix, int64_t axis = 1, int64_t param_axes = 1,
                         const Shape& param_shape = {});
// The layer as one node of `op` on its bottom.
Status Unary(const LayerParameter& l, Builder& b, const char* op, AttributeMap a = {});
// shift + scale * x, with the no-op parts left out.
std::string Affine(const LayerParameter& l, Builder& b, std::string x, float scale, float shift);

// Convolution, pooling, inner product and normalization (caffe_layers_nn.cpp).
Status Convolution(const LayerParameter& l, const Weights& w, Builder& b);
Status Deconvolution(const LayerParameter& l, const Weights& w, Builder& b);
Status Pooling(const LayerParameter& l, const Weights& w, Builder& b);
Status InnerProduct(const LayerParameter& l, const Weights& w, Builder& b);
Status BatchNorm(const LayerParameter& l, const Weights& w, Builder& b);
Status Scale(const LayerParameter& l, const Weights& w, Builder& b);
Status Bias(const LayerParameter& l, const Weights& w, Builder& b);
Status LRN(const LayerParameter& l, const Weights& w, Builder& b);

// Activations and elementwise arithmetic (caffe_layers_math.cpp).
Status ReLU(const LayerParameter& l, const Weights& w, Builder& b);
Status PReLU(const LayerParameter& l, const Weights& w, Builder& b);
Status Sigmoid(const LayerParameter& l, const Weights& w, Builder& b);
Status TanH(const LayerParameter& l, const Weights& w, Builder& b);
Status AbsVal(const LayerParameter& l, const Weights& w, Builder& b);
Status BNLL(const LayerParameter& l, const Weights& w, Builder& b);
Status ELU(const LayerParameter& l, const Weights& w, Builder& b);
Status Power(const LayerParameter& l, const Weights& w, Builder& b);
Status Exp(const LayerParameter& l, const Weights& w, Builder& b);
Status Log(const LayerParameter& l, const Weights& w, Builder& b);
Status Eltwise(const LayerParameter& l, const Weights& w, Builder& b);
Status Softmax(const LayerParameter& l, const Weights& w, Builder& b);
Status Threshold(const LayerParameter& l, const Weights& w, Builder& b);

// Blob plumbing, shapes, reductions (caffe_layers_shape.cpp).
Status Concat(const LayerParameter& l, const Weights& w, Builder& b);
Status Slice(const LayerParameter& l, const Weights& w, Builder& b);
Status Split(const LayerParameter& l, const Weights& w, Builder& b);
Status Dropout(const LayerParameter& l, const Weights& w, Builder& b);
Status Silence(const LayerParameter& l, const Weights& w, Builder& b);
Status Flatten(const LayerParameter& l, const Weights& w, Builder& b);
Status Reshape(const LayerParameter& l, const Weights& w, Builder& b);
Status Permute(const LayerParameter& l, const Weights& w, Builder& b);
Status ArgMax(const LayerParameter& l, const Weights& w, Builder& b);
Status Crop(const LayerParameter& l, const Weights& w, Builder& b);
Status Reduction(const LayerParameter& l, const Weights& w, Builder& b);
Status Tile(const LayerParameter& l, const Weights& w, Builder& b);

// SSD and resizing layers (caffe_layers_vision.cpp).
Status PriorBox(const LayerParameter& l, const Weights& w, Builder& b);
Status DetectionOutput(const LayerParameter& l, const Weights& w, Builder& b);
Status SsdDetectionOutput(const LayerParameter& l, const Weights& w, Builder& b);
// CANN's YOLO layers (caffe_layers_yolo.cpp).
Status Yolo(const LayerParameter& l, const Weights& w, Builder& b);
Status YoloV3DetectionOutput(const LayerParameter& l, const Weights& w, Builder& b);
Status Normalize(const LayerParameter& l, const Weights& w, Builder& b);
Status Interp(const LayerParameter& l, const Weights& w, Builder& b);
Status Upsample(const LayerParameter& l, const Weights& w, Builder& b);

}  // namespace oc::caffe_import
