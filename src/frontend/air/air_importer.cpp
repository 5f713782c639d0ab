// MindSpore AIR: a GE ModelDef (the schema of the .om's MODEL_DEF partition, src/om/ge_ir.proto)
// whose ops are GE operator types with GE attributes, lowered into the IR. Edges are GE's
// "op:index" inputs ("op:-1" is a control edge); Const ops carry their data inline.
//
// Attribute names follow GE's public operator prototypes (REG_OP). Attributes a prototype
// marks required are required here: a file that names them differently fails loudly rather
// than converting with defaults.
#include "frontend/air/air_importer.h"

#include <google/protobuf/io/coded_stream.h>
#include <google/protobuf/io/zero_copy_stream_impl_lite.h>

#include <climits>
#include <cstring>
#include <map>
#include <set>

#include "base/file.h"
#include "frontend/graph_builder.h"
#include "ge_ir.pb.h"

namespace oc {
namespace {

using ge::proto::AttrDef;
using ge::proto::OpDef;

Status Invalid(const std::string& msg) { return Status(StatusCode::kParseError, msg, "E19005"); }

Status OpError(const OpDef& op, const std::string& msg) {
  return Invalid("op [" + op.name() + "] (" + op.type() + "): " + msg);
}

Status OpUnsupported(const OpDef& op, const std::string& what) {
  return Status(StatusCode::kUnsupported,
                "op [" + op.name() + "] (" + op.type() + "): " + what +
                    " is not supported by OpenCANN's AIR parser",
                "E19010");
}

const AttrDef* Find(const OpDef& op, const std::string& key) {
  auto it = op.attr().find(key);
  return it == op.attr().end() ? nullptr : &it->second;
}

Result<std::vector<int64_t>> Ints(const OpDef& op, const std::string& key, bool required,
                                  std::vector<int64_t> def = {}) {
  const AttrDef* a = Find(op, key);
  if (!a) {
    if (required) return OpError(op, "the required attribute [" + key + "] is missing");
    return def;
  }
  if (a->value_case() != AttrDef::kList) return OpError(op, "[" + key + "] must be a list");
  return std::vector<int64_t>(a->list().i().begin(), a->list().i().end());
}

int64_t Int(const OpDef& op, const std::string& key, int64_t def) {
  const AttrDef* a = Find(op, key);
  return a && a->value_case() == AttrDef::kI ? a->i() : def;
}

bool Bool(const OpDef& op, const std::string& key, bool def) {
  const AttrDef* a = Find(op, key);
  return a && a->value_case() == AttrDef::kB ? a->b() : def;
}

std::string Str(const OpDef& op, const std::string& key, const std::string& def) {
  const AttrDef* a = Find(op, key);
  return a && a->value_case() == AttrDef::kS ? a->s() : def;
}

class AirBuilder {
 public:
  GraphBuilder b;
  std::map<std::string, std::string> values;  // "op:k" -> IR value

