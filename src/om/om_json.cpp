// atc --mode=1 (ModelDef as GE-style JSON) and --mode=6 (model summary).
#include <google/protobuf/descriptor.h>
#include <google/protobuf/reflection.h>

#include <nlohmann/json.hpp>
#include <set>
#include <sstream>

#include "base/file.h"
#include "ge_ir.pb.h"
#include "om/om_attrs.h"
#include "om/om_format.h"
#include "om/om_model.h"

namespace oc {
namespace {

namespace pb = google::protobuf;
using json = nlohmann::ordered_json;

// Fields GE's dump leaves out (bulk data and device-specific sizes).
const std::set<std::string> kSkipped = {"data",      "data_offset",     "weight_size", "size",
                                        "workspace", "workspace_bytes", "bt"};

json MessageToJson(const pb::Message& msg);

json ScalarToJson(const pb::Message& msg, const pb::FieldDescriptor* f, int index) {
  const pb::Reflection* r = msg.GetReflection();
  const bool rep = index >= 0;
  switch (f->cpp_type()) {
    case pb::FieldDescriptor::CPPTYPE_INT32:
      return rep ? r->GetRepeatedInt32(msg, f, index) : r->GetInt32(msg, f);
    case pb::FieldDescriptor::CPPTYPE_INT64:
      return rep ? r->GetRepeatedInt64(msg, f, index) : r->GetInt64(msg, f);
    case pb::FieldDescriptor::CPPTYPE_UINT32:
      return rep ? r->GetRepeatedUInt32(msg, f, index) : r->GetUInt32(msg, f);
    case pb::FieldDescriptor::CPPTYPE_UINT64:
      return rep ? r->GetRepeatedUInt64(msg, f, index) : r->GetUInt64(msg, f);
    case pb::FieldDescriptor::CPPTYPE_FLOAT:
      return rep ? r->GetRepeatedFloat(msg, f, index) : r->GetFloat(msg, f);
    case pb::FieldDescriptor::CPPTYPE_DOUBLE:
      return rep ? r->GetRepeatedDouble(msg, f, index) : r->GetDouble(msg, f);
    case pb::FieldDescriptor::CPPTYPE_BOOL:
      return rep ? r->GetRepeatedBool(msg, f, index) : r->GetBool(msg, f);
    case pb::FieldDescriptor::CPPTYPE_ENUM:
      return (rep ? r->GetRepeatedEnum(msg, f, index) : r->GetEnum(msg, f))->name();
    case pb::FieldDescriptor::CPPTYPE_STRING: {
      std::string s = rep ? r->GetRepeatedString(msg, f, index) : r->GetString(msg, f);
      // Binary bytes would make invalid UTF-8 JSON; keep text only.
      for (unsigned char c : s)
        if (c < 0x09 || (c > 0x0d && c < 0x20)) return "<" + std::to_string(s.size()) + " bytes>";
      return s;
    }
    case pb::FieldDescriptor::CPPTYPE_MESSAGE:
      return MessageToJson(rep ? r->GetRepeatedMessage(msg, f, index) : r->GetMessage(msg, f));
  }
  return nullptr;
}

json MessageToJson(const pb::Message& msg) {
  json out = json::object();
  const pb::Reflection* r = msg.GetReflection();
  std::vector<const pb::FieldDescriptor*> fields;
  r->ListFields(msg, &fields);
  for (const auto* f : fields) {
    if (kSkipped.count(f->name())) continue;
    if (f->is_map()) {
      // Maps as arrays of {"key":..., "value":...}, sorted for stable output.
      std::vector<std::pair<std::string, json>> entries;
      for (int i = 0; i < r->FieldSize(msg, f); ++i) {
        const pb::Message& e = r->GetRepeatedMessage(msg, f, i);
        const auto* kd = e.GetDescriptor()->FindFieldByName("key");
        const auto* vd = e.GetDescriptor()->FindFieldByName("value");
        entries.emplace_back(e.GetReflection()->GetString(e, kd), ScalarToJson(e, vd, -1));
      }
      std::sort(entries.begin(), entries.end(),
                [](const auto& a, const auto& b) { return a.first < b.first; });
      json arr = json::array();
      for (auto& [k, v] : entries) arr.push_back(json{{"key", k}, {"value", v}});
      out[f->name()] = arr;
    } else if (f->is_repeated()) {
      json arr = json::array();
      for (int i = 0; i < r->FieldSize(msg, f); ++i) arr.push_back(ScalarToJson(msg, f, i));
      out[f->name()] = arr;
    } else {
      out[f->name()] = ScalarToJson(msg, f, -1);
    }
  }
  return out;
}

Result<ge::proto::ModelDef> ReadModelDef(const std::string& path, OmHeader* header,
                                         size_t* weights) {
  OC_ASSIGN_OR_RETURN(auto file, MappedFile::Open(path));
  auto c = ParseOmContainer(file->data(), file->size());
  if (!c.ok()) return c.status().WithContext("model [" + path + "]");
  const OmPartitionView* mp = c->Find(OmPartitionType::kModelDef);
  const OmPartitionView* wp = c->Find(OmPartitionType::kWeightsData);
  ge::proto::ModelDef model;
  if (!mp || !model.ParseFromArray(mp->data, static_cast<int>(mp->size)))
    return ParseError("model [" + path + "]: the MODEL_DEF partition cannot be parsed");
  if (model.graph_size() < 1) return ParseError("model [" + path + "]: the model has no graph");
  if (header) *header = c->header;
  if (weights) *weights = wp ? wp->size : 0;
  return model;
}

}  // namespace

Result<std::string> OmToJson(const std::string& path) {
  OC_ASSIGN_OR_RETURN(auto model, ReadModelDef(path, nullptr, nullptr));
  return MessageToJson(model).dump(2) + "\n";
}

Result<std::string> GraphToJson(const Graph& graph) {
  OmWriteOptions options;
  OC_ASSIGN_OR_RETURN(std::string bytes, SerializeOm(graph, MemoryPlan{}, options));
  OC_ASSIGN_OR_RETURN(
      OmContainer c,
      ParseOmContainer(reinterpret_cast<const uint8_t*>(bytes.data()), bytes.size()));
  const OmPartitionView* mp = c.Find(OmPartitionType::kModelDef);
  ge::proto::ModelDef model;
  if (!mp || !model.ParseFromArray(mp->data, static_cast<int>(mp->size)))
    return Internal("the graph's ModelDef does not parse back");
  return MessageToJson(model).dump(2) + "\n";
}

Result<std::string> OmInfo(const std::string& path) {
  OmHeader h{};
  size_t weights = 0;
  OC_ASSIGN_OR_RETURN(auto model, ReadModelDef(path, &h, &weights));
  std::ostringstream os;
  auto attr = [&](const std::string& k) -> std::string {
    auto it = model.attr().find(k);
    if (it == model.attr().end()) return "";
    if (it->second.value_case() == ge::proto::AttrDef::kI) return std::to_string(it->second.i());
    return it->second.s();
  };
  os << "============ Display Model Info start ============\n";
  os << "Original Atc command line: " << attr("atc_cmdline") << "\n";
  os << "system   info: atc_version[OpenCANN 0.1.0], soc_version[" << attr("soc_version")
     << "], framework_type[" << attr("framework_type") << "]\n";
  if (const std::string npu = attr("npu_options"); !npu.empty()) {
    // "flag=value;..." -> "flag[value], ...", as the other lines show values.
    std::string shown;
    size_t pos = 0;
    while (pos <= npu.size()) {
      size_t end = npu.find(';', pos);
      if (end == std::string::npos) end = npu.size();
      const std::string item = npu.substr(pos, end - pos);
      const size_t eq = item.find('=');
      if (!item.empty())
        shown += (shown.empty() ? "" : ", ") + item.substr(0, eq) + "[" +
                 (eq == std::string::npos ? "" : item.substr(eq + 1)) + "]";
      pos = end + 1;
    }
    os << "npu      info: " << shown << "\n";
  }
  os << "resource info: memory_size[" << attr("memory_size") << " B], weight_size[" << weights
     << " B], stream_num[1], event_num[0]\n";
  os << "om       info: modeltype[" << int(h.modeltype) << "], name[" << model.name() << "], ops["
     << h.ops << "], dynamic[" << (h.is_unknow_model ? "yes" : "no") << "]\n";
  if (const std::string mode = attr(kDynamicModeAttr); !mode.empty()) {
    os << "dynamic  info: " << mode << " gears[";
    for (int i = 0; i < model.graph_size(); ++i) {
      auto it = model.graph(i).attr().find(om_attrs::kGear);
      if (it == model.graph(i).attr().end()) continue;
      os << (i ? ";" : "");
      for (int k = 0; k < it->second.list().i_size(); ++k)
        os << (k ? "," : "") << it->second.list().i(k);
    }
    os << "]\n";
  }
  if (model.graph_size() > 0) {
    const auto& g = model.graph(0);
    for (const auto& op : g.op()) {
      if (op.type() == "Data" && op.output_desc_size() > 0) {
        const auto& d = op.output_desc(0);
        // Dynamic inputs show the application's dims (-1) and their ranges.
        auto list = [&](const char* key) -> const ge::proto::AttrDef* {
          auto it = d.attr().find(key);
          return it == d.attr().end() ? nullptr : &it->second;
        };
        os << "input    info: name[" << op.name() << "], dtype["
           << ge::proto::DataType_Name(d.dtype()) << "], format[" << d.layout() << "], shape[";
        if (const auto* dyn = list(om_attrs::kDynamicDims)) {
          for (int i = 0; i < dyn->list().i_size(); ++i) os << (i ? "," : "") << dyn->list().i(i);
        } else {
          for (int i = 0; i < d.shape().dim_size(); ++i) os << (i ? "," : "") << d.shape().dim(i);
        }
        os << "]";
        if (const auto* range = list("shape_range")) {
          os << ", range[";
          for (int i = 0; i + 1 < range->list().i_size(); i += 2)
            os << (i ? "," : "") << range->list().i(i) << "~" << range->list().i(i + 1);
          os << "]";
        }
        os << "\n";
      }
    }
    for (const auto& op : g.op()) {
      if (op.type() != "NetOutput") continue;
      for (const auto& d : op.input_desc()) {
        os << "output   info: name[" << d.name() << "], dtype["
           << ge::proto::DataType_Name(d.dtype()) << "], shape[";
        for (int i = 0; i < d.shape().dim_size(); ++i) os << (i ? "," : "") << d.shape().dim(i);
        os << "]\n";
      }
    }
  }
  os << "============ Display Model Info end   ============\n";
  return os.str();
}

}  // namespace oc
