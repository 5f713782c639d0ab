// Operator packages are a backend of their own ("ascendc"): a package op's kernel runs the
// package's tiling at prepare and its Ascend C kernel in the emulation at run, on host
// memory and plain layouts. Loading a package (opp_loader.h) adds its ops here.
#pragma once

#include "backend/backend.h"

namespace oc {

const Backend& AscendcBackend();
// The package ops loaded so far, under kAnyDomain (a model may give them any domain).
KernelTable& AscendcKernels();

}  // namespace oc
