// One registration function per op family; the list lives in op_schema.cpp.
#pragma once

#include "ops/op_schema.h"

namespace oc {

void RegisterElementwiseSchemas(OpRegistry& r);
void RegisterNnSchemas(OpRegistry& r);
void RegisterTensorSchemas(OpRegistry& r);
void RegisterReductionSchemas(OpRegistry& r);
void RegisterMatmulSchemas(OpRegistry& r);
void RegisterIndexingSchemas(OpRegistry& r);
void RegisterLossSchemas(OpRegistry& r);
void RegisterResizeSchemas(OpRegistry& r);
void RegisterMiscSchemas(OpRegistry& r);
void RegisterQuantizeSchemas(OpRegistry& r);
void RegisterRecurrentSchemas(OpRegistry& r);
void RegisterVisionSchemas(OpRegistry& r);
void RegisterTrainingSchemas(OpRegistry& r);
void RegisterSpectralSchemas(OpRegistry& r);
void RegisterControlFlowSchemas(OpRegistry& r);
void RegisterPrecisionSchemas(OpRegistry& r);
void RegisterAippSchemas(OpRegistry& r);

}  // namespace oc
