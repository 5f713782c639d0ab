// DumpTensor and printf from a kernel, by the path CANN 9's samples include
// (utils/debug/asc_dump.h).
#pragma once

#include "ascendc/kernel_debug.h"
#include "utils/debug/asc_printf.h"
