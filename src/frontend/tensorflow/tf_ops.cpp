// One converter per TensorFlow op: the ONNX-semantics nodes that compute it. TF's layout
// stays NHWC where the model has it: NCHW-only IR ops (Conv, pooling) get a Transpose on each
// side, which the compiler's CancelTransposes pass removes between neighbours.
#include <cmath>
#include <cstring>
#include <limits>
#include <map>

#include "frontend/tensorflow/tf_context.h"

namespace oc::tf_import {
namespace {

using oc_tf::NodeDef;

AttributeMap Perm(std::vector<int64_t> p) {
  AttributeMap a;
  a.Set("perm", std::move(p));
  return a;
}

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
Result<std::vector<int64_t>> Spatial(const NodeDef& n, const std::string& key, int64_t def) {
  std::vector<int64_t> v = AttrInts(n, key);
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
  OC_ASSIGN_OR_RETURN(auto strides, Spatial(n, "strides", 1));
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
  OC_ASSIGN_OR_RETURN(auto k, Spatial(n, "ksize", 1));
  OC_ASSIGN_OR_RETURN(auto s, Spatial(n, "strides", 1));
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
  c.SetOutput(n, 0,
              c.b().Add1(n.name(), "Clip",
                         {x, c.b().Floats(n.name() + "_lo", {0.0f}, {}),
                          c.b().Floats(n.name() + "_hi", {6.0f}, {})}));
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

Status Reshape(const NodeDef& n, Context& c) {
  OC_ASSIGN_OR_RETURN(std::string x, c.Input(n, 0));
  OC_ASSIGN_OR_RETURN(std::string shape, c.Input(n, 1));
  AttributeMap a;
  a.Set("allowzero", int64_t{1});  // TF's 0 is a size, not "copy"
  AttributeMap cast;
  cast.Set("to", int64_t{static_cast<int64_t>(DataType::kInt64)});
  shape = c.b().Add1(n.name(), "Cast", {shape}, cast);
  c.SetOutput(n, 0, c.b().Add1(n.name(), "Reshape", {x, shape}, a));
  return Status::Ok();
}

Status Squeeze(const NodeDef& n, Context& c) {
  OC_ASSIGN_OR_RETURN(std::string x, c.Input(n, 0));
  std::vector<int64_t> axes = AttrInts(n, "squeeze_dims");
  std::vector<std::string> in{x};
  if (!axes.empty()) in.push_back(c.b().Ints(n.name() + "_axes", axes));
  c.SetOutput(n, 0, c.b().Add1(n.name(), "Squeeze", in));
  return Status::Ok();
}

Status ExpandDims(const NodeDef& n, Context& c) {
  OC_ASSIGN_OR_RETURN(std::string x, c.Input(n, 0));
  OC_ASSIGN_OR_RETURN(std::vector<int64_t> axes, c.IntsInput(n, 1));
  c.SetOutput(n, 0, c.b().Add1(n.name(), "Unsqueeze", {x, c.b().Ints(n.name() + "_axes", axes)}));
  return Status::Ok();
}

Status Transpose(const NodeDef& n, Context& c) {
  OC_ASSIGN_OR_RETURN(std::string x, c.Input(n, 0));
  OC_ASSIGN_OR_RETURN(std::vector<int64_t> perm, c.IntsInput(n, 1));
  c.SetOutput(n, 0, c.b().Add1(n.name(), "Transpose", {x}, Perm(perm)));
  return Status::Ok();
}

Status ConcatV2(const NodeDef& n, Context& c) {
  const size_t count = c.NumInputs(n);
  if (count < 2) return NodeError(n, "needs values and an axis");
  OC_ASSIGN_OR_RETURN(std::vector<int64_t> axis, c.IntsInput(n, count - 1));
  if (axis.size() != 1) return NodeError(n, "the axis must be one value");
  std::vector<std::string> in;
  for (size_t i = 0; i + 1 < count; ++i) {
    OC_ASSIGN_OR_RETURN(std::string v, c.Input(n, i));
    in.push_back(v);
  }
  AttributeMap a;
  a.Set("axis", axis[0]);
  c.SetOutput(n, 0, c.b().Add1(n.name(), "Concat", in, a));
  return Status::Ok();
}

Status Pack(const NodeDef& n, Context& c) {
  const int64_t axis = AttrInt(n, "axis", 0);
  std::vector<std::string> in;
  for (size_t i = 0; i < c.NumInputs(n); ++i) {
    OC_ASSIGN_OR_RETURN(std::string v, c.Input(n, i));
    in.push_back(c.b().Add1(n.name(), "Unsqueeze", {v, c.b().Ints(n.name() + "_axis", {axis})}));
  }
  if (in.empty()) return NodeError(n, "has no values");
  AttributeMap a;
  a.Set("axis", axis);
  c.SetOutput(n, 0, c.b().Add1(n.name(), "Concat", in, a));
  return Status::Ok();
}

// Unpack (tf.unstack): `num` slices along `axis`, each without that axis; output k is "name:k".
Status Unpack(const NodeDef& n, Context& c) {
  OC_ASSIGN_OR_RETURN(std::string x, c.Input(n, 0));
  const int64_t num = AttrInt(n, "num", -1);
  int64_t axis = AttrInt(n, "axis", 0);
  if (num < 1 || num > 4096) return NodeError(n, "[num] must be 1..4096");
  if (const Shape* s = c.b().KnownShape(x)) {
    const int64_t rank = static_cast<int64_t>(s->size());
    if (axis < -rank || axis >= rank) return NodeError(n, "[axis] is out of range");
    if (axis < 0) axis += rank;
    if ((*s)[axis] != num)
      return NodeError(
          n, "[num] is " + std::to_string(num) + ", the axis holds " + std::to_string((*s)[axis]));
  }
  AttributeMap a;
  a.Set("axis", axis);
  const auto parts = c.b().Add(n.name(), "Split", {x}, a, static_cast<size_t>(num));
  for (size_t k = 0; k < parts.size(); ++k)
    c.SetOutput(
        n, static_cast<int>(k),
        c.b().Add1(n.name(), "Squeeze", {parts[k], c.b().Ints(n.name() + "_axis", {axis})}));
  return Status::Ok();
}

Status Pad(const NodeDef& n, Context& c) {
  OC_ASSIGN_OR_RETURN(std::string x, c.Input(n, 0));
  OC_ASSIGN_OR_RETURN(std::vector<int64_t> p, c.IntsInput(n, 1));
  if (p.size() % 2) return NodeError(n, "paddings must be [rank, 2]");
  std::vector<int64_t> pads(p.size());
  const size_t r = p.size() / 2;
  for (size_t i = 0; i < r; ++i) {
    pads[i] = p[2 * i];
    pads[r + i] = p[2 * i + 1];
  }
  std::vector<std::string> in{x, c.b().Ints(n.name() + "_pads", pads)};
  if (n.op() == "PadV2") {
    OC_ASSIGN_OR_RETURN(std::string v, c.Input(n, 2));
    in.push_back(v);
  }
  c.SetOutput(n, 0, c.b().Add1(n.name(), "Pad", in));
  return Status::Ok();
}

Status ShapeOp(const NodeDef& n, Context& c) {
  OC_ASSIGN_OR_RETURN(std::string x, c.Input(n, 0));
  std::string y = c.b().Add1(n.name(), "Shape", {x});
  if (AttrInt(n, "out_type", oc_tf::DT_INT32) == oc_tf::DT_INT32) {
    AttributeMap a;
    a.Set("to", int64_t{static_cast<int64_t>(DataType::kInt32)});
    y = c.b().Add1(n.name(), "Cast", {y}, a);
  }
  c.SetOutput(n, 0, y);
  return Status::Ok();
}

Status Cast(const NodeDef& n, Context& c) {
  OC_ASSIGN_OR_RETURN(std::string x, c.Input(n, 0));
  const DataType to = FromTfType(static_cast<int>(AttrInt(n, "DstT", 0)));
  if (to == DataType::kUndefined) return NodeUnsupported(n, "the target type");
  AttributeMap a;
  a.Set("to", int64_t{static_cast<int64_t>(to)});
  c.SetOutput(n, 0, c.b().Add1(n.name(), "Cast", {x}, a));
  return Status::Ok();
}

Status ArgMax(const NodeDef& n, Context& c) {
  OC_ASSIGN_OR_RETURN(std::string x, c.Input(n, 0));
  OC_ASSIGN_OR_RETURN(std::vector<int64_t> axis, c.IntsInput(n, 1));
  if (axis.size() != 1) return NodeError(n, "the dimension must be one value");
  AttributeMap a;
  a.Set("axis", axis[0]);
  a.Set("keepdims", int64_t{0});
  std::string y = c.b().Add1(n.name(), n.op() == "ArgMin" ? "ArgMin" : "ArgMax", {x}, a);
  if (AttrInt(n, "output_type", oc_tf::DT_INT64) == oc_tf::DT_INT32) {
    AttributeMap cast;
    cast.Set("to", int64_t{static_cast<int64_t>(DataType::kInt32)});
    y = c.b().Add1(n.name(), "Cast", {y}, cast);
  }
  c.SetOutput(n, 0, y);
  return Status::Ok();
}

Status Slice(const NodeDef& n, Context& c) {
  OC_ASSIGN_OR_RETURN(std::string x, c.Input(n, 0));
  OC_ASSIGN_OR_RETURN(std::vector<int64_t> begin, c.IntsInput(n, 1));
  OC_ASSIGN_OR_RETURN(std::vector<int64_t> size, c.IntsInput(n, 2));
  if (begin.size() != size.size()) return NodeError(n, "begin and size differ in length");
  std::vector<int64_t> end(begin.size()), axes(begin.size());
  for (size_t i = 0; i < begin.size(); ++i) {
    end[i] = size[i] < 0 ? std::numeric_limits<int64_t>::max() : begin[i] + size[i];
    axes[i] = static_cast<int64_t>(i);
  }
  c.SetOutput(n, 0,
              c.b().Add1(n.name(), "Slice",
                         {x, c.b().Ints(n.name() + "_b", begin), c.b().Ints(n.name() + "_e", end),
                          c.b().Ints(n.name() + "_a", axes)}));
  return Status::Ok();
}

Status StridedSlice(const NodeDef& n, Context& c) {
  OC_ASSIGN_OR_RETURN(std::string x, c.Input(n, 0));
  OC_ASSIGN_OR_RETURN(std::vector<int64_t> begin, c.IntsInput(n, 1));
  OC_ASSIGN_OR_RETURN(std::vector<int64_t> end, c.IntsInput(n, 2));
  OC_ASSIGN_OR_RETURN(std::vector<int64_t> strides, c.IntsInput(n, 3));
  if (AttrInt(n, "ellipsis_mask", 0) || AttrInt(n, "new_axis_mask", 0))
    return NodeUnsupported(n, "ellipsis_mask and new_axis_mask");
  const int64_t bm = AttrInt(n, "begin_mask", 0), em = AttrInt(n, "end_mask", 0),
                sm = AttrInt(n, "shrink_axis_mask", 0);
  if (begin.size() != end.size() || begin.size() != strides.size())
    return NodeError(n, "begin, end and strides differ in length");
  const int64_t big = std::numeric_limits<int64_t>::max();
  std::vector<int64_t> axes, squeeze;
  for (size_t i = 0; i < begin.size(); ++i) {
    axes.push_back(static_cast<int64_t>(i));
    if (strides[i] == 0) return NodeError(n, "a stride of 0");
    if (bm & (int64_t{1} << i)) begin[i] = strides[i] > 0 ? 0 : big;
    if (em & (int64_t{1} << i)) end[i] = strides[i] > 0 ? big : -big;
    if (sm & (int64_t{1} << i)) {
      end[i] = begin[i] == -1 ? big : begin[i] + 1;
      strides[i] = 1;
      squeeze.push_back(static_cast<int64_t>(i));
    }
  }
  std::string y =
      c.b().Add1(n.name(), "Slice",
                 {x, c.b().Ints(n.name() + "_b", begin), c.b().Ints(n.name() + "_e", end),
                  c.b().Ints(n.name() + "_a", axes), c.b().Ints(n.name() + "_s", strides)});
  if (!squeeze.empty())
    y = c.b().Add1(n.name(), "Squeeze", {y, c.b().Ints(n.name() + "_sq", squeeze)});
  c.SetOutput(n, 0, y);
  return Status::Ok();
}

Status Gather(const NodeDef& n, Context& c) {
  OC_ASSIGN_OR_RETURN(std::string x, c.Input(n, 0));
  OC_ASSIGN_OR_RETURN(std::string idx, c.Input(n, 1));
  int64_t axis = 0;
  if (n.op() == "GatherV2") {
    OC_ASSIGN_OR_RETURN(std::vector<int64_t> a, c.IntsInput(n, 2));
    if (a.size() != 1) return NodeError(n, "the axis must be one value");
    axis = a[0];
    if (AttrInt(n, "batch_dims", 0) != 0) return NodeUnsupported(n, "batch_dims");
  }
  AttributeMap a;
  a.Set("axis", axis);
  c.SetOutput(n, 0, c.b().Add1(n.name(), "Gather", {x, idx}, a));
  return Status::Ok();
}

Status Fill(const NodeDef& n, Context& c) {
  OC_ASSIGN_OR_RETURN(std::string dims, c.Input(n, 0));
  OC_ASSIGN_OR_RETURN(std::string v, c.Input(n, 1));
  AttributeMap cast;
  cast.Set("to", int64_t{static_cast<int64_t>(DataType::kInt64)});
  dims = c.b().Add1(n.name(), "Cast", {dims}, cast);
  c.SetOutput(n, 0, c.b().Add1(n.name(), "Expand", {v, dims}));
  return Status::Ok();
}

Status Range(const NodeDef& n, Context& c) {
  std::vector<std::string> in;
  for (size_t i = 0; i < 3; ++i) {
    OC_ASSIGN_OR_RETURN(std::string v, c.Input(n, i));
    in.push_back(v);
  }
  c.SetOutput(n, 0, c.b().Add1(n.name(), "Range", in));
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
