// Dump files (aclInit "dump", from an NPU or from OpenCANN) as a capture: each output that
// names its source op and output index stands for the reference's value of that op and index.
#include <algorithm>
#include <filesystem>
#include <sstream>

#include "base/file.h"
#include "compare/compare_internal.h"
#include "dump/dump_file.h"
#include "ir/graph.h"

namespace oc::compare_internal {

Result<std::shared_ptr<CaptureObserver>> LoadDumpCapture(const std::string& dir,
                                                         const Model& reference) {
  std::map<std::pair<std::string, int64_t>, std::string> value_of;
  std::map<std::string, std::string> type_of;
  for (const Graph* g : reference.Graphs())
    for (const auto& n : g->nodes) {
      type_of[n.name] = n.op_type;
      for (size_t k = 0; k < n.outputs.size(); ++k)
        value_of[{n.name, static_cast<int64_t>(k)}] = n.outputs[k];
    }
  std::error_code ec;
  std::vector<std::pair<uint64_t, std::filesystem::path>> files;
  bool subfolders = false;
  for (const auto& e : std::filesystem::directory_iterator(dir, ec)) {
    if (e.is_directory()) subfolders = true;
    if (!e.is_regular_file() || e.path().extension() == ".npy") continue;
    // {OpType}.{OpName}.{task_id}.{timestamp}: executed in task order.
    const std::string name = e.path().filename().string();
    std::vector<std::string> parts;
    std::stringstream ss(name);
    for (std::string p; std::getline(ss, p, '.');) parts.push_back(p);
    uint64_t task = 0;
    if (parts.size() >= 4 && !parts[2].empty() &&
        parts[2].find_first_not_of("0123456789") == std::string::npos && parts[2].size() < 10)
      task = std::stoull(parts[2]);
    files.emplace_back(task, e.path());
  }
  if (ec) return NotFound("cannot read the dump folder " + dir + ": " + ec.message());
  if (files.empty())
    return InvalidArgument("no dump files in " + dir +
                           (subfolders ? " (give the folder of one execution: "
                                         "{dump_path}/{time}/{device}/{model}/{model_id}/{n})"
                                       : ""));
  std::sort(files.begin(), files.end());
  auto capture = std::make_shared<CaptureObserver>();
  size_t order = 0, matched = 0;
  for (const auto& [task, path] : files) {
    OC_ASSIGN_OR_RETURN(std::string bytes, ReadFile(path.string()));
    auto rec = DecodeDumpFile(bytes);
    if (!rec.ok()) return rec.status().WithContext(path.string());
    const std::string file = path.filename().string();
    const std::string op_type = file.substr(0, file.find('.'));
    for (const auto& t : rec->outputs) {
      if (t.original_name.empty()) continue;
      auto v = value_of.find({t.original_name, t.original_index});
      if (v == value_of.end()) continue;
      if (t.dtype != DataType::kFloat && t.dtype != DataType::kFloat16 &&
          t.dtype != DataType::kBFloat16)
        continue;
      Captured c;
      c.shape = t.shape;
      c.dtype = t.dtype;
      // A rounding step stands for the op whose result it rounds.
      c.op_name = op_type == "RoundTo" ? t.original_name : rec->op_name;
      c.op_type = op_type == "RoundTo" ? type_of[t.original_name] : op_type;
      c.order = order++;
      c.values = FloatValues(t.dtype, t.bytes.data(), t.bytes.size() / DataTypeSize(t.dtype));
      capture->tensors[v->second] = std::move(c);
      ++matched;
    }
  }
  if (matched == 0)
    return InvalidArgument("none of the " + std::to_string(files.size()) + " dump files in " + dir +
                           " has an output that names an op of the source model (dump_mode "
                           "output or all, from a model converted from this source)");
  return capture;
}

}  // namespace oc::compare_internal
