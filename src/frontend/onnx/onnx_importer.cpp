#include "frontend/onnx/onnx_importer.h"

#include <onnx/checker.h>
#include <onnx/defs/schema.h>
#include <onnx/onnx_pb.h>

#include <algorithm>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <set>

#include "base/file.h"
#include "base/half.h"
#include "base/log.h"
#include "frontend/onnx/onnx_sort.h"
#include "graph/operator.h"
#include "register/register.h"

namespace oc {
namespace {

std::string DirName(const std::string& path) {
  auto pos = path.find_last_of('/');
  return pos == std::string::npos ? "." : path.substr(0, pos);
}

Result<std::string> ReadExternalData(const onnx::TensorProto& tp, const std::string& base_dir) {
  std::string location;
  int64_t offset = 0, length = -1;
  for (const auto& kv : tp.external_data()) {
    if (kv.key() == "location") location = kv.value();
    try {
      if (kv.key() == "offset") offset = std::stoll(kv.value());
      if (kv.key() == "length") length = std::stoll(kv.value());
    } catch (const std::exception&) {
      return ParseError("tensor [" + tp.name() + "] has a non-numeric external data " + kv.key());
    }
  }
  if (location.empty() || location.find("..") != std::string::npos || location[0] == '/')
    return ParseError("tensor [" + tp.name() + "] has an invalid external data location");
  std::string path = base_dir + "/" + location;
  if (!IsRegularFile(path))
    return NotFound("external data file [" + path + "] of tensor [" + tp.name() +
                    "] not found (or not a regular file)");
  // The file as resolved, links included, must still lie in the model's folder: a link
  // inside it that points elsewhere would copy a file of this machine into the .om.
  namespace fs = std::filesystem;
  std::error_code ec_base, ec_file;
  const fs::path real_base = fs::canonical(base_dir.empty() ? "." : base_dir, ec_base);
  const fs::path real = fs::canonical(path, ec_file);
  if (ec_base || ec_file)
    return NotFound("external data file [" + path + "] of tensor [" + tp.name() +
                    "] cannot be resolved");
  const fs::path inside = real.lexically_relative(real_base);
  if (inside.empty() || *inside.begin() == "..")
    return ParseError("external data location [" + location + "] of tensor [" + tp.name() +
                      "] resolves outside the model's folder (through a link): copy the file "
                      "into the folder");
  path = real.string();
  std::ifstream in(path, std::ios::binary);
  if (!in)
    return NotFound("external data file [" + path + "] of tensor [" + tp.name() + "] not found");
  in.seekg(0, std::ios::end);
  int64_t size = in.tellg();
  if (offset < 0 || offset > size)
    return ParseError("external data of tensor [" + tp.name() + "] lies outside [" + path + "]");
  if (length < 0) length = size - offset;
  if (length > size - offset)
    return ParseError("external data of tensor [" + tp.name() + "] lies outside [" + path + "]");
  std::string data(static_cast<size_t>(length), '\0');
  in.seekg(offset);
  in.read(data.data(), length);
  return data;
}

// The newest default-domain opset whose operator changes OpenCANN implements; a later one
// could change an operator's meaning silently, so it is refused, as ONNX Runtime does.
constexpr int64_t kNewestOnnxOpset = 18;
constexpr int kMaxImportRank = 32;  // the .om loader's bound

Result<Tensor> ConvertTensor(const onnx::TensorProto& tp, const std::string& base_dir) {
  if (!onnx::TensorProto_DataType_IsValid(tp.data_type()) ||
      tp.data_type() == onnx::TensorProto::UNDEFINED)
    return ParseError("tensor [" + tp.name() + "] has the invalid data type " +
                      std::to_string(tp.data_type()));
  if (tp.dims_size() > kMaxImportRank)
    return ParseError("tensor [" + tp.name() + "] has rank " + std::to_string(tp.dims_size()) +
                      " (at most " + std::to_string(kMaxImportRank) + ")");
  if (!IsValidDataType(tp.data_type()) || tp.data_type() == onnx::TensorProto::STRING)
    return Unsupported("tensor [" + tp.name() + "] has unsupported data type " +
                       std::to_string(tp.data_type()));
  DataType dt = static_cast<DataType>(tp.data_type());
  Shape shape(tp.dims().begin(), tp.dims().end());
  for (int64_t d : shape)
    if (d < 0) return ParseError("tensor [" + tp.name() + "] has a negative dimension");
  const size_t esize = DataTypeSize(dt);
  size_t n = 1;
  for (int64_t d : shape) {
    if (d != 0 && n > (size_t{1} << 40) / static_cast<size_t>(d))
      return ParseError("tensor [" + tp.name() + "] has an implausible shape " +
                        ShapeToString(shape));
    n *= static_cast<size_t>(d);
  }
  auto expect = [&](size_t have) -> Status {
    if (have != n)
      return ParseError("tensor [" + tp.name() + "] holds " + std::to_string(have) +
                        " values, its shape " + ShapeToString(shape) + " needs " +
                        std::to_string(n));
    return Status::Ok();
  };
  std::string external;
  const std::string* raw = nullptr;
  if (tp.data_location() == onnx::TensorProto::EXTERNAL) {
    OC_ASSIGN_OR_RETURN(external, ReadExternalData(tp, base_dir));
    raw = &external;
  } else if (tp.has_raw_data()) {
    raw = &tp.raw_data();
  }
  // Sizes are checked before anything is allocated: a lying header must not OOM us.
  if (raw) {
    if (raw->size() != n * esize)
      return ParseError("tensor [" + tp.name() + "] has " + std::to_string(raw->size()) +
                        " bytes of data, its shape needs " + std::to_string(n * esize));
  } else {
    size_t have = 0;
    switch (dt) {
      case DataType::kFloat:
        have = tp.float_data_size();
        break;
      case DataType::kDouble:
        have = tp.double_data_size();
        break;
      case DataType::kInt64:
        have = tp.int64_data_size();
        break;
      case DataType::kUint32:
      case DataType::kUint64:
        have = tp.uint64_data_size();
        break;
      default:
        have = tp.int32_data_size();
        break;
    }
    OC_RETURN_IF_ERROR(expect(have));
  }
  Tensor t(dt, shape);
  void* dst = t.mutable_data();
  if (raw) {
    if (n) std::memcpy(dst, raw->data(), raw->size());
    return t;
  }
  switch (dt) {
    case DataType::kFloat:
      OC_RETURN_IF_ERROR(expect(tp.float_data_size()));
      std::copy(tp.float_data().begin(), tp.float_data().end(), static_cast<float*>(dst));
      break;
    case DataType::kDouble:
      OC_RETURN_IF_ERROR(expect(tp.double_data_size()));
      std::copy(tp.double_data().begin(), tp.double_data().end(), static_cast<double*>(dst));
      break;
    case DataType::kInt64:
      OC_RETURN_IF_ERROR(expect(tp.int64_data_size()));
      std::copy(tp.int64_data().begin(), tp.int64_data().end(), static_cast<int64_t*>(dst));
      break;
    case DataType::kUint32:
    case DataType::kUint64:
      OC_RETURN_IF_ERROR(expect(tp.uint64_data_size()));
      for (size_t i = 0; i < n; ++i) {
        if (dt == DataType::kUint32)
          static_cast<uint32_t*>(dst)[i] = static_cast<uint32_t>(tp.uint64_data(i));
        else
          static_cast<uint64_t*>(dst)[i] = tp.uint64_data(i);
      }
      break;
    default:
      // int32_data carries int32, int16, int8, uint8, uint16, bool, float16 and bfloat16
      // (the last two as raw bit patterns).
      OC_RETURN_IF_ERROR(expect(tp.int32_data_size()));
      for (size_t i = 0; i < n; ++i) {
        int32_t v = tp.int32_data(static_cast<int>(i));
        std::memcpy(static_cast<uint8_t*>(dst) + i * esize, &v, esize);
      }
      break;
  }
  return t;
}

// A value's declared type. Dims not given are unknown (-1).
Status ConvertType(const onnx::TypeProto& type, const std::string& name, ValueInfo* vi) {
  if (!type.has_tensor_type()) return Status::Ok();
  const auto& tt = type.tensor_type();
  if (!onnx::TensorProto_DataType_IsValid(tt.elem_type()))
    return ParseError("value [" + name + "] has the invalid elem_type " +
                      std::to_string(tt.elem_type()));
  // ONNX types OpenCANN has no DataType for (complex, float8, int4, ...) are refused here,
  // wherever the value is declared: cast through, they would reach schemas and the .om as
  // enum values nothing else knows.
  // Strings have a DataType (graph checks name it) but no kernel or buffer layout.
  if (tt.elem_type() == onnx::TensorProto::STRING ||
      (tt.elem_type() != onnx::TensorProto::UNDEFINED && !IsValidDataType(tt.elem_type())))
    return Unsupported("value [" + name + "] is of the type " +
                       onnx::TensorProto_DataType_Name(tt.elem_type()) +
                       ", which OpenCANN does not support");
  vi->dtype = static_cast<DataType>(tt.elem_type());
  if (tt.has_shape()) {
    if (tt.shape().dim_size() > kMaxImportRank)
      return ParseError("value [" + name + "] has rank " + std::to_string(tt.shape().dim_size()) +
                        " (at most " + std::to_string(kMaxImportRank) + ")");
    vi->has_shape = true;
    vi->shape.clear();
    for (const auto& d : tt.shape().dim()) {
      // -1 is how some exporters write "unknown"; any other negative dim is invalid.
      if (d.has_dim_value() && d.dim_value() < -1)
        return ParseError("value [" + name + "] has the negative dim " +
                          std::to_string(d.dim_value()));
      vi->shape.push_back(d.has_dim_value() ? d.dim_value() : -1);
    }
  }
  return Status::Ok();
}

Result<Graph> ConvertGraph(const onnx::GraphProto& gp, int64_t opset, const std::string& base_dir,
                           bool subgraph = false);

Result<AttributeValue> ConvertAttribute(const onnx::AttributeProto& a, int64_t opset,
                                        const std::string& base_dir) {
  switch (a.type()) {
    case onnx::AttributeProto::INT:
      return AttributeValue(a.i());
    case onnx::AttributeProto::FLOAT:
      return AttributeValue(a.f());
    case onnx::AttributeProto::STRING:
      return AttributeValue(a.s());
    case onnx::AttributeProto::INTS:
      return AttributeValue(std::vector<int64_t>(a.ints().begin(), a.ints().end()));
    case onnx::AttributeProto::FLOATS:
      return AttributeValue(std::vector<float>(a.floats().begin(), a.floats().end()));
    case onnx::AttributeProto::STRINGS:
      return AttributeValue(std::vector<std::string>(a.strings().begin(), a.strings().end()));
    case onnx::AttributeProto::TENSOR: {
      OC_ASSIGN_OR_RETURN(Tensor t, ConvertTensor(a.t(), base_dir));
      return AttributeValue(std::move(t));
    }
    case onnx::AttributeProto::GRAPH: {
      OC_ASSIGN_OR_RETURN(Graph g, ConvertGraph(a.g(), opset, base_dir, /*subgraph=*/true));
      return AttributeValue(std::make_shared<Graph>(std::move(g)));
    }
    case onnx::AttributeProto::UNDEFINED:
      return ParseError("attribute [" + a.name() + "] has no type");
    default:
      return Unsupported("attribute [" + a.name() + "] has an unsupported kind " +
                         std::to_string(a.type()));
  }
}

// An attribute of the wrong kind (strides given as a float) would read as its default:
// ONNX's own schema for the op says which kind each attribute is.
Status CheckAttributeKind(const onnx::NodeProto& np, const onnx::AttributeProto& a, int64_t opset,
                          const std::string& node_name) {
  if (!np.domain().empty() && np.domain() != "ai.onnx") return Status::Ok();
  const onnx::OpSchema* schema =
      onnx::OpSchemaRegistry::Schema(np.op_type(), static_cast<int>(opset), "");
  if (!schema) return Status::Ok();
  auto it = schema->attributes().find(a.name());
  if (it == schema->attributes().end() || it->second.type == a.type()) return Status::Ok();
  return ParseError("node [" + node_name + "] (" + np.op_type() + "): attribute [" + a.name() +
                    "] must be " + onnx::AttributeProto_AttributeType_Name(it->second.type) +
                    ", the model gives " + onnx::AttributeProto_AttributeType_Name(a.type()));
}

// Names a subgraph reads from enclosing scopes (used but not defined inside it).
void CollectFreeValues(const Graph& g, std::vector<std::string>* out) {
  std::set<std::string> defined(g.inputs.begin(), g.inputs.end());
  for (const auto& [name, t] : g.initializers) defined.insert(name);
  for (const auto& n : g.nodes)
    for (const auto& o : n.outputs) defined.insert(o);
  auto add = [&](const std::string& v) {
    if (!v.empty() && !defined.count(v) && std::find(out->begin(), out->end(), v) == out->end())
      out->push_back(v);
  };
  for (const auto& n : g.nodes) {
    for (const auto& in : n.inputs) add(in);
    for (const auto& [k, a] : n.attrs.all())
      if (auto* sub = std::get_if<std::shared_ptr<Graph>>(&a)) {
        std::vector<std::string> inner;
        CollectFreeValues(**sub, &inner);
        for (const auto& v : inner) add(v);
      }
  }
}

// The framework plugin an operator package registered for this ONNX node
// (REGISTER_CUSTOM_OP(...).FrameworkType(ONNX).OriginOpType("ai.onnx::<opset>::<type>")).
const domi::OpRegistrationData* PluginFor(const onnx::NodeProto& np, int64_t opset) {
  const std::string domain = np.domain().empty() ? "ai.onnx" : np.domain();
  const std::string origin = domain + "::" + std::to_string(opset) + "::" + np.op_type();
  for (const auto& reg : domi::RegisteredFrameworkOps()) {
    if (reg.GetFrameworkType() != domi::ONNX) continue;
    for (const auto& t : reg.GetOriginOpTypes())
      if (origin == t.GetString()) return &reg;
  }
  return nullptr;
}

// The node's attributes as the JSON a plugin's parse function reads from op_src's
// "attribute" attribute: [{"name", "type" (AttributeProto's number), "f" as a string, "i",
// "s", "floats" as strings, "ints"}] (the form CANN's samples parse; not confirmed further).
std::string AttributesJson(const onnx::NodeProto& np) {
  nlohmann::json list = nlohmann::json::array();
  auto text = [](float f) {
    char buf[32];
    std::snprintf(buf, sizeof buf, "%.9g", static_cast<double>(f));
    return std::string(buf);
  };
  for (const auto& a : np.attribute()) {
    nlohmann::json j = {{"name", a.name()}, {"type", static_cast<int>(a.type())}};
    if (a.has_f()) j["f"] = text(a.f());
    if (a.has_i()) j["i"] = a.i();
    if (a.has_s()) j["s"] = a.s();
    if (a.floats_size()) {
      j["floats"] = nlohmann::json::array();
      for (float f : a.floats()) j["floats"].push_back(text(f));
    }
    if (a.ints_size()) j["ints"] = std::vector<int64_t>(a.ints().begin(), a.ints().end());
    list.push_back(j);
  }
  return nlohmann::json({{"attribute", list}}).dump();
}

// A node a package's ONNX plugin maps: the plugin's op type (domain "custom"), the attributes
// its parse function writes.
Status MapThroughPlugin(const onnx::NodeProto& np, const domi::OpRegistrationData& reg, Node* n) {
  ge::Operator src(n->name.c_str(), np.op_type().c_str());
  src.SetAttr("attribute", AttributesJson(np).c_str());
  ge::Operator dst(n->name.c_str(), reg.GetOmOptype());
  const std::string where = "node [" + n->name + "] (" + np.op_type() +
                            "): the framework plugin of [" + reg.GetOmOptype() + "]";
  if (!reg.GetParseParamByOperatorFn())
    return Unsupported(where + " has no ParseParamsByOperatorFn; OpenCANN calls only that form",
                       "E19010");
  domi::Status st = domi::FAILED;
  try {
    st = reg.GetParseParamByOperatorFn()(src, dst);
  } catch (const std::exception& e) {
    return ParseError(where + " threw: " + e.what(), "E19005");
  }
  if (st != domi::SUCCESS)
    return ParseError(where + " failed (" + std::to_string(st) + ")", "E19005");
  n->op_type = reg.GetOmOptype();
  n->domain = "custom";
  std::map<ge::AscendString, ge::AscendString> attrs;
  dst.GetAllAttrNamesAndTypes(attrs);
  for (const auto& [key, type] : attrs) {
    const char* name = key.GetString();
    const std::string t = type.GetString();
    if (t == "VT_INT") {
      int64_t v = 0;
      dst.GetAttr(name, v);
      n->attrs.Set(name, v);
    } else if (t == "VT_FLOAT") {
      float v = 0;
      dst.GetAttr(name, v);
      n->attrs.Set(name, v);
    } else if (t == "VT_BOOL") {
      bool v = false;
      dst.GetAttr(name, v);
      n->attrs.Set(name, static_cast<int64_t>(v));
    } else if (t == "VT_STRING") {
      ge::AscendString v;
      dst.GetAttr(name, v);
      n->attrs.Set(name, std::string(v.GetString()));
    } else if (t == "VT_LIST_INT") {
      std::vector<int64_t> v;
      dst.GetAttr(name, v);
      n->attrs.Set(name, v);
    } else {
      std::vector<float> v;
      dst.GetAttr(name, v);
      n->attrs.Set(name, v);
    }
  }
  return Status::Ok();
}

Result<Graph> ConvertGraph(const onnx::GraphProto& gp, int64_t opset, const std::string& base_dir,
                           bool subgraph) {
  Graph g;
  g.name = gp.name();
  g.opset_version = opset;
  for (const auto& init : gp.initializer()) {
    OC_ASSIGN_OR_RETURN(Tensor t, ConvertTensor(init, base_dir));
    ValueInfo vi{t.dtype(), t.shape(), true};
    g.values[init.name()] = vi;
    g.initializers[init.name()] = std::move(t);
  }
  std::set<std::string> input_names;
  for (const auto& in : gp.input()) {
    if (!input_names.insert(in.name()).second)
      return ParseError("two graph inputs are named [" + in.name() + "]");
    if (in.name().empty()) return ParseError("a graph input has no name");
    if (g.IsInitializer(in.name())) continue;  // old-style initializer listed as input
    ValueInfo vi;
    OC_RETURN_IF_ERROR(ConvertType(in.type(), in.name(), &vi));
    // Subgraph inputs may be untyped (their types come from the enclosing node).
    if (!subgraph && vi.dtype == DataType::kUndefined)
      return ParseError("graph input [" + in.name() + "] has no tensor type");
    if (!subgraph && !IsValidDataType(static_cast<int32_t>(vi.dtype)))
      return Unsupported("graph input [" + in.name() + "] is of the type " +
                         std::to_string(static_cast<int>(vi.dtype)) +
                         ", which OpenCANN does not support");
    g.values[in.name()] = vi;
    g.inputs.push_back(in.name());
    // Inputs' dims named alike are one dimension (ONNX dim_param): one symbol.
    if (in.type().has_tensor_type() && in.type().tensor_type().has_shape()) {
      const auto& dims = in.type().tensor_type().shape().dim();
      for (int d = 0; d < dims.size(); ++d)
        if (!dims[d].has_dim_value() && !dims[d].dim_param().empty())
          g.symbolic.NameDim(in.name(), static_cast<size_t>(d), static_cast<size_t>(dims.size()),
                             dims[d].dim_param());
    }
  }
  for (const auto& vi_proto : gp.value_info()) {
    ValueInfo vi;
    OC_RETURN_IF_ERROR(ConvertType(vi_proto.type(), vi_proto.name(), &vi));
    if (vi.dtype != DataType::kUndefined) g.values.emplace(vi_proto.name(), vi);
  }
  if (gp.output_size() == 0) return ParseError("the graph [" + gp.name() + "] has no outputs");
  for (const auto& out : gp.output()) {
    g.outputs.push_back(out.name());
    ValueInfo vi;
    OC_RETURN_IF_ERROR(ConvertType(out.type(), out.name(), &vi));
    if (vi.dtype != DataType::kUndefined) g.values.emplace(out.name(), vi);
  }
  int counter = 0;
  for (const auto& np : gp.node()) {
    Node n;
    n.name = np.name().empty() ? np.op_type() + "_" + std::to_string(counter) : np.name();
    ++counter;
    n.op_type = np.op_type();
    n.domain = np.domain() == "ai.onnx" ? "" : np.domain();
    n.inputs.assign(np.input().begin(), np.input().end());
    n.outputs.assign(np.output().begin(), np.output().end());
    // A package's ONNX plugin for this type wins over the built-in op, as in CANN's parser.
    if (const domi::OpRegistrationData* reg = PluginFor(np, opset)) {
      OC_RETURN_IF_ERROR(MapThroughPlugin(np, *reg, &n));
      g.nodes.push_back(std::move(n));
      continue;
    }
    for (const auto& a : np.attribute()) {
      if (!a.ref_attr_name().empty()) continue;
      if (n.attrs.Has(a.name()))
        return ParseError("node [" + n.name + "] has the attribute [" + a.name() + "] twice");
      OC_RETURN_IF_ERROR(CheckAttributeKind(np, a, opset, n.name));
      auto v = ConvertAttribute(a, opset, base_dir);
      if (!v.ok()) return v.status().WithContext("node [" + n.name + "]");
      n.attrs.Set(a.name(), std::move(v).value());
    }
    // Control flow reads outer values implicitly; make them explicit inputs so that
    // ordering, dead-code removal and the runtime see the dependency.
    std::vector<std::string> captured;
    for (const auto& [k, a] : n.attrs.all())
      if (auto* sub = std::get_if<std::shared_ptr<Graph>>(&a)) CollectFreeValues(**sub, &captured);
    if (!captured.empty()) {
      n.captured_inputs_begin = static_cast<int64_t>(n.inputs.size());
      n.inputs.insert(n.inputs.end(), captured.begin(), captured.end());
    }
    g.nodes.push_back(std::move(n));
  }
  return g;
}

bool UsesDefaultDomain(const onnx::GraphProto& g) {
  for (const auto& n : g.node()) {
    if (n.domain().empty() || n.domain() == "ai.onnx") return true;
    for (const auto& a : n.attribute()) {
      if (a.has_g() && UsesDefaultDomain(a.g())) return true;
      for (const auto& sub : a.graphs())
        if (UsesDefaultDomain(sub)) return true;
    }
  }
  return false;
}

}  // namespace

Result<Graph> ImportOnnxBytes(const std::string& bytes, const std::string& base_dir,
                              const OnnxImportOptions& options) {
  onnx::ModelProto model;
  if (!model.ParseFromString(bytes) || !model.has_graph())
    return ParseError("the file is not a valid ONNX model (protobuf parse failed)");
  // Stored out of order is not wrong: ONNX Runtime sorts, so do we (before the checker,
  // which insists on the order).
  OC_RETURN_IF_ERROR(SortOnnxGraph(model.mutable_graph()));
  if (options.run_checker) {
    try {
      onnx::checker::CheckerContext ctx;
      ctx.set_ir_version(static_cast<int>(model.ir_version()));
      std::unordered_map<std::string, int> opsets;
      for (const auto& o : model.opset_import()) opsets[o.domain()] = static_cast<int>(o.version());
      ctx.set_opset_imports(opsets);
      onnx::checker::LexicalScopeContext lex;
      onnx::checker::check_graph(model.graph(), ctx, lex);
    } catch (const std::exception& e) {
      // ONNX Runtime does not run the checker: its complaints (a missing value_info type, an
      // attribute it does not know, ...) are warnings; the import and the compiler's own
      // checks below refuse what cannot be run, naming the node.
      std::string what = e.what();
      if (what.size() > 400) what = what.substr(0, 400) + "...";
      OC_LOG(kWarning,
             "the ONNX checker complains about the model (converting anyway, as ONNX "
             "Runtime runs it): "
                 << what);
    }
  }
  if (model.ir_version() <= 0)
    return ParseError("the model has no valid ir_version (" + std::to_string(model.ir_version()) +
                      ")");
  int64_t opset = -1;
  for (const auto& o : model.opset_import())
    if (o.domain().empty() || o.domain() == "ai.onnx") opset = o.version();
  if (opset < 0 && model.ir_version() >= 3 && UsesDefaultDomain(model.graph()))
    return ParseError(
        "the model uses ONNX operators but imports no opset of the default domain (opset_import)");
  if (opset < 0) opset = 1;  // IR 1-2 models predate opset_import
  if (opset < 1) return ParseError("default-domain opset " + std::to_string(opset) + " is invalid");
  if (opset > kNewestOnnxOpset)
    return Unsupported("the model uses ONNX opset " + std::to_string(opset) +
                       "; OpenCANN knows the ONNX operators up to opset " +
                       std::to_string(kNewestOnnxOpset));
  OC_ASSIGN_OR_RETURN(Graph g, ConvertGraph(model.graph(), opset, base_dir));
  g.metadata["producer_name"] = model.producer_name();
  g.metadata["producer_version"] = model.producer_version();
  g.metadata["onnx_opset"] = std::to_string(opset);
  if (g.name.empty()) g.name = "graph";
  return g;
}

Result<Graph> ImportOnnxFile(const std::string& path, const OnnxImportOptions& options) {
  OC_ASSIGN_OR_RETURN(std::string bytes, ReadFile(path));
  auto g = ImportOnnxBytes(bytes, DirName(path), options);
  if (!g.ok()) return g.status().WithContext("model [" + path + "]");
  return g;
}

}  // namespace oc
