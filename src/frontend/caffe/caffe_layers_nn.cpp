// Caffe's convolution, pooling, inner product and normalization layers (Convolution,
// Deconvolution, Pooling, InnerProduct, BatchNorm, Scale, Bias, LRN).
#include <string>
#include <vector>

#include "frontend/caffe/caffe_layers.h"

namespace oc::caffe_import {
namespace {

// Kernel, stride, pad and dilation of a 2-D window, Caffe's ways of writing them.
struct Window {
  std::vector<int64_t> kernel, stride, pad, dilation;
};

template <typename P>
Result<std::vector<int64_t>> PerAxis(const LayerParameter& l, const char* what,
                                     const google::protobuf::RepeatedField<P>& values, bool has_h,
                                     int64_t h, bool has_w, int64_t w, int64_t def) {
  if (has_h || has_w) {
    if (values.size() > 0)
      return LayerError(l, std::string(what) + " is given both per axis and as _h/_w");
    return std::vector<int64_t>{has_h ? h : def, has_w ? w : def};
  }
  if (values.size() == 0) return std::vector<int64_t>{def, def};
  if (values.size() == 1) return std::vector<int64_t>{values[0], values[0]};
  if (values.size() == 2) return std::vector<int64_t>{values[0], values[1]};
  return Status(StatusCode::kUnsupported,
                "layer [" + l.name() + "] (" + l.type() + "): " + std::to_string(values.size()) +
                    "-D " + what + " is not supported by OpenCANN's Caffe parser (2-D only)",
                "E19010");
}

Result<Window> ConvWindow(const LayerParameter& l) {
  const auto& p = l.convolution_param();
  Window w;
  OC_ASSIGN_OR_RETURN(w.kernel, PerAxis(l, "kernel_size", p.kernel_size(), p.has_kernel_h(),
                                        p.kernel_h(), p.has_kernel_w(), p.kernel_w(), 0));
  OC_ASSIGN_OR_RETURN(w.stride, PerAxis(l, "stride", p.stride(), p.has_stride_h(), p.stride_h(),
                                        p.has_stride_w(), p.stride_w(), 1));
  OC_ASSIGN_OR_RETURN(
      w.pad, PerAxis(l, "pad", p.pad(), p.has_pad_h(), p.pad_h(), p.has_pad_w(), p.pad_w(), 0));
  google::protobuf::RepeatedField<uint32_t> none;
  OC_ASSIGN_OR_RETURN(w.dilation, PerAxis(l, "dilation", p.dilation(), false, 0, false, 0, 1));
  for (size_t i = 0; i < 2; ++i)
    if (w.kernel[i] <= 0 || w.stride[i] <= 0 || w.dilation[i] <= 0)
      return LayerError(l, "kernel, stride and dilation must be positive");
  if (p.axis() != 1) return Unsupported(l, "a channel axis other than 1");
  return w;
}

AttributeMap WindowAttrs(const Window& w) {
  AttributeMap a;
  a.Set("kernel_shape", w.kernel);
  a.Set("strides", w.stride);
  a.Set("pads", std::vector<int64_t>{w.pad[0], w.pad[1], w.pad[0], w.pad[1]});
  if (!w.dilation.empty()) a.Set("dilations", w.dilation);
  return a;
}

Status ConvolutionLike(const LayerParameter& l, const Weights& w, Builder& b, bool transposed) {
  const auto& p = l.convolution_param();
  OC_ASSIGN_OR_RETURN(Window win, ConvWindow(l));
  OC_RETURN_IF_ERROR(NeedBlobs(l, w, p.bias_term() ? 2 : 1));
  const int64_t group = p.group();
  const int64_t out_channels = p.num_output();
  if (group < 1 || out_channels < 1 || out_channels % group != 0)
    return LayerError(l, "num_output " + std::to_string(out_channels) + " and group " +
                             std::to_string(group) + " do not fit");
  const Tensor& weight = w.blobs[0];
  // Convolution: [out, in/group, kh, kw]; Deconvolution: [in, out/group, kh, kw].
  const int64_t count = weight.numel();
  // Filters (outputs per group for Deconvolution) times the kernel's area: num_output and
  // each kernel side are uint32 fields, so the products are checked.
  const int64_t filters = transposed ? out_channels / group : out_channels;
  int64_t per_filter = 0, filter_values = 0;
  if (__builtin_mul_overflow(win.kernel[0], win.kernel[1], &per_filter) ||
      __builtin_mul_overflow(filters, per_filter, &filter_values) || count % filter_values != 0)
    return LayerError(l, "weights of " + std::to_string(count) + " values do not fit " +
                             std::to_string(out_channels) +
                             (transposed ? " outputs of " : " filters of ") +
                             std::to_string(win.kernel[0]) + "x" + std::to_string(win.kernel[1]));
  Shape wshape;
  if (!transposed)
    wshape = {out_channels, count / filter_values, win.kernel[0], win.kernel[1]};
  else
    wshape = {count / filter_values, filters, win.kernel[0], win.kernel[1]};
  if (weight.shape().size() == 4 && weight.shape() != wshape)
    return LayerError(l, "weights are " + ShapeToString(weight.shape()) + ", the layer needs " +
                             ShapeToString(wshape));
  OC_ASSIGN_OR_RETURN(std::string x, b.Bottom(l, 0));
  std::vector<std::string> inputs{x, b.Constant(l.name() + "_w", Reshaped(weight, wshape))};
  if (p.bias_term()) {
    if (w.blobs[1].numel() != out_channels)
      return LayerError(l, "has " + std::to_string(w.blobs[1].numel()) + " biases for " +
                               std::to_string(out_channels) + " outputs");
    inputs.push_back(b.Constant(l.name() + "_b", Reshaped(w.blobs[1], {out_channels})));
  }
  AttributeMap a = WindowAttrs(win);
  a.Set("group", group);
  return SetTops(l, b, {b.Add1(l.name(), transposed ? "ConvTranspose" : "Conv", inputs, a)});
}

// Scale and Bias: a parameter over axes [axis, axis + num_axes) of x, from a blob or from
// the second bottom.
// No blob has more axes than this (Caffe's own limit is 32): an axis past it is refused
// before it sizes anything, even where the input's rank is unknown.
constexpr int64_t kMaxCaffeAxis = 32;

Status ScaleOrBias(const LayerParameter& l, const Weights& w, Builder& b, bool scale) {
  OC_ASSIGN_OR_RETURN(std::string x, b.Bottom(l, 0));
  const int64_t rank = Rank(b, x);
  int64_t axis = scale ? l.scale_param().axis() : l.bias_param().axis();
  if (axis < 0) {
    if (rank < 0) return Unsupported(l, "a negative axis on an input of unknown rank");
    axis += rank;
  }
  // The parameter's trailing dims are counted from the axis: it must lie in the input.
  if (axis < 0 || (rank >= 0 && axis > rank) || axis > kMaxCaffeAxis)
    return LayerError(l, "axis " + std::to_string(axis) + " is out of range");
  size_t next_blob = 0;
  std::string param;
  if (l.bottom_size() > 1) {
    OC_ASSIGN_OR_RETURN(std::string p, b.Bottom(l, 1));
    const int64_t prank = Rank(b, p);
    if (rank < 0 || prank < 0) return Unsupported(l, "a second bottom of unknown rank");
    param = p;
    if (rank - axis - prank > 0) {
      std::vector<int64_t> axes;
      for (int64_t i = 0; i < rank - axis - prank; ++i) axes.push_back(prank + i);
      param = b.Add1(l.name(), "Unsqueeze", {p, b.Ints(l.name() + "_axes", axes)});
    }
  } else {
    OC_RETURN_IF_ERROR(NeedBlobs(l, w, 1));
    const Tensor& t = w.blobs[next_blob++];
    const int64_t num_axes = scale ? l.scale_param().num_axes() : l.bias_param().num_axes();
    Shape pshape = t.shape();
    if (num_axes == 1 || t.numel() == 1) pshape = {t.numel()};
    param = ChannelParam(l, b, x, t, scale ? "_scale" : "_bias", axis,
                         static_cast<int64_t>(pshape.size()), pshape);
  }
  std::string y = b.Add1(l.name(), scale ? "Mul" : "Add", {x, param});
  if (scale && l.scale_param().bias_term()) {
    OC_RETURN_IF_ERROR(NeedBlobs(l, w, next_blob + 1));
    const Tensor& t = w.blobs[next_blob];
    y = b.Add1(l.name(), "Add", {y, ChannelParam(l, b, x, t, "_bias", axis, 1, Shape{t.numel()})});
  }
  return SetTops(l, b, {y});
}

}  // namespace

Status Convolution(const LayerParameter& l, const Weights& w, Builder& b) {
  return ConvolutionLike(l, w, b, false);
}

Status Deconvolution(const LayerParameter& l, const Weights& w, Builder& b) {
  return ConvolutionLike(l, w, b, true);
}

Status Pooling(const LayerParameter& l, const Weights&, Builder& b) {
  const auto& p = l.pooling_param();
  OC_ASSIGN_OR_RETURN(std::string x, b.Bottom(l, 0));
  if (p.pool() == oc_caffe::PoolingParameter::STOCHASTIC)
    return Unsupported(l, "STOCHASTIC pooling");
  const bool max = p.pool() == oc_caffe::PoolingParameter::MAX;
  if (p.global_pooling())
    return SetTops(l, b, {b.Add1(l.name(), max ? "GlobalMaxPool" : "GlobalAveragePool", {x})});
  Window win;
  win.kernel = {p.has_kernel_h() ? int64_t{p.kernel_h()} : int64_t{p.kernel_size()},
                p.has_kernel_w() ? int64_t{p.kernel_w()} : int64_t{p.kernel_size()}};
  win.stride = {p.has_stride_h() ? int64_t{p.stride_h()} : int64_t{p.stride()},
                p.has_stride_w() ? int64_t{p.stride_w()} : int64_t{p.stride()}};
  win.pad = {p.has_pad_h() ? int64_t{p.pad_h()} : int64_t{p.pad()},
             p.has_pad_w() ? int64_t{p.pad_w()} : int64_t{p.pad()}};
  for (size_t i = 0; i < 2; ++i)
    if (win.kernel[i] <= 0 || win.stride[i] <= 0)
      return LayerError(l, "kernel and stride must be positive");
  AttributeMap a = WindowAttrs(win);
  a.Erase("dilations");
  // Caffe rounds the output size up unless told otherwise; its average divides by the
  // window clipped to the padded input (padding counted, the overhang past it not).
  a.Set("ceil_mode", int64_t{p.round_mode() == oc_caffe::PoolingParameter::CEIL});
  if (!max) a.Set("count_include_pad", int64_t{win.pad[0] > 0 || win.pad[1] > 0});
  return SetTops(l, b, {b.Add1(l.name(), max ? "MaxPool" : "AveragePool", {x}, a)});
}

Status InnerProduct(const LayerParameter& l, const Weights& w, Builder& b) {
  const auto& p = l.inner_product_param();
  OC_RETURN_IF_ERROR(NeedBlobs(l, w, p.bias_term() ? 2 : 1));
  const int64_t n = p.num_output();
  if (n < 1) return LayerError(l, "num_output must be positive");
  const Tensor& weight = w.blobs[0];
  if (weight.numel() % n != 0)
    return LayerError(l, "weights of " + std::to_string(weight.numel()) + " values do not fit " +
                             std::to_string(n) + " outputs");
  const int64_t k = weight.numel() / n;
  OC_ASSIGN_OR_RETURN(std::string x, b.Bottom(l, 0));
  // Everything from `axis` on is one input vector.
  AttributeMap flat;
  const int64_t axis = p.axis();
  std::string in = x;
  const int64_t rank = Rank(b, x);
  if (axis < 0 && rank < 0) return Unsupported(l, "a negative axis on an input of unknown rank");
  const int64_t a = axis < 0 ? axis + rank : axis;
  // Caffe's axis lies in [0, rank): everything before it stays, the rest is one vector.
  if (a < 0 || (rank >= 0 && a >= rank) || a > kMaxCaffeAxis)
    return LayerError(l, "axis " + std::to_string(axis) + " is out of range");
  if (a != 1 || rank != 2) {
    std::vector<int64_t> spec(static_cast<size_t>(a), 0);
    spec.push_back(-1);
    in = b.Add1(l.name(), "Reshape", {x, b.Ints(l.name() + "_shape", spec)});
  }
  std::vector<std::string> inputs{
      in, b.Constant(l.name() + "_w", Reshaped(weight, p.transpose() ? Shape{k, n} : Shape{n, k}))};
  std::string y;
  if (a == 1) {
    AttributeMap g;
    g.Set("transB", int64_t{p.transpose() ? 0 : 1});
    if (p.bias_term()) {
      if (w.blobs[1].numel() != n)
        return LayerError(l, "has " + std::to_string(w.blobs[1].numel()) + " biases for " +
                                 std::to_string(n) + " outputs");
      inputs.push_back(b.Constant(l.name() + "_b", Reshaped(w.blobs[1], {n})));
    }
    y = b.Add1(l.name(), "Gemm", inputs, g);
  } else {
    // Leading axes kept: a MatMul against the (transposed) weight, then the bias.
    std::string wt = inputs[1];
    if (!p.transpose()) {
      AttributeMap perm;
      perm.Set("perm", std::vector<int64_t>{1, 0});
      wt = b.Add1(l.name(), "Transpose", {wt}, perm);
    }
    y = b.Add1(l.name(), "MatMul", {in, wt});
    if (p.bias_term()) {
      if (w.blobs[1].numel() != n)
        return LayerError(l, "has " + std::to_string(w.blobs[1].numel()) + " biases for " +
                                 std::to_string(n) + " outputs");
      y = b.Add1(l.name(), "Add", {y, b.Constant(l.name() + "_b", Reshaped(w.blobs[1], {n}))});
    }
  }
  return SetTops(l, b, {y});
}

Status BatchNorm(const LayerParameter& l, const Weights& w, Builder& b) {
  OC_RETURN_IF_ERROR(NeedBlobs(l, w, 3));
  const int64_t c = w.blobs[0].numel();
  if (w.blobs[1].numel() != c || w.blobs[2].numel() < 1)
    return LayerError(l, "mean, variance and scale factor blobs do not fit");
  // Caffe keeps sums: the statistics are the blobs divided by the scale factor.
  const float sf = static_cast<const float*>(w.blobs[2].data())[0];
  const float f = sf == 0 ? 0.0f : 1.0f / sf;
  std::vector<float> mean(static_cast<size_t>(c)), var(static_cast<size_t>(c));
  for (int64_t i = 0; i < c; ++i) {
    mean[i] = static_cast<const float*>(w.blobs[0].data())[i] * f;
    var[i] = static_cast<const float*>(w.blobs[1].data())[i] * f;
  }
  OC_ASSIGN_OR_RETURN(std::string x, b.Bottom(l, 0));
  AttributeMap a;
  a.Set("epsilon", l.batch_norm_param().eps());
  const std::string y = b.Add1(
      l.name(), "BatchNormalization",
      {x, b.Floats(l.name() + "_gamma", std::vector<float>(static_cast<size_t>(c), 1.0f), {c}),
       b.Floats(l.name() + "_beta", std::vector<float>(static_cast<size_t>(c), 0.0f), {c}),
       b.Floats(l.name() + "_mean", mean, {c}), b.Floats(l.name() + "_var", var, {c})},
      a);
  return SetTops(l, b, {y});
}

Status Scale(const LayerParameter& l, const Weights& w, Builder& b) {
  return ScaleOrBias(l, w, b, true);
}
Status Bias(const LayerParameter& l, const Weights& w, Builder& b) {
  return ScaleOrBias(l, w, b, false);
}

Status LRN(const LayerParameter& l, const Weights&, Builder& b) {
  const auto& p = l.lrn_param();
  if (p.norm_region() != oc_caffe::LRNParameter::ACROSS_CHANNELS)
    return Unsupported(l, "WITHIN_CHANNEL normalisation");
  AttributeMap a;
  a.Set("size", int64_t{p.local_size()});
  a.Set("alpha", p.alpha());
  a.Set("beta", p.beta());
  a.Set("bias", p.k());
  return Unary(l, b, "LRN", a);
}

}  // namespace oc::caffe_import
