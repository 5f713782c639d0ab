// One converter per Caffe layer type: each appends the ONNX-semantics nodes that compute what
// Caffe's layer computes at inference (TEST phase), with its weights as constants.
#include <cmath>
#include <map>
#include <numeric>

#include "frontend/caffe/caffe_builder.h"

namespace oc::caffe_import {
namespace {

using oc_caffe::LayerParameter;

Status LayerError(const LayerParameter& l, const std::string& msg) {
  return ParseError("layer [" + l.name() + "] (" + l.type() + "): " + msg);
}

Status Unsupported(const LayerParameter& l, const std::string& what) {
  return Status(StatusCode::kUnsupported,
                "layer [" + l.name() + "] (" + l.type() + "): " + what +
                    " is not supported by OpenCANN's Caffe parser",
                "E19010");
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
  std::memcpy(out.mutable_data(), t.data(), t.nbytes());
  return out;
}

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
  const int64_t per_filter = win.kernel[0] * win.kernel[1];
  int64_t in_per_group = 0;
  Shape wshape;
  if (!transposed) {
    if (count % (out_channels * per_filter) != 0)
      return LayerError(l, "weights of " + std::to_string(count) + " values do not fit " +
                               std::to_string(out_channels) + " filters of " +
                               std::to_string(win.kernel[0]) + "x" + std::to_string(win.kernel[1]));
    in_per_group = count / (out_channels * per_filter);
    wshape = {out_channels, in_per_group, win.kernel[0], win.kernel[1]};
  } else {
    const int64_t out_per_group = out_channels / group;
    if (count % (out_per_group * per_filter) != 0)
      return LayerError(l, "weights of " + std::to_string(count) + " values do not fit " +
                               std::to_string(out_channels) + " outputs of " +
                               std::to_string(win.kernel[0]) + "x" + std::to_string(win.kernel[1]));
    wshape = {count / (out_per_group * per_filter), out_per_group, win.kernel[0], win.kernel[1]};
  }
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
    if (p.bias_term())
      y = b.Add1(l.name(), "Add", {y, b.Constant(l.name() + "_b", Reshaped(w.blobs[1], {n}))});
  }
  return SetTops(l, b, {y});
}

Status ReLU(const LayerParameter& l, const Weights&, Builder& b) {
  OC_ASSIGN_OR_RETURN(std::string x, b.Bottom(l, 0));
  const float slope = l.relu_param().negative_slope();
  if (slope == 0) return SetTops(l, b, {b.Add1(l.name(), "Relu", {x})});
  AttributeMap a;
  a.Set("alpha", slope);
  return SetTops(l, b, {b.Add1(l.name(), "LeakyRelu", {x}, a)});
}

// A per-channel parameter of C values broadcast along axis 1 of x: [C, 1, ...].
std::string ChannelParam(const LayerParameter& l, Builder& b, const std::string& x, const Tensor& t,
                         const std::string& suffix, int64_t axis = 1, int64_t param_axes = 1,
                         const Shape& param_shape = {}) {
  const int64_t rank = Rank(b, x);
  Shape shape = param_shape.empty() ? Shape{t.numel()} : param_shape;
  if (t.numel() == 1 && param_shape.empty()) shape = {1};
  const int64_t trailing = rank < 0 ? 2 : std::max<int64_t>(0, rank - axis - param_axes);
  if (shape != Shape{1})
    for (int64_t i = 0; i < trailing; ++i) shape.push_back(1);
  return b.Constant(l.name() + suffix, Reshaped(t, shape));
}

Status PReLU(const LayerParameter& l, const Weights& w, Builder& b) {
  OC_RETURN_IF_ERROR(NeedBlobs(l, w, 1));
  OC_ASSIGN_OR_RETURN(std::string x, b.Bottom(l, 0));
  const std::string slope = ChannelParam(l, b, x, w.blobs[0], "_slope");
  return SetTops(l, b, {b.Add1(l.name(), "PRelu", {x, slope})});
}

Status Unary(const LayerParameter& l, Builder& b, const char* op, AttributeMap a = {}) {
  OC_ASSIGN_OR_RETURN(std::string x, b.Bottom(l, 0));
  return SetTops(l, b, {b.Add1(l.name(), op, {x}, std::move(a))});
}

