// One converter per TensorFlow op: the ONNX-semantics nodes that compute it. TF's layout
// stays NHWC where the model has it: NCHW-only IR ops (Conv, pooling) get a Transpose on each
// side, which the compiler's CancelTransposes pass removes between neighbours.
#include <cmath>
#include <map>

#include "frontend/tensorflow/tf_context.h"

namespace oc::tf_import {
namespace {

using oc_tf::NodeDef;

bool Nhwc(const NodeDef& n) {
  const std::string f = AttrString(n, "data_format", "NHWC");
  return f == "NHWC" || f == "NDHWC";
}

// x in the node's layout -> NCHW for an IR op, and back.
std::string ToNchw(Context& c, const NodeDef& n, const std::string& x) {
  return Nhwc(n) ? c.b().Add1(n.name(), "Transpose", {x}, Perm({0, 3, 1, 2})) : x;
}
std::string FromNchw(Context& c, const NodeDef& n, const std::string& y) {
  return Nhwc(n) ? c.b().Add1(n.name(), "Transpose", {y}, Perm({0, 2, 3, 1})) : y;
}

// strides / ksize / dilations of a 4-D op as the two spatial values.
// `def` < 0: the attribute is required (TensorFlow's op definitions give ksize and strides no
// default; its own loader refuses a node without them).
Result<std::vector<int64_t>> Spatial(const NodeDef& n, const std::string& key, int64_t def) {
  std::vector<int64_t> v = AttrInts(n, key);
  if (v.empty() && def < 0) return NodeError(n, key + " is required");
  if (v.empty()) return std::vector<int64_t>{def, def};
  if (v.size() != 4) return NodeError(n, key + " must have 4 values");
  if (Nhwc(n)) {
    if (v[0] != 1 || v[3] != 1) return NodeUnsupported(n, key + " over the batch or channels");
    return std::vector<int64_t>{v[1], v[2]};
  }
  if (v[0] != 1 || v[1] != 1) return NodeUnsupported(n, key + " over the batch or channels");
  return std::vector<int64_t>{v[2], v[3]};
}

Status Padding(const NodeDef& n, AttributeMap* a) {
  const std::string p = AttrString(n, "padding", "VALID");
  if (p == "SAME") {
    a->Set("auto_pad", std::string("SAME_UPPER"));  // TF puts the odd pixel at the end
  } else if (p == "VALID") {
    a->Set("auto_pad", std::string("VALID"));
  } else if (p == "EXPLICIT") {
    std::vector<int64_t> e = AttrInts(n, "explicit_paddings");
    if (e.size() != 8) return NodeError(n, "explicit_paddings must have 8 values");
    const size_t h = Nhwc(n) ? 2 : 4, w = Nhwc(n) ? 4 : 6;
    a->Set("pads", std::vector<int64_t>{e[h], e[w], e[h + 1], e[w + 1]});
  } else {
    return NodeError(n, "padding must be SAME, VALID or EXPLICIT");
  }
  return Status::Ok();
}

Status Conv2D(const NodeDef& n, Context& c) {
  OC_ASSIGN_OR_RETURN(std::string x, c.Input(n, 0));
  OC_ASSIGN_OR_RETURN(std::string w, c.Input(n, 1));
  AttributeMap a;
  OC_ASSIGN_OR_RETURN(auto strides, Spatial(n, "strides", -1));
  OC_ASSIGN_OR_RETURN(auto dil, Spatial(n, "dilations", 1));
  a.Set("strides", strides);
  a.Set("dilations", dil);
  OC_RETURN_IF_ERROR(Padding(n, &a));
  std::string weight;
  const bool depthwise = n.op() == "DepthwiseConv2dNative";
  if (!depthwise) {
    weight = c.b().Add1(n.name(), "Transpose", {w}, Perm({3, 2, 0, 1}));  // HWIO -> OIHW
    const Tensor* wt = c.ConstInput(n, 1);
    const Shape* xs = c.b().KnownShape(x);
    if (wt && wt->shape().size() == 4 && xs && xs->size() == 4) {
      const int64_t cin = Nhwc(n) ? (*xs)[3] : (*xs)[1];
      if (wt->shape()[2] > 0 && cin % wt->shape()[2] == 0) a.Set("group", cin / wt->shape()[2]);
    }
  } else {
    // [H, W, C, M] -> [C*M, 1, H, W], one group per input channel.
    const Tensor* wt = c.ConstInput(n, 1);
    if (!wt || wt->shape().size() != 4) return NodeUnsupported(n, "a filter that is not constant");
    const Shape& s = wt->shape();
    weight = c.b().Add1(n.name(), "Reshape",
                        {w, c.b().Ints(n.name() + "_hw1k", {s[0], s[1], 1, s[2] * s[3]})});
    weight = c.b().Add1(n.name(), "Transpose", {weight}, Perm({3, 2, 0, 1}));
    a.Set("group", s[2]);
  }
  const std::string y = c.b().Add1(n.name(), "Conv", {ToNchw(c, n, x), weight}, a);
  c.SetOutput(n, 0, FromNchw(c, n, y));
  return Status::Ok();
}

Status Pool(const NodeDef& n, Context& c) {
  OC_ASSIGN_OR_RETURN(std::string x, c.Input(n, 0));
  AttributeMap a;
  OC_ASSIGN_OR_RETURN(auto k, Spatial(n, "ksize", -1));
  OC_ASSIGN_OR_RETURN(auto s, Spatial(n, "strides", -1));
  a.Set("kernel_shape", k);
  a.Set("strides", s);
  OC_RETURN_IF_ERROR(Padding(n, &a));
  const bool max = n.op() == "MaxPool";
  // TF's average never counts padding.
  const std::string y = c.b().Add1(n.name(), max ? "MaxPool" : "AveragePool", {ToNchw(c, n, x)}, a);
  c.SetOutput(n, 0, FromNchw(c, n, y));
  return Status::Ok();
}

Status BiasAdd(const NodeDef& n, Context& c) {
  OC_ASSIGN_OR_RETURN(std::string x, c.Input(n, 0));
  OC_ASSIGN_OR_RETURN(std::string bias, c.Input(n, 1));
  if (!Nhwc(n)) {
    const int64_t rank = c.b().Rank(x);
    if (rank < 0) return NodeUnsupported(n, "NCHW bias on an input of unknown rank");
    std::vector<int64_t> axes;
    for (int64_t i = 1; i < rank - 1; ++i) axes.push_back(i);
    bias = c.b().Add1(n.name(), "Unsqueeze", {bias, c.b().Ints(n.name() + "_axes", axes)});
  }
  c.SetOutput(n, 0, c.b().Add1(n.name(), "Add", {x, bias}));
  return Status::Ok();
}

Status FusedBatchNorm(const NodeDef& n, Context& c) {
  if (AttrBool(n, "is_training", false)) return NodeUnsupported(n, "is_training: true");
  OC_ASSIGN_OR_RETURN(std::string x, c.Input(n, 0));
  std::vector<const Tensor*> p;
  for (size_t i = 1; i <= 4; ++i) {
    const Tensor* t = c.ConstInput(n, i);
    if (!t || t->dtype() != DataType::kFloat) return NodeUnsupported(n, "non-constant statistics");
    p.push_back(t);
  }
  const int64_t ch = p[0]->numel();
  for (const Tensor* t : p)
    if (t->numel() != ch) return NodeError(n, "scale, offset, mean and variance differ in size");
  // y = x * a + b with a = scale / sqrt(var + eps), b = offset - mean * a.
  const float eps = AttrFloat(n, "epsilon", 1e-4f);
  std::vector<float> a(static_cast<size_t>(ch)), bv(static_cast<size_t>(ch));
  auto f = [](const Tensor* t, int64_t i) { return static_cast<const float*>(t->data())[i]; };
  for (int64_t i = 0; i < ch; ++i) {
    a[i] = f(p[0], i) / std::sqrt(f(p[3], i) + eps);
    bv[i] = f(p[1], i) - f(p[2], i) * a[i];
  }
  Shape shape{ch};
  if (!Nhwc(n)) shape = {ch, 1, 1};
  std::string y = c.b().Add1(n.name(), "Mul", {x, c.b().Floats(n.name() + "_a", a, shape)});
  y = c.b().Add1(n.name(), "Add", {y, c.b().Floats(n.name() + "_b", bv, shape)});
  c.SetOutput(n, 0, y);
  return Status::Ok();
}

Status MatMul(const NodeDef& n, Context& c) {
  OC_ASSIGN_OR_RETURN(std::string x, c.Input(n, 0));
  OC_ASSIGN_OR_RETURN(std::string y, c.Input(n, 1));
  const bool batch = n.op() != "MatMul";
  const bool ta = AttrBool(n, batch ? "adj_x" : "transpose_a", false);
  const bool tb = AttrBool(n, batch ? "adj_y" : "transpose_b", false);
  auto last_two = [&](const std::string& v) -> Result<std::string> {
    const int64_t rank = c.b().Rank(v);
    if (rank < 2) return NodeUnsupported(n, "a transposed operand of unknown rank");
    std::vector<int64_t> perm;
    for (int64_t i = 0; i < rank - 2; ++i) perm.push_back(i);
    perm.push_back(rank - 1);
    perm.push_back(rank - 2);
    return c.b().Add1(n.name(), "Transpose", {v}, Perm(perm));
  };
  if (ta) {
    OC_ASSIGN_OR_RETURN(x, last_two(x));
  }
  if (tb) {
    OC_ASSIGN_OR_RETURN(y, last_two(y));
  }
  c.SetOutput(n, 0, c.b().Add1(n.name(), "MatMul", {x, y}));
  return Status::Ok();
}

Status Binary(const NodeDef& n, Context& c, const char* op) {
  OC_ASSIGN_OR_RETURN(std::string x, c.Input(n, 0));
  OC_ASSIGN_OR_RETURN(std::string y, c.Input(n, 1));
  c.SetOutput(n, 0, c.b().Add1(n.name(), op, {x, y}));
  return Status::Ok();
}

Status Elementwise(const NodeDef& n, Context& c) {
  static const std::map<std::string, const char*> ops = {
      {"Add", "Add"},     {"AddV2", "Add"},       {"Sub", "Sub"},     {"Mul", "Mul"},
      {"RealDiv", "Div"}, {"Maximum", "Max"},     {"Minimum", "Min"}, {"Pow", "Pow"},
      {"Less", "Less"},   {"Greater", "Greater"}, {"Equal", "Equal"}};
  return Binary(n, c, ops.at(n.op()));
}

Status SquaredDifference(const NodeDef& n, Context& c) {
  OC_ASSIGN_OR_RETURN(std::string x, c.Input(n, 0));
  OC_ASSIGN_OR_RETURN(std::string y, c.Input(n, 1));
  const std::string d = c.b().Add1(n.name(), "Sub", {x, y});
  c.SetOutput(n, 0, c.b().Add1(n.name(), "Mul", {d, d}));
  return Status::Ok();
}

Status Unary(const NodeDef& n, Context& c) {
  static const std::map<std::string, const char*> ops = {
      {"Relu", "Relu"},         {"Elu", "Elu"},
      {"Sigmoid", "Sigmoid"},   {"Tanh", "Tanh"},
      {"Erf", "Erf"},           {"Exp", "Exp"},
      {"Log", "Log"},           {"Sqrt", "Sqrt"},
      {"Neg", "Neg"},           {"Abs", "Abs"},
      {"Floor", "Floor"},       {"Reciprocal", "Reciprocal"},
      {"Identity", "Identity"}, {"StopGradient", "Identity"},
      {"Softplus", "Softplus"}};
  OC_ASSIGN_OR_RETURN(std::string x, c.Input(n, 0));
  if (n.op() == "Identity" || n.op() == "StopGradient") {
    c.SetOutput(n, 0, x);
    return Status::Ok();
  }
  c.SetOutput(n, 0, c.b().Add1(n.name(), ops.at(n.op()), {x}));
  return Status::Ok();
}

Status Rsqrt(const NodeDef& n, Context& c) {
  OC_ASSIGN_OR_RETURN(std::string x, c.Input(n, 0));
  c.SetOutput(n, 0, c.b().Add1(n.name(), "Reciprocal", {c.b().Add1(n.name(), "Sqrt", {x})}));
  return Status::Ok();
}

Status Square(const NodeDef& n, Context& c) {
  OC_ASSIGN_OR_RETURN(std::string x, c.Input(n, 0));
  c.SetOutput(n, 0, c.b().Add1(n.name(), "Mul", {x, x}));
  return Status::Ok();
}

Status Relu6(const NodeDef& n, Context& c) {
  OC_ASSIGN_OR_RETURN(std::string x, c.Input(n, 0));
  std::string lo = c.b().Floats(n.name() + "_lo", {0.0f}, {});
  std::string hi = c.b().Floats(n.name() + "_hi", {6.0f}, {});
  // Clip's bounds have the input's type: for a T other than float they are cast to it
  // (constant folding leaves constants of the right type).
  auto t = n.attr().find("T");
  if (t != n.attr().end() && t->second.type() != oc_tf::DT_FLOAT) {
    lo = c.b().Add1(n.name() + "_lo_cast", "CastLike", {lo, x});
    hi = c.b().Add1(n.name() + "_hi_cast", "CastLike", {hi, x});
  }
  c.SetOutput(n, 0, c.b().Add1(n.name(), "Clip", {x, lo, hi}));
  return Status::Ok();
}

Status Softmax(const NodeDef& n, Context& c) {
  OC_ASSIGN_OR_RETURN(std::string x, c.Input(n, 0));
  AttributeMap a;
  a.Set("axis", int64_t{-1});
  c.SetOutput(n, 0,
              c.b().Add1(n.name(), n.op() == "LogSoftmax" ? "LogSoftmax" : "Softmax", {x}, a));
  return Status::Ok();
}

Status Reduce(const NodeDef& n, Context& c) {
  OC_ASSIGN_OR_RETURN(std::string x, c.Input(n, 0));
  OC_ASSIGN_OR_RETURN(std::vector<int64_t> axes, c.IntsInput(n, 1));
  AttributeMap a;
  a.Set("keepdims", int64_t{AttrBool(n, "keep_dims", false)});
  static const std::map<std::string, const char*> ops = {{"Mean", "ReduceMean"},
                                                         {"Sum", "ReduceSum"},
                                                         {"Max", "ReduceMax"},
                                                         {"Min", "ReduceMin"},
                                                         {"Prod", "ReduceProd"}};
  const std::string op = ops.at(n.op());
  if (op == "ReduceSum") {
    c.SetOutput(n, 0, c.b().Add1(n.name(), op, {x, c.b().Ints(n.name() + "_axes", axes)}, a));
  } else {
    a.Set("axes", axes);
    c.SetOutput(n, 0, c.b().Add1(n.name(), op, {x}, a));
  }
  return Status::Ok();
}

Status Resize(const NodeDef& n, Context& c) {
  OC_ASSIGN_OR_RETURN(std::string x, c.Input(n, 0));
  OC_ASSIGN_OR_RETURN(std::vector<int64_t> size, c.IntsInput(n, 1));
  const Shape* xs = c.b().KnownShape(x);
  if (!xs || xs->size() != 4 || size.size() != 2)
    return NodeUnsupported(n, "an input of unknown shape");
  const bool align = AttrBool(n, "align_corners", false);
  const bool half = AttrBool(n, "half_pixel_centers", false);
  AttributeMap a;
  const bool linear = n.op() == "ResizeBilinear";
  a.Set("mode", std::string(linear ? "linear" : "nearest"));
  a.Set("coordinate_transformation_mode",
        std::string(align  ? "align_corners"
                    : half ? (linear ? "half_pixel" : "tf_half_pixel_for_nn")
                           : "asymmetric"));
  if (!linear) a.Set("nearest_mode", std::string(align ? "round_prefer_ceil" : "floor"));
  const std::string sizes = c.b().Ints(n.name() + "_sizes", {(*xs)[0], (*xs)[3], size[0], size[1]});
  const std::string y =
      c.b().Add1(n.name(), "Resize",
                 {c.b().Add1(n.name(), "Transpose", {x}, Perm({0, 3, 1, 2})), "", "", sizes}, a);
  c.SetOutput(n, 0, c.b().Add1(n.name(), "Transpose", {y}, Perm({0, 2, 3, 1})));
  return Status::Ok();
}

}  // namespace

const frontend::ConverterTable<OpConverter>& Converters() {
  static const frontend::ConverterTable<OpConverter> table(
      kTfWords, {"Placeholder", "Const", "NoOp"},
      {
          {"Conv2D", Conv2D},
          {"DepthwiseConv2dNative", Conv2D},
          {"MaxPool", Pool},
          {"AvgPool", Pool},
          {"BiasAdd", BiasAdd},
          {"FusedBatchNorm", FusedBatchNorm},
          {"FusedBatchNormV3", FusedBatchNorm},
          {"MatMul", MatMul},
          {"BatchMatMul", MatMul},
          {"BatchMatMulV2", MatMul},
          {"Add", Elementwise},
          {"AddV2", Elementwise},
          {"Sub", Elementwise},
          {"Mul", Elementwise},
          {"RealDiv", Elementwise},
          {"Maximum", Elementwise},
          {"Minimum", Elementwise},
          {"Pow", Elementwise},
          {"Less", Elementwise},
          {"Greater", Elementwise},
          {"Equal", Elementwise},
          {"SquaredDifference", SquaredDifference},
          {"Relu", Unary},
          {"Elu", Unary},
          {"Sigmoid", Unary},
          {"Tanh", Unary},
          {"Erf", Unary},
          {"Exp", Unary},
          {"Log", Unary},
          {"Sqrt", Unary},
          {"Neg", Unary},
          {"Abs", Unary},
          {"Floor", Unary},
          {"Reciprocal", Unary},
          {"Softplus", Unary},
          {"Identity", Unary},
          {"StopGradient", Unary},
          {"Rsqrt", Rsqrt},
          {"Square", Square},
          {"Relu6", Relu6},
          {"Softmax", Softmax},
          {"LogSoftmax", Softmax},
          {"Mean", Reduce},
          {"Sum", Reduce},
          {"Max", Reduce},
          {"Min", Reduce},
          {"Prod", Reduce},
          {"Reshape", Reshape},
          {"Squeeze", Squeeze},
          {"ExpandDims", ExpandDims},
          {"Transpose", Transpose},
          {"ConcatV2", ConcatV2},
          {"Pack", Pack},
          {"Unpack", Unpack},
          {"Pad", Pad},
          {"PadV2", Pad},
          {"Shape", ShapeOp},
          {"Cast", Cast},
          {"ArgMax", ArgMax},
          {"ArgMin", ArgMax},
          {"Slice", Slice},
          {"StridedSlice", StridedSlice},
          {"Gather", Gather},
          {"GatherV2", Gather},
          {"Fill", Fill},
          {"Range", Range},
          {"ResizeBilinear", Resize},
          {"ResizeNearestNeighbor", Resize},
      });
  return table;
}

}  // namespace oc::tf_import
