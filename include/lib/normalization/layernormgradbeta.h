// layernormgradbeta by its CANN path; kernel_operator.h has it too.
#pragma once
#include "ascendc/kernel_layernorm.h"
