// Conversion as a library: import (through the frontend registry) -> input shapes ->
// compiler passes -> gears -> the graphs and options an .om is written from. atc only
// parses flags into ConvertOptions; tests call Convert directly.
#pragma once

#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "compiler/compiler.h"
#include "frontend/frontend.h"
#include "om/om_model.h"

namespace oc {

struct ConvertOptions {
  std::string framework = "5";  // --framework
  std::string model, weight;    // --model, --weight
  std::string soc_version = "Ascend910B3";
  std::string input_format = "NCHW";
  std::string command_line;  // recorded in the .om (atc_cmdline)
  std::vector<InputShapeSpec> shapes;
  // Model I/O (driver/model_io.h); empty = as the model has it.
  std::string out_nodes, input_fp16_nodes, output_type;
  std::string insert_op_conf;  // --insert_op_conf: static AIPP (driver/aipp.h); a path
  std::optional<GearSpec> gears;
  CompileOptions compile;  // compile.precision: --precision_mode and its refinements
  // The NPU's implementation and memory choices (atc/npu_options.h): "flag=value;..." as
  // recorded in the .om, the warnings they need, --op_precision_mode's node names.
  std::string npu_options;
  std::vector<std::string> option_warnings, precision_node_names;
};

// What --mode=0 writes and --mode=3 checks.
struct Conversion {
  std::vector<OmGraph> graphs;
  OmWriteOptions write;
  std::vector<std::string> pass_log;         // of the first graph, for --log=info
  std::vector<std::string> precision_table;  // "node (type): dtype", first graph
  std::vector<std::string> warnings;         // for the user (atc prints them)
};

// Runs the frontend for options.framework; E10001 when this build has none for it.
Result<Graph> ImportModel(const ConvertOptions& options);
// The source model's ops and whether OpenCANN converts each (atc --mode=3).
Result<std::vector<OpSurvey>> SurveyModel(const ConvertOptions& options);
// Imports and compiles the model per the options (custom op packages on
// ASCEND_CUSTOM_OPP_PATH are loaded first).
Result<Conversion> Convert(const ConvertOptions& options);
// The same from an imported graph (single-operator mode builds one); options.model unused.
Result<Conversion> ConvertGraph(Graph graph, const ConvertOptions& options);
// Convert, then the .om written atomically; the model is named after the file.
// `warnings` (may be null) receives Conversion::warnings. `check` (may be empty) reads the
// complete file under a temporary name before it takes `om_path` (atc loads it with the
// runtime there: the compile side does not link the run side).
Status ConvertToOmFile(const ConvertOptions& options, const std::string& om_path,
                       std::vector<std::string>* warnings = nullptr,
                       const std::function<Status(const std::string& written)>& check = {});

}  // namespace oc
