// One converter per Caffe layer type: each appends the ONNX-semantics nodes that compute what
// Caffe's layer computes at inference (TEST phase), with its weights as constants. Here: the
// helpers the families share and the table of converters; the converters are in
// caffe_layers_{nn,math,shape,vision}.cpp.
#include "frontend/caffe/caffe_layers.h"

#include <algorithm>
#include <cstring>

namespace oc::caffe_import {

Status LayerError(const LayerParameter& l, const std::string& msg) {
  return frontend::OpError(kCaffeWords, l.name(), l.type(), msg);
}

Status Unsupported(const LayerParameter& l, const std::string& what) {
  return frontend::OpUnsupported(kCaffeWords, l.name(), l.type(), what);
}

int64_t Rank(Builder& b, const std::string& v) { return b.Rank(v); }

const Shape* KnownShape(Builder& b, const std::string& v) { return b.KnownShape(v); }

Status NeedBlobs(const LayerParameter& l, const Weights& w, size_t n) {
  if (w.blobs.size() < n)
    return LayerError(l, "needs " + std::to_string(n) + " weight blobs, the model has " +
                             std::to_string(w.blobs.size()) +
                             " (is it in the .caffemodel given with --weight?)");
  return Status::Ok();
}

Status SetTops(const LayerParameter& l, Builder& b, const std::vector<std::string>& values) {
  if (static_cast<size_t>(l.top_size()) != values.size())
    return LayerError(l, "has " + std::to_string(l.top_size()) + " tops, it makes " +
                             std::to_string(values.size()));
  for (size_t i = 0; i < values.size(); ++i) b.SetTop(l.top(static_cast<int>(i)), values[i]);
  return Status::Ok();
}

Tensor Reshaped(const Tensor& t, Shape shape) {
  Tensor out(t.dtype(), std::move(shape));
  // Callers compare the counts first (with the layer's error); the copy is bounded by both
  // sizes anyway, so one that forgot cannot write past the new tensor.
  std::memcpy(out.mutable_data(), t.data(), std::min(t.nbytes(), out.nbytes()));
  return out;
}

std::string ChannelParam(const LayerParameter& l, Builder& b, const std::string& x, const Tensor& t,
                         const std::string& suffix, int64_t axis, int64_t param_axes,
                         const Shape& param_shape) {
  const int64_t rank = Rank(b, x);
  Shape shape = param_shape.empty() ? Shape{t.numel()} : param_shape;
  if (t.numel() == 1 && param_shape.empty()) shape = {1};
  const int64_t trailing = rank < 0 ? 2 : std::max<int64_t>(0, rank - axis - param_axes);
  if (shape != Shape{1})
    for (int64_t i = 0; i < trailing; ++i) shape.push_back(1);
  return b.Constant(l.name() + suffix, Reshaped(t, shape));
}

Status Unary(const LayerParameter& l, Builder& b, const char* op, AttributeMap a) {
  OC_ASSIGN_OR_RETURN(std::string x, b.Bottom(l, 0));
  return SetTops(l, b, {b.Add1(l.name(), op, {x}, std::move(a))});
}

std::string Affine(const LayerParameter& l, Builder& b, std::string x, float scale, float shift) {
  if (scale != 1) x = b.Add1(l.name(), "Mul", {x, b.Floats(l.name() + "_scale", {scale}, {})});
  if (shift != 0) x = b.Add1(l.name(), "Add", {x, b.Floats(l.name() + "_shift", {shift}, {})});
  return x;
}

const frontend::ConverterTable<LayerConverter>& Converters() {
  static const frontend::ConverterTable<LayerConverter> table(
      kCaffeWords, {"Input"},
      {
          {"AbsVal", AbsVal},
          {"ArgMax", ArgMax},
          {"BatchNorm", BatchNorm},
          {"Bias", Bias},
          {"BNLL", BNLL},
          {"Concat", Concat},
          {"Convolution", Convolution},
          {"Crop", Crop},
          {"Deconvolution", Deconvolution},
          {"DetectionOutput", DetectionOutput},
          {"SSDDetectionOutput", SsdDetectionOutput},
          {"Yolo", Yolo},
          {"YoloV3DetectionOutput", YoloV3DetectionOutput},
          {"Dropout", Dropout},
          {"Eltwise", Eltwise},
          {"ELU", ELU},
          {"Exp", Exp},
          {"Flatten", Flatten},
          {"InnerProduct", InnerProduct},
          {"Interp", Interp},
          {"Log", Log},
          {"LRN", LRN},
          {"Normalize", Normalize},
          {"Permute", Permute},
          {"Pooling", Pooling},
          {"Power", Power},
          {"PReLU", PReLU},
          {"PriorBox", PriorBox},
          {"Reduction", Reduction},
          {"ReLU", ReLU},
          {"Reshape", Reshape},
          {"Scale", Scale},
          {"Sigmoid", Sigmoid},
          {"Silence", Silence},
          {"Slice", Slice},
          {"Softmax", Softmax},
          {"Split", Split},
          {"TanH", TanH},
          {"Threshold", Threshold},
          {"Tile", Tile},
          {"Upsample", Upsample},
      });
  return table;
}

}  // namespace oc::caffe_import
