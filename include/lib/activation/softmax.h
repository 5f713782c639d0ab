// The SoftMax family by its CANN path (lib/activation/softmax.h); kernel_operator.h has it too.
#pragma once
#include "ascendc/kernel_softmax.h"
