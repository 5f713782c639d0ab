// msopgen's input: the operator description file (op.json), parsed and checked.
#pragma once

#include <string>
#include <vector>

#include "base/status.h"

namespace oc::msopgen {

struct ParamSpec {
  std::string name;
  std::string param_type = "required";  // required, optional
  std::vector<std::string> types;       // GE names: DT_FLOAT16, DT_FLOAT, ...
  std::vector<std::string> formats;     // FORMAT_ND, ...
  // The kernel's parameter: the name, or <name>_ref for an output that updates the input of
  // the same name in place (as CANN's msopgen writes it).
  std::string arg_name;
};

struct AttrSpec {
  std::string name;
  std::string param_type = "optional";
  std::string type;  // int, float, bool, str, listInt, listFloat
  // The default as C++ source for the generated op definition (a checked, normalised literal:
  // "3", "0.5f", "true", "\"text\"", "1, 2"); empty when there is none.
  std::string default_value;
};

struct OpSpec {
  std::string op;           // CamelCase op type, e.g. AddCustom
  std::string kernel_name;  // CANN's file name: add_custom, nll_loss for NLLLoss
  std::vector<ParamSpec> inputs, outputs;
  std::vector<AttrSpec> attrs;
  size_t combos = 0;  // type combinations (every type list has this length)
};

// Parses op.json (a list of ops). Errors name the file and the field, e.g.
// "op.json: [0].input_desc[1].type[2]: \"half4\" is not a data type (...)".
Result<std::vector<OpSpec>> ParseOpSpecs(const std::string& path);

// "AddCustom" -> "add_custom"
std::string SnakeCase(const std::string& camel);
// GE type name -> C++ type in kernels ("DT_FLOAT16" -> "half").
std::string KernelType(const std::string& ge_type);

}  // namespace oc::msopgen
