// atc's flag checks (atc/atc_options.h): every value validated before any work is done.
#include "atc/atc_options.h"

#include <algorithm>
#include <cstdio>
#include <nlohmann/json.hpp>
#include <sstream>
#include <vector>

#include "atc/npu_options.h"
#include "base/file.h"
#include "base/log.h"
#include "cli/soc.h"
#include "compiler/compiler.h"
#include "compiler/precision.h"

namespace oc {
namespace {

// The passes a fusion switch may turn off: every pipeline pass but shape inference.
// "ALL" in CANN's JSON form means every fusion (the rewrites that merge nodes).
bool IsFusionPass(const std::string& name) {
  return name.rfind("Fuse", 0) == 0 || name == "FoldBatchNormIntoConv";
}

void WarnUnknownPass(const std::string& name, const std::string& path) {
  std::string known;
  for (const auto& p : PipelinePassNames())
    if (p != "InferShapes") known += (known.empty() ? "" : ", ") + p;
  std::printf("[WARNING] --fusion_switch_file %s: no pass is named [%s]; ignored. The passes: %s\n",
              path.c_str(), name.c_str(), known.c_str());
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

// Flags of CANN's atc whose effect OpenCANN does not reproduce. Nothing is accepted for
// nothing: each is refused with E10001 naming it, unless it has the value that means what
// OpenCANN does anyway (its default, "off"). The flags that only choose the NPU's
// implementations are atc/npu_options.h's.
struct UnsupportedFlag {
  const char* flag;
  std::vector<std::string> accepted;
  const char* what;
};

const UnsupportedFlag kUnsupportedFlags[] = {
    {"is_input_adjust_hw_layout", {"false"}, "hardware-layout (NC1HWC0) model inputs"},
    {"is_output_adjust_hw_layout", {"false"}, "hardware-layout (NC1HWC0) model outputs"},
    {"op_debug_level", {"0"}, "operator debug builds"},
    {"save_original_model", {"false"}, "saving the original model beside the .om"},
    {"dump_mode", {"0"}, "models built for dumping operator shapes"},
    {"host_env_os", {"linux"}, "host operating systems other than Linux"},
    // The .om holds no host code: it runs on either.
    {"host_env_cpu", {"x86_64", "aarch64"}, "host CPUs other than x86_64 and aarch64"},
};

Status CheckUnsupportedFlags(const Flags& f, const std::string& mode) {
  for (const auto& u : kUnsupportedFlags) {
    if (!f.Has(u.flag)) continue;
    const std::string v = f.Get(u.flag);
    bool ok = false;
    std::string list;
    for (const auto& a : u.accepted) {
      ok = ok || v == a;
      list += (list.empty() ? "" : ", ") + a;
    }
    if (!ok)
      return InvalidFlag(v, u.flag,
                         std::string("OpenCANN does not support ") + u.what +
                             (list.empty() ? "." : "; the value it takes is " + list + "."));
  }
  // The NPU's implementation, memory and fusion choices: checked, recorded, announced.
  OC_RETURN_IF_ERROR(CheckNpuOptions(f).status());
  // Flags of one mode are refused in the others rather than ignored.
  struct ModeFlag {
    const char* flag;
    std::set<std::string> modes;
  };
  for (const ModeFlag& m :
       {ModeFlag{"om", {"1", "6"}}, ModeFlag{"json", {"1"}}, ModeFlag{"check_report", {"3"}}})
    if (f.Has(m.flag) && !m.modes.count(mode))
      return InvalidFlag(f.Get(m.flag), m.flag,
                         "it applies to --mode=" + *m.modes.begin() +
                             (m.modes.size() > 1 ? " or --mode=" + *m.modes.rbegin() : "") +
                             ", not --mode=" + mode + ".");
  if (f.Has("weight") && f.Get("framework", "") != "0")
    return InvalidFlag(f.Get("weight"), "weight", "it is only for --framework=0 (Caffe).");
  return Status::Ok();
}

// --precision_mode / --precision_mode_v2, --keep_dtype, --modify_mixlist.
Status CheckPrecisionFlags(const Flags& f, const std::string& soc, PrecisionOptions* p) {
  if (f.Has("precision_mode") && f.Has("precision_mode_v2"))
    return InvalidArgument(
        "Parameters [--precision_mode] and [--precision_mode_v2] cannot be used together.",
        "E10001");
  if (f.Has("precision_mode")) {
    OC_ASSIGN_OR_RETURN(*p, ParsePrecisionMode(f.Get("precision_mode"), false));
  } else if (f.Has("precision_mode_v2")) {
    OC_ASSIGN_OR_RETURN(*p, ParsePrecisionMode(f.Get("precision_mode_v2"), true));
  } else {
    // One line, so nobody mistakes the CPU default for the NPU's.
    std::printf(
        "[INFO] no --precision_mode: OpenCANN computes in the model's dtypes (float32; "
        "must_keep_origin_dtype). An NPU's default is force_fp16: give it to see its "
        "numerics.\n");
  }
  const std::string& name = p->name;
  if (name.find("bf16") != std::string::npos || name.find("bfloat16") != std::string::npos) {
    const SocInfo* s = FindSoc(soc);
    if (s && std::string(s->name).rfind("Ascend310", 0) == 0)
      return InvalidFlag(name, f.Has("precision_mode") ? "precision_mode" : "precision_mode_v2",
                         soc + " has no bfloat16.");
  }
  if (f.Has("keep_dtype")) {
    auto text = ReadFile(f.Get("keep_dtype"));
    if (!text.ok())
      return InvalidFlag(f.Get("keep_dtype"), "keep_dtype", "the file cannot be read.");
    OC_RETURN_IF_ERROR(ParseKeepDtype(text.value(), p));
  }
  if (f.Has("customize_dtypes")) {
    auto text = ReadFile(f.Get("customize_dtypes"));
    if (!text.ok())
      return InvalidFlag(f.Get("customize_dtypes"), "customize_dtypes", "the file cannot be read.");
    OC_RETURN_IF_ERROR(ParseCustomizeDtypes(text.value(), p));
  }
  if (f.Has("modify_mixlist")) {
    auto text = ReadFile(f.Get("modify_mixlist"));
    if (!text.ok())
      return InvalidFlag(f.Get("modify_mixlist"), "modify_mixlist", "the file cannot be read.");
    OC_RETURN_IF_ERROR(ParseModifyMixlist(text.value(), p));
  }
  return Status::Ok();
}

// The tuning flags into the options: recorded in the .om, their warnings printed with the
// conversion's, their node names checked against the model.
Status ApplyNpuOptions(const Flags& f, ConvertOptions* o) {
  OC_ASSIGN_OR_RETURN(NpuOptions npu, CheckNpuOptions(f));
  for (const auto& r : npu.recorded) o->npu_options += (o->npu_options.empty() ? "" : ";") + r;
  o->option_warnings = std::move(npu.warnings);
  o->precision_node_names = std::move(npu.node_names);
  return Status::Ok();
}

}  // namespace

Status InvalidFlag(const std::string& value, const std::string& param, const std::string& reason) {
  return InvalidArgument(
      "Value [" + value + "] for parameter [--" + param + "] is invalid. Reason: " + reason,
      "E10001");
}

// --fusion_switch_file in CANN's JSON form ({"Switch": {"GraphFusion": {"Pass": "off"},
// "UBFusion": {...}}}, "ALL" for every fusion) or our line form ("PassName:off").
Result<std::set<std::string>> ReadFusionSwitch(const std::string& path) {
  auto read = ReadFile(path);
  if (!read.ok()) return InvalidFlag(path, "fusion_switch_file", "the file cannot be read.");
  const std::string& text = read.value();
  std::set<std::string> off;
  const auto names = PipelinePassNames();
  auto apply = [&](const std::string& name, const std::string& value) -> Status {
    if (value != "on" && value != "off")
      return InvalidFlag(
          path, "fusion_switch_file",
          "pass [" + name + "] is set to [" + value + "]; the value must be on or off.");
    std::vector<std::string> targets;
    if (name == "ALL") {
      for (const auto& n : names)
        if (IsFusionPass(n)) targets.push_back(n);
    } else if (std::find(names.begin(), names.end(), name) != names.end() &&
               name != "InferShapes") {
      targets.push_back(name);
    } else {
      WarnUnknownPass(name, path);
    }
    for (const auto& t : targets) {
      if (value == "off")
        off.insert(t);
      else
        off.erase(t);
    }
    return Status::Ok();
  };
  const size_t first = text.find_first_not_of(" \t\r\n");
  if (first != std::string::npos && text[first] == '{') {
    nlohmann::json j = nlohmann::json::parse(text, nullptr, false);
    if (j.is_discarded() || !j.is_object() || !j.contains("Switch") || !j["Switch"].is_object())
      return InvalidFlag(
          path, "fusion_switch_file",
          "the JSON form is {\"Switch\": {\"GraphFusion\": {...}, \"UBFusion\": {...}}}.");
    // ALL first, so that a named pass can turn itself back on.
    for (const char* section : {"GraphFusion", "UBFusion"}) {
      if (!j["Switch"].contains(section)) continue;
      const auto& passes = j["Switch"][section];
      if (!passes.is_object())
        return InvalidFlag(path, "fusion_switch_file",
                           std::string(section) + " must be an object.");
      if (passes.contains("ALL") && passes["ALL"].is_string())
        OC_RETURN_IF_ERROR(apply("ALL", passes["ALL"].get<std::string>()));
    }
    for (const auto& [section, passes] : j["Switch"].items()) {
      if (section != "GraphFusion" && section != "UBFusion")
        return InvalidFlag(
            path, "fusion_switch_file",
            "unknown section [" + section + "]; the sections are GraphFusion and UBFusion.");
      for (const auto& [name, value] : passes.items()) {
        if (name == "ALL") continue;
        if (!value.is_string())
          return InvalidFlag(path, "fusion_switch_file",
                             "pass [" + name + "] must be \"on\" or \"off\".");
        OC_RETURN_IF_ERROR(apply(name, value.get<std::string>()));
      }
    }
    return off;
  }
  std::istringstream in(text);
  std::string line;
  while (std::getline(in, line)) {
    while (!line.empty() && (line.back() == ' ' || line.back() == '\r')) line.pop_back();
    if (line.empty() || line[0] == '#') continue;
    auto colon = line.find(':');
    if (colon == std::string::npos)
      return InvalidFlag(path, "fusion_switch_file", "line [" + line + "] is not \"PassName:off\"");
    std::string name = line.substr(0, colon), v = line.substr(colon + 1);
    while (!v.empty() && v.front() == ' ') v.erase(v.begin());
    OC_RETURN_IF_ERROR(apply(name, v));
  }
  return off;
}

Result<AtcMode> CheckAtcFlags(const Flags& f) {
  OC_RETURN_IF_ERROR(CheckCommon(f));
  const std::string mode = f.Get("mode", "0");
  OC_RETURN_IF_ERROR(CheckUnsupportedFlags(f, mode));
  if (mode == "0") return f.Has("singleop") ? AtcMode::kSingleOp : AtcMode::kBuild;
  if (mode == "1") return AtcMode::kToJson;
  if (mode == "3") return AtcMode::kPreCheck;
  if (mode == "6") return AtcMode::kShowInfo;
  return InvalidFlag(mode, "mode", "the value must be 0, 1, 3 or 6.");
}

Status CheckOutputFlag(const Flags& f) {
  if (!f.Has("output") || f.Get("output").empty())
    return InvalidArgument("Value for --output is empty.", "E10004");
  const std::string output = f.Get("output");
  if (output.size() > 4000)
    return InvalidArgument(
        "Path [" + output.substr(0, 64) + "...] for parameter [--output] is too long.", "E10021");
  if (output.back() == '/')
    return InvalidArgument("Path [" + output + "] for parameter [--output] has no file name.",
                           "E10022");
  const size_t slash = output.find_last_of('/');
  if (slash != std::string::npos && slash > 0 && !IsDirectory(output.substr(0, slash)))
    return InvalidFlag(
        output, "output",
        "the folder [" + output.substr(0, slash) + "] does not exist; create it first.");
  return Status::Ok();
}

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
    return InvalidFlag(o.soc_version, "soc_version",
                       "it is not a supported chip. Supported: " + names + ".");
  }
  if (fw == "0" && !f.Has("weight"))
    return InvalidArgument("Input parameter[--weight]'s value is empty when framework is 0(Caffe).",
                           "E10008");
  // Which frameworks this build reads is the frontend registry's answer (driver).
  o.model = f.Get("model");
  o.weight = f.Get("weight");
  o.command_line = f.command_line();
  o.out_nodes = f.Get("out_nodes", "");
  o.input_fp16_nodes = f.Get("input_fp16_nodes", "");
  o.output_type = f.Get("output_type", "");
  o.insert_op_conf = f.Get("insert_op_conf", "");
  for (const char* flag : {"out_nodes", "input_fp16_nodes", "output_type"})
    if (f.Has(flag) && f.Get(flag).empty())
      return InvalidArgument(std::string("Value for --") + flag + " is empty.", "E10004");
  // As CANN's atc: TensorFlow inputs are NHWC unless told otherwise, the others NCHW.
  o.input_format = f.Get("input_format", fw == "3" ? "NHWC" : "NCHW");
  const std::string& fmt = o.input_format;
  if (fmt != "NCHW" && fmt != "NHWC" && fmt != "ND" && fmt != "NCDHW" && fmt != "NDHWC")
    return InvalidFlag(fmt, "input_format", "the value must be NCHW, NHWC, ND, NCDHW or NDHWC.");
  // ONNX and Caffe models are channels-first: a channels-last format would only relabel them.
  if ((fw == "5" || fw == "0") && (fmt == "NHWC" || fmt == "NDHWC"))
    return InvalidFlag(fmt, "input_format",
                       std::string("for ") + (fw == "5" ? "ONNX" : "Caffe") +
                           " models (--framework=" + fw + ") the value must be NCHW, ND or NCDHW.");
  OC_RETURN_IF_ERROR(CheckPrecisionFlags(f, o.soc_version, &o.compile.precision));
  OC_RETURN_IF_ERROR(ApplyNpuOptions(f, &o));
  if (f.Has("disable_reuse_memory")) {
    const std::string v = f.Get("disable_reuse_memory");
    if (v != "0" && v != "1")
      return InvalidFlag(v, "disable_reuse_memory", "the value must be 0 or 1.");
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

Result<ConvertOptions> CheckSingleOpFlags(const Flags& f) {
  for (const char* other : {"model", "framework", "weight", "input_shape", "insert_op_conf",
                            "dynamic_batch_size", "dynamic_image_size", "dynamic_dims"})
    if (f.Has(other)) return InvalidFlag(f.Get(other), other, "it does not apply with --singleop.");
  if (!f.Has("output") || f.Get("output").empty())
    return InvalidArgument("Value for --output is empty.", "E10004");
  if (!f.Has("soc_version") || f.Get("soc_version").empty())
    return InvalidArgument("Value for --soc_version is empty.", "E10004");
  ConvertOptions o;
  o.soc_version = f.Get("soc_version");
  if (!FindSoc(o.soc_version))
    return InvalidFlag(o.soc_version, "soc_version", "OpenCANN does not know this SoC.");
  OC_RETURN_IF_ERROR(CheckPrecisionFlags(f, o.soc_version, &o.compile.precision));
  OC_RETURN_IF_ERROR(ApplyNpuOptions(f, &o));
  return o;
}

// --om must name a readable file: a missing one is the user's mistake, not an inner error.
Status CheckOmFlag(const Flags& f) {
  if (f.Get("om").empty()) return InvalidArgument("Value for --om is empty.", "E10004");
  const std::string om = f.Get("om");
  if (IsDirectory(om)) return InvalidFlag(om, "om", "it is a directory, not an .om file.");
  if (!IsRegularFile(om))
    return InvalidFlag(om, "om", "the file does not exist or cannot be read.");
  return Status::Ok();
}

Status CheckJsonFlags(const Flags& f) {
  if (f.Get("om").empty()) return InvalidArgument("Value for --om is empty.", "E10004");
  if (f.Get("json").empty()) return InvalidArgument("Value for --json is empty.", "E10004");
  // With --framework, --om names a source model: ImportModel checks it.
  if (!f.Has("framework")) OC_RETURN_IF_ERROR(CheckOmFlag(f));
  return Status::Ok();
}

}  // namespace oc
