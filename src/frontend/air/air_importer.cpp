// MindSpore AIR: a GE ModelDef (the schema of the .om's MODEL_DEF partition, src/om/ge_ir.proto)
// whose ops are GE operator types with GE attributes, lowered into the IR. Edges are GE's
// "op:index" inputs ("op:-1" is a control edge); Const ops carry their data inline. Data,
// Const and NetOutput are read here; every other op goes to its converter (air_ops.cpp).
#include "frontend/air/air_importer.h"

#include <cstring>
#include <map>
#include <set>

#include "base/file.h"
#include "frontend/air/air_builder.h"
#include "ops/op_schema.h"

namespace oc {
namespace {

using namespace air_import;  // NOLINT: the importer is this namespace's one client

Result<ge::proto::ModelDef> ParseAir(const std::string& bytes, const std::string& path) {
  ge::proto::ModelDef model;
  if (!frontend::ParseBinaryProto(bytes, model))
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

// An op of an operator package: one node of domain "custom" with the op's inputs, as many
// outputs as it describes, and its scalar and list attributes.
Status PackageOp(const OpDef& op, AirBuilder& a) {
  std::vector<std::string> inputs;
  for (size_t i = 0; i < a.NumInputs(op); ++i) {
    OC_ASSIGN_OR_RETURN(std::string x, a.In(op, i));
    inputs.push_back(x);
  }
  AttributeMap attrs;
  for (const auto& [name, v] : op.attr()) {
    switch (v.value_case()) {
      case AttrDef::kI:
        attrs.Set(name, v.i());
        break;
      case AttrDef::kF:
        attrs.Set(name, v.f());
        break;
      case AttrDef::kB:
        attrs.Set(name, static_cast<int64_t>(v.b()));
        break;
      case AttrDef::kS:
        attrs.Set(name, v.s());
        break;
      case AttrDef::kDt:
        attrs.Set(name, v.dt());
        break;
      case AttrDef::kList:
        if (v.list().i_size()) {
          attrs.Set(name, std::vector<int64_t>(v.list().i().begin(), v.list().i().end()));
        } else if (v.list().f_size()) {
          attrs.Set(name, std::vector<float>(v.list().f().begin(), v.list().f().end()));
        } else if (v.list().b_size()) {
          std::vector<int64_t> b;
          for (bool x : v.list().b()) b.push_back(x);
          attrs.Set(name, b);
        } else if (v.list().val_type() == AttrDef::ListValue::VT_LIST_FLOAT) {
          attrs.Set(name, std::vector<float>{});
        } else {
          attrs.Set(name, std::vector<int64_t>{});
        }
        break;
      default:
        return OpUnsupported(op, "attribute [" + name + "] of its kind on a package op");
    }
  }
  const size_t outputs = op.output_desc_size() ? static_cast<size_t>(op.output_desc_size()) : 1;
  std::vector<std::string> outs =
      a.b.Add(op.name(), op.type(), std::move(inputs), std::move(attrs), outputs, "custom");
  for (size_t k = 0; k < outs.size(); ++k) a.Out(op, outs[k], static_cast<int>(k));
  return Status::Ok();
}

}  // namespace

Result<Graph> ImportAirBytes(const std::string& bytes, const std::string& path) {
  OC_ASSIGN_OR_RETURN(ge::proto::ModelDef model, ParseAir(bytes, path));
  return ImportAirGraph(model.graph(0), path);
}

Result<Graph> ImportAirGraph(const ge::proto::GraphDef& gd, const std::string& path) {
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
    // An op of a loaded operator package (its OpDef is in the op registry under "custom"):
    // one node of that type, the GE attributes as they are.
    if (!Converters().Supports(op.type()) && OpRegistry::Global().Find("custom", op.type())) {
      OC_RETURN_IF_ERROR(PackageOp(op, a));
      continue;
    }
    OC_ASSIGN_OR_RETURN(AirConverter convert, Converters().Lookup(op.name(), op.type()));
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
  for (const auto& op : model.graph(0).op())
    out.push_back(Converters().Survey(op.name(), op.type()));
  return out;
}

}  // namespace oc
