#include "driver/model_io.h"

#include <algorithm>
#include <map>

namespace oc {
namespace {

Status BadValue(const std::string& flag, const std::string& value, const std::string& why) {
  return InvalidArgument(
      "Value [" + value + "] for parameter [--" + flag + "] is invalid. Reason: " + why, "E10001");
}

Status NotInModel(const std::string& flag, const std::string& name) {
  return InvalidArgument("Opname [" + name + "] specified in [--" + flag +
                             "] is not found in the model; check the name and that entries "
                             "are separated by ';'.",
                         "E10016");
}

std::vector<std::string> SplitList(const std::string& s, char sep) {
  std::vector<std::string> out;
  size_t pos = 0;
  while (pos <= s.size()) {
    size_t next = s.find(sep, pos);
    if (next == std::string::npos) next = s.size();
    std::string item = s.substr(pos, next - pos);
    while (!item.empty() && item.front() == ' ') item.erase(item.begin());
    while (!item.empty() && item.back() == ' ') item.pop_back();
    if (!item.empty()) out.push_back(item);
    pos = next + 1;
  }
  return out;
}

// "name:index" -> the value that output `index` of node `name` holds.
Result<std::string> NodeOutput(const Graph& graph, const std::string& flag,
                               const std::string& entry, std::string* rest) {
  // The node name may itself hold ':' (rare): the index is after the last one we expect.
  size_t colon = entry.find(':');
  if (colon == std::string::npos || colon == 0)
    return BadValue(flag, entry, "entries are \"node:output_index\".");
  const std::string name = entry.substr(0, colon);
  std::string tail = entry.substr(colon + 1);
  size_t more = tail.find(':');
  const std::string index_text = tail.substr(0, more);
  if (rest) *rest = more == std::string::npos ? "" : tail.substr(more + 1);
  if (index_text.empty() || index_text.find_first_not_of("0123456789") != std::string::npos ||
      index_text.size() > 6)
    return BadValue(flag, entry, "the output index must be a number.");
  const size_t index = std::stoul(index_text);
  for (const auto& n : graph.nodes) {
    if (n.name != name) continue;
    if (index >= n.outputs.size() || n.outputs[index].empty())
      return BadValue(flag, entry,
                      "node [" + name + "] has " + std::to_string(n.outputs.size()) + " outputs.");
    return n.outputs[index];
  }
  return NotInModel(flag, name);
}

// Inserts Cast(from -> to_dtype) writing `value` for graph outputs: the producer's result
// moves to a new name that internal consumers keep reading.
void CastGraphOutput(Graph& graph, const std::string& value, DataType to) {
  const std::string raw = graph.UniqueValueName(value + "_before_cast");
  for (auto& n : graph.nodes) {
    for (auto& out : n.outputs)
      if (out == value) out = raw;
    for (auto& in : n.inputs)
      if (in == value) in = raw;
  }
  graph.values[raw] = graph.values[value];
  Node cast;
  cast.name = value + "_output_type";
  cast.op_type = "Cast";
  cast.inputs = {raw};
  cast.outputs = {value};
  cast.attrs.Set("to", static_cast<int64_t>(to));
  graph.values[value].dtype = to;
  graph.nodes.push_back(std::move(cast));
}

}  // namespace

Status ApplyOutNodes(Graph& graph, const std::string& spec) {
  std::vector<std::string> outputs;
  for (const auto& entry : SplitList(spec, ';')) {
    OC_ASSIGN_OR_RETURN(std::string v, NodeOutput(graph, "out_nodes", entry, nullptr));
    if (std::find(outputs.begin(), outputs.end(), v) == outputs.end()) outputs.push_back(v);
  }
  if (outputs.empty()) return BadValue("out_nodes", spec, "it names no node output.");
  graph.outputs = std::move(outputs);
  return Status::Ok();
}

Status ApplyInputFp16Nodes(Graph& graph, const std::string& spec) {
  for (const auto& name : SplitList(spec, ';')) {
    if (std::find(graph.inputs.begin(), graph.inputs.end(), name) == graph.inputs.end())
      return NotInModel("input_fp16_nodes", name);
    ValueInfo& vi = graph.values[name];
    if (vi.dtype == DataType::kFloat16) continue;
    if (vi.dtype != DataType::kFloat)
      return BadValue("input_fp16_nodes", name,
                      std::string("the input is ") + DataTypeName(vi.dtype) + ", not float32.");
    const std::string widened = graph.UniqueValueName(name + "_fp32");
    for (auto& n : graph.nodes)
      for (auto& in : n.inputs)
        if (in == name) in = widened;
    for (auto& out : graph.outputs)
      if (out == name) out = widened;
    graph.values[widened] = vi;
    vi.dtype = DataType::kFloat16;
    Node cast;
    cast.name = name + "_input_fp16";
    cast.op_type = "Cast";
    cast.inputs = {name};
    cast.outputs = {widened};
    cast.attrs.Set("to", static_cast<int64_t>(DataType::kFloat));
    graph.nodes.insert(graph.nodes.begin(), std::move(cast));
  }
  return Status::Ok();
}

Status ApplyOutputType(Graph& graph, const std::string& spec) {
  auto parse_type = [&](const std::string& t) -> Result<DataType> {
    if (t == "FP32") return DataType::kFloat;
    if (t == "FP16") return DataType::kFloat16;
    if (t == "UINT8")
      return BadValue("output_type", t,
                      "OpenCANN does not support UINT8 outputs (CANN's float-to-uint8 rounding "
                      "and saturation are not documented); use FP32 or FP16.");
    return BadValue("output_type", t, "the type must be FP32, FP16 or UINT8.");
  };
  std::map<std::string, DataType> wanted;  // graph output value -> dtype
  if (spec.find(':') == std::string::npos) {
    OC_ASSIGN_OR_RETURN(DataType to, parse_type(spec));
    for (const auto& o : graph.outputs) {
      const ValueInfo* vi = graph.FindValue(o);
      if (vi && (vi->dtype == DataType::kFloat || vi->dtype == DataType::kFloat16)) wanted[o] = to;
    }
  } else {
    for (const auto& entry : SplitList(spec, ';')) {
      std::string type;
      OC_ASSIGN_OR_RETURN(std::string v, NodeOutput(graph, "output_type", entry, &type));
      OC_ASSIGN_OR_RETURN(DataType to, parse_type(type));
      if (std::find(graph.outputs.begin(), graph.outputs.end(), v) == graph.outputs.end())
        return BadValue("output_type", entry, "that node output is not an output of the model.");
      wanted[v] = to;
    }
  }
  for (const auto& [value, to] : wanted) {
    const ValueInfo* vi = graph.FindValue(value);
    if (!vi || vi->dtype == to) continue;
    if (vi->dtype != DataType::kFloat && vi->dtype != DataType::kFloat16)
      return BadValue("output_type", value, "only float outputs change type.");
    CastGraphOutput(graph, value, to);
  }
  return Status::Ok();
}

}  // namespace oc