Status Sigmoid(const LayerParameter& l, const Weights&, Builder& b) {
  return Unary(l, b, "Sigmoid");
}
Status TanH(const LayerParameter& l, const Weights&, Builder& b) { return Unary(l, b, "Tanh"); }
Status AbsVal(const LayerParameter& l, const Weights&, Builder& b) { return Unary(l, b, "Abs"); }
Status BNLL(const LayerParameter& l, const Weights&, Builder& b) { return Unary(l, b, "Softplus"); }
Status ELU(const LayerParameter& l, const Weights&, Builder& b) {
  AttributeMap a;
  a.Set("alpha", l.elu_param().alpha());
  return Unary(l, b, "Elu", a);
}

// shift + scale * x, with the no-op parts left out.
std::string Affine(const LayerParameter& l, Builder& b, std::string x, float scale, float shift) {
  if (scale != 1) x = b.Add1(l.name(), "Mul", {x, b.Floats(l.name() + "_scale", {scale}, {})});
  if (shift != 0) x = b.Add1(l.name(), "Add", {x, b.Floats(l.name() + "_shift", {shift}, {})});
  return x;
}

Status Power(const LayerParameter& l, const Weights&, Builder& b) {
  const auto& p = l.power_param();
  OC_ASSIGN_OR_RETURN(std::string x, b.Bottom(l, 0));
  std::string y = Affine(l, b, x, p.scale(), p.shift());
  if (p.power() != 1)
    y = b.Add1(l.name(), "Pow", {y, b.Floats(l.name() + "_power", {p.power()}, {})});
  if (y == x) y = b.Add1(l.name(), "Identity", {x});
  return SetTops(l, b, {y});
}

Status Exp(const LayerParameter& l, const Weights&, Builder& b) {
  const auto& p = l.exp_param();
  if (p.base() != -1 && p.base() <= 0) return LayerError(l, "base must be positive or -1 (e)");
  const float ln_base = p.base() == -1 ? 1.0f : std::log(p.base());
  OC_ASSIGN_OR_RETURN(std::string x, b.Bottom(l, 0));
  // base^(shift + scale x) = exp(ln(base) shift + ln(base) scale x)
  std::string y = Affine(l, b, x, ln_base * p.scale(), ln_base * p.shift());
  return SetTops(l, b, {b.Add1(l.name(), "Exp", {y})});
}

