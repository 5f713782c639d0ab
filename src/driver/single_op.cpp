#include "driver/single_op.h"

#include <algorithm>
#include <cctype>
#include <map>
#include <nlohmann/json.hpp>

#include "base/dtype.h"
#include "frontend/air/air_importer.h"
#include "ge_ir.pb.h"
#include "om/om_model.h"
#include "opp/opp_loader.h"

namespace oc {
namespace {

using nlohmann::json;

Status Bad(size_t index, const std::string& what) {
  return InvalidArgument("--singleop: op " + std::to_string(index) + ": " + what, "E10001");
}

ge::proto::DataType GeType(DataType t) { return static_cast<ge::proto::DataType>(ToGeDataType(t)); }

// Formats a single op may use: the plain layouts (the fractal ones are NPU-internal).
const std::map<std::string, int> kFormats = {{"ND", 2},     {"NCHW", 0},   {"NHWC", 1},
                                             {"NCDHW", 30}, {"NDHWC", 27}, {"HWCN", 16}};

Result<SingleOpTensor> ParseTensor(const json& j, size_t index, const std::string& where) {
  if (!j.is_object()) return Bad(index, where + " must be an object");
  SingleOpTensor t;
  if (!j.contains("type") || !j["type"].is_string())
    return Bad(index, where + " needs \"type\" (float16, float, int32, ...)");
  const DataType type = DataTypeFromCannName(j["type"].get<std::string>());
  if (type == DataType::kUndefined)
    return Bad(index, where + " has type [" + j["type"].get<std::string>() + "]");
  t.acl_dtype = ToAclDataType(type);
  const std::string format = j.value("format", "ND");
  auto f = kFormats.find(format);
  if (f == kFormats.end())
    return Bad(index, where + " has format [" + format +
                          "]; OpenCANN runs single ops in ND, NCHW, NHWC, NCDHW, NDHWC or HWCN");
  t.acl_format = f->second;
  if (!j.contains("shape") || !j["shape"].is_array())
    return Bad(index, where + " needs \"shape\" (a list; [] for a scalar)");
  for (const auto& d : j["shape"]) {
    if (!d.is_number_integer() || d.get<int64_t>() < -1)
      return Bad(index, where + "'s shape must hold dims >= 0 (or -1 with a shape_range)");
    t.shape.push_back(d.get<int64_t>());
  }
  if (std::count(t.shape.begin(), t.shape.end(), -1) && !j.contains("shape_range"))
    return Bad(index, where + " has -1 dims and no \"shape_range\"");
  if (j.contains("name") && j["name"].is_string()) t.name = j["name"].get<std::string>();
  return t;
}

const std::vector<std::string> kAttrTypes = {
    "bool",     "int",        "float",       "string",    "list_bool",
    "list_int", "list_float", "list_string", "data_type", "list_list_int"};

// A data_type attribute's value: "float16" as the tensors name types, GE's "DT_FLOAT16", or
// aclDataType's number.
DataType AttrDataType(const json& v) {
  if (!v.is_string())
    return v.is_number_integer() ? FromAclDataType(v.get<int>()) : DataType::kUndefined;
  const std::string name = v.get<std::string>();
  return name.rfind("DT_", 0) == 0 ? DataTypeFromGeName(name) : DataTypeFromCannName(name);
}

Status SetAttr(ge::proto::AttrDef* a, const SingleOpAttr& at) {
  const json v = json::parse(at.value);
  const std::string& t = at.type;
  if (t == "bool") a->set_b(v.get<bool>());
  if (t == "int") a->set_i(v.get<int64_t>());
  if (t == "float") a->set_f(v.get<float>());
  if (t == "string") a->set_s(v.get<std::string>());
  if (t == "data_type") {
    const DataType dt = AttrDataType(v);
    if (!CannDataTypeName(dt))  // also the types single ops do not take (string)
      return InvalidArgument("attribute [" + at.name + "]: unknown data type " + at.value);
    a->set_dt(GeType(dt));
  }
  if (t.rfind("list_", 0) == 0 && t != "list_list_int") {
    auto* l = a->mutable_list();
    for (const auto& e : v) {
      if (t == "list_bool") l->add_b(e.get<bool>());
      if (t == "list_int") l->add_i(e.get<int64_t>());
      if (t == "list_float") l->add_f(e.get<float>());
      if (t == "list_string") l->add_s(e.get<std::string>());
    }
  }
  if (t == "list_list_int") {
    auto* ll = a->mutable_list_list_int();
    for (const auto& row : v) {
      auto* r = ll->add_list_list_i();
      for (const auto& e : row) r->add_list_i(e.get<int64_t>());
    }
  }
  return Status::Ok();
}

ge::proto::TensorDescriptor Descriptor(const SingleOpTensor& t) {
  ge::proto::TensorDescriptor d;
  d.set_dtype(GeType(FromAclDataType(t.acl_dtype)));
  for (int64_t x : t.shape) d.mutable_shape()->add_dim(x);
  for (const auto& [name, value] : kFormats)
    if (value == t.acl_format) d.set_layout(name);
  return d;
}

}  // namespace

Result<std::vector<SingleOp>> ParseSingleOpJson(const std::string& text) {
  const json j = json::parse(text, nullptr, false);
  if (j.is_discarded() || !j.is_array() || j.empty())
    return InvalidArgument("--singleop: the file must hold a JSON list of op descriptions",
                           "E10001");
  std::vector<SingleOp> ops;
  for (size_t i = 0; i < j.size(); ++i) {
    const json& e = j[i];
    if (!e.is_object() || !e.contains("op") || !e["op"].is_string())
      return Bad(i, "each entry needs \"op\" (the operator type)");
    SingleOp op;
    op.type = e["op"].get<std::string>();
    for (const char* key : {"input_desc", "output_desc"}) {
      if (!e.contains(key)) {
        if (std::string(key) == "output_desc") return Bad(i, "needs \"output_desc\"");
        continue;
      }
      if (!e[key].is_array()) return Bad(i, std::string(key) + " must be a list");
      for (size_t k = 0; k < e[key].size(); ++k) {
        OC_ASSIGN_OR_RETURN(
            SingleOpTensor t,
            ParseTensor(e[key][k], i, std::string(key) + "[" + std::to_string(k) + "]"));
        (std::string(key) == "input_desc" ? op.inputs : op.outputs).push_back(std::move(t));
      }
    }
    if (op.outputs.empty()) return Bad(i, "output_desc is empty");
    if (e.contains("attr")) {
      if (!e["attr"].is_array()) return Bad(i, "attr must be a list");
      for (const auto& a : e["attr"]) {
        if (!a.is_object() || !a.contains("name") || !a.contains("type") || !a.contains("value") ||
            !a["name"].is_string() || !a["type"].is_string())
          return Bad(i, "each attr needs \"name\", \"type\" and \"value\"");
        SingleOpAttr at{a["name"].get<std::string>(), a["type"].get<std::string>(),
                        a["value"].dump()};
        if (std::find(kAttrTypes.begin(), kAttrTypes.end(), at.type) == kAttrTypes.end())
          return Bad(i, "attr [" + at.name + "] has type [" + at.type + "]");
        const json& v = a["value"];
        const std::string& t = at.type;
        const bool ok = (t == "bool" && v.is_boolean()) || (t == "int" && v.is_number_integer()) ||
                        (t == "float" && v.is_number()) || (t == "string" && v.is_string()) ||
                        (t == "data_type" && (v.is_string() || v.is_number_integer())) ||
                        (t.rfind("list_", 0) == 0 && v.is_array());
        if (!ok) return Bad(i, "attr [" + at.name + "]'s value " + at.value + " is not a " + t);
        op.attrs.push_back(std::move(at));
      }
      std::sort(op.attrs.begin(), op.attrs.end(),
                [](const SingleOpAttr& a, const SingleOpAttr& b) { return a.name < b.name; });
    }
    ops.push_back(std::move(op));
  }
  return ops;
}

std::string SingleOpFileName(size_t index, const SingleOp& op) {
  std::string name = std::to_string(index) + "_" + op.type;
  for (const auto* list : {&op.inputs, &op.outputs})
    for (const auto& t : *list) {
      name += "_" + std::to_string(t.acl_dtype) + "_" + std::to_string(t.acl_format);
      for (int64_t d : t.shape) name += "_" + std::to_string(d);
    }
  return name + ".om";
}

Result<std::string> CompileSingleOp(const SingleOp& op, const ConvertOptions& options) {
  // The op may be a package's (ASCEND_CUSTOM_OPP_PATH, $ASCEND_OPP_PATH/vendors).
  OC_RETURN_IF_ERROR(LoadCustomOpPackages());
  // The op as a one-op GE graph: Data ops, the op, NetOutput; the AIR frontend converts it
  // (in memory: nothing reads the graph but the frontend).
  ge::proto::GraphDef g;
  g.set_name(op.type);
  for (size_t i = 0; i < op.inputs.size(); ++i) {
    auto* data = g.add_op();
    data->set_name("x" + std::to_string(i));
    data->set_type("Data");
    (*data->mutable_attr())["index"].set_i(static_cast<int64_t>(i));
    *data->add_output_desc() = Descriptor(op.inputs[i]);
  }
  auto* node = g.add_op();
  node->set_name("op");
  node->set_type(op.type);
  for (size_t i = 0; i < op.inputs.size(); ++i) {
    node->add_input("x" + std::to_string(i) + ":0");
    *node->add_input_desc() = Descriptor(op.inputs[i]);
  }
  for (const auto& t : op.outputs) *node->add_output_desc() = Descriptor(t);
  for (const auto& at : op.attrs)
    OC_RETURN_IF_ERROR(SetAttr(&(*node->mutable_attr())[at.name], at));
  auto* out = g.add_op();
  out->set_name("output");
  out->set_type("NetOutput");
  for (size_t k = 0; k < op.outputs.size(); ++k) out->add_input("op:" + std::to_string(k));
  OC_ASSIGN_OR_RETURN(Graph graph, ImportAirGraph(g, op.type));
  // The outputs' types as described: a description that disagrees with what the op computes
  // is an error, as on CANN.
  ConvertOptions o = options;
  o.framework = "1";
  o.input_format = "ND";
  for (size_t i = 0; i < op.inputs.size(); ++i)
    if (std::count(op.inputs[i].shape.begin(), op.inputs[i].shape.end(), -1))
      o.shapes.push_back({graph.inputs[i], op.inputs[i].shape, {}});
  OC_ASSIGN_OR_RETURN(Conversion c, ConvertGraph(std::move(graph), o));
  const Graph& compiled = c.graphs.front().graph;
  if (compiled.outputs.size() != op.outputs.size())
    return InvalidArgument(op.type + " makes " + std::to_string(compiled.outputs.size()) +
                               " outputs; output_desc describes " +
                               std::to_string(op.outputs.size()),
                           "E10001");
  nlohmann::json attrs = nlohmann::json::object();
  for (const auto& at : op.attrs) {
    json value = json::parse(at.value);
    // Matched against aclopSetAttrDataType's aclDataType at execution: recorded as one.
    if (at.type == "data_type") value = ToAclDataType(AttrDataType(value));
    attrs[at.name] = {{"type", at.type}, {"value", value}};
  }
  std::string formats;
  for (const auto* list : {&op.inputs, &op.outputs})
    for (const auto& t : *list)
      formats += (formats.empty() ? "" : ",") + std::to_string(t.acl_format);
  c.write.model_attrs[kSingleOpTypeAttr] = op.type;
  c.write.model_attrs[kSingleOpAttrsAttr] = attrs.dump();
  c.write.model_attrs[kSingleOpFormatsAttr] = formats;
  for (auto& og : c.graphs) og.graph.name = op.type;
  return SerializeOm(c.graphs, c.write);
}

}  // namespace oc
