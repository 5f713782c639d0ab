// Single-operator mode (atc --singleop): each entry of the JSON op list compiled into an .om of
// its own, which AscendCL's aclopSetModelDir / aclopLoad + aclopExecuteV2 run. An op is built as
// a one-op GE graph and imported by the AIR frontend, so every GE operator type that frontend
// converts (air_ops.cpp) is available, with GE's attribute rules.
#pragma once

#include <string>
#include <vector>

#include "base/status.h"
#include "driver/convert.h"
#include "om/single_op_attrs.h"

namespace oc {

struct SingleOpTensor {
  std::string name;
  int acl_dtype = -1;  // aclDataType
  int acl_format = 2;  // aclFormat (ND)
  std::vector<int64_t> shape;
};

struct SingleOpAttr {
  std::string name, type;  // type as the JSON names it: bool, int, float, string, list_int, ...
  std::string value;       // canonical JSON text of the value (matching at run time)
};

struct SingleOp {
  std::string type;
  std::vector<SingleOpTensor> inputs, outputs;
  std::vector<SingleOpAttr> attrs;  // sorted by name
};

// Parses atc --singleop's JSON (a list of op descriptions); errors name the entry and field.
Result<std::vector<SingleOp>> ParseSingleOpJson(const std::string& text);
// The file name CANN gives the op's model: <index>_<OpType>_ then dtype_format_dims... for
// every input and then every output (aclDataType and aclFormat numbers).
std::string SingleOpFileName(size_t index, const SingleOp& op);
// The op compiled into .om bytes; its type, descriptions and attributes are recorded in the
// model's attributes (kSingleOp* below) for the runtime to match calls against.
Result<std::string> CompileSingleOp(const SingleOp& op, const ConvertOptions& options);

}  // namespace oc
