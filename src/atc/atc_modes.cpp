// atc's modes (atc/atc_modes.h): the checked flags handed to the driver, the results
// written or printed.
#include "atc/atc_modes.h"

#include <cstdio>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "atc/atc_options.h"
#include "base/file.h"
#include "driver/convert.h"
#include "driver/single_op.h"
#include "runtime/model.h"

namespace oc {
namespace {

// "atc succeeded" means "the runtime loads it": the written file goes through the loader
// (its checks, placement and kernel preparation on this machine's backends) before it takes
// its name. A refusal here is a model the compiler should have refused itself, reported
// with the loader's reason.
Status CheckRuntimeLoads(const std::string& written, const std::string& final_path) {
  auto model = Model::LoadFile(written);
  if (model.ok()) return Status::Ok();
  const Status& s = model.status();
  // The loader names the file it read: the temporary one, which the user never sees.
  std::string message = s.message();
  for (size_t at = message.find(written); at != std::string::npos;
       at = message.find(written, at + final_path.size()))
    message.replace(at, written.size(), final_path);
  return Status(
      s.code(),
      "the converted model would not load in the runtime, so no .om is written: " + message,
      s.cann_code());
}

Status Build(const Flags& f) {
  OC_RETURN_IF_ERROR(CheckOutputFlag(f));
  const std::string output = f.Get("output");
  OC_ASSIGN_OR_RETURN(ConvertOptions o, CheckConvertFlags(f));
  std::vector<std::string> warnings;
  const std::string om_path = output + ".om";
  Status s = ConvertToOmFile(o, om_path, &warnings, [&](const std::string& written) {
    return CheckRuntimeLoads(written, om_path);
  });
  for (const auto& w : warnings) std::printf("[WARNING] %s\n", w.c_str());
  return s;
}

// --singleop=ops.json --output=DIR --soc_version=...: one .om per op description, named as
// CANN names them, for aclopSetModelDir / aclopLoad.
Status BuildSingleOps(const Flags& f) {
  OC_ASSIGN_OR_RETURN(ConvertOptions o, CheckSingleOpFlags(f));
  // The NPU tuning flags' warnings, once for all the ops (each .om records the flags).
  for (const auto& w : o.option_warnings) std::printf("[WARNING] %s\n", w.c_str());
  auto text = ReadFile(f.Get("singleop"));
  if (!text.ok()) return InvalidFlag(f.Get("singleop"), "singleop", "the file cannot be read.");
  OC_ASSIGN_OR_RETURN(std::vector<SingleOp> ops, ParseSingleOpJson(text.value()));
  const std::string dir = f.Get("output");
  OC_RETURN_IF_ERROR(CreateDirectories(dir));
  for (size_t i = 0; i < ops.size(); ++i) {
    auto bytes = CompileSingleOp(ops[i], o);
    if (!bytes.ok())
      return Status(
          bytes.status().code(),
          "op " + std::to_string(i) + " (" + ops[i].type + "): " + bytes.status().message(),
          bytes.status().cann_code());
    const std::string path = dir + "/" + SingleOpFileName(i, ops[i]);
    OC_RETURN_IF_ERROR(WriteFileAtomic(path, bytes.value()));
    std::printf("[INFO] op %zu (%s): %s\n", i, ops[i].type.c_str(), path.c_str());
  }
  return Status::Ok();
}

Status DumpJson(const Flags& f) {
  OC_RETURN_IF_ERROR(CheckJsonFlags(f));
  if (!f.Has("framework")) {
    OC_ASSIGN_OR_RETURN(std::string json, OmToJson(f.Get("om")));
    return WriteFileAtomic(f.Get("json"), json);
  }
  // With --framework, --om names a source model (a prototxt, an ONNX file): its graph as
  // the frontend reads it, in the same GE JSON form.
  ConvertOptions o;
  o.framework = f.Get("framework");
  o.model = f.Get("om");
  o.weight = f.Get("weight");
  OC_ASSIGN_OR_RETURN(Graph graph, ImportModel(o));
  OC_ASSIGN_OR_RETURN(std::string json, GraphToJson(graph));
  return WriteFileAtomic(f.Get("json"), json);
}

Status ShowInfo(const Flags& f) {
  OC_RETURN_IF_ERROR(CheckOmFlag(f));
  OC_ASSIGN_OR_RETURN(std::string info, OmInfo(f.Get("om")));
  std::fputs(info.c_str(), stdout);
  return Status::Ok();
}

// --mode=3: run the conversion without writing an .om; report what would fail.
Status PreCheck(const Flags& f) {
  const std::string report = f.Get("check_report", "check_result.json");
  std::string result = "success", detail;
  // The same checks and compilation as --mode=0, without writing the model.
  auto o = CheckConvertFlags(f);
  Status s = o.status();
  if (o.ok()) {
    auto c = Convert(o.value());
    s = c.status();
    if (c.ok())
      for (const auto& w : c->warnings) std::printf("[WARNING] %s\n", w.c_str());
  }
  if (!s.ok()) {
    result = "failed";
    detail = s.ToString();
  }
  nlohmann::ordered_json json;
  json["model"] = f.Get("model");
  json["result"] = result;
  json["detail"] = detail;
  // Every op of the source model, supported or not and why: the list a port plans with.
  if (o.ok()) {
    auto survey = SurveyModel(o.value());
    if (survey.ok()) {
      size_t unsupported = 0;
      auto& ops = json["ops"] = nlohmann::ordered_json::array();
      for (const auto& op : survey.value()) {
        nlohmann::ordered_json j;
        j["name"] = op.name;
        j["type"] = op.type;
        j["supported"] = op.supported;
        if (!op.supported) {
          j["reason"] = op.reason;
          ++unsupported;
          std::printf("[ERROR] op [%s] (%s) is not supported: %s\n", op.name.c_str(),
                      op.type.c_str(), op.reason.c_str());
        }
        ops.push_back(std::move(j));
      }
      json["summary"] = {{"ops", survey->size()},
                         {"supported", survey->size() - unsupported},
                         {"unsupported", unsupported}};
      std::printf("pre-check: %zu ops, %zu supported, %zu not supported (report: %s)\n",
                  survey->size(), survey->size() - unsupported, unsupported, report.c_str());
    }
  }
  OC_RETURN_IF_ERROR(WriteFileAtomic(report, json.dump(2) + "\n"));
  return s;
}

}  // namespace

Status RunAtc(const Flags& f) {
  OC_ASSIGN_OR_RETURN(AtcMode mode, CheckAtcFlags(f));
  switch (mode) {
    case AtcMode::kBuild:
      return Build(f);
    case AtcMode::kSingleOp:
      return BuildSingleOps(f);
    case AtcMode::kToJson:
      return DumpJson(f);
    case AtcMode::kPreCheck:
      return PreCheck(f);
    case AtcMode::kShowInfo:
      return ShowInfo(f);
  }
  return Internal("unknown atc mode");  // not reached: the switch names every mode
}

}  // namespace oc
