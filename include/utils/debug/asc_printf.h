// printf from a kernel, by the path CANN 9's samples include (utils/debug/asc_printf.h):
// AscendC::printf and the kernel markers, without the rest of kernel_operator.h.
#pragma once

#include "ascendc/kernel_runtime.h"
#include "ascendc/kernel_types.h"
