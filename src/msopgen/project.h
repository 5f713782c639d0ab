// msopgen gen: writes an operator project (CMake) for the ops of an op.json. The project
// builds one library per op (host definition + tiling + the Ascend C kernel for each type
// combination) against an installed OpenCANN, and packs an installer for the package.
#pragma once

#include <string>
#include <vector>

#include "base/status.h"
#include "msopgen/op_spec.h"

namespace oc::msopgen {

struct ProjectOptions {
  std::string out_dir;
  std::string soc = "Ascend910B3";  // from -c ai_core-<soc>
  std::string vendor = "customize";
  std::string framework;  // -f (recorded in the README)
};

// The two-stage API of one op (aclnn_<kernel_name>.h and .cpp) written into api_dir: what
// msopgen's projects and op_build (CANN's op-project template) compile into libcust_opapi.
Status GenerateAclnn(const OpSpec& op, const std::string& api_dir);

// Fails when out_dir holds files (no overwrite) or a file cannot be written.
Status GenerateProject(const std::vector<OpSpec>& ops, const ProjectOptions& options);

}  // namespace oc::msopgen
