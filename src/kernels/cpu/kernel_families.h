#pragma once

#include "backend/kernel.h"

namespace oc {

void RegisterElementwiseKernels(KernelTable& r);
void RegisterTensorKernels(KernelTable& r);
void RegisterNnKernels(KernelTable& r);
void RegisterConvKernels(KernelTable& r);
void RegisterConvTransposeKernels(KernelTable& r);
void RegisterMatmulKernels(KernelTable& r);
void RegisterReductionKernels(KernelTable& r);
void RegisterNormKernels(KernelTable& r);
void RegisterIndexingKernels(KernelTable& r);
void RegisterLossKernels(KernelTable& r);
void RegisterResizeKernels(KernelTable& r);
void RegisterLocalNormKernels(KernelTable& r);
void RegisterReverseSequenceKernels(KernelTable& r);
void RegisterSelectionKernels(KernelTable& r);
void RegisterLinalgKernels(KernelTable& r);
void RegisterWindowKernels(KernelTable& r);
void RegisterMaxUnpoolKernels(KernelTable& r);
void RegisterSoftmaxKernels(KernelTable& r);
void RegisterIsInfKernels(KernelTable& r);
void RegisterShrinkKernels(KernelTable& r);
void RegisterPrecisionKernels(KernelTable& r);
void RegisterAippKernels(KernelTable& r);
void RegisterQuantizeKernels(KernelTable& r);
void RegisterRecurrentKernels(KernelTable& r);
void RegisterVisionKernels(KernelTable& r);
void RegisterDetectionOutputKernels(KernelTable& r);
void RegisterYoloKernels(KernelTable& r);
void RegisterTrainingKernels(KernelTable& r);
void RegisterSpectralKernels(KernelTable& r);
void RegisterControlFlowKernels(KernelTable& r);

}  // namespace oc
