// The reference backend: plain loops in fp32 (and byte copies for data movement), written
// for clarity, not speed. It is the oracle the CPU backend's kernels are tested against
// (ncnn keeps the plain layer beside the fast one) and a second backend that exercises
// placement. Its kernels never share code with the CPU backend's.
#pragma once

#include "backend/backend.h"

namespace oc {

const Backend& ReferenceBackend();

}  // namespace oc
