// A package's op as OpenCANN sees it: a schema whose inference calls the OpDef's functions,
// and a kernel that runs the tiling function at prepare and launches the Ascend C kernel in
// the emulation at run.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "backend/kernel.h"
#include "ops/op_schema.h"
#include "register/op_def_registry.h"

namespace oc {

OpSchema MakeCustomOpSchema(const ops::OpDef& def, const std::string& source);
// `kernels`: the op's kernel entries, one per type combination.
std::unique_ptr<Kernel> MakeCustomOpKernel(const ops::OpDef& def,
                                           std::vector<const ops::KernelEntry*> kernels,
                                           const std::string& source);

}  // namespace oc
