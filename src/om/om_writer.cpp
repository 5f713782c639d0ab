// IR -> GE ModelDef + weights partition -> .om bytes.
#include <google/protobuf/io/coded_stream.h>
#include <google/protobuf/io/zero_copy_stream_impl_lite.h>

#include <algorithm>
#include <cstring>
#include <limits>
#include <set>
#include <string_view>
#include <unordered_map>

#include "base/file.h"
#include "base/sha256.h"
#include "ge_ir.pb.h"
#include "om/om_attrs.h"
#include "om/om_format.h"
#include "om/om_model.h"

namespace oc {
namespace {

std::string LayoutFor(const Shape& s, const std::string& input_format) {
  if (s.size() == 4 && (input_format == "NCHW" || input_format == "NHWC")) return input_format;
  if (s.size() == 5 && (input_format == "NCDHW" || input_format == "NDHWC")) return input_format;
  return "ND";
}

// GE writes an unknown rank as the single dimension -2.
Shape DescShape(const ValueInfo& vi) { return vi.has_shape ? vi.shape : Shape{-2}; }

void FillDesc(const std::string& name, DataType dt, const Shape& shape, const std::string& layout,
              ge::proto::TensorDescriptor* d) {
  d->set_name(name);
  d->set_dtype(static_cast<ge::proto::DataType>(ToGeDataType(dt)));
  auto* sh = d->mutable_shape();
  for (int64_t v : shape) sh->add_dim(v);
  d->set_layout(layout);
  d->set_real_dim_cnt(static_cast<int64_t>(shape.size()));
  // -1 when any dim is unknown, or the size overflows (a tampered graph; the loader refuses it)
  auto bytes = IsStatic(shape) ? TensorBytes(shape, DataTypeSize(dt)) : Result<size_t>(size_t{0});
  const bool known = IsStatic(shape) && bytes.ok() &&
                     bytes.value() <= static_cast<size_t>(std::numeric_limits<int64_t>::max());
  d->set_size(known ? static_cast<int64_t>(bytes.value()) : -1);
}

void SetInt(google::protobuf::Map<std::string, ge::proto::AttrDef>* m, const std::string& k,
            int64_t v) {
  (*m)[k].set_i(v);
}
void SetStr(google::protobuf::Map<std::string, ge::proto::AttrDef>* m, const std::string& k,
            const std::string& v) {
  (*m)[k].set_s(v);
}
void SetIntList(google::protobuf::Map<std::string, ge::proto::AttrDef>* m, const std::string& k,
                const std::vector<int64_t>& v) {
  auto* l = (*m)[k].mutable_list();
  l->set_val_type(ge::proto::AttrDef::ListValue::VT_LIST_INT);
  for (int64_t x : v) l->add_i(x);
}
void SetStrList(google::protobuf::Map<std::string, ge::proto::AttrDef>* m, const std::string& k,
                const std::vector<std::string>& v) {
  auto* l = (*m)[k].mutable_list();
  l->set_val_type(ge::proto::AttrDef::ListValue::VT_LIST_STRING);
  for (const auto& s : v) l->add_s(s);
}

struct WeightsBuilder {
  std::string bytes;
  size_t base = 0;  // absolute file offset of the partition start
  // Constants already stored, by content hash: gear graphs share their weights.
  std::unordered_multimap<size_t, std::pair<size_t, size_t>> stored;  // hash -> (offset, n)
  size_t Add(const void* data, size_t n) {
    const std::string_view view(static_cast<const char*>(data), n);
    const size_t hash = std::hash<std::string_view>{}(view);
    auto range = stored.equal_range(hash);
    for (auto it = range.first; it != range.second; ++it)
      if (it->second.second == n && bytes.compare(it->second.first, n, view) == 0)
        return it->second.first;
    size_t abs = base + bytes.size();
    size_t pad = (kOmWeightAlign - abs % kOmWeightAlign) % kOmWeightAlign;
    bytes.append(pad, '\0');
    size_t off = bytes.size();
    bytes.append(static_cast<const char*>(data), n);
    stored.emplace(hash, std::make_pair(off, n));
    return off;
  }
};

void TensorToDef(const Tensor& t, ge::proto::TensorDef* def) {
  FillDesc("", t.dtype(), t.shape(), "ND", def->mutable_desc());
  def->mutable_desc()->set_weight_size(static_cast<int64_t>(t.nbytes()));
  def->set_data(static_cast<const char*>(t.data()), t.nbytes());
}

Status GraphToDef(const Graph& g, const MemoryPlan* plan, const OmWriteOptions& opt,
                  WeightsBuilder* weights, ge::proto::GraphDef* gd);

Status AttrToDef(const AttributeValue& v, const OmWriteOptions& opt, ge::proto::AttrDef* a) {
  using LV = ge::proto::AttrDef::ListValue;
  if (auto* i = std::get_if<int64_t>(&v)) {
    a->set_i(*i);
  } else if (auto* f = std::get_if<float>(&v)) {
    a->set_f(*f);
  } else if (auto* s = std::get_if<std::string>(&v)) {
    a->set_s(*s);
  } else if (auto* is = std::get_if<std::vector<int64_t>>(&v)) {
    auto* l = a->mutable_list();
    l->set_val_type(LV::VT_LIST_INT);
    for (int64_t x : *is) l->add_i(x);
  } else if (auto* fs = std::get_if<std::vector<float>>(&v)) {
    auto* l = a->mutable_list();
    l->set_val_type(LV::VT_LIST_FLOAT);
    for (float x : *fs) l->add_f(x);
  } else if (auto* ss = std::get_if<std::vector<std::string>>(&v)) {
    auto* l = a->mutable_list();
    l->set_val_type(LV::VT_LIST_STRING);
    for (const auto& x : *ss) l->add_s(x);
  } else if (auto* t = std::get_if<Tensor>(&v)) {
    TensorToDef(*t, a->mutable_t());
  } else if (auto* g = std::get_if<std::shared_ptr<Graph>>(&v)) {
    OC_RETURN_IF_ERROR(GraphToDef(**g, nullptr, opt, nullptr, a->mutable_g()));
  }
  return Status::Ok();
}

Status GraphToDef(const Graph& g, const MemoryPlan* plan, const OmWriteOptions& opt,
                  WeightsBuilder* weights, ge::proto::GraphDef* gd) {
  gd->set_name(g.name);
  // Where each value comes from, as GE's "op:index" edge strings.
  std::unordered_map<std::string, std::string> source;
  int64_t id = 0;
  for (size_t i = 0; i < g.inputs.size(); ++i) {
    const std::string& name = g.inputs[i];
    const ValueInfo* vi = g.FindValue(name);
    auto* op = gd->add_op();
    op->set_name(name);
    op->set_type("Data");
    op->set_id(id++);
    SetInt(op->mutable_attr(), "index", static_cast<int64_t>(i));
    std::string layout = LayoutFor(vi->shape, opt.input_format);
    FillDesc(name, vi->dtype, DescShape(*vi), layout, op->add_input_desc());
    auto* out = op->add_output_desc();
    FillDesc(name, vi->dtype, DescShape(*vi), layout, out);
    if (auto it = opt.dynamic_inputs.find(name); it != opt.dynamic_inputs.end()) {
      // The application's view: -1 dims, and for fully dynamic inputs their ranges as
      // GE keeps them (a flat list of min, max pairs).
      SetIntList(out->mutable_attr(), om_attrs::kDynamicDims, it->second.dims);
      std::vector<int64_t> flat;
      for (auto [lo, hi] : it->second.ranges) flat.insert(flat.end(), {lo, hi});
      if (!flat.empty()) SetIntList(out->mutable_attr(), "shape_range", flat);
    }
    gd->add_input(name + ":0");
    source[name] = name + ":0";
  }
  for (const auto& [name, t] : g.initializers) {
    if (!IsStatic(t.shape()))
      return Internal("constant [" + name + "] has the unknown shape " + ShapeToString(t.shape()));
    auto* op = gd->add_op();
    op->set_name(name);
    op->set_type("Const");
    op->set_id(id++);
    ge::proto::TensorDef* def = (*op->mutable_attr())["value"].mutable_t();
    FillDesc(name, t.dtype(), t.shape(), "ND", def->mutable_desc());
    def->mutable_desc()->set_weight_size(static_cast<int64_t>(t.nbytes()));
    if (weights) {
      def->mutable_desc()->set_data_offset(
          static_cast<int64_t>(weights->Add(t.data(), t.nbytes())));
    } else {
      def->set_data(static_cast<const char*>(t.data()), t.nbytes());
    }
    *op->add_output_desc() = def->desc();
    source[name] = name + ":0";
  }
  for (const auto& n : g.nodes)
    for (size_t k = 0; k < n.outputs.size(); ++k)
      if (!n.outputs[k].empty()) source[n.outputs[k]] = n.name + ":" + std::to_string(k);
  for (const auto& n : g.nodes) {
    auto* op = gd->add_op();
    op->set_name(n.name);
    op->set_type(n.op_type);
    op->set_id(id++);
    auto* attrs = op->mutable_attr();
    if (!n.domain.empty()) SetStr(attrs, om_attrs::kDomain, n.domain);
    SetStrList(attrs, om_attrs::kInputs, n.inputs);
    SetStrList(attrs, om_attrs::kOutputs, n.outputs);
    if (n.captured_inputs_begin >= 0)
      SetInt(attrs, om_attrs::kExplicitInputs, n.captured_inputs_begin);
    for (const auto& [k, v] : n.attrs.all()) OC_RETURN_IF_ERROR(AttrToDef(v, opt, &(*attrs)[k]));
    for (const auto& in : n.inputs) {
      if (in.empty()) continue;
      auto it = source.find(in);
      op->add_input(it == source.end() ? in : it->second);
      op->add_input_name(in);
      op->add_is_input_const(g.IsInitializer(in));
      const ValueInfo* vi = g.FindValue(in);
      if (vi) FillDesc(in, vi->dtype, DescShape(*vi), "ND", op->add_input_desc());
    }
    for (const auto& out : n.outputs) {
      auto* d = op->add_output_desc();
      const ValueInfo* vi = out.empty() ? nullptr : g.FindValue(out);
      if (vi) {
        FillDesc(out, vi->dtype, DescShape(*vi), "ND", d);
      } else {
        d->set_name(out);
      }
      if (plan) {
        auto it = plan->offsets.find(out);
        if (it != plan->offsets.end())
          SetInt(d->mutable_attr(), om_attrs::kMemOffset, static_cast<int64_t>(it->second));
      }
    }
  }
  auto* net = gd->add_op();
  net->set_name("Node_Output");
  net->set_type("NetOutput");
  net->set_id(id++);
  SetStrList(net->mutable_attr(), om_attrs::kInputs, g.outputs);
  for (const auto& out : g.outputs) {
    net->add_input(source.count(out) ? source[out] : out);
    const ValueInfo* vi = g.FindValue(out);
    if (vi) FillDesc(out, vi->dtype, DescShape(*vi), "ND", net->add_input_desc());
    gd->add_output(source.count(out) ? source[out] : out);
  }
  return Status::Ok();
}

}  // namespace

Result<std::string> SerializeOm(const std::vector<OmGraph>& graphs, const OmWriteOptions& options) {
  if (graphs.empty()) return InvalidArgument("no graph to write");
  const Graph& graph = graphs.front().graph;
  const size_t table_size = 8 + 2 * sizeof(OmPartitionEntry);
  WeightsBuilder weights;
  weights.base = kOmHeaderSize + table_size;  // weights partition comes first
  ge::proto::ModelDef model;
  model.set_name(graph.name);
  model.set_version(1);
  model.set_custom_version("OpenCANN " + std::string("0.1.0"));
  size_t memory_size = 0;
  for (const auto& og : graphs) {
    auto* gd = model.add_graph();
    OC_RETURN_IF_ERROR(GraphToDef(og.graph, &og.plan, options, &weights, gd));
    SetInt(gd->mutable_attr(), om_attrs::kArenaSize, static_cast<int64_t>(og.plan.arena_size));
    if (!og.gear.empty()) SetIntList(gd->mutable_attr(), om_attrs::kGear, og.gear);
    memory_size = std::max(memory_size, og.plan.arena_size);
  }
  auto* attrs = model.mutable_attr();
  SetStr(attrs, "soc_version", options.soc_version);
  SetInt(attrs, om_attrs::kOpset, graph.opset_version);
  SetInt(attrs, "memory_size", static_cast<int64_t>(memory_size));
  SetInt(attrs, "weight_size", static_cast<int64_t>(weights.bytes.size()));
  for (const auto& [k, v] : options.model_attrs) SetStr(attrs, k, v);
  for (const auto& [k, v] : graph.metadata)
    SetStr(attrs, std::string(om_attrs::kMetaPrefix) + k, v);
  // Deterministic: attribute maps in key order, so one model always gives the same bytes.
  std::string model_bytes;
  {
    google::protobuf::io::StringOutputStream raw(&model_bytes);
    google::protobuf::io::CodedOutputStream coded(&raw);
    coded.SetSerializationDeterministic(true);
    if (!model.SerializeToCodedStream(&coded) || coded.HadError())
      return Internal("failed to serialise the ModelDef (model over 2 GB?)");
  }

  std::string out(kOmHeaderSize, '\0');
  uint32_t num = 2, pad = 0;
  out.append(reinterpret_cast<const char*>(&num), 4);
  out.append(reinterpret_cast<const char*>(&pad), 4);
  OmPartitionEntry model_entry{static_cast<uint64_t>(OmPartitionType::kModelDef),
                               weights.bytes.size(), model_bytes.size()};
  OmPartitionEntry weight_entry{static_cast<uint64_t>(OmPartitionType::kWeightsData), 0,
                                weights.bytes.size()};
  out.append(reinterpret_cast<const char*>(&model_entry), sizeof(model_entry));
  out.append(reinterpret_cast<const char*>(&weight_entry), sizeof(weight_entry));
  out += weights.bytes;
  out += model_bytes;

  OmHeader h{};
  h.magic = kOmMagic;
  h.headsize = kOmHeaderSize;
  h.version = kOmVersion;
  const uint64_t body = out.size() - kOmHeaderSize;
  h.length = static_cast<uint32_t>(body);
  h.model_length = body;
  h.is_checksum = 0;
  h.modeltype = 0;
  h.genmode = 0;
  std::strncpy(h.name, graph.name.c_str(), sizeof(h.name) - 1);
  h.ops = static_cast<uint32_t>(graph.nodes.size());
  h.om_ir_version = 1;
  h.model_num = 1;
  std::strncpy(reinterpret_cast<char*>(h.platform_version), options.soc_version.c_str(),
               sizeof(h.platform_version) - 1);
  h.is_unknow_model = options.dynamic ? 1 : 0;
  h.checksum_kind = static_cast<uint8_t>(OmChecksumKind::kSha256Chunked);
  auto digest = Sha256Chunked(out.data() + kOmHeaderSize, body);
  std::memcpy(h.checksum, digest.data(), digest.size());
  std::memcpy(out.data(), &h, sizeof(h));
  return out;
}

Result<std::string> SerializeOm(const Graph& graph, const MemoryPlan& plan,
                                const OmWriteOptions& options) {
  std::vector<OmGraph> graphs(1);
  graphs[0].graph = graph;
  graphs[0].plan = plan;
  return SerializeOm(graphs, options);
}

Status WriteOmFile(const std::vector<OmGraph>& graphs, const OmWriteOptions& options,
                   const std::string& path) {
  OC_ASSIGN_OR_RETURN(std::string bytes, SerializeOm(graphs, options));
  return WriteFileAtomic(path, bytes);
}

}  // namespace oc
