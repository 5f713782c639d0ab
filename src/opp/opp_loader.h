// Custom operator packages (OPP): msopgen projects build them, ASCEND_CUSTOM_OPP_PATH lists
// the installed vendor folders. Loading one registers its ops with the op registry (schema,
// shape and type inference from the package's OpDef) and the kernel registry (the Ascend C
// kernel, run by the emulation), so atc converts models that use them and the runtime runs
// them.
#pragma once

#include <string>
#include <vector>

#include "base/status.h"

namespace oc {

// Loads every package on ASCEND_CUSTOM_OPP_PATH once per process; later calls return the
// first result. Errors name the package file and the op.
Status LoadCustomOpPackages();

// Loads the packages of the given vendor folders (each with op_impl/lib/*.so).
Status LoadOpPackages(const std::vector<std::string>& vendor_dirs);

// The custom ops registered so far, as "OpType (package file)".
std::vector<std::string> CustomOpSummary();

}  // namespace oc
