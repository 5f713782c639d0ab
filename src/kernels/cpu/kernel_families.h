#pragma once

#include "kernels/cpu/kernel.h"

namespace oc {

void RegisterElementwiseKernels(KernelRegistry& r);
void RegisterTensorKernels(KernelRegistry& r);
void RegisterNnKernels(KernelRegistry& r);
void RegisterConvKernels(KernelRegistry& r);
void RegisterConvTransposeKernels(KernelRegistry& r);
void RegisterMatmulKernels(KernelRegistry& r);
void RegisterReductionKernels(KernelRegistry& r);
void RegisterNormKernels(KernelRegistry& r);
void RegisterIndexingKernels(KernelRegistry& r);
void RegisterLossKernels(KernelRegistry& r);
void RegisterResizeKernels(KernelRegistry& r);
void RegisterMiscKernels(KernelRegistry& r);
void RegisterQuantizeKernels(KernelRegistry& r);
void RegisterRecurrentKernels(KernelRegistry& r);
void RegisterVisionKernels(KernelRegistry& r);
void RegisterTrainingKernels(KernelRegistry& r);
void RegisterSpectralKernels(KernelRegistry& r);
void RegisterControlFlowKernels(KernelRegistry& r);

}  // namespace oc
