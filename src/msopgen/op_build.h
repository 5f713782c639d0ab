// op_build: what CANN's operator-project template (cmake/func.cmake, opbuild()) runs on the
// op_host library of a project. From the OpDefs the library registers it writes, into one
// folder, the sources and descriptions the template builds the package from:
//   aclnn_<op>.h/.cpp           the two-stage API (compiled into libcust_opapi)
//   op_proto.h/.cc              the ops' prototypes (compiled into libcust_opsproto)
//   aic-<soc>-ops-info.ini      per compute unit an op names with AddConfig: its inputs,
//                               outputs, types, formats and attributes, in CANN's ini form
//                               (read by the template's Python scripts and by opc)
#pragma once

#include <string>
#include <vector>

#include "base/status.h"
#include "msopgen/op_spec.h"

namespace ops {
class OpDef;
}  // namespace ops

namespace oc::msopgen {

// The op described as msopgen's op.json would describe it. Fails on type and format lists
// of different lengths, or a type OpenCANN cannot name.
Result<OpSpec> SpecFromOpDef(const ops::OpDef& def);

// The compute units (AddConfig names, e.g. ascend910b) an op is built for.
std::vector<std::string> ComputeUnitsOf(const ops::OpDef& def);

// One op's section of aic-<soc>-ops-info.ini.
std::string OpsInfoSection(const ops::OpDef& def, const OpSpec& spec);

// Writes every output for `defs` into out_dir (which must exist).
Status WriteOpBuildOutputs(const std::vector<const ops::OpDef*>& defs, const std::string& out_dir);

}  // namespace oc::msopgen
