#pragma once

namespace oc {

// Threads used for compute: GlobalConfig().num_threads (OCANN_NUM_THREADS) if set, else all
// cores.
int DefaultNumThreads();

}  // namespace oc
