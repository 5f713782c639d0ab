// .om bytes -> IR. Constants borrow their bytes from the mapped file (no copy).
#include <algorithm>
#include <cstdlib>
#include <cstring>
#include <unordered_map>

#include "ge_ir.pb.h"
#include "om/om_attrs.h"
#include "om/om_format.h"
#include "om/om_model.h"

namespace oc {
namespace {

using AttrMapProto = google::protobuf::Map<std::string, ge::proto::AttrDef>;

std::vector<int64_t> IntList(const AttrMapProto& m, const std::string& k) {
  auto it = m.find(k);
  if (it == m.end() || !it->second.has_list()) return {};
  return {it->second.list().i().begin(), it->second.list().i().end()};
}

std::vector<std::string> StrList(const AttrMapProto& m, const std::string& k) {
  auto it = m.find(k);
  if (it == m.end() || !it->second.has_list()) return {};
  return {it->second.list().s().begin(), it->second.list().s().end()};
}

// Descriptor shape to value info; GE's single dim -2 means the rank is unknown. A file may
// describe no dim below -1, no type OpenCANN lacks and no tensor beyond MaxTensorBytes().
// Subgraph values may be untyped: their types come from the enclosing node.
Result<ValueInfo> InfoFromDesc(const ge::proto::TensorDescriptor& d, const std::string& what,
                               bool subgraph) {
  const DataType dtype = FromGeDataType(d.dtype());
  if (dtype == DataType::kUndefined && !subgraph)
    return ParseError(what + " has an unknown data type (" + std::to_string(d.dtype()) + ")");
  Shape shape(d.shape().dim().begin(), d.shape().dim().end());
  if (shape.size() == 1 && shape[0] == -2) return ValueInfo{dtype, {}, false};
  if (shape.size() > 32) return ParseError(what + " has rank " + std::to_string(shape.size()));
  for (int64_t dim : shape)
    if (dim < -1) return ParseError(what + " has an invalid dim " + std::to_string(dim));
  if (IsStatic(shape)) {
    auto bytes = TensorBytes(shape, DataTypeSize(dtype));
    if (!bytes.ok()) return ParseError(what + ": " + bytes.status().message());
  }
  return ValueInfo{dtype, shape, true};
}

Result<Tensor> TensorFromDef(const ge::proto::TensorDef& def, const uint8_t* weights,
                             size_t weights_size, std::shared_ptr<const void> holder) {
  DataType dt = FromGeDataType(def.desc().dtype());
  if (dt == DataType::kUndefined) return ParseError("constant with an unknown data type");
  Shape shape(def.desc().shape().dim().begin(), def.desc().shape().dim().end());
  auto checked = TensorBytes(shape, DataTypeSize(dt));
  if (!checked.ok())
    return ParseError("constant [" + def.desc().name() + "]: " + checked.status().message());
  const size_t nbytes = checked.value();
  if (!def.data().empty() || nbytes == 0) {
    if (def.data().size() != nbytes) return ParseError("inline constant has the wrong size");
    Tensor t(dt, shape);
    if (nbytes) std::memcpy(t.mutable_data(), def.data().data(), nbytes);
    return t;
  }
  const int64_t off = def.desc().data_offset();
  if (static_cast<size_t>(def.desc().weight_size()) != nbytes || off < 0 ||
      static_cast<size_t>(off) > weights_size || nbytes > weights_size - off)
    return ParseError("constant [" + def.desc().name() + "] points outside the weights partition");
  // Kernels load constants as their type: a misaligned one is refused, not read misaligned.
  if (reinterpret_cast<uintptr_t>(weights + off) % std::max<size_t>(DataTypeSize(dt), 1) != 0)
    return ParseError("constant [" + def.desc().name() +
                      "] is misaligned in the weights partition");
  return Tensor(dt, shape, weights + off, std::move(holder));
}

Result<Graph> GraphFromDef(const ge::proto::GraphDef& gd, int64_t opset, const uint8_t* weights,
                           size_t weights_size, std::shared_ptr<const void> holder,
                           MemoryPlan* plan);

Result<AttributeValue> AttrFromDef(const ge::proto::AttrDef& a, int64_t opset) {
  using V = ge::proto::AttrDef;
  switch (a.value_case()) {
    case V::kI:
      return AttributeValue(a.i());
    case V::kF:
      return AttributeValue(a.f());
    case V::kS:
      return AttributeValue(a.s());
    case V::kB:
      return AttributeValue(static_cast<int64_t>(a.b()));
    case V::kList: {
      const auto& l = a.list();
      switch (l.val_type()) {
        case V::ListValue::VT_LIST_INT:
          return AttributeValue(std::vector<int64_t>(l.i().begin(), l.i().end()));
        case V::ListValue::VT_LIST_FLOAT:
          return AttributeValue(std::vector<float>(l.f().begin(), l.f().end()));
        case V::ListValue::VT_LIST_STRING:
          return AttributeValue(std::vector<std::string>(l.s().begin(), l.s().end()));
        default:
          return AttributeValue(std::vector<int64_t>{});
      }
    }
    case V::kT: {
      OC_ASSIGN_OR_RETURN(Tensor t, TensorFromDef(a.t(), nullptr, 0, nullptr));
      return AttributeValue(std::move(t));
    }
    case V::kG: {
      OC_ASSIGN_OR_RETURN(Graph g, GraphFromDef(a.g(), opset, nullptr, 0, nullptr, nullptr));
      return AttributeValue(std::make_shared<Graph>(std::move(g)));
    }
    default:
      return ParseError("attribute of an unsupported kind");
  }
}

// GE's edges ("op:index" in each op's input list) and our value names (_oc_inputs) describe
// one graph twice: they must agree, or a tool that reads one and a runtime that reads the other
// would see different models.
Status CheckEdges(const ge::proto::GraphDef& gd) {
  std::unordered_map<std::string, std::string> source;  // value name -> "op:index"
  for (const auto& op : gd.op()) {
    if (op.type() == "Data" || op.type() == "Const") {
      source[op.name()] = op.name() + ":0";
    } else if (op.type() != "NetOutput") {
      const auto outs = StrList(op.attr(), om_attrs::kOutputs);
      for (size_t k = 0; k < outs.size(); ++k)
        if (!outs[k].empty()) source[outs[k]] = op.name() + ":" + std::to_string(k);
    }
  }
  for (const auto& op : gd.op()) {
    if (op.type() == "Data" || op.type() == "Const") continue;
    std::vector<std::string> names;
    for (const auto& in : StrList(op.attr(), om_attrs::kInputs))
      if (!in.empty()) names.push_back(in);
    if (static_cast<int>(names.size()) != op.input_size())
      return ParseError("op [" + op.name() + "] has " + std::to_string(op.input_size()) +
                        " input edges for " + std::to_string(names.size()) + " inputs");
    for (size_t k = 0; k < names.size(); ++k) {
      auto it = source.find(names[k]);
      const std::string& want = it == source.end() ? names[k] : it->second;
      if (op.input(static_cast<int>(k)) != want)
        return ParseError("op [" + op.name() + "] input " + std::to_string(k) + " is the edge [" +
                          op.input(static_cast<int>(k)) + "] but names the value [" + names[k] +
                          "]");
    }
  }
  return Status::Ok();
}

Result<Graph> GraphFromDef(const ge::proto::GraphDef& gd, int64_t opset, const uint8_t* weights,
                           size_t weights_size, std::shared_ptr<const void> holder,
                           MemoryPlan* plan) {
  Graph g;
  g.name = gd.name();
  g.opset_version = opset;
  std::vector<std::pair<int64_t, std::string>> inputs;
  int net_outputs = 0;
  for (const auto& op : gd.op()) {
    const auto& attrs = op.attr();
    if (op.type() == "Data") {
      if (op.output_desc_size() != 1)
        return ParseError("Data op [" + op.name() + "] has no output");
      OC_ASSIGN_OR_RETURN(ValueInfo vi,
                          InfoFromDesc(op.output_desc(0), "input [" + op.name() + "]", !plan));
      g.values[op.name()] = vi;
      auto it = attrs.find("index");
      if (it != attrs.end() && it->second.value_case() != ge::proto::AttrDef::kI)
        return ParseError("Data op [" + op.name() + "] has an index that is not an integer");
      inputs.emplace_back(it == attrs.end() ? static_cast<int64_t>(inputs.size()) : it->second.i(),
                          op.name());
      continue;
    }
    if (op.type() == "Const") {
      auto it = attrs.find("value");
      if (it == attrs.end() || !it->second.has_t())
        return ParseError("Const op [" + op.name() + "] has no value");
      OC_ASSIGN_OR_RETURN(Tensor t, TensorFromDef(it->second.t(), weights, weights_size, holder));
      g.values[op.name()] = ValueInfo{t.dtype(), t.shape(), true};
      g.initializers[op.name()] = std::move(t);
      continue;
    }
    if (op.type() == "NetOutput") {
      if (++net_outputs > 1) return ParseError("the graph has two NetOutput ops");
      g.outputs = StrList(attrs, om_attrs::kInputs);
      continue;
    }
    Node n;
    n.name = op.name();
    n.op_type = op.type();
    n.inputs = StrList(attrs, om_attrs::kInputs);
    n.outputs = StrList(attrs, om_attrs::kOutputs);
    for (const auto& [k, v] : attrs) {
      if (k == om_attrs::kInputs || k == om_attrs::kOutputs) continue;
      if (k == om_attrs::kDomain) {
        n.domain = v.s();
        continue;
      }
      if (k == om_attrs::kExplicitInputs) {  // the file's name for captured_inputs_begin
        if (v.i() < 0 || v.i() > static_cast<int64_t>(n.inputs.size()))
          return ParseError("op [" + op.name() + "] has an invalid _oc_explicit_inputs");
        n.captured_inputs_begin = v.i();
        continue;
      }
      auto av = AttrFromDef(v, opset);
      if (!av.ok()) return av.status().WithContext("op [" + op.name() + "] attribute [" + k + "]");
      n.attrs.Set(k, std::move(av).value());
    }
    if (static_cast<int>(n.outputs.size()) != op.output_desc_size())
      return ParseError("op [" + op.name() + "] has inconsistent outputs");
    for (int k = 0; k < op.output_desc_size(); ++k) {
      const auto& d = op.output_desc(k);
      const std::string& out = n.outputs[k];
      if (out.empty()) continue;
      OC_ASSIGN_OR_RETURN(g.values[out],
                          InfoFromDesc(d, "output [" + out + "] of op [" + op.name() + "]", !plan));
      auto it = d.attr().find(om_attrs::kMemOffset);
      if (plan && it != d.attr().end()) {
        if (it->second.i() < 0)
          return ParseError("value [" + out + "] has a negative memory offset");
        plan->offsets[out] = static_cast<size_t>(it->second.i());
      }
    }
    g.nodes.push_back(std::move(n));
  }
  std::sort(inputs.begin(), inputs.end());
  for (size_t i = 0; i < inputs.size(); ++i)
    if (inputs[i].first != static_cast<int64_t>(i))
      return ParseError("the Data ops' indices are not 0.." + std::to_string(inputs.size() - 1) +
                        " (Data op [" + inputs[i].second + "] says " +
                        std::to_string(inputs[i].first) + ")");
  for (auto& [i, name] : inputs) g.inputs.push_back(name);
  if (plan && net_outputs == 0) return ParseError("the graph has no NetOutput op");
  OC_RETURN_IF_ERROR(CheckEdges(gd));
  // Subgraphs read values of enclosing scopes: only the main graph is self-contained.
  if (plan) {
    Status verified = g.Verify();
    if (!verified.ok()) return ParseError(verified.message());  // the file's fault
  }
  return g;
}

std::string AttrAsString(const ge::proto::AttrDef& a) {
  switch (a.value_case()) {
    case ge::proto::AttrDef::kS:
      return a.s();
    case ge::proto::AttrDef::kI:
      return std::to_string(a.i());
    case ge::proto::AttrDef::kF:
      return std::to_string(a.f());
    case ge::proto::AttrDef::kB:
      return a.b() ? "true" : "false";
    default:
      return "";
  }
}

}  // namespace

Result<OmModel> LoadOm(std::shared_ptr<MappedFile> file) {
  OC_ASSIGN_OR_RETURN(OmContainer c, ParseOmContainer(file->data(), file->size()));
  const OmPartitionView* mp = c.Find(OmPartitionType::kModelDef);
  if (!mp) return ParseError("the .om file has no MODEL_DEF partition");
  const OmPartitionView* wp = c.Find(OmPartitionType::kWeightsData);
  ge::proto::ModelDef model;
  if (!model.ParseFromArray(mp->data, static_cast<int>(mp->size)))
    return ParseError("the MODEL_DEF partition is not a valid ge.proto.ModelDef");
  if (model.graph_size() < 1) return ParseError("the model has no graph");
  OmModel out;
  out.file = file;
  out.name = model.name();
  for (const auto& [k, v] : model.attr()) out.attrs[k] = AttrAsString(v);
  int64_t opset = 17;
  if (auto it = model.attr().find(om_attrs::kOpset); it != model.attr().end())
    opset = it->second.i();
  // Files written before graphs carried their own sizes keep them on the model. A stored
  // _oc_workspace_size (older files) is ignored: workspace is sized at load.
  size_t model_arena = 0;
  if (auto it = model.attr().find(om_attrs::kArenaSize); it != model.attr().end())
    model_arena = static_cast<size_t>(std::max<int64_t>(0, it->second.i()));
  std::shared_ptr<const void> holder(file, file->data());
  for (int i = 0; i < model.graph_size(); ++i) {
    const auto& gd = model.graph(i);
    OmGraph og;
    og.plan.arena_size = model_arena;
    const auto& ga = gd.attr();
    if (auto it = ga.find(om_attrs::kArenaSize); it != ga.end())
      og.plan.arena_size = static_cast<size_t>(std::max<int64_t>(0, it->second.i()));
    og.gear = IntList(ga, om_attrs::kGear);
    if (i == 0) {
      // Dynamic inputs as the application sees them: on the first graph's Data ops.
      for (const auto& op : gd.op()) {
        if (op.type() != "Data" || op.output_desc_size() != 1) continue;
        const auto& attrs = op.output_desc(0).attr();
        if (!attrs.count(om_attrs::kDynamicDims)) continue;
        OmDynamicInput d;
        d.dims = IntList(attrs, om_attrs::kDynamicDims);
        const auto flat = IntList(attrs, "shape_range");
        if (flat.size() != 2 * d.dims.size() && !flat.empty())
          return ParseError("input [" + op.name() + "] has a shape range of the wrong length");
        for (size_t k = 0; k + 1 < flat.size(); k += 2) d.ranges.emplace_back(flat[k], flat[k + 1]);
        out.dynamic_inputs[op.name()] = std::move(d);
      }
    }
    auto g = GraphFromDef(gd, opset, wp ? wp->data : nullptr, wp ? wp->size : 0, holder, &og.plan);
    if (!g.ok()) return g.status().WithContext("graph " + std::to_string(i));
    og.graph = std::move(g).value();
    for (const auto& [k, v] : out.attrs)
      if (k.rfind(om_attrs::kMetaPrefix, 0) == 0)
        og.graph.metadata[k.substr(std::strlen(om_attrs::kMetaPrefix))] = v;
    out.graphs.push_back(std::move(og));
  }
  out.weight_bytes = wp ? wp->size : 0;
  out.weights = wp ? wp->data : nullptr;
  return out;
}

Result<OmModel> LoadOmFile(const std::string& path) {
  OC_ASSIGN_OR_RETURN(auto file, MappedFile::Open(path));
  auto m = LoadOm(file);
  if (!m.ok()) return m.status().WithContext("model [" + path + "]");
  return m;
}

}  // namespace oc
