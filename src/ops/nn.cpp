// Neural-network ops: convolution, pooling, normalisation, softmax.
#include <algorithm>
#include <cmath>

#include "ops/op_families.h"
#include "ops/schema_helpers.h"
#include "ops/shape_rules.h"

namespace oc {

Status ConvOutputShape(const Shape& in, const std::vector<int64_t>& kernel,
                       const std::vector<int64_t>& strides, const std::vector<int64_t>& dilations,
                       const std::string& auto_pad, bool ceil_mode, std::vector<int64_t>* pads,
                       Shape* out) {
  const size_t n = in.size();
  out->assign(n, -1);
  if (pads->empty()) pads->assign(2 * n, 0);
  if (pads->size() != 2 * n || kernel.size() != n || strides.size() != n || dilations.size() != n)
    return InvalidArgument("kernel_shape, strides, dilations or pads do not match the rank");
  // Bounds that keep the arithmetic below in int64 (a 2^63 - 1 dim or a 2^40 kernel times a
  // 2^40 dilation overflowed): far past any tensor the size bound lets through.
  constexpr int64_t kBig = int64_t{1} << 40, kWindow = int64_t{1} << 20;
  for (int64_t p : *pads)
    if (p < -kBig || p > kBig) return InvalidArgument("pads hold a value out of range");
  for (size_t i = 0; i < n; ++i) {
    if (strides[i] <= 0 || dilations[i] <= 0 || kernel[i] <= 0)
      return InvalidArgument("kernel, strides and dilations must be positive");
    if (strides[i] > kBig || dilations[i] > kWindow || kernel[i] > kWindow || in[i] > kBig)
      return InvalidArgument("kernel, strides, dilations or the input's dims are out of range");
    if (in[i] < 0) continue;
    int64_t eff_k = (kernel[i] - 1) * dilations[i] + 1;
    if (auto_pad == "SAME_UPPER" || auto_pad == "SAME_LOWER") {
      int64_t o = (in[i] + strides[i] - 1) / strides[i];
      int64_t total = std::max<int64_t>(0, (o - 1) * strides[i] + eff_k - in[i]);
      int64_t small = total / 2, big = total - small;
      (*pads)[i] = auto_pad == "SAME_UPPER" ? small : big;
      (*pads)[i + n] = auto_pad == "SAME_UPPER" ? big : small;
      (*out)[i] = o;
      continue;
    }
    if (auto_pad == "VALID") {
      (*pads)[i] = (*pads)[i + n] = 0;
    }
    int64_t span = in[i] + (*pads)[i] + (*pads)[i + n] - eff_k;
    if (span < 0)
      return ShapeMismatch("kernel of extent " + std::to_string(eff_k) +
                           " is larger than the padded input " + std::to_string(in[i]));
    int64_t o = ceil_mode ? (span + strides[i] - 1) / strides[i] + 1 : span / strides[i] + 1;
    // With ceil_mode the last window must start inside the input or left padding.
    if (ceil_mode && (o - 1) * strides[i] >= in[i] + (*pads)[i]) --o;
    (*out)[i] = o;
  }
  return Status::Ok();
}

namespace {

std::vector<int64_t> IntsOr(const AttributeMap& a, const char* name, size_t n, int64_t v) {
  auto r = a.GetInts(name);
  return r.empty() ? std::vector<int64_t>(n, v) : r;
}

// B, where given, holds one value per output channel: kernels copy that many from it.
Status CheckConvBias(const InferContext& c, int64_t out_channels) {
  if (!c.has_input(2) || !c.in(2).has_shape) return Status::Ok();
  const Shape& b = c.in(2).shape;
  if (b.size() != 1 || (b[0] >= 0 && out_channels >= 0 && b[0] != out_channels))
    return c.Error("B " + ShapeToString(b) + " must hold one value per output channel (" +
                   std::to_string(out_channels) + ")");
  return Status::Ok();
}

// InstanceNormalization: X is N x C x ..., scale and B hold one value per channel.
Status InferInstanceNorm(InferContext& c) {
  OC_RETURN_IF_ERROR(CheckSameType(c, {0, 1, 2}));
  const ValueInfo& x = c.in(0);
  if (x.has_shape && x.shape.size() < 2)
    return c.Error("X must be N x C x ..., not of rank " + std::to_string(x.shape.size()));
  const int64_t channels = x.has_shape ? x.shape[1] : -1;
  for (size_t i : {1, 2}) {
    const ValueInfo& p = c.in(i);
    if (!p.has_shape) continue;
    if (p.shape.size() != 1 || (p.shape[0] >= 0 && channels >= 0 && p.shape[0] != channels))
      return c.Error(std::string(i == 1 ? "scale " : "B ") + ShapeToString(p.shape) +
                     " must hold one value per channel (" + std::to_string(channels) + ")");
  }
  return InferSameAsInput(c);
}

Status InferConv(InferContext& c) {
  if (c.node->domain.empty()) OC_RETURN_IF_ERROR(CheckSameType(c, {0, 1, 2}));
  const ValueInfo& x = c.in(0);
  const ValueInfo& w = c.in(1);
  if (!x.has_shape || !w.has_shape) {
    c.SetOutputTypeOnly(0, x.dtype);
    return Status::Ok();
  }
  Shape out;
  Status s = ConvForwardShape(x.shape, w.shape, c.attrs(), &out);
  if (!s.ok()) return c.Error(s.message());
  OC_RETURN_IF_ERROR(CheckConvBias(c, w.shape[0]));
  c.SetOutput(0, x.dtype, out);
  return Status::Ok();
}

}  // namespace

Status ConvForwardShape(const Shape& x, const Shape& w, const AttributeMap& a, Shape* out) {
  if (x.size() < 3 || w.size() != x.size())
    return ShapeMismatch("X rank " + std::to_string(x.size()) + " and W rank " +
                         std::to_string(w.size()) + " do not match");
  const size_t n = x.size() - 2;
  const int64_t group = a.GetInt("group", 1);
  if (group <= 0) return InvalidArgument("group must be positive");
  if (x[1] >= 0 && w[1] >= 0 && w[1] * group != x[1])
    return ShapeMismatch("input channels " + std::to_string(x[1]) + " do not match weight " +
                         ShapeToString(w) + " with group " + std::to_string(group));
  std::vector<int64_t> kernel = a.GetInts("kernel_shape");
  // Kernels walk W by its own dims: a kernel_shape that says otherwise would be read past it.
  if (!kernel.empty() && IsStatic(w) &&
      !std::equal(kernel.begin(), kernel.end(), w.begin() + 2, w.end()))
    return ShapeMismatch("kernel_shape does not match the weight " + ShapeToString(w));
  if (kernel.empty()) kernel.assign(w.begin() + 2, w.end());
  std::vector<int64_t> pads = a.GetInts("pads");
  Shape spatial;
  Status s = ConvOutputShape(Shape(x.begin() + 2, x.end()), kernel, IntsOr(a, "strides", n, 1),
                             IntsOr(a, "dilations", n, 1), a.GetString("auto_pad", "NOTSET"), false,
                             &pads, &spatial);
  if (!s.ok()) return s;
  *out = {x[0], w[0]};
  out->insert(out->end(), spatial.begin(), spatial.end());
  return Status::Ok();
}

Status ConvTransposeGeometry(const Shape& x, const Shape& w, const AttributeMap& a,
                             std::vector<int64_t>* pads, Shape* out) {
  const size_t n = x.size() - 2;
  auto ints = [&](const char* name, size_t count, int64_t v) {
    auto r = a.GetInts(name);
    return r.empty() ? std::vector<int64_t>(count, v) : r;
  };
  std::vector<int64_t> kernel = a.GetInts("kernel_shape");
  if (!kernel.empty() && IsStatic(w) &&
      !std::equal(kernel.begin(), kernel.end(), w.begin() + 2, w.end()))
    return ShapeMismatch("kernel_shape does not match the weight " + ShapeToString(w));
  if (kernel.empty()) kernel.assign(w.begin() + 2, w.end());
  const auto strides = ints("strides", n, 1), dil = ints("dilations", n, 1);
  const auto outpad = ints("output_padding", n, 0);
  *pads = ints("pads", 2 * n, 0);
  const std::string auto_pad = a.GetString("auto_pad", "NOTSET");
  std::vector<int64_t> explicit_shape = a.GetInts("output_shape");
  const int64_t group = a.GetInt("group", 1);
  if (kernel.size() != n || strides.size() != n || dil.size() != n || outpad.size() != n ||
      pads->size() != 2 * n)
    return InvalidArgument(
        "kernel_shape, strides, dilations, pads or output_padding do not match the rank");
  // -1 (unknown at compile time) is settled when the node is prepared with actual sizes.
  if (w.size() != x.size() || (x[1] >= 0 && w[0] >= 0 && x[1] != w[0]))
    return InvalidArgument("X has " + std::to_string(x[1]) + " channels, W is " + ShapeToString(w));
  if (group < 1 || (x[1] > 0 && x[1] % group != 0))
    return InvalidArgument("group " + std::to_string(group) + " does not divide the channels");
  if (!explicit_shape.empty() && explicit_shape.size() < n)
    return InvalidArgument("output_shape has fewer values than spatial dims");
  for (size_t i = 0; i < n; ++i) {
    if (kernel[i] < 1 || (w[2 + i] >= 0 && kernel[i] != w[2 + i]) || strides[i] < 1 || dil[i] < 1 ||
        outpad[i] < 0 || kernel[i] > (1 << 20) || strides[i] > (1 << 20) || dil[i] > (1 << 20) ||
        outpad[i] > (1 << 20))
      return InvalidArgument(
          "kernel_shape, strides, dilations, pads or output_padding hold a "
          "value out of range (spatial axis " +
          std::to_string(i) + ")");
  }
  *out = {x[0], w[1] * group};
  for (size_t i = 0; i < n; ++i) {
    const int64_t eff_k = (kernel[i] - 1) * dil[i] + 1;
    int64_t target = -1;
    if (!explicit_shape.empty())
      target = explicit_shape[explicit_shape.size() - n + i];
    else if (auto_pad == "SAME_UPPER" || auto_pad == "SAME_LOWER")
      target = x[2 + i] * strides[i];
    if (target >= 0) {
      const int64_t total = strides[i] * (x[2 + i] - 1) + outpad[i] + eff_k - target;
      // Floor division: the total may be negative (the output extends past the input).
      const int64_t half = total >= 0 ? total / 2 : -((-total + 1) / 2);
      if (auto_pad == "SAME_UPPER") {
        (*pads)[i] = half;
        (*pads)[i + n] = total - half;
      } else {
        (*pads)[i] = total - half;
        (*pads)[i + n] = half;
      }
      out->push_back(target);
    } else {
      out->push_back(strides[i] * (x[2 + i] - 1) + outpad[i] + eff_k - (*pads)[i] - (*pads)[i + n]);
    }
    if (x[2 + i] >= 0 && out->back() < 1)
      return InvalidArgument("the output's spatial dim " + std::to_string(i) + " would be " +
                             std::to_string(out->back()) + " with the pads " +
                             std::to_string((*pads)[i]) + " and " + std::to_string((*pads)[i + n]));
  }
  return Status::Ok();
}

namespace {

Status InferConvTranspose(InferContext& c) {
  if (c.node->domain.empty()) OC_RETURN_IF_ERROR(CheckSameType(c, {0, 1, 2}));
  const ValueInfo& x = c.in(0);
  const ValueInfo& w = c.in(1);
  if (!x.has_shape || !w.has_shape) {
    c.SetOutputTypeOnly(0, x.dtype);
    return Status::Ok();
  }
  if (x.shape.size() < 3 || w.shape.size() != x.shape.size())
    return c.Error("X and W ranks differ");
  std::vector<int64_t> pads;
  Shape out;
  Status s = ConvTransposeGeometry(x.shape, w.shape, c.attrs(), &pads, &out);
  if (!s.ok()) return c.Error(s.message());
  OC_RETURN_IF_ERROR(CheckConvBias(c, out[1]));
  c.SetOutput(0, x.dtype, out);
  return Status::Ok();
}

Status InferPool(InferContext& c) {
  const ValueInfo& x = c.in(0);
  if (!x.has_shape) {
    for (size_t i = 0; i < c.outputs.size(); ++i) c.SetOutputTypeOnly(i, x.dtype);
    return Status::Ok();
  }
  if (x.shape.size() < 3) return c.Error("input must have rank >= 3");
  const size_t n = x.shape.size() - 2;
  std::vector<int64_t> kernel = c.attrs().GetInts("kernel_shape");
  if (kernel.size() != n) return c.Error("kernel_shape must have " + std::to_string(n) + " values");
  std::vector<int64_t> pads = c.attrs().GetInts("pads");
  Shape spatial;
  Status s = ConvOutputShape(
      Shape(x.shape.begin() + 2, x.shape.end()), kernel, IntsOr(c.attrs(), "strides", n, 1),
      IntsOr(c.attrs(), "dilations", n, 1), c.attrs().GetString("auto_pad", "NOTSET"),
      c.attrs().GetInt("ceil_mode", 0) != 0, &pads, &spatial);
  if (!s.ok()) return c.Error(s.message());
  Shape out{x.shape[0], x.shape[1]};
  out.insert(out.end(), spatial.begin(), spatial.end());
  c.SetOutput(0, x.dtype, out);
  if (c.outputs.size() > 1) c.SetOutput(1, DataType::kInt64, out);
  return Status::Ok();
}

Status InferGlobalPool(InferContext& c) {
  const ValueInfo& x = c.in(0);
  if (!x.has_shape) {
    c.SetOutputTypeOnly(0, x.dtype);
    return Status::Ok();
  }
  if (x.shape.size() < 3) return c.Error("input must have rank >= 3");
  Shape out(x.shape.size(), 1);
  out[0] = x.shape[0];
  out[1] = x.shape[1];
  c.SetOutput(0, x.dtype, out);
  return Status::Ok();
}

Status InferBatchNorm(InferContext& c) {
  const ValueInfo& x = c.in(0);
  if (x.has_shape && x.shape.size() < 2)
    return c.Error("X must be [N, C, ...], got " + ShapeToString(x.shape));
  const int64_t channels = x.has_shape ? x.shape[1] : -1;
  for (size_t i = 1; i < c.num_inputs() && i < 5; ++i) {
    if (!c.has_input(i) || !c.in(i).has_shape) continue;
    const Shape& p = c.in(i).shape;
    if (p.size() != 1 || (channels >= 0 && p[0] >= 0 && p[0] != channels))
      return c.Error("scale, B, mean and var must be [C] = [" + std::to_string(channels) +
                     "], input " + std::to_string(i) + " is " + ShapeToString(p));
  }
  OC_RETURN_IF_ERROR(InferSameAsInput(c));
  for (size_t i = 1; i < c.outputs.size(); ++i) c.SetOutput(i, x.dtype, {channels});
  return Status::Ok();
}

Status InferLayerNorm(InferContext& c) {
  OC_RETURN_IF_ERROR(InferSameAsInput(c));
  if (c.outputs.size() > 1) {
    const Shape& s = c.in(0).shape;
    auto axis = NormalizeAxis(c.attrs().GetInt("axis", -1), static_cast<int64_t>(s.size()));
    if (!axis.ok()) return c.Error(axis.status().message());
    Shape stat(s.begin(), s.begin() + axis.value());
    stat.resize(s.size(), 1);
    for (size_t i = 1; i < c.outputs.size(); ++i) c.SetOutput(i, DataType::kFloat, stat);
  }
  return Status::Ok();
}

}  // namespace

void RegisterNnSchemas(OpRegistry& r) {
  r.Register({"Conv", "", 2, 3, 1, 1, InferConv});
  // Conv with fused activation and optional residual sum (input 3), made by the compiler.
  r.Register({"Conv", kOcDomain, 2, 4, 1, 1, InferConv});
  // The residual is accumulated into: the output may be its buffer.
  r.SetTraits(kOcDomain, "Conv", InPlaceOn(3));
  r.Register({"ConvTranspose", "", 2, 3, 1, 1, InferConvTranspose});
  r.Register({"MaxPool", "", 1, 1, 1, 2, InferPool});
  r.Register({"AveragePool", "", 1, 1, 1, 1, InferPool});
  r.Register({"LpPool", "", 1, 1, 1, 1, InferPool});
  r.Register({"GlobalAveragePool", "", 1, 1, 1, 1, InferGlobalPool});
  r.Register({"GlobalMaxPool", "", 1, 1, 1, 1, InferGlobalPool});
  r.Register({"BatchNormalization", "", 5, 5, 1, 3, InferBatchNorm});
  r.Register({"LayerNormalization", "", 2, 3, 1, 3, InferLayerNorm});
  r.Register({"InstanceNormalization", "", 3, 3, 1, 1, InferInstanceNorm});
  r.Register({"Softmax", "", 1, 1, 1, 1, InferSameAsInput});
  r.Register({"LogSoftmax", "", 1, 1, 1, 1, InferSameAsInput});
  r.Register({"Hardmax", "", 1, 1, 1, 1, InferSameAsInput});
}

}  // namespace oc
