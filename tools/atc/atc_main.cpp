// atc: converts a model to an .om offline model (and inspects .om files).
// Thin: flags here, the work in the frontend, compiler and om libraries.
#include <cstdio>
#include <fstream>
#include <iostream>
#include <nlohmann/json.hpp>
#include <optional>
#include <sstream>

#include "base/file.h"
#include "base/log.h"
#include "cli/flags.h"
#include "cli/soc.h"
#include "driver/convert.h"

namespace oc {
namespace {

const std::set<std::string> kKnownFlags = {"mode",
                                           "model",
                                           "weight",
                                           "framework",
                                           "output",
                                           "soc_version",
                                           "input_shape",
                                           "input_format",
                                           "out_nodes",
                                           "output_type",
                                           "precision_mode",
                                           "insert_op_conf",
                                           "input_fp16_nodes",
                                           "keep_dtype",
                                           "modify_mixlist",
                                           "fusion_switch_file",
                                           "op_select_implmode",
                                           "optypelist_for_implmode",
                                           "log",
                                           "disable_reuse_memory",
                                           "om",
                                           "json",
                                           "check_report",
                                           "dynamic_batch_size",
                                           "dynamic_image_size",
                                           "dynamic_dims",
                                           "help",
                                           "h",
                                           "host_env_os",
                                           "host_env_cpu",
                                           "enable_small_channel",
                                           "buffer_optimize",
                                           "is_input_adjust_hw_layout",
                                           "is_output_adjust_hw_layout",
                                           "op_debug_level",
                                           "save_original_model",
                                           "dump_mode"};

void PrintHelp() {
  std::printf(
      "usage: atc <args>\n"
      "generate offline model example:\n"
      "atc --model=./alexnet.prototxt --weight=./alexnet.caffemodel --framework=0 "
      "--output=./domi --soc_version=<soc_version>\n"
      "generate offline model for single op example:\n"
      "atc --model=resnet50.onnx --framework=5 --output=resnet50 --soc_version=Ascend910B3 "
      "--input_shape=\"input:1,3,224,224\"\n\n"
      "===== Basic Functionality =====\n"
      "  --mode                 0: build .om (default); 1: .om to json; 3: pre-check only; 6: show "
      ".om info\n"
      "  --model                Model file\n"
      "  --weight               Weight file (Caffe)\n"
      "  --om                   The .om model for --mode=1 or --mode=6\n"
      "  --framework            0:Caffe; 1:MindSpore; 3:Tensorflow; 5:Onnx\n"
      "  --output               Output file path and name (without .om)\n"
      "  --json                 JSON output file for --mode=1\n"
      "  --soc_version          The soc version, e.g. Ascend910B3, Ascend310P3\n"
      "  --input_shape          \"input_name1:n1,c1,h1,w1;input_name2:n2,c2,h2,w2\"\n"
      "  --input_format         NCHW, NHWC, ND, NCDHW, NDHWC (default NCHW)\n"
      "  --precision_mode       force_fp16 (default), force_fp32, allow_fp32_to_fp16,\n"
      "                         must_keep_origin_dtype, allow_mix_precision, ...\n"
      "  --fusion_switch_file   File of lines \"PassName:off\"\n"
      "  --disable_reuse_memory 1: every buffer gets its own memory; 0 (default): reuse\n"
      "  --log                  debug, info, warning, error, null (default)\n"
      "  --check_report         Report file of --mode=3 (default check_result.json)\n");
}

int Fail(const Status& s) {
  std::printf(
      "ATC run failed, Please check the detail log, Try 'atc --help' for more information\n");
  if (!s.cann_code().empty())
    std::printf("%s: %s\n", s.cann_code().c_str(), s.message().c_str());
  else
    std::printf("E19999: Inner Error! %s\n", s.message().c_str());
  std::fflush(stdout);
  return 1;
}

Status Invalid(const std::string& value, const std::string& param, const std::string& reason) {
  return InvalidArgument(
      "Value [" + value + "] for parameter [--" + param + "] is invalid. Reason: " + reason,
      "E10001");
}

Result<std::set<std::string>> ReadFusionSwitch(const std::string& path) {
  OC_ASSIGN_OR_RETURN(std::string text, ReadFile(path));
  std::set<std::string> off;
  std::istringstream in(text);
  std::string line;
  auto names = PipelinePassNames();
  while (std::getline(in, line)) {
    if (line.empty() || line[0] == '#') continue;
    auto colon = line.find(':');
    if (colon == std::string::npos)
      return Invalid(path, "fusion_switch_file", "line [" + line + "] is not \"PassName:off\"");
    std::string name = line.substr(0, colon), v = line.substr(colon + 1);
    while (!v.empty() && (v.back() == ' ' || v.back() == '\r')) v.pop_back();
    if (v == "off") off.insert(name);
  }
  return off;
}

Status CheckCommon(const Flags& f) {
  if (f.Has("log")) {
    LogLevel level;
    if (!ParseLogLevel(f.Get("log"), &level))
      return InvalidArgument("Value [" + f.Get("log") +
                                 "] for parameter [--log] is invalid. "
                                 "The value must be debug, info, warning, error or null.",
                             "E10010");
    SetLogLevel(level);
  }
  return Status::Ok();
}

// Every conversion flag, checked, into the driver's options.
Result<ConvertOptions> CheckConvertFlags(const Flags& f) {
  ConvertOptions o;
  if (!f.Has("framework"))
    return InvalidArgument(
        "[--framework] is required. The value must be [0(Caffe) or 1(MindSpore) "
        "or 3(TensorFlow) or 5(Onnx)].",
        "E10007");
  o.framework = f.Get("framework");
  const std::string& fw = o.framework;
  if (fw != "0" && fw != "1" && fw != "3" && fw != "5")
    return InvalidArgument("[--framework] is invalid: [" + fw +
                               "]. The value must be [0(Caffe) or "
                               "1(MindSpore) or 3(TensorFlow) or 5(Onnx)].",
                           "E10007");
  if (f.Get("model").empty()) return InvalidArgument("Value for --model is empty.", "E10004");
  if (!f.Has("soc_version") || f.Get("soc_version").empty())
    return InvalidArgument("Value for --soc_version is empty.", "E10004");
  o.soc_version = f.Get("soc_version");
  if (!FindSoc(o.soc_version)) {
    std::string names;
    for (const auto& n : SocNames()) names += (names.empty() ? "" : ", ") + n;
    return Invalid(o.soc_version, "soc_version",
                   "it is not a supported chip. Supported: " + names + ".");
  }
  if (fw == "0" && !f.Has("weight"))
    return InvalidArgument("Input parameter[--weight]'s value is empty when framework is 0(Caffe).",
                           "E10008");
  // Which frameworks this build reads is the frontend registry's answer (driver).
  o.model = f.Get("model");
  o.weight = f.Get("weight");
  o.command_line = f.command_line();
  o.input_format = f.Get("input_format", "NCHW");
  const std::string& fmt = o.input_format;
  if (fmt != "NCHW" && fmt != "NHWC" && fmt != "ND" && fmt != "NCDHW" && fmt != "NDHWC")
    return Invalid(fmt, "input_format", "the value must be NCHW, NHWC, ND, NCDHW or NDHWC.");
  o.precision_mode = f.Get("precision_mode", "force_fp16");
  static const std::set<std::string> kPrecisions = {"force_fp16",
                                                    "force_fp32",
                                                    "cube_fp16in_fp32out",
                                                    "allow_fp32_to_fp16",
                                                    "must_keep_origin_dtype",
                                                    "allow_mix_precision",
                                                    "allow_mix_precision_fp16",
                                                    "allow_mix_precision_bf16",
                                                    "allow_fp32_to_bf16"};
  if (!kPrecisions.count(o.precision_mode))
    return Invalid(o.precision_mode, "precision_mode", "unknown precision mode.");
  if (f.Has("disable_reuse_memory")) {
    const std::string v = f.Get("disable_reuse_memory");
    if (v != "0" && v != "1")
      return Invalid(v, "disable_reuse_memory", "the value must be 0 or 1.");
    o.compile.reuse_memory = v == "0";
  }
  if (f.Has("fusion_switch_file")) {
    OC_ASSIGN_OR_RETURN(o.compile.disabled_passes, ReadFusionSwitch(f.Get("fusion_switch_file")));
  }
  if (f.Has("input_shape")) {
    OC_ASSIGN_OR_RETURN(o.shapes, ParseInputShapes(f.Get("input_shape")));
  }
  const char* gear_flags[] = {"dynamic_batch_size", "dynamic_image_size", "dynamic_dims"};
  std::string texts[3];
  const std::string* given[3] = {nullptr, nullptr, nullptr};
  for (int i = 0; i < 3; ++i)
    if (f.Has(gear_flags[i])) {
      texts[i] = f.Get(gear_flags[i]);
      given[i] = &texts[i];
    }
  if (given[0] || given[1] || given[2]) {
    OC_ASSIGN_OR_RETURN(o.gears, ParseGearOption(given[0], given[1], given[2]));
    if (o.shapes.empty())
      return InvalidArgument("Parameter [--" +
                                 std::string(gear_flags[static_cast<int>(o.gears->kind)]) +
                                 "] needs [--input_shape] with -1 at the dimensions the gears set.",
                             "E10001");
  }
  return o;
}

Status Build(const Flags& f) {
  if (!f.Has("output") || f.Get("output").empty())
    return InvalidArgument("Value for --output is empty.", "E10004");
  const std::string output = f.Get("output");
  if (output.size() > 4000)
    return InvalidArgument(
        "Path [" + output.substr(0, 64) + "...] for parameter [--output] is too long.", "E10021");
  if (output.back() == '/')
    return InvalidArgument("Path [" + output + "] for parameter [--output] has no file name.",
                           "E10022");
  OC_ASSIGN_OR_RETURN(ConvertOptions o, CheckConvertFlags(f));
  return ConvertToOmFile(o, output + ".om");
}

Status DumpJson(const Flags& f) {
  if (f.Get("om").empty()) return InvalidArgument("Value for --om is empty.", "E10004");
  if (f.Get("json").empty()) return InvalidArgument("Value for --json is empty.", "E10004");
  OC_ASSIGN_OR_RETURN(std::string json, OmToJson(f.Get("om")));
  return WriteFileAtomic(f.Get("json"), json);
}

Status ShowInfo(const Flags& f) {
  if (f.Get("om").empty()) return InvalidArgument("Value for --om is empty.", "E10004");
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
  Status s = o.ok() ? Convert(o.value()).status() : o.status();
  if (!s.ok()) {
    result = "failed";
    detail = s.ToString();
  }
  nlohmann::ordered_json json;
  json["model"] = f.Get("model");
  json["result"] = result;
  json["detail"] = detail;
  OC_RETURN_IF_ERROR(WriteFileAtomic(report, json.dump(2) + "\n"));
  return s;
}

int Main(int argc, char** argv) {
  std::printf("ATC start working now, please wait for a moment.\n");
  std::fflush(stdout);
  auto flags = Flags::Parse(argc, argv, kKnownFlags, {"help", "h"});
  if (!flags.ok()) return Fail(flags.status());
  const Flags& f = flags.value();
  if (f.Has("help") || f.Has("h") || argc == 1) {
    PrintHelp();
    return argc == 1 ? 1 : 0;
  }
  Status s = CheckCommon(f);
  if (!s.ok()) return Fail(s);
  const std::string mode = f.Get("mode", "0");
  if (mode == "0") {
    s = Build(f);
  } else if (mode == "1") {
    s = DumpJson(f);
  } else if (mode == "3") {
    s = PreCheck(f);
  } else if (mode == "6") {
    s = ShowInfo(f);
  } else {
    s = Invalid(mode, "mode", "the value must be 0, 1, 3 or 6.");
  }
  if (!s.ok()) return Fail(s);
  std::printf("ATC run success, welcome to the next use.\n");
  return 0;
}

}  // namespace
}  // namespace oc

int main(int argc, char** argv) {
  // Last line of defence: a C++ exception from a dependency must end in an ATC error
  // message, never in std::terminate.
  try {
    return oc::Main(argc, argv);
  } catch (const std::exception& e) {
    return oc::Fail(oc::Internal(std::string("unexpected failure: ") + e.what()));
  }
}