Status Log(const LayerParameter& l, const Weights&, Builder& b) {
  const auto& p = l.log_param();
  if (p.base() != -1 && (p.base() <= 0 || p.base() == 1))
    return LayerError(l, "base must be positive and not 1, or -1 (e)");
  OC_ASSIGN_OR_RETURN(std::string x, b.Bottom(l, 0));
  std::string y = b.Add1(l.name(), "Log", {Affine(l, b, x, p.scale(), p.shift())});
  if (p.base() != -1) y = Affine(l, b, y, 1.0f / std::log(p.base()), 0);
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

// Scale and Bias: a parameter over axes [axis, axis + num_axes) of x, from a blob or from
// the second bottom.
Status ScaleOrBias(const LayerParameter& l, const Weights& w, Builder& b, bool scale) {
  OC_ASSIGN_OR_RETURN(std::string x, b.Bottom(l, 0));
  const int64_t rank = Rank(b, x);
  int64_t axis = scale ? l.scale_param().axis() : l.bias_param().axis();
  if (axis < 0) {
    if (rank < 0) return Unsupported(l, "a negative axis on an input of unknown rank");
    axis += rank;
  }
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

Status Scale(const LayerParameter& l, const Weights& w, Builder& b) {
  return ScaleOrBias(l, w, b, true);
}
Status Bias(const LayerParameter& l, const Weights& w, Builder& b) {
  return ScaleOrBias(l, w, b, false);
}

Status Eltwise(const LayerParameter& l, const Weights&, Builder& b) {
  const auto& p = l.eltwise_param();
  if (l.bottom_size() < 2) return LayerError(l, "needs two or more bottoms");
  std::vector<std::string> in;
  for (int i = 0; i < l.bottom_size(); ++i) {
    OC_ASSIGN_OR_RETURN(std::string x, b.Bottom(l, static_cast<size_t>(i)));
    in.push_back(x);
  }
  if (p.coeff_size() > 0 && p.operation() != oc_caffe::EltwiseParameter::SUM)
    return LayerError(l, "coefficients are for SUM only");
  if (p.coeff_size() > 0 && p.coeff_size() != l.bottom_size())
    return LayerError(l, "has " + std::to_string(p.coeff_size()) + " coefficients for " +
                             std::to_string(l.bottom_size()) + " bottoms");
  const char* op = p.operation() == oc_caffe::EltwiseParameter::PROD  ? "Mul"
                   : p.operation() == oc_caffe::EltwiseParameter::MAX ? "Max"
                                                                      : "Sum";
  for (int i = 0; i < p.coeff_size(); ++i)
    if (p.coeff(i) != 1)
      in[i] = b.Add1(l.name(), "Mul", {in[i], b.Floats(l.name() + "_coeff", {p.coeff(i)}, {})});
  std::string y = in[0];
  if (std::string(op) == "Mul") {
    for (size_t i = 1; i < in.size(); ++i) y = b.Add1(l.name(), "Mul", {y, in[i]});
  } else {
    y = b.Add1(l.name(), op, in);
  }
  return SetTops(l, b, {y});
}

Status Concat(const LayerParameter& l, const Weights&, Builder& b) {
  const auto& p = l.concat_param();
  std::vector<std::string> in;
  for (int i = 0; i < l.bottom_size(); ++i) {
    OC_ASSIGN_OR_RETURN(std::string x, b.Bottom(l, static_cast<size_t>(i)));
    in.push_back(x);
  }
  if (in.empty()) return LayerError(l, "has no bottoms");
  AttributeMap a;
  a.Set("axis",
        int64_t{p.has_axis() || !p.has_concat_dim() ? p.axis()
                                                    : static_cast<int32_t>(p.concat_dim())});
  return SetTops(l, b, {b.Add1(l.name(), "Concat", in, a)});
}

Status Slice(const LayerParameter& l, const Weights&, Builder& b) {
  const auto& p = l.slice_param();
  OC_ASSIGN_OR_RETURN(std::string x, b.Bottom(l, 0));
  int64_t axis = p.has_axis() || !p.has_slice_dim() ? p.axis() : p.slice_dim();
  const size_t tops = static_cast<size_t>(l.top_size());
  if (tops < 1) return LayerError(l, "has no tops");
  AttributeMap a;
  a.Set("axis", axis);
  std::vector<std::string> inputs{x};
  if (p.slice_point_size() > 0) {
    if (static_cast<size_t>(p.slice_point_size()) != tops - 1)
      return LayerError(l, "has " + std::to_string(p.slice_point_size()) + " slice points for " +
                               std::to_string(tops) + " tops");
    const Shape* shape = KnownShape(b, x);
    if (!shape) return Unsupported(l, "slice points on an input of unknown shape");
    const int64_t rank = static_cast<int64_t>(shape->size());
    if (axis < 0) axis += rank;
    if (axis < 0 || axis >= rank) return LayerError(l, "axis is out of range");
    std::vector<int64_t> sizes;
    int64_t prev = 0;
    for (uint32_t point : p.slice_point()) {
      if (point <= prev || point >= (*shape)[axis])
        return LayerError(l, "slice points must rise inside the axis");
      sizes.push_back(point - prev);
      prev = point;
    }
    sizes.push_back((*shape)[axis] - prev);
    inputs.push_back(b.Ints(l.name() + "_split", sizes));
  }
  return SetTops(l, b, b.Add(l.name(), "Split", inputs, a, tops));
}

Status Split(const LayerParameter& l, const Weights&, Builder& b) {
  OC_ASSIGN_OR_RETURN(std::string x, b.Bottom(l, 0));
  for (int i = 0; i < l.top_size(); ++i) b.SetTop(l.top(i), x);
  return Status::Ok();
}

Status Dropout(const LayerParameter& l, const Weights&, Builder& b) {
  OC_ASSIGN_OR_RETURN(std::string x, b.Bottom(l, 0));  // identity at inference
  return SetTops(l, b, {x});
}

Status Silence(const LayerParameter& l, const Weights&, Builder& b) {
  for (int i = 0; i < l.bottom_size(); ++i) OC_RETURN_IF_ERROR(b.Bottom(l, i).status());
  return Status::Ok();
}

Status Flatten(const LayerParameter& l, const Weights&, Builder& b) {
  const auto& p = l.flatten_param();
  OC_ASSIGN_OR_RETURN(std::string x, b.Bottom(l, 0));
  const int64_t rank = Rank(b, x);
  int64_t axis = p.axis(), end = p.end_axis();
  if ((axis < 0 || end < 0) && rank < 0)
    return Unsupported(l, "negative axes on an input of unknown rank");
  if (axis < 0) axis += rank;
  if (end < 0) end += rank;
  std::vector<int64_t> spec(static_cast<size_t>(axis), 0);
  spec.push_back(-1);
  if (rank >= 0 && end < rank - 1) {
    const Shape* shape = KnownShape(b, x);
    if (!shape) return Unsupported(l, "end_axis before the last axis on an unknown shape");
    for (int64_t i = end + 1; i < rank; ++i) spec.push_back((*shape)[i]);
  }
  return SetTops(l, b, {b.Add1(l.name(), "Reshape", {x, b.Ints(l.name() + "_shape", spec)})});
}

Status Reshape(const LayerParameter& l, const Weights&, Builder& b) {
  const auto& p = l.reshape_param();
  OC_ASSIGN_OR_RETURN(std::string x, b.Bottom(l, 0));
  std::vector<int64_t> dims(p.shape().dim().begin(), p.shape().dim().end());
  std::vector<int64_t> spec;
  if (p.axis() == 0 && p.num_axes() == -1) {
    spec = dims;
  } else {
    const Shape* shape = KnownShape(b, x);
    if (!shape) return Unsupported(l, "axis or num_axes on an input of unknown shape");
    const int64_t rank = static_cast<int64_t>(shape->size());
    int64_t axis = p.axis() < 0 ? p.axis() + rank + 1 : p.axis();
    int64_t end = p.num_axes() < 0 ? rank : axis + p.num_axes();
    if (axis < 0 || axis > rank || end > rank)
      return LayerError(l, "axis or num_axes out of range");
    for (int64_t i = 0; i < axis; ++i) spec.push_back((*shape)[i]);
    for (size_t i = 0; i < dims.size(); ++i)
      spec.push_back(dims[i] == 0 ? (*shape)[axis + static_cast<int64_t>(i)] : dims[i]);
    for (int64_t i = end; i < rank; ++i) spec.push_back((*shape)[i]);
  }
  return SetTops(l, b, {b.Add1(l.name(), "Reshape", {x, b.Ints(l.name() + "_shape", spec)})});
}

Status Softmax(const LayerParameter& l, const Weights&, Builder& b) {
  AttributeMap a;
  a.Set("axis", int64_t{l.softmax_param().axis()});
  return Unary(l, b, "Softmax", a);
}

Status Permute(const LayerParameter& l, const Weights&, Builder& b) {
  OC_ASSIGN_OR_RETURN(std::string x, b.Bottom(l, 0));
  std::vector<int64_t> perm(l.permute_param().order().begin(), l.permute_param().order().end());
  const int64_t rank = Rank(b, x);
  // Axes the order leaves out follow in their own order.
  for (int64_t i = 0; rank >= 0 && i < rank; ++i)
    if (std::find(perm.begin(), perm.end(), i) == perm.end()) perm.push_back(i);
  AttributeMap a;
  a.Set("perm", perm);
  return SetTops(l, b, {b.Add1(l.name(), "Transpose", {x}, a)});
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

Status Threshold(const LayerParameter& l, const Weights&, Builder& b) {
  OC_ASSIGN_OR_RETURN(std::string x, b.Bottom(l, 0));
  const std::string gt = b.Add1(
      l.name(), "Greater", {x, b.Floats(l.name() + "_t", {l.threshold_param().threshold()}, {})});
  AttributeMap a;
  a.Set("to", int64_t{static_cast<int64_t>(DataType::kFloat)});
  return SetTops(l, b, {b.Add1(l.name(), "Cast", {gt}, a)});
}

Status ArgMax(const LayerParameter& l, const Weights&, Builder& b) {
  const auto& p = l.argmax_param();
  if (p.out_max_val() || p.top_k() != 1) return Unsupported(l, "out_max_val or top_k above 1");
  OC_ASSIGN_OR_RETURN(std::string x, b.Bottom(l, 0));
  AttributeMap a;
  a.Set("keepdims", int64_t{1});
  std::string in = x;
  if (p.has_axis()) {
    a.Set("axis", int64_t{p.axis()});
  } else {
    // Over everything after the first axis, as (N, 1, 1).
    in = b.Add1(l.name(), "Reshape", {x, b.Ints(l.name() + "_flat", {0, -1})});
    a.Set("axis", int64_t{1});
  }
  std::string y = b.Add1(l.name(), "ArgMax", {in}, a);
  AttributeMap c;
  c.Set("to", int64_t{static_cast<int64_t>(DataType::kFloat)});
  y = b.Add1(l.name(), "Cast", {y}, c);
  if (!p.has_axis()) y = b.Add1(l.name(), "Unsqueeze", {y, b.Ints(l.name() + "_axes", {2})});
  return SetTops(l, b, {y});
}

Status Crop(const LayerParameter& l, const Weights&, Builder& b) {
  const auto& p = l.crop_param();
  OC_ASSIGN_OR_RETURN(std::string x, b.Bottom(l, 0));
  OC_ASSIGN_OR_RETURN(std::string ref, b.Bottom(l, 1));
  const Shape* xs = KnownShape(b, x);
  const Shape* rs = KnownShape(b, ref);
  if (!xs || !rs) return Unsupported(l, "inputs of unknown shape");
  const int64_t rank = static_cast<int64_t>(xs->size());
  if (static_cast<int64_t>(rs->size()) != rank) return LayerError(l, "inputs differ in rank");
  int64_t axis = p.axis() < 0 ? p.axis() + rank : p.axis();
  if (axis < 0 || axis >= rank) return LayerError(l, "axis is out of range");
  const int64_t n = rank - axis;
  if (p.offset_size() != 0 && p.offset_size() != 1 && p.offset_size() != n)
    return LayerError(l, "needs 0, 1 or " + std::to_string(n) + " offsets");
  std::vector<int64_t> starts, ends, axes;
  for (int64_t i = 0; i < n; ++i) {
    const int64_t off = p.offset_size() == 0 ? 0 : p.offset(p.offset_size() == 1 ? 0 : i);
    const int64_t d = axis + i;
    if (off + (*rs)[d] > (*xs)[d]) return LayerError(l, "the crop runs past the input");
    starts.push_back(off);
    ends.push_back(off + (*rs)[d]);
    axes.push_back(d);
  }
  return SetTops(l, b,
                 {b.Add1(l.name(), "Slice",
                         {x, b.Ints(l.name() + "_starts", starts), b.Ints(l.name() + "_ends", ends),
                          b.Ints(l.name() + "_axes", axes)})});
}

Status Reduction(const LayerParameter& l, const Weights&, Builder& b) {
  const auto& p = l.reduction_param();
  OC_ASSIGN_OR_RETURN(std::string x, b.Bottom(l, 0));
  const int64_t rank = Rank(b, x);
  if (rank < 0) return Unsupported(l, "an input of unknown rank");
  const int64_t axis = p.axis() < 0 ? p.axis() + rank : p.axis();
  if (axis < 0 || axis > rank) return LayerError(l, "axis is out of range");
  std::vector<int64_t> axes;
  for (int64_t i = axis; i < rank; ++i) axes.push_back(i);
  AttributeMap a;
  a.Set("keepdims", int64_t{0});
  std::string y;
  using R = oc_caffe::ReductionParameter;
  if (p.operation() == R::SUM) {
    y = b.Add1(l.name(), "ReduceSum", {x, b.Ints(l.name() + "_axes", axes)}, a);
  } else {
    a.Set("axes", axes);
    y = b.Add1(l.name(),
               p.operation() == R::ASUM    ? "ReduceL1"
               : p.operation() == R::SUMSQ ? "ReduceSumSquare"
                                           : "ReduceMean",
               {x}, a);
  }
  return SetTops(l, b, {Affine(l, b, y, p.coeff(), 0)});
}

Status Tile(const LayerParameter& l, const Weights&, Builder& b) {
  const auto& p = l.tile_param();
  OC_ASSIGN_OR_RETURN(std::string x, b.Bottom(l, 0));
  const int64_t rank = Rank(b, x);
  if (rank < 0) return Unsupported(l, "an input of unknown rank");
  const int64_t axis = p.axis() < 0 ? p.axis() + rank : p.axis();
  if (axis < 0 || axis >= rank || p.tiles() < 1) return LayerError(l, "axis or tiles invalid");
  std::vector<int64_t> reps(static_cast<size_t>(rank), 1);
  reps[axis] = p.tiles();
  return SetTops(l, b, {b.Add1(l.name(), "Tile", {x, b.Ints(l.name() + "_reps", reps)})});
}

// SSD's PriorBox: the default boxes of each cell of a feature map, as Caffe's SSD fork lays
// them out: per cell, per min_size, the min_size square, the sqrt(min*max) square, then one
// box per further aspect ratio; then the variances. They depend on shapes only, so the layer
// becomes a constant [1, 2, H*W*priors*4].
Status PriorBox(const LayerParameter& l, const Weights&, Builder& b) {
  const auto& p = l.prior_box_param();
  if (l.bottom_size() != 2) return LayerError(l, "needs the feature map and the image as bottoms");
  OC_ASSIGN_OR_RETURN(std::string feat, b.Bottom(l, 0));
  OC_ASSIGN_OR_RETURN(std::string image, b.Bottom(l, 1));
  const Shape* fs = KnownShape(b, feat);
  if (!fs || fs->size() != 4) return Unsupported(l, "a feature map of unknown or non-4-D shape");
  if (p.min_size_size() == 0) return LayerError(l, "needs min_size");
  for (float m : p.min_size())
    if (!(m > 0)) return LayerError(l, "min_size must be positive");
  if (p.max_size_size() > 0 && p.max_size_size() != p.min_size_size())
    return LayerError(l, "needs as many max_size as min_size values");
  for (int i = 0; i < p.max_size_size(); ++i)
    if (!(p.max_size(i) > p.min_size(i))) return LayerError(l, "max_size must exceed min_size");
  if (p.has_img_size() && (p.has_img_h() || p.has_img_w()))
    return LayerError(l, "img_size and img_h/img_w are both given");
  if (p.has_step() && (p.has_step_h() || p.has_step_w()))
    return LayerError(l, "step and step_h/step_w are both given");
  if (p.variance_size() != 0 && p.variance_size() != 1 && p.variance_size() != 4)
    return LayerError(l, "needs 1 or 4 variance values");
  for (float v : p.variance())
    if (!(v > 0)) return LayerError(l, "variance must be positive");
  std::vector<float> ratios{1.0f};
  for (float r : p.aspect_ratio()) {
    if (!(r > 0)) return LayerError(l, "aspect_ratio must be positive");
    bool seen = false;
    for (float q : ratios) seen = seen || std::fabs(r - q) < 1e-6f;
    if (seen) continue;
    ratios.push_back(r);
    if (p.flip()) ratios.push_back(1.0f / r);
  }
  const int64_t layer_h = (*fs)[2], layer_w = (*fs)[3];
  double img_h = p.has_img_size() ? p.img_size() : p.img_h();
  double img_w = p.has_img_size() ? p.img_size() : p.img_w();
  if (img_h == 0 || img_w == 0) {
    const Shape* is = KnownShape(b, image);
    if (!is || is->size() != 4) return Unsupported(l, "an image of unknown or non-4-D shape");
    img_h = static_cast<double>((*is)[2]);
    img_w = static_cast<double>((*is)[3]);
  }
  double step_h = p.has_step() ? p.step() : p.step_h();
  double step_w = p.has_step() ? p.step() : p.step_w();
  if (step_h == 0 || step_w == 0) {
    if (layer_h == 0 || layer_w == 0) return LayerError(l, "the feature map is empty");
    step_h = static_cast<float>(img_h / layer_h);
    step_w = static_cast<float>(img_w / layer_w);
  }
  if (!(img_h > 0 && img_w > 0 && step_h > 0 && step_w > 0))
    return LayerError(l, "image size and step must be positive");
  const int64_t per_cell =
      static_cast<int64_t>(ratios.size()) * p.min_size_size() + p.max_size_size();
  const int64_t count = layer_h * layer_w * per_cell * 4;
  if (count > (int64_t{1} << 28)) return LayerError(l, "makes too many boxes");
  std::vector<float> data;
  data.reserve(static_cast<size_t>(count * 2));
  auto push = [&](double cx, double cy, double w, double h) {
    for (double v :
         {(cx - w / 2) / img_w, (cy - h / 2) / img_h, (cx + w / 2) / img_w, (cy + h / 2) / img_h})
      data.push_back(static_cast<float>(p.clip() ? std::min(std::max(v, 0.0), 1.0) : v));
  };
  for (int64_t h = 0; h < layer_h; ++h)
    for (int64_t w = 0; w < layer_w; ++w) {
      const double cx = (w + p.offset()) * step_w, cy = (h + p.offset()) * step_h;
      for (int s = 0; s < p.min_size_size(); ++s) {
        const double min_size = p.min_size(s);
        push(cx, cy, min_size, min_size);
        if (p.max_size_size() > 0) {
          const double side = std::sqrt(min_size * p.max_size(s));
          push(cx, cy, side, side);
        }
        for (float r : ratios) {
          if (std::fabs(r - 1.0f) < 1e-6f) continue;
          push(cx, cy, min_size * std::sqrt(r), min_size / std::sqrt(r));
        }
      }
    }
  for (int64_t i = 0; i < count / 4; ++i)
    for (int k = 0; k < 4; ++k)
      data.push_back(p.variance_size() == 0   ? 0.1f
                     : p.variance_size() == 1 ? p.variance(0)
                                              : p.variance(k));
  return SetTops(l, b, {b.Floats(l.name(), data, {1, 2, count})});
}

Status DetectionOutput(const LayerParameter& l, const Weights&, Builder& b) {
  const auto& p = l.detection_output_param();
  if (l.bottom_size() != 3) return Unsupported(l, "bottoms other than loc, conf and prior");
  if (!p.has_num_classes() || p.num_classes() < 1) return LayerError(l, "needs num_classes");
  std::vector<std::string> in;
  for (size_t i = 0; i < 3; ++i) {
    OC_ASSIGN_OR_RETURN(std::string x, b.Bottom(l, i));
    in.push_back(x);
  }
  const auto& nms = p.nms_param();
  if (nms.nms_threshold() < 0) return LayerError(l, "nms_threshold must not be negative");
  if (!(nms.eta() > 0 && nms.eta() <= 1)) return LayerError(l, "eta must be in (0, 1]");
  AttributeMap a;
  a.Set("num_classes", int64_t{p.num_classes()});
  a.Set("share_location", int64_t{p.share_location()});
  a.Set("background_label_id", int64_t{p.background_label_id()});
  a.Set("nms_threshold", nms.nms_threshold());
  a.Set("top_k", int64_t{nms.has_top_k() ? nms.top_k() : -1});
  a.Set("eta", nms.eta());
  a.Set("code_type", int64_t{p.code_type()});
  a.Set("variance_encoded_in_target", int64_t{p.variance_encoded_in_target()});
  a.Set("keep_top_k", int64_t{p.keep_top_k()});
  if (p.has_confidence_threshold()) a.Set("confidence_threshold", p.confidence_threshold());
  return SetTops(l, b, b.Add(l.name(), "DetectionOutput", in, a, 1, kOcDomain));
}

// SSD's Normalize: x / sqrt(sum of squares + eps) over the channels (or over C, H and W when
// across_spatial), times a learned scale per channel (or one shared).
Status Normalize(const LayerParameter& l, const Weights& w, Builder& b) {
  const auto& p = l.norm_param();
  OC_RETURN_IF_ERROR(NeedBlobs(l, w, 1));
  OC_ASSIGN_OR_RETURN(std::string x, b.Bottom(l, 0));
  const int64_t rank = Rank(b, x);
  if (rank < 2) return Unsupported(l, "an input of unknown rank or rank below 2");
  const Tensor& scale = w.blobs[0];
  const Shape* shape = KnownShape(b, x);
  if (p.channel_shared() ? scale.numel() != 1 : (shape && scale.numel() != (*shape)[1]))
    return LayerError(l, "has " + std::to_string(scale.numel()) + " scale values for " +
                             (p.channel_shared() ? std::string("a shared scale")
                                                 : std::to_string((*shape)[1]) + " channels"));
  std::vector<int64_t> axes{1};
  for (int64_t i = 2; p.across_spatial() && i < rank; ++i) axes.push_back(i);
  AttributeMap keep;
  keep.Set("keepdims", int64_t{1});
  std::string sum =
      b.Add1(l.name(), "ReduceSum",
             {b.Add1(l.name(), "Mul", {x, x}), b.Ints(l.name() + "_axes", axes)}, keep);
  sum = b.Add1(l.name(), "Add", {sum, b.Floats(l.name() + "_eps", {p.eps()}, {})});
  std::string y = b.Add1(l.name(), "Div", {x, b.Add1(l.name(), "Sqrt", {sum})});
  const std::string s = p.channel_shared() ? b.Constant(l.name() + "_scale", Reshaped(scale, {}))
                                           : ChannelParam(l, b, x, scale, "_scale");
  return SetTops(l, b, {b.Add1(l.name(), "Mul", {y, s})});
}

Status ResizeTo(const LayerParameter& l, Builder& b, const std::string& x, const Shape& in,
                int64_t h, int64_t w, const char* mode, const char* transform) {
  if (h < 1 || w < 1)
    return LayerError(l, "makes an output of " + std::to_string(h) + "x" + std::to_string(w));
  AttributeMap a;
  a.Set("mode", std::string(mode));
  a.Set("coordinate_transformation_mode", std::string(transform));
  if (std::string(mode) == "nearest") a.Set("nearest_mode", std::string("floor"));
  const std::string none = b.Floats(l.name() + "_none", {}, {0});
  return SetTops(l, b,
                 {b.Add1(l.name(), "Resize",
                         {x, none, none, b.Ints(l.name() + "_sizes", {in[0], in[1], h, w})}, a)});
}

// Interp (PSPNet and DeepLab forks): bilinear with corners aligned, to a size given outright,
// by zoom and/or shrink factors, or by a second bottom.
Status Interp(const LayerParameter& l, const Weights&, Builder& b) {
  const auto& p = l.interp_param();
  OC_ASSIGN_OR_RETURN(std::string x, b.Bottom(l, 0));
  const Shape* s = KnownShape(b, x);
  if (!s || s->size() != 4) return Unsupported(l, "an input of unknown or non-4-D shape");
  if (p.pad_beg() != 0 || p.pad_end() != 0) return Unsupported(l, "pad_beg/pad_end (cropping)");
  const int64_t h_in = (*s)[2], w_in = (*s)[3];
  const bool zoom = p.has_zoom_factor(), shrink = p.has_shrink_factor();
  if ((zoom && p.zoom_factor() < 1) || (shrink && p.shrink_factor() < 1))
    return LayerError(l, "zoom_factor and shrink_factor must be at least 1");
  int64_t h = 0, w = 0;
  if (shrink || zoom) {
    h = h_in;
    w = w_in;
    if (shrink) {
      h = (h - 1) / p.shrink_factor() + 1;
      w = (w - 1) / p.shrink_factor() + 1;
    }
    if (zoom) {
      h += (h - 1) * (p.zoom_factor() - 1);
      w += (w - 1) * (p.zoom_factor() - 1);
    }
  } else if (p.has_height() && p.has_width()) {
    h = p.height();
    w = p.width();
  } else if (l.bottom_size() == 2) {
    OC_ASSIGN_OR_RETURN(std::string ref, b.Bottom(l, 1));
    const Shape* rs = KnownShape(b, ref);
    if (!rs || rs->size() != 4) return Unsupported(l, "a size bottom of unknown shape");
    h = (*rs)[2];
    w = (*rs)[3];
  } else {
    return LayerError(l, "needs height and width, zoom_factor, shrink_factor or a second bottom");
  }
  return ResizeTo(l, b, x, *s, h, w, "linear", "align_corners");
}

// Upsample as YOLOv3 conversions write it: nearest neighbour by an integer scale.
Status Upsample(const LayerParameter& l, const Weights&, Builder& b) {
  const auto& p = l.upsample_param();
  if (l.bottom_size() != 1)
    return Unsupported(l, "max-unpooling with a mask bottom (SegNet's Upsample)");
  if (p.has_upsample_h() || p.has_upsample_w() || p.pad_out_h() || p.pad_out_w())
    return Unsupported(l, "upsample_h/upsample_w/pad_out (SegNet's Upsample)");
  OC_ASSIGN_OR_RETURN(std::string x, b.Bottom(l, 0));
  const Shape* s = KnownShape(b, x);
  if (!s || s->size() != 4) return Unsupported(l, "an input of unknown or non-4-D shape");
  const int64_t sh = p.has_scale_h() ? p.scale_h() : p.scale();
  const int64_t sw = p.has_scale_w() ? p.scale_w() : p.scale();
  if (sh < 1 || sw < 1) return LayerError(l, "scale must be at least 1");
  return ResizeTo(l, b, x, *s, (*s)[2] * sh, (*s)[3] * sw, "nearest", "asymmetric");
}

const std::map<std::string, LayerConverter>& Converters() {
  static const std::map<std::string, LayerConverter> table = {
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
  };
  return table;
}

}  // namespace

LayerConverter FindConverter(const std::string& type) {
  auto it = Converters().find(type);
  return it == Converters().end() ? nullptr : it->second;
}

std::vector<std::string> SupportedLayerTypes() {
  std::vector<std::string> out{"Input"};
  for (const auto& [name, fn] : Converters()) out.push_back(name);
  return out;
}

}  // namespace oc::caffe_import
