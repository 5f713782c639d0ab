// atc: converts a model to an .om offline model (and inspects .om files).
// Thin: argv parsed here against the flag table (cli/atc_flags.h) and failures reported in
// CANN's form; the checks and the modes are atc/, the work the frontend, compiler and om
// libraries.
#include <cstdio>
#include <exception>
#include <string>

#include "atc/atc_modes.h"
#include "base/log.h"
#include "cli/atc_flags.h"

namespace oc {
namespace {

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
      "  --op_select_implmode   high_precision, high_performance, ..._for_all (recorded for\n"
      "                         the NPU; OpenCANN computes the high-precision results)\n"
      "  --op_precision_mode    .ini of [ByOpType]/[ByNodeName] name=mode lines (recorded)\n"
      "  --enable_small_channel 0, 1; --buffer_optimize l2_optimize, l1_optimize,\n"
      "                         off_optimize; --allow_hf32 true, false (recorded)\n"
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

int Main(int argc, char** argv) {
  SetLogModule("ATC");
  std::printf("ATC start working now, please wait for a moment.\n");
  std::fflush(stdout);
  auto flags = ParseAtcFlags(argc, argv);
  if (!flags.ok()) return Fail(flags.status());
  const Flags& f = flags.value();
  if (f.Has("help") || f.Has("h") || argc == 1) {
    PrintHelp();
    return argc == 1 ? 1 : 0;
  }
  Status s = RunAtc(f);
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
