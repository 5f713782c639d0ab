// The CPU backend: oneDNN for convolution, matmul and pooling, our own vectorised kernels
// for the rest, OpenMP threads, channels-last activations between convolutions. Only this
// folder names OpenMP, oneDNN or the channels-last layout.
#pragma once

#include "backend/backend.h"

namespace oc {

// Activations kept channels-last (N, spatial..., C) between convolutions.
inline constexpr int kLayoutChannelsLast = 1;

const Backend& CpuBackend();
// The CPU backend's kernels; operator packages add their ops here (src/opp).
KernelTable& CpuKernels();

}  // namespace oc
