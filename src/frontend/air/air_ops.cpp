// One converter per GE operator type an AIR file may hold, lowered to ONNX-semantics nodes.
// Attribute names and defaults follow GE's public operator prototypes (REG_OP); attributes a
// prototype marks required are required here, so a file that names them differently fails
// loudly instead of converting with defaults. data_format defaults to NHWC as in GE (MindSpore
// writes NCHW explicitly); NHWC ops are computed in NCHW between two transposes, which the
// compiler's transpose passes fold where they can.
#include <cmath>

#include "frontend/air/air_builder.h"

namespace oc::air_import {
namespace {

bool Nhwc(const OpDef& op) { return Str(op, "data_format", "NHWC") == "NHWC"; }

// A 4-value attribute in the op's data format, as its two spatial values.
Result<std::vector<int64_t>> Spatial(const OpDef& op, const std::string& key, bool required,
                                     int64_t def) {
  OC_ASSIGN_OR_RETURN(auto v, Ints(op, key, required, {1, 1, def, def}));
  if (v.size() == 2) return v;
  if (v.size() != 4) return OpError(op, "[" + key + "] must have 4 values");
  return Nhwc(op) ? std::vector<int64_t>{v[1], v[2]} : std::vector<int64_t>{v[2], v[3]};
}

std::string ToNchw(AirBuilder& a, const OpDef& op, const std::string& x) {
  return Nhwc(op) ? a.b.Add1(op.name(), "Transpose", {x}, Perm({0, 3, 1, 2})) : x;
}
std::string FromNchw(AirBuilder& a, const OpDef& op, const std::string& y) {
  return Nhwc(op) ? a.b.Add1(op.name(), "Transpose", {y}, Perm({0, 2, 3, 1})) : y;
}

std::string Scalar(AirBuilder& a, const OpDef& op, const char* what, float v) {
  return a.b.Floats(op.name() + "_" + what, {v}, {});
}

// One input to one ONNX op, with the attributes already translated.
Status Unary(const OpDef& op, AirBuilder& a, const char* onnx, const AttributeMap& at = {}) {
  OC_ASSIGN_OR_RETURN(std::string x, a.In(op, 0));
  a.Out(op, a.b.Add1(op.name(), onnx, {x}, at));
  return Status::Ok();
}

template <typename T>
AttributeMap OneAttribute(const char* name, T value) {
  AttributeMap at;
  at.Set(name, value);
  return at;
}

Status Binary(const OpDef& op, AirBuilder& a, const char* onnx) {
  OC_ASSIGN_OR_RETURN(std::string x, a.In(op, 0));
  OC_ASSIGN_OR_RETURN(std::string y, a.In(op, 1));
  a.Out(op, a.b.Add1(op.name(), onnx, {x, y}));
  return Status::Ok();
}

#define OC_AIR_UNARY(name, onnx) \
  Status name(const OpDef& op, AirBuilder& a) { return Unary(op, a, onnx); }
#define OC_AIR_BINARY(name, onnx) \
  Status name(const OpDef& op, AirBuilder& a) { return Binary(op, a, onnx); }
OC_AIR_UNARY(Relu, "Relu")
OC_AIR_UNARY(Sigmoid, "Sigmoid")
OC_AIR_UNARY(Tanh, "Tanh")
OC_AIR_UNARY(Exp, "Exp")
OC_AIR_UNARY(Log, "Log")
OC_AIR_UNARY(Sqrt, "Sqrt")
OC_AIR_UNARY(Abs, "Abs")
OC_AIR_UNARY(Neg, "Neg")
OC_AIR_UNARY(Erf, "Erf")
OC_AIR_UNARY(Reciprocal, "Reciprocal")
OC_AIR_BINARY(Add, "Add")
OC_AIR_BINARY(Sub, "Sub")
OC_AIR_BINARY(Mul, "Mul")
OC_AIR_BINARY(Div, "Div")
OC_AIR_BINARY(Maximum, "Max")
OC_AIR_BINARY(Minimum, "Min")
OC_AIR_BINARY(Pow, "Pow")
#undef OC_AIR_UNARY
#undef OC_AIR_BINARY

Status Identity(const OpDef& op, AirBuilder& a) {
  OC_ASSIGN_OR_RETURN(std::string x, a.In(op, 0));
  a.Out(op, x);
  return Status::Ok();
}

Status Square(const OpDef& op, AirBuilder& a) {
  OC_ASSIGN_OR_RETURN(std::string x, a.In(op, 0));
  a.Out(op, a.b.Add1(op.name(), "Mul", {x, x}));
  return Status::Ok();
}

Status Rsqrt(const OpDef& op, AirBuilder& a) {
  OC_ASSIGN_OR_RETURN(std::string x, a.In(op, 0));
  a.Out(op, a.b.Add1(op.name(), "Reciprocal", {a.b.Add1(op.name(), "Sqrt", {x})}));
  return Status::Ok();
}

std::string Relu6Of(const OpDef& op, AirBuilder& a, const std::string& x) {
  return a.b.Add1(op.name(), "Clip", {x, Scalar(a, op, "lo", 0), Scalar(a, op, "hi", 6)});
}

Status Relu6(const OpDef& op, AirBuilder& a) {
  OC_ASSIGN_OR_RETURN(std::string x, a.In(op, 0));
  a.Out(op, Relu6Of(op, a, x));
  return Status::Ok();
}

Status LeakyRelu(const OpDef& op, AirBuilder& a) {
  return Unary(op, a, "LeakyRelu", OneAttribute("alpha", Float(op, "negative_slope", 0.0f)));
}

Status Elu(const OpDef& op, AirBuilder& a) {
  return Unary(op, a, "Elu", OneAttribute("alpha", Float(op, "alpha", 1.0f)));
}

// relu6(x + 3) / 6, and x times it.
std::string HardSigmoidOf(const OpDef& op, AirBuilder& a, const std::string& x) {
  const std::string r = Relu6Of(op, a, a.b.Add1(op.name(), "Add", {x, Scalar(a, op, "three", 3)}));
  return a.b.Add1(op.name(), "Div", {r, Scalar(a, op, "six", 6)});
}

Status HSigmoid(const OpDef& op, AirBuilder& a) {
  OC_ASSIGN_OR_RETURN(std::string x, a.In(op, 0));
  a.Out(op, HardSigmoidOf(op, a, x));
  return Status::Ok();
}

Status HSwish(const OpDef& op, AirBuilder& a) {
  OC_ASSIGN_OR_RETURN(std::string x, a.In(op, 0));
  a.Out(op, a.b.Add1(op.name(), "Mul", {x, HardSigmoidOf(op, a, x)}));
  return Status::Ok();
}

// GE's Gelu is the tanh form, 0.5 x (1 + tanh(sqrt(2/pi) (x + 0.044715 x^3))); an
// `approximate` attribute of "none" asks for the exact erf form.
Status Gelu(const OpDef& op, AirBuilder& a) {
  OC_ASSIGN_OR_RETURN(std::string x, a.In(op, 0));
  const std::string mode = Str(op, "approximate", "tanh");
  std::string inner;
  if (mode == "none") {
    inner = a.b.Add1(op.name(), "Erf",
                     {a.b.Add1(op.name(), "Mul", {x, Scalar(a, op, "rsqrt2", 0.70710678f)})});
  } else if (mode == "tanh") {
    const std::string x3 = a.b.Add1(op.name(), "Mul", {x, a.b.Add1(op.name(), "Mul", {x, x})});
    const std::string poly = a.b.Add1(
        op.name(), "Add", {x, a.b.Add1(op.name(), "Mul", {x3, Scalar(a, op, "c", 0.044715f)})});
    inner = a.b.Add1(op.name(), "Tanh",
                     {a.b.Add1(op.name(), "Mul", {poly, Scalar(a, op, "k", 0.7978845608f)})});
  } else {
    return OpError(op, "[approximate] must be none or tanh, not " + mode);
  }
  const std::string one_plus = a.b.Add1(op.name(), "Add", {inner, Scalar(a, op, "one", 1)});
  a.Out(op, a.b.Add1(op.name(), "Mul",
                     {a.b.Add1(op.name(), "Mul", {x, Scalar(a, op, "half", 0.5f)}), one_plus}));
  return Status::Ok();
}

// The filter's own layout says how it is stored; the result is OIHW.
Result<std::string> FilterOihw(const OpDef& op, AirBuilder& a, std::string w) {
  const std::string wl = op.input_desc_size() > 1 ? op.input_desc(1).layout() : "NCHW";
  if (wl == "HWCN") return a.b.Add1(op.name(), "Transpose", {w}, Perm({3, 2, 0, 1}));
  if (wl == "NHWC") return a.b.Add1(op.name(), "Transpose", {w}, Perm({0, 3, 1, 2}));
  if (!wl.empty() && wl != "NCHW" && wl != "ND")
    return OpUnsupported(op, "a filter in layout " + wl);
  return w;
}

Result<AttributeMap> ConvAttrs(const OpDef& op) {
  OC_ASSIGN_OR_RETURN(auto strides, Spatial(op, "strides", true, 1));
  OC_ASSIGN_OR_RETURN(auto dil, Spatial(op, "dilations", false, 1));
  OC_ASSIGN_OR_RETURN(auto pads, Ints(op, "pads", true));
  if (pads.size() != 4) return OpError(op, "[pads] must be top, bottom, left, right");
  for (int64_t s : strides)
    if (s < 1) return OpError(op, "[strides] must be positive");
  AttributeMap at;
  at.Set("strides", strides);
  at.Set("dilations", dil);
  at.Set("pads", std::vector<int64_t>{pads[0], pads[2], pads[1], pads[3]});
  return at;
}

// An ONNX Conv of x (in the op's layout) with an OIHW filter and the optional bias input.
Status EmitConv(const OpDef& op, AirBuilder& a, const std::string& x, const std::string& w,
                const AttributeMap& at) {
  std::vector<std::string> in{ToNchw(a, op, x), w};
  if (a.NumInputs(op) > 2) {
    OC_ASSIGN_OR_RETURN(std::string bias, a.In(op, 2));
    in.push_back(bias);
  }
  a.Out(op, FromNchw(a, op, a.b.Add1(op.name(), "Conv", in, at)));
  return Status::Ok();
}

Status Conv2D(const OpDef& op, AirBuilder& a) {
  OC_ASSIGN_OR_RETURN(std::string x, a.In(op, 0));
  OC_ASSIGN_OR_RETURN(std::string w, a.In(op, 1));
  OC_ASSIGN_OR_RETURN(w, FilterOihw(op, a, w));
  OC_ASSIGN_OR_RETURN(AttributeMap at, ConvAttrs(op));
  at.Set("group", Int(op, "groups", 1));
  return EmitConv(op, a, x, w, at);
}

// DepthwiseConv2D: the filter is [M, C, kh, kw] in NCHW (or [kh, kw, C, M] in HWCN), M
// outputs per input channel; a grouped Conv with C groups of weight [C*M, 1, kh, kw].
Status DepthwiseConv2D(const OpDef& op, AirBuilder& a) {
  OC_ASSIGN_OR_RETURN(std::string x, a.In(op, 0));
  OC_ASSIGN_OR_RETURN(std::string w, a.In(op, 1));
  const Shape* ws = a.b.KnownShape(w);
  if (!ws || ws->size() != 4) return OpUnsupported(op, "a filter of unknown or non-4-D shape");
  const std::string wl = op.input_desc_size() > 1 ? op.input_desc(1).layout() : "NCHW";
  int64_t m = 0, c = 0, kh = 0, kw = 0;
  if (wl == "HWCN") {
    kh = (*ws)[0], kw = (*ws)[1], c = (*ws)[2], m = (*ws)[3];
    w = a.b.Add1(op.name(), "Transpose", {w}, Perm({2, 3, 0, 1}));
  } else if (wl.empty() || wl == "NCHW" || wl == "ND") {
    m = (*ws)[0], c = (*ws)[1], kh = (*ws)[2], kw = (*ws)[3];
    w = a.b.Add1(op.name(), "Transpose", {w}, Perm({1, 0, 2, 3}));
  } else {
    return OpUnsupported(op, "a depthwise filter in layout " + wl);
  }
  w = a.b.Add1(op.name(), "Reshape", {w, a.b.Ints(op.name() + "_w_shape", {c * m, 1, kh, kw})});
  OC_ASSIGN_OR_RETURN(AttributeMap at, ConvAttrs(op));
  at.Set("group", c);
  return EmitConv(op, a, x, w, at);
}

Status Pool(const OpDef& op, AirBuilder& a, const char* onnx) {
  OC_ASSIGN_OR_RETURN(std::string x, a.In(op, 0));
  OC_ASSIGN_OR_RETURN(auto k, Spatial(op, "ksize", true, 1));
  OC_ASSIGN_OR_RETURN(auto s, Spatial(op, "strides", true, 1));
  const std::string padding = Str(op, "padding", "");
  AttributeMap at;
  at.Set("kernel_shape", k);
  at.Set("strides", s);
  if (padding == "SAME")
    at.Set("auto_pad", std::string("SAME_UPPER"));
  else if (padding == "VALID")
    at.Set("auto_pad", std::string("VALID"));
  else
    return OpError(op, "[padding] must be SAME or VALID");
  a.Out(op, FromNchw(a, op, a.b.Add1(op.name(), onnx, {ToNchw(a, op, x)}, at)));
  return Status::Ok();
}
Status MaxPool(const OpDef& op, AirBuilder& a) { return Pool(op, a, "MaxPool"); }
Status AvgPool(const OpDef& op, AirBuilder& a) { return Pool(op, a, "AveragePool"); }

// Bias over the channel axis: the last for NHWC, axis 1 for NCHW.
Result<std::string> ChannelBias(const OpDef& op, AirBuilder& a, const std::string& x,
                                std::string v) {
  if (Nhwc(op)) return v;
  const int64_t rank = a.b.Rank(x);
  if (rank < 0) return OpUnsupported(op, "an NCHW channel parameter on an input of unknown rank");
  std::vector<int64_t> axes;
  for (int64_t i = 1; i < rank - 1; ++i) axes.push_back(i);
  if (axes.empty()) return v;
  return a.b.Add1(op.name(), "Unsqueeze", {v, a.b.Ints(op.name() + "_axes", axes)});
}

Status BiasAdd(const OpDef& op, AirBuilder& a) {
  OC_ASSIGN_OR_RETURN(std::string x, a.In(op, 0));
  OC_ASSIGN_OR_RETURN(std::string bias, a.In(op, 1));
  OC_ASSIGN_OR_RETURN(bias, ChannelBias(op, a, x, bias));
  a.Out(op, a.b.Add1(op.name(), "Add", {x, bias}));
  return Status::Ok();
}

// BatchNorm at inference: x, scale, offset, mean, variance. GE's prototype defaults
// is_training to true; a training-mode BatchNorm normalizes by the batch's own statistics,
// which a deployed graph does not do, so it is refused.
Status BatchNorm(const OpDef& op, AirBuilder& a) {
  if (Bool(op, "is_training", true))
    return OpUnsupported(op, "is_training=true (batch statistics)");
  std::vector<std::string> in;
  for (size_t i = 0; i < 5; ++i) {
    OC_ASSIGN_OR_RETURN(std::string v, a.In(op, i));
    in.push_back(v);
  }
  in[0] = ToNchw(a, op, in[0]);
  AttributeMap at;
  at.Set("epsilon", Float(op, "epsilon", 1e-4f));
  a.Out(op, FromNchw(a, op, a.b.Add1(op.name(), "BatchNormalization", in, at)));
  return Status::Ok();
}

// LayerNorm: normalized over the axes from begin_norm_axis, gamma and beta over those from
// begin_params_axis. Outputs y, mean and variance, as GE's prototype has them.
Status LayerNorm(const OpDef& op, AirBuilder& a) {
  OC_ASSIGN_OR_RETURN(std::string x, a.In(op, 0));
  OC_ASSIGN_OR_RETURN(std::string gamma, a.In(op, 1));
  OC_ASSIGN_OR_RETURN(std::string beta, a.In(op, 2));
  const int64_t rank = a.b.Rank(x);
  if (rank < 1) return OpUnsupported(op, "an input of unknown rank");
  int64_t norm = Int(op, "begin_norm_axis", 0), params = Int(op, "begin_params_axis", 0);
  if (norm < 0) norm += rank;
  if (params < 0) params += rank;
  if (norm < 0 || norm >= rank || params < 0 || params >= rank)
    return OpError(op, "begin_norm_axis or begin_params_axis is out of range");
  if (params != norm && params != rank - 1 && params > norm)
    return OpUnsupported(op, "begin_params_axis after begin_norm_axis");
  std::vector<int64_t> axes;
  for (int64_t i = norm; i < rank; ++i) axes.push_back(i);
  AttributeMap keep;
  keep.Set("axes", axes);
  keep.Set("keepdims", int64_t{1});
  const std::string mean = a.b.Add1(op.name(), "ReduceMean", {x}, keep);
  const std::string d = a.b.Add1(op.name(), "Sub", {x, mean});
  const std::string var =
      a.b.Add1(op.name(), "ReduceMean", {a.b.Add1(op.name(), "Mul", {d, d})}, keep);
  const std::string std_dev = a.b.Add1(
      op.name(), "Sqrt",
      {a.b.Add1(op.name(), "Add", {var, Scalar(a, op, "eps", Float(op, "epsilon", 1e-7f))})});
  std::string y = a.b.Add1(op.name(), "Div", {d, std_dev});
  y = a.b.Add1(op.name(), "Add", {a.b.Add1(op.name(), "Mul", {y, gamma}), beta});
  a.Out(op, y, 0);
  a.Out(op, mean, 1);
  a.Out(op, var, 2);
  return Status::Ok();
}

Status MatMulLike(const OpDef& op, AirBuilder& a, bool batch) {
  OC_ASSIGN_OR_RETURN(std::string x, a.In(op, 0));
  OC_ASSIGN_OR_RETURN(std::string y, a.In(op, 1));
  const bool tx = Bool(op, batch ? "adj_x1" : "transpose_x1", false);
  const bool ty = Bool(op, batch ? "adj_x2" : "transpose_x2", false);
  for (auto [flag, v] : {std::pair<bool, std::string*>{tx, &x}, {ty, &y}}) {
    if (!flag) continue;
    const int64_t rank = a.b.Rank(*v);
    if (rank < 2) return OpUnsupported(op, "a transposed operand of unknown rank");
    std::vector<int64_t> perm;
    for (int64_t i = 0; i < rank - 2; ++i) perm.push_back(i);
    perm.push_back(rank - 1);
    perm.push_back(rank - 2);
    *v = a.b.Add1(op.name(), "Transpose", {*v}, Perm(perm));
  }
  // Half and bfloat16 products accumulate in float, as the cube unit's do: the inputs are
  // widened and the result narrowed once.
  const ValueInfo* xv = a.b.graph().FindValue(x);
  const DataType in_type = xv ? xv->dtype : DataType::kUndefined;
  const bool narrow = in_type == DataType::kFloat16 || in_type == DataType::kBFloat16;
  auto to = [&](const std::string& v, DataType t) {
    AttributeMap at;
    at.Set("to", int64_t{static_cast<int64_t>(t)});
    return a.b.Add1(op.name(), "Cast", {v}, at);
  };
  if (narrow) x = to(x, DataType::kFloat), y = to(y, DataType::kFloat);
  std::string out = a.b.Add1(op.name(), "MatMul", {x, y});
  if (!batch && a.NumInputs(op) > 2) {
    OC_ASSIGN_OR_RETURN(std::string bias, a.In(op, 2));
    out = a.b.Add1(op.name(), "Add", {out, narrow ? to(bias, DataType::kFloat) : bias});
  }
  if (narrow) out = to(out, in_type);
  a.Out(op, out);
  return Status::Ok();
}
Status MatMul(const OpDef& op, AirBuilder& a) { return MatMulLike(op, a, false); }

// GEMM (acl_cblas's operator): y = alpha * op(a) x op(b) + beta * c, inputs a, b, c, alpha and
// beta (alpha and beta one-element tensors), attributes transpose_a and transpose_b. The
// product accumulates in float for half inputs (and in int32 for int8, as the cube does) and
// the result has c's type.
Status Gemm(const OpDef& op, AirBuilder& a) {
  if (a.NumInputs(op) != 5)
    return OpError(
        op, "GEMM takes 5 inputs (a, b, c, alpha, beta), not " + std::to_string(a.NumInputs(op)));
  std::string in[5];
  for (size_t i = 0; i < 5; ++i) {
    OC_ASSIGN_OR_RETURN(in[i], a.In(op, i));
  }
  const bool ta = Bool(op, "transpose_a", false), tb = Bool(op, "transpose_b", false);
  const ValueInfo* cv = a.b.graph().FindValue(in[2]);
  const DataType out_type = cv ? cv->dtype : DataType::kFloat;
  const bool ints = out_type == DataType::kInt32;
  const DataType acc = ints ? DataType::kInt32 : DataType::kFloat;
  auto cast = [&](const std::string& v) {
    AttributeMap at;
    at.Set("to", int64_t{static_cast<int64_t>(acc)});
    return a.b.Add1(op.name(), "Cast", {v}, at);
  };
  std::string x = cast(in[0]), y = cast(in[1]);
  if (ta) x = a.b.Add1(op.name(), "Transpose", {x}, Perm({1, 0}));
  if (tb) y = a.b.Add1(op.name(), "Transpose", {y}, Perm({1, 0}));
  std::string prod = a.b.Add1(op.name(), "MatMul", {x, y});
  prod = a.b.Add1(op.name(), "Mul", {prod, cast(in[3])});
  std::string c = a.b.Add1(op.name(), "Mul", {cast(in[2]), cast(in[4])});
  std::string out = a.b.Add1(op.name(), "Add", {prod, c});
  AttributeMap back;
  back.Set("to", int64_t{static_cast<int64_t>(out_type)});
  a.Out(op, a.b.Add1(op.name(), "Cast", {out}, back));
  return Status::Ok();
}
Status BatchMatMul(const OpDef& op, AirBuilder& a) { return MatMulLike(op, a, true); }

Status Softmax(const OpDef& op, AirBuilder& a) {
  OC_ASSIGN_OR_RETURN(auto axes, Ints(op, "axes", false, {-1}));
  if (axes.size() != 1) return OpUnsupported(op, "a softmax over several axes");
  return Unary(op, a, "Softmax", OneAttribute("axis", axes[0]));
}

Status Flatten(const OpDef& op, AirBuilder& a) {
  return Unary(op, a, "Flatten", OneAttribute("axis", Int(op, "axis", 1)));
}

}  // namespace

const frontend::ConverterTable<AirConverter>& Converters() {
  static const frontend::ConverterTable<AirConverter> table(
      kAirWords, {"Const", "Constant", "Data", "NetOutput"},
      {
          {"Abs", Abs},
          {"Add", Add},
          {"AddV2", Add},
          {"ArgMaxD", ArgMaxMin},
          {"ArgMaxV2", ArgMaxMin},
          {"ArgMin", ArgMaxMin},
          {"ArgMinD", ArgMaxMin},
          {"AvgPool", AvgPool},
          {"BatchMatMul", BatchMatMul},
          {"BatchMatMulV2", BatchMatMul},
          {"BatchNorm", BatchNorm},
          {"BiasAdd", BiasAdd},
          {"Cast", Cast},
          {"GEMM", Gemm},
          {"Concat", Concat},
          {"ConcatD", Concat},
          {"ConcatV2", Concat},
          {"ConcatV2D", Concat},
          {"Conv2D", Conv2D},
          {"DepthwiseConv2D", DepthwiseConv2D},
          {"Div", Div},
          {"Elu", Elu},
          {"Erf", Erf},
          {"Exp", Exp},
          {"ExpandDims", ExpandDims},
          {"Flatten", Flatten},
          {"Gelu", Gelu},
          {"HSigmoid", HSigmoid},
          {"HSwish", HSwish},
          {"Identity", Identity},
          {"LayerNorm", LayerNorm},
          {"LeakyRelu", LeakyRelu},
          {"Log", Log},
          {"MatMul", MatMul},
          {"MatMulV2", MatMul},
          {"MaxPool", MaxPool},
          {"Maximum", Maximum},
          {"Minimum", Minimum},
          {"Mul", Mul},
          {"Neg", Neg},
          {"Pad", Pad},
          {"PadD", Pad},
          {"Pow", Pow},
          {"RealDiv", Div},
          {"Reciprocal", Reciprocal},
          {"ReduceMax", ReduceMax},
          {"ReduceMaxD", ReduceMax},
          {"ReduceMean", ReduceMean},
          {"ReduceMeanD", ReduceMean},
          {"ReduceSum", ReduceSum},
          {"ReduceSumD", ReduceSum},
          {"Relu", Relu},
          {"Relu6", Relu6},
          {"Reshape", Reshape},
          {"Rsqrt", Rsqrt},
          {"Sigmoid", Sigmoid},
          {"Softmax", Softmax},
          {"SoftmaxV2", Softmax},
          {"Sqrt", Sqrt},
          {"Square", Square},
          {"Squeeze", Squeeze},
          {"Sub", Sub},
          {"Tanh", Tanh},
          {"Transpose", Transpose},
          {"TransposeD", Transpose},
          {"Unsqueeze", Unsqueeze},
      });
  return table;
}

}  // namespace oc::air_import