  Result<std::string> In(const OpDef& op, size_t i) const {
    std::vector<std::string> data;
    for (const auto& in : op.input())
      if (in.size() < 3 || in.compare(in.size() - 3, 3, ":-1") != 0) data.push_back(in);
    if (i >= data.size())
      return OpError(
          op, "needs input " + std::to_string(i) + ", it has " + std::to_string(data.size()));
    auto it = values.find(data[i]);
    if (it == values.end()) return OpError(op, "reads [" + data[i] + "], which no op before makes");
    return it->second;
  }
  const Tensor* Const(const OpDef& op, size_t i) const {
    auto v = In(op, i);
    return v.ok() ? b.graph().FindInitializer(v.value()) : nullptr;
  }
  void Out(const OpDef& op, const std::string& value, int k = 0) {
    values[op.name() + ":" + std::to_string(k)] = value;
  }
};

AttributeMap Perm(std::vector<int64_t> p) {
  AttributeMap a;
  a.Set("perm", std::move(p));
  return a;
}

// GE's prototypes default data_format to NHWC (MindSpore writes NCHW explicitly).
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

Status ConvertOp(const OpDef& op, AirBuilder& a) {
  const std::string& t = op.type();
  static const std::map<std::string, const char*> unary = {
      {"Relu", "Relu"}, {"Sigmoid", "Sigmoid"},
      {"Tanh", "Tanh"}, {"Exp", "Exp"},
      {"Log", "Log"},   {"Sqrt", "Sqrt"},
      {"Abs", "Abs"},   {"Neg", "Neg"},
      {"Erf", "Erf"},   {"Reciprocal", "Reciprocal"}};
  static const std::map<std::string, const char*> binary = {
      {"Add", "Add"}, {"AddV2", "Add"},   {"Sub", "Sub"},     {"Mul", "Mul"}, {"RealDiv", "Div"},
      {"Div", "Div"}, {"Maximum", "Max"}, {"Minimum", "Min"}, {"Pow", "Pow"}};
  if (auto u = unary.find(t); u != unary.end()) {
    OC_ASSIGN_OR_RETURN(std::string x, a.In(op, 0));
    a.Out(op, a.b.Add1(op.name(), u->second, {x}));
    return Status::Ok();
  }
  if (auto bi = binary.find(t); bi != binary.end()) {
    OC_ASSIGN_OR_RETURN(std::string x, a.In(op, 0));
    OC_ASSIGN_OR_RETURN(std::string y, a.In(op, 1));
    a.Out(op, a.b.Add1(op.name(), bi->second, {x, y}));
    return Status::Ok();
  }
  if (t == "Identity") {
    OC_ASSIGN_OR_RETURN(std::string x, a.In(op, 0));
    a.Out(op, x);
    return Status::Ok();
  }
  if (t == "Relu6") {
    OC_ASSIGN_OR_RETURN(std::string x, a.In(op, 0));
    a.Out(op, a.b.Add1(op.name(), "Clip",
                       {x, a.b.Floats(op.name() + "_lo", {0.0f}, {}),
                        a.b.Floats(op.name() + "_hi", {6.0f}, {})}));
    return Status::Ok();
  }
  if (t == "Conv2D") {
    OC_ASSIGN_OR_RETURN(std::string x, a.In(op, 0));
    OC_ASSIGN_OR_RETURN(std::string w, a.In(op, 1));
    OC_ASSIGN_OR_RETURN(auto strides, Spatial(op, "strides", true, 1));
    OC_ASSIGN_OR_RETURN(auto dil, Spatial(op, "dilations", false, 1));
    OC_ASSIGN_OR_RETURN(auto pads, Ints(op, "pads", true));
    if (pads.size() != 4) return OpError(op, "[pads] must be top, bottom, left, right");
    // The filter's own layout says how it is stored: NCHW (OIHW) or HWCN.
    const std::string wl = op.input_desc_size() > 1 ? op.input_desc(1).layout() : "NCHW";
    if (wl == "HWCN") {
      w = a.b.Add1(op.name(), "Transpose", {w}, Perm({3, 2, 0, 1}));
    } else if (wl == "NHWC") {
      w = a.b.Add1(op.name(), "Transpose", {w}, Perm({0, 3, 1, 2}));
    } else if (!wl.empty() && wl != "NCHW" && wl != "ND") {
      return OpUnsupported(op, "a filter in layout " + wl);
    }
    AttributeMap at;
    at.Set("strides", strides);
    at.Set("dilations", dil);
    at.Set("pads", std::vector<int64_t>{pads[0], pads[2], pads[1], pads[3]});
    at.Set("group", Int(op, "groups", 1));
    std::vector<std::string> in{ToNchw(a, op, x), w};
    if (op.input_size() > 2) {
      OC_ASSIGN_OR_RETURN(std::string bias, a.In(op, 2));
      in.push_back(bias);
    }
    a.Out(op, FromNchw(a, op, a.b.Add1(op.name(), "Conv", in, at)));
    return Status::Ok();
  }
  if (t == "MaxPool" || t == "AvgPool") {
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
    a.Out(op, FromNchw(a, op,
                       a.b.Add1(op.name(), t == "MaxPool" ? "MaxPool" : "AveragePool",
                                {ToNchw(a, op, x)}, at)));
    return Status::Ok();
  }
  if (t == "BiasAdd") {
    OC_ASSIGN_OR_RETURN(std::string x, a.In(op, 0));
    OC_ASSIGN_OR_RETURN(std::string bias, a.In(op, 1));
    if (!Nhwc(op)) {
      const int64_t rank = a.b.Rank(x);
      if (rank < 0) return OpUnsupported(op, "NCHW bias on an input of unknown rank");
      std::vector<int64_t> axes;
      for (int64_t i = 1; i < rank - 1; ++i) axes.push_back(i);
      if (!axes.empty())
        bias = a.b.Add1(op.name(), "Unsqueeze", {bias, a.b.Ints(op.name() + "_axes", axes)});
    }
    a.Out(op, a.b.Add1(op.name(), "Add", {x, bias}));
    return Status::Ok();
  }
  if (t == "MatMul" || t == "MatMulV2" || t == "BatchMatMul" || t == "BatchMatMulV2") {
    OC_ASSIGN_OR_RETURN(std::string x, a.In(op, 0));
    OC_ASSIGN_OR_RETURN(std::string y, a.In(op, 1));
    const bool batch = t.rfind("Batch", 0) == 0;
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
    std::string out = a.b.Add1(op.name(), "MatMul", {x, y});
    if (!batch && op.input_size() > 2) {
      OC_ASSIGN_OR_RETURN(std::string bias, a.In(op, 2));
      out = a.b.Add1(op.name(), "Add", {out, bias});
    }
    a.Out(op, out);
    return Status::Ok();
  }
  if (t == "Softmax" || t == "SoftmaxV2") {
    OC_ASSIGN_OR_RETURN(std::string x, a.In(op, 0));
    OC_ASSIGN_OR_RETURN(auto axes, Ints(op, "axes", false, {-1}));
    if (axes.size() != 1) return OpUnsupported(op, "a softmax over several axes");
    AttributeMap at;
    at.Set("axis", axes[0]);
    a.Out(op, a.b.Add1(op.name(), "Softmax", {x}, at));
    return Status::Ok();
  }
  if (t == "Reshape") {
    OC_ASSIGN_OR_RETURN(std::string x, a.In(op, 0));
    OC_ASSIGN_OR_RETURN(std::string shape, a.In(op, 1));
    AttributeMap cast;
    cast.Set("to", int64_t{static_cast<int64_t>(DataType::kInt64)});
    a.Out(op, a.b.Add1(op.name(), "Reshape", {x, a.b.Add1(op.name(), "Cast", {shape}, cast)}));
    return Status::Ok();
  }
  if (t == "Flatten") {
    OC_ASSIGN_OR_RETURN(std::string x, a.In(op, 0));
    AttributeMap at;
    at.Set("axis", Int(op, "axis", 1));
    a.Out(op, a.b.Add1(op.name(), "Flatten", {x}, at));
    return Status::Ok();
  }
  if (t == "TransposeD" || t == "Transpose") {
    OC_ASSIGN_OR_RETURN(std::string x, a.In(op, 0));
    std::vector<int64_t> perm;
    if (t == "TransposeD") {
      OC_ASSIGN_OR_RETURN(perm, Ints(op, "perm", true));
    } else {
      const Tensor* p = a.Const(op, 1);
      if (!p) return OpUnsupported(op, "a perm that is not a constant");
      perm = p->ToInt64Vector();
    }
    a.Out(op, a.b.Add1(op.name(), "Transpose", {x}, Perm(perm)));
    return Status::Ok();
  }
  if (t == "ReduceMeanD" || t == "ReduceSumD" || t == "ReduceMaxD") {
    OC_ASSIGN_OR_RETURN(std::string x, a.In(op, 0));
    OC_ASSIGN_OR_RETURN(auto axes, Ints(op, "axes", true));
    AttributeMap at;
    at.Set("keepdims", int64_t{Bool(op, "keep_dims", false)});
    if (t == "ReduceSumD") {
      a.Out(op, a.b.Add1(op.name(), "ReduceSum", {x, a.b.Ints(op.name() + "_axes", axes)}, at));
    } else {
      at.Set("axes", axes);
      a.Out(op, a.b.Add1(op.name(), t == "ReduceMeanD" ? "ReduceMean" : "ReduceMax", {x}, at));
    }
    return Status::Ok();
  }
  if (t == "Cast") {
    OC_ASSIGN_OR_RETURN(std::string x, a.In(op, 0));
    const DataType to = FromGeDataType(static_cast<int32_t>(Int(op, "dst_type", -1)));
    if (to == DataType::kUndefined) return OpError(op, "[dst_type] is missing or unknown");
    AttributeMap at;
    at.Set("to", int64_t{static_cast<int64_t>(to)});
    a.Out(op, a.b.Add1(op.name(), "Cast", {x}, at));
    return Status::Ok();
  }
  return Status(StatusCode::kUnsupported,
                "No parser is registered for Op [" + op.name() + ", optype [" + t +
                    "]]: OpenCANN's AIR parser has no such GE operator",
                "E19010");
}

Result<ge::proto::ModelDef> ParseAir(const std::string& bytes, const std::string& path) {
  ge::proto::ModelDef model;
  google::protobuf::io::ArrayInputStream raw(bytes.data(), static_cast<int>(bytes.size()));
  google::protobuf::io::CodedInputStream in(&raw);
  in.SetTotalBytesLimit(INT_MAX);
  if (bytes.size() > static_cast<size_t>(INT_MAX) || !model.ParseFromCodedStream(&in) ||
      !in.ConsumedEntireMessage())
    return Invalid("the model file [" + path + "] is not an AIR model (GE ModelDef)");
  if (model.graph_size() != 1)
    return Invalid("the AIR model [" + path + "] has " + std::to_string(model.graph_size()) +
                   " graphs; OpenCANN reads one");
  return model;
}

Result<Tensor> ConstValue(const OpDef& op) {
  const AttrDef* v = Find(op, "value");
  if (!v || !v->has_t()) return OpError(op, "has no value");
  const auto& t = v->t();
  const DataType dt = FromGeDataType(t.desc().dtype());
  if (dt == DataType::kUndefined || dt == DataType::kString)
    return OpUnsupported(op, "a constant of GE type " + std::to_string(t.desc().dtype()));
  Shape shape;
  for (int64_t d : t.desc().shape().dim()) {
    if (d < 0) return OpError(op, "a constant with the dim " + std::to_string(d));
    shape.push_back(d);
  }
  auto bytes = TensorBytes(shape, DataTypeSize(dt));
  if (!bytes.ok()) return OpError(op, bytes.status().message());
  if (t.data().size() != bytes.value())
    return OpError(op, "has " + std::to_string(t.data().size()) + " bytes for its shape " +
                           ShapeToString(shape));
  Tensor out(dt, shape);
  if (bytes.value()) std::memcpy(out.mutable_data(), t.data().data(), bytes.value());
  return out;
}

}  // namespace

Result<Graph> ImportAirBytes(const std::string& bytes, const std::string& path) {
  OC_ASSIGN_OR_RETURN(ge::proto::ModelDef model, ParseAir(bytes, path));
  const auto& gd = model.graph(0);
  AirBuilder a;
  a.b.graph().name = gd.name().empty() ? "air_graph" : gd.name();
  a.b.graph().opset_version = 13;
  std::vector<std::pair<int64_t, std::string>> inputs;
  std::set<std::string> names;
  bool has_output = false;
  for (const auto& op : gd.op()) {
    if (op.name().empty()) return Invalid("an op of type [" + op.type() + "] has no name");
    if (!names.insert(op.name()).second) return Invalid("two ops are named [" + op.name() + "]");
    if (op.type() == "Data") {
      const auto& desc =
          op.output_desc_size()
              ? op.output_desc(0)
              : (op.input_desc_size() ? op.input_desc(0) : ge::proto::TensorDescriptor());
      ValueInfo vi;
      vi.dtype = FromGeDataType(desc.dtype());
      if (vi.dtype == DataType::kUndefined) return OpUnsupported(op, "its data type");
      vi.has_shape = true;
      for (int64_t d : desc.shape().dim()) {
        if (d < -1) return OpError(op, "a dim of " + std::to_string(d));
        vi.shape.push_back(d);
      }
      a.b.graph().values[op.name()] = vi;
      inputs.emplace_back(Int(op, "index", static_cast<int64_t>(inputs.size())), op.name());
      a.Out(op, op.name());
      continue;
    }
    if (op.type() == "Const" || op.type() == "Constant") {
      OC_ASSIGN_OR_RETURN(Tensor t, ConstValue(op));
      a.Out(op, a.b.Constant(op.name(), std::move(t)));
      continue;
    }
    if (op.type() == "NetOutput") {
      for (int i = 0; i < op.input_size(); ++i) {
        const std::string& in = op.input(i);
        if (in.size() >= 3 && in.compare(in.size() - 3, 3, ":-1") == 0) continue;
        auto it = a.values.find(in);
        if (it == a.values.end()) return OpError(op, "returns [" + in + "], which nothing makes");
        a.b.graph().outputs.push_back(it->second);
      }
      has_output = true;
      continue;
    }
    OC_RETURN_IF_ERROR(ConvertOp(op, a));
  }
  if (!has_output || a.b.graph().outputs.empty())
    return Invalid("the AIR graph [" + path + "] has no NetOutput");
  std::sort(inputs.begin(), inputs.end());
  for (size_t i = 0; i < inputs.size(); ++i)
    if (inputs[i].first != static_cast<int64_t>(i))
      return Invalid("the Data ops' indices are not 0.." + std::to_string(inputs.size() - 1) +
                     " (Data op [" + inputs[i].second + "] says " +
                     std::to_string(inputs[i].first) + ")");
  for (const auto& [index, name] : inputs) a.b.graph().inputs.push_back(name);
  a.b.ForgetInferredValues();
  a.b.graph().metadata["producer_name"] = "mindspore_air";
  return std::move(a.b.graph());
}

Result<Graph> ImportAir(const std::string& path) {
  OC_ASSIGN_OR_RETURN(std::string bytes, ReadFile(path));
  return ImportAirBytes(bytes, path);
}

Result<std::vector<OpSurvey>> SurveyAir(const std::string& path) {
  OC_ASSIGN_OR_RETURN(std::string bytes, ReadFile(path));
  OC_ASSIGN_OR_RETURN(ge::proto::ModelDef model, ParseAir(bytes, path));
  std::vector<OpSurvey> out;
  for (const auto& op : model.graph(0).op()) {
    OpSurvey s;
    s.name = op.name();
    s.type = op.type();
    static const std::set<std::string> known = {
        "Data",     "Const",       "Constant",      "NetOutput",   "Relu",       "Sigmoid",
        "Tanh",     "Exp",         "Log",           "Sqrt",        "Abs",        "Neg",
        "Erf",      "Reciprocal",  "Add",           "AddV2",       "Sub",        "Mul",
        "RealDiv",  "Div",         "Maximum",       "Minimum",     "Pow",        "Identity",
        "Relu6",    "Conv2D",      "MaxPool",       "AvgPool",     "BiasAdd",    "MatMul",
        "MatMulV2", "BatchMatMul", "BatchMatMulV2", "Softmax",     "SoftmaxV2",  "Reshape",
        "Flatten",  "TransposeD",  "Transpose",     "ReduceMeanD", "ReduceSumD", "ReduceMaxD",
        "Cast"};
    s.supported = known.count(op.type()) != 0;
    if (!s.supported) s.reason = "no parser is registered for this GE operator (E19010)";
    out.push_back(std::move(s));
  }
  return out;
}

}  // namespace oc
