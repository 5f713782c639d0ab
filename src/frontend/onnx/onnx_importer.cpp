#include "frontend/onnx/onnx_importer.h"

#include <onnx/checker.h>
#include <onnx/onnx_pb.h>

#include <algorithm>
#include <cstring>
#include <fstream>
#include <set>

#include "base/file.h"
#include "base/half.h"
#include "base/log.h"
#include "frontend/onnx/onnx_sort.h"

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

Result<Tensor> ConvertTensor(const onnx::TensorProto& tp, const std::string& base_dir) {
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

void ConvertType(const onnx::TypeProto& type, ValueInfo* vi) {
  if (!type.has_tensor_type()) return;
  const auto& tt = type.tensor_type();
  vi->dtype = static_cast<DataType>(tt.elem_type());
  if (tt.has_shape()) {
    vi->has_shape = true;
    vi->shape.clear();
    for (const auto& d : tt.shape().dim())
      vi->shape.push_back(d.has_dim_value() && d.dim_value() >= 0 ? d.dim_value() : -1);
  }
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
    default:
      return Unsupported("attribute [" + a.name() + "] has an unsupported kind " +
                         std::to_string(a.type()));
  }
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
  for (const auto& in : gp.input()) {
    if (g.IsInitializer(in.name())) continue;  // old-style initializer listed as input
    ValueInfo vi;
    ConvertType(in.type(), &vi);
    // Subgraph inputs may be untyped (their types come from the enclosing node).
    if (!subgraph &&
        (vi.dtype == DataType::kUndefined || !IsValidDataType(static_cast<int32_t>(vi.dtype))))
      return Unsupported("graph input [" + in.name() + "] is not a tensor of a supported type");
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
    ConvertType(vi_proto.type(), &vi);
    if (vi.dtype != DataType::kUndefined) g.values.emplace(vi_proto.name(), vi);
  }
  for (const auto& out : gp.output()) {
    g.outputs.push_back(out.name());
    ValueInfo vi;
    ConvertType(out.type(), &vi);
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
    for (const auto& a : np.attribute()) {
      if (!a.ref_attr_name().empty()) continue;
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
  int64_t opset = -1;
  for (const auto& o : model.opset_import())
    if (o.domain().empty() || o.domain() == "ai.onnx") opset = o.version();
  if (opset < 0) opset = 1;
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
