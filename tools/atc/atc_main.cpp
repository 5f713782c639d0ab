// atc: converts a model to an .om offline model (and inspects .om files).
// Thin: flags here, the work in the frontend, compiler and om libraries.
#include <algorithm>
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
#include "driver/single_op.h"

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
                                           "precision_mode_v2",
                                           "customize_dtypes",
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
                                           "dump_mode",
                                           "singleop"};

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
      "  --check_report         Report file of --mode=3 (default check_result.json)\n"
      "  --singleop             Single-operator JSON: one .om per op in --output (a directory)\n");
}

// CANN's "Possible Cause" / "Solution" lines for the codes atc reports (the wording is
// OpenCANN's; CANN's catalog carries the same kinds of advice). Empty where there is none.
struct Advice {
  const char* code;
  const char* cause;
  const char* solution;
};
const Advice kAdvice[] = {
    {"E10001", "", "Try again with a valid argument (see atc --help)."},
    {"E10002", "", "Give --input_shape as \"name:d1,d2;name2:d1\" with the model's input names."},
    {"E10004", "", "Give the parameter a value."},
    {"E10007", "", "Give --framework: 0 (Caffe), 1 (MindSpore AIR), 3 (TensorFlow) or 5 (ONNX)."},
    {"E10008", "", "Give the weight file (--weight) that belongs to the model."},
    {"E10010", "", "Give --log one of debug, info, warning, error, null."},
    {"E10011", "", "Name inputs that the model has (atc --mode=1 --om=... lists them)."},
    {"E10016", "", "Name nodes that the model has (atc --mode=1 lists them)."},
    {"E10021", "", "Use a shorter path."},
    {"E10022", "", "Give the output file name after the folder (without .om)."},
    {"E19005", "The model contradicts itself or is malformed (the message names the node).",
     "Check the model (onnx.checker.check_model, or the framework's own loader) and export it "
     "again."},
    {"E19010", "OpenCANN has no converter for an operator of the model.",
     "See docs/ops.md for the operators OpenCANN converts; export the model with supported "
     "operators, or provide the operator as a custom operator package (msopgen)."},
    {"E19999", "A failure inside OpenCANN, not in the model or the command.",
     "Report it with the model and the command line (the detail log holds the trace)."},
};

void PrintAdvice(const std::string& code) {
  for (const auto& a : kAdvice) {
    if (code != a.code) continue;
    if (*a.cause) std::printf("        Possible Cause: %s\n", a.cause);
    if (*a.solution) std::printf("        Solution: %s\n", a.solution);
  }
}

int Fail(const Status& s) {
  OC_LOG(kError, s.ToString());  // into the plog file the next lines point to
  std::printf(
      "ATC run failed, Please check the detail log, Try 'atc --help' for more information\n");
  // What the model says that cannot be (a shape contradiction, a malformed node, an invalid
  // value in it) is the user's model error, naming the node; only OpenCANN's own faults are
  // E19999.
  const bool model_error = s.code() == StatusCode::kShapeMismatch ||
                           s.code() == StatusCode::kParseError ||
                           s.code() == StatusCode::kInvalidArgument;
  std::string code;
  if (!s.cann_code().empty()) {
    code = s.cann_code();
    std::printf("%s: %s\n", s.cann_code().c_str(), s.message().c_str());
  } else if (model_error) {
    code = "E19005";
    std::printf("E19005: The model is invalid: %s\n", s.message().c_str());
  } else if (s.code() == StatusCode::kNotFound) {
    code = "E10001";
    std::printf("E10001: %s\n", s.message().c_str());
  } else if (s.code() == StatusCode::kUnsupported) {
    code = "E19010";
    std::printf("E19010: OpenCANN does not support what the model uses: %s\n", s.message().c_str());
  } else {
    code = "E19999";
    std::printf("E19999: Inner Error! %s\n", s.message().c_str());
  }
  PrintAdvice(code);
  const std::string plog = PlogPath();
  if (!plog.empty()) std::printf("The detail log: %s\n", plog.c_str());
  std::fflush(stdout);
  return 1;
}

Status Invalid(const std::string& value, const std::string& param, const std::string& reason) {
  return InvalidArgument(
      "Value [" + value + "] for parameter [--" + param + "] is invalid. Reason: " + reason,
      "E10001");
}

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

