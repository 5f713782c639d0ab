// atc flags that on the NPU choose kernel implementations, memory strategies or fusions
// (--op_select_implmode, --op_precision_mode, --enable_small_channel, --buffer_optimize,
// --allow_hf32): accepted with CANN's values, recorded in the .om (the model attribute
// "npu_options", shown by --mode=6 and --mode=1), and, where the NPU's numbers would then
// differ from what OpenCANN computes, announced with one warning line each.
#pragma once

#include <string>
#include <vector>

#include "base/status.h"
#include "cli/flags.h"

namespace oc {

struct NpuOptions {
  // "flag=value" entries in flag order, joined with ';' into the .om's "npu_options".
  std::vector<std::string> recorded;
  // One line per flag whose value changes the NPU's numbers in a way OpenCANN does not emulate.
  std::vector<std::string> warnings;
  // --op_precision_mode's [ByNodeName] names: checked against the model (a name it lacks
  // does nothing on the NPU either, and the user is told).
  std::vector<std::string> node_names;
};

// Checks the flags' values (E10001 naming the flag and the values it takes) and reads the
// --op_precision_mode file.
Result<NpuOptions> CheckNpuOptions(const Flags& f);

// --op_precision_mode's file: "[ByOpType]" and "[ByNodeName]" sections (or none: op types)
// of "name=mode" lines. Returns the entries as "ByOpType:name=mode".
Result<std::vector<std::string>> ParseOpPrecisionMode(const std::string& text,
                                                      const std::string& path);

}  // namespace oc
