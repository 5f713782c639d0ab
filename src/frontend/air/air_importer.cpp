// MindSpore AIR: a GE ModelDef (the schema of the .om's MODEL_DEF partition, src/om/ge_ir.proto)
// whose ops are GE operator types with GE attributes, lowered into the IR. Edges are GE's
// "op:index" inputs ("op:-1" is a control edge); Const ops carry their data inline. Data,
// Const and NetOutput are read here; every other op goes to its converter (air_ops.cpp).
#include "frontend/air/air_importer.h"

#include <google/protobuf/io/coded_stream.h>
#include <google/protobuf/io/zero_copy_stream_impl_lite.h>

#include <climits>
#include <cstring>
#include <map>
#include <set>

#include "base/file.h"
#include "frontend/air/air_builder.h"

namespace oc {
namespace {

using namespace air_import;  // NOLINT: the importer is this namespace's one client

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
    AirConverter convert = FindConverter(op.type());
    if (!convert)
      return Status(StatusCode::kUnsupported,
                    "No parser is registered for Op [" + op.name() + ", optype [" + op.type() +
                        "]]: OpenCANN's AIR parser has no such GE operator",
                    "E19010");
    OC_RETURN_IF_ERROR(convert(op, a));
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
    s.supported = s.type == "Data" || s.type == "Const" || s.type == "Constant" ||
                  s.type == "NetOutput" || FindConverter(s.type) != nullptr;
    if (!s.supported) s.reason = "no parser is registered for this GE operator (E19010)";
    out.push_back(std::move(s));
  }
  return out;
}

}  // namespace oc