// --fusion_switch_file in CANN's JSON form ({"Switch": {"GraphFusion": {"Pass": "off"},
// "UBFusion": {...}}}, "ALL" for every fusion) or our line form ("PassName:off").
Result<std::set<std::string>> ReadFusionSwitch(const std::string& path) {
  auto read = ReadFile(path);
  if (!read.ok()) return Invalid(path, "fusion_switch_file", "the file cannot be read.");
  const std::string& text = read.value();
  std::set<std::string> off;
  const auto names = PipelinePassNames();
  auto apply = [&](const std::string& name, const std::string& value) -> Status {
    if (value != "on" && value != "off")
      return Invalid(path, "fusion_switch_file",
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
      return Invalid(
          path, "fusion_switch_file",
          "the JSON form is {\"Switch\": {\"GraphFusion\": {...}, \"UBFusion\": {...}}}.");
    // ALL first, so that a named pass can turn itself back on.
    for (const char* section : {"GraphFusion", "UBFusion"}) {
      if (!j["Switch"].contains(section)) continue;
      const auto& passes = j["Switch"][section];
      if (!passes.is_object())
        return Invalid(path, "fusion_switch_file", std::string(section) + " must be an object.");
      if (passes.contains("ALL") && passes["ALL"].is_string())
        OC_RETURN_IF_ERROR(apply("ALL", passes["ALL"].get<std::string>()));
    }
    for (const auto& [section, passes] : j["Switch"].items()) {
      if (section != "GraphFusion" && section != "UBFusion")
        return Invalid(
            path, "fusion_switch_file",
            "unknown section [" + section + "]; the sections are GraphFusion and UBFusion.");
      for (const auto& [name, value] : passes.items()) {
        if (name == "ALL") continue;
        if (!value.is_string())
          return Invalid(path, "fusion_switch_file",
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
      return Invalid(path, "fusion_switch_file", "line [" + line + "] is not \"PassName:off\"");
    std::string name = line.substr(0, colon), v = line.substr(colon + 1);
    while (!v.empty() && v.front() == ' ') v.erase(v.begin());
    OC_RETURN_IF_ERROR(apply(name, v));
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

// Flags of CANN's atc whose effect OpenCANN does not reproduce. Nothing is accepted for
// nothing: each is refused with E10001 naming it, unless it has the value that means what
// OpenCANN does anyway (its default, "off").
struct UnsupportedFlag {
  const char* flag;
  std::vector<std::string> accepted;
  const char* what;
};

const UnsupportedFlag kUnsupportedFlags[] = {
    {"op_select_implmode",
     {"high_precision", "high_precision_for_all"},
     "high-performance (reduced-precision) kernel implementations; its kernels are the "
     "high-precision ones"},
    {"enable_small_channel", {"0"}, "the small-channel convolution optimisation"},
    {"buffer_optimize", {"l2_optimize"}, "buffer optimisation modes other than the default"},
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
      return Invalid(v, u.flag,
                     std::string("OpenCANN does not support ") + u.what +
                         (list.empty() ? "." : "; the value it takes is " + list + "."));
  }
  if (f.Has("optypelist_for_implmode") && !f.Has("op_select_implmode"))
    return Invalid(f.Get("optypelist_for_implmode"), "optypelist_for_implmode",
                   "it needs --op_select_implmode.");
  // Flags of one mode are refused in the others rather than ignored.
  struct ModeFlag {
    const char* flag;
    std::set<std::string> modes;
  };
  for (const ModeFlag& m :
       {ModeFlag{"om", {"1", "6"}}, ModeFlag{"json", {"1"}}, ModeFlag{"check_report", {"3"}}})
    if (f.Has(m.flag) && !m.modes.count(mode))
      return Invalid(f.Get(m.flag), m.flag,
                     "it applies to --mode=" + *m.modes.begin() +
                         (m.modes.size() > 1 ? " or --mode=" + *m.modes.rbegin() : "") +
                         ", not --mode=" + mode + ".");
  if (f.Has("weight") && f.Get("framework", "") != "0")
    return Invalid(f.Get("weight"), "weight", "it is only for --framework=0 (Caffe).");
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
      return Invalid(name, f.Has("precision_mode") ? "precision_mode" : "precision_mode_v2",
                     soc + " has no bfloat16.");
  }
  if (f.Has("keep_dtype")) {
    auto text = ReadFile(f.Get("keep_dtype"));
    if (!text.ok()) return Invalid(f.Get("keep_dtype"), "keep_dtype", "the file cannot be read.");
    OC_RETURN_IF_ERROR(ParseKeepDtype(text.value(), p));
  }
  if (f.Has("customize_dtypes")) {
    auto text = ReadFile(f.Get("customize_dtypes"));
    if (!text.ok())
      return Invalid(f.Get("customize_dtypes"), "customize_dtypes", "the file cannot be read.");
    OC_RETURN_IF_ERROR(ParseCustomizeDtypes(text.value(), p));
  }
  if (f.Has("modify_mixlist")) {
    auto text = ReadFile(f.Get("modify_mixlist"));
    if (!text.ok())
      return Invalid(f.Get("modify_mixlist"), "modify_mixlist", "the file cannot be read.");
    OC_RETURN_IF_ERROR(ParseModifyMixlist(text.value(), p));
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
    return Invalid(fmt, "input_format", "the value must be NCHW, NHWC, ND, NCDHW or NDHWC.");
  // ONNX models are channels-first: a channels-last format would only relabel the inputs.
  // ONNX and Caffe models are channels-first: a channels-last format would only relabel them.
  if ((fw == "5" || fw == "0") && (fmt == "NHWC" || fmt == "NDHWC"))
    return Invalid(fmt, "input_format",
                   std::string("for ") + (fw == "5" ? "ONNX" : "Caffe") +
                       " models (--framework=" + fw + ") the value must be NCHW, ND or NCDHW.");
  OC_RETURN_IF_ERROR(CheckPrecisionFlags(f, o.soc_version, &o.compile.precision));
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
  const size_t slash = output.find_last_of('/');
  if (slash != std::string::npos && slash > 0 && !IsDirectory(output.substr(0, slash)))
    return Invalid(output, "output",
                   "the folder [" + output.substr(0, slash) + "] does not exist; create it first.");
  OC_ASSIGN_OR_RETURN(ConvertOptions o, CheckConvertFlags(f));
  std::vector<std::string> warnings;
  Status s = ConvertToOmFile(o, output + ".om", &warnings);
  for (const auto& w : warnings) std::printf("[WARNING] %s\n", w.c_str());
  return s;
}

// --singleop=ops.json --output=DIR --soc_version=...: one .om per op description, named as
// CANN names them, for aclopSetModelDir / aclopLoad.
Status BuildSingleOps(const Flags& f) {
  for (const char* other : {"model", "framework", "weight", "input_shape", "insert_op_conf",
                            "dynamic_batch_size", "dynamic_image_size", "dynamic_dims"})
    if (f.Has(other)) return Invalid(f.Get(other), other, "it does not apply with --singleop.");
  if (!f.Has("output") || f.Get("output").empty())
    return InvalidArgument("Value for --output is empty.", "E10004");
  if (!f.Has("soc_version") || f.Get("soc_version").empty())
    return InvalidArgument("Value for --soc_version is empty.", "E10004");
  ConvertOptions o;
  o.soc_version = f.Get("soc_version");
  if (!FindSoc(o.soc_version))
    return Invalid(o.soc_version, "soc_version", "OpenCANN does not know this SoC.");
  OC_RETURN_IF_ERROR(CheckPrecisionFlags(f, o.soc_version, &o.compile.precision));
  auto text = ReadFile(f.Get("singleop"));
  if (!text.ok()) return Invalid(f.Get("singleop"), "singleop", "the file cannot be read.");
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

// --om must name a readable file: a missing one is the user's mistake, not an inner error.
Status CheckOmFlag(const Flags& f) {
  if (f.Get("om").empty()) return InvalidArgument("Value for --om is empty.", "E10004");
  const std::string om = f.Get("om");
  if (IsDirectory(om)) return Invalid(om, "om", "it is a directory, not an .om file.");
  if (!IsRegularFile(om)) return Invalid(om, "om", "the file does not exist or cannot be read.");
  return Status::Ok();
}

Status DumpJson(const Flags& f) {
  if (f.Get("om").empty()) return InvalidArgument("Value for --om is empty.", "E10004");
  if (f.Get("json").empty()) return InvalidArgument("Value for --json is empty.", "E10004");
  // With --framework, --om names a source model: ImportModel checks it.
  if (!f.Has("framework")) OC_RETURN_IF_ERROR(CheckOmFlag(f));
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

int Main(int argc, char** argv) {
  SetLogModule("ATC");
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
  s = CheckUnsupportedFlags(f, mode);
  if (!s.ok()) return Fail(s);
  if (mode == "0" && f.Has("singleop")) {
    s = BuildSingleOps(f);
  } else if (mode == "0") {
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
