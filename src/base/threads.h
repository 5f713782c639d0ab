#pragma once

namespace oc {

// Threads used for compute: OCANN_NUM_THREADS if set (>= 1), else all cores.
int DefaultNumThreads();

}  // namespace oc
