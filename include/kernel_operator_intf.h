// CANN's kernel_operator_intf.h: the kernel API's interface header, which some kernels include
// instead of kernel_operator.h. Here it is the same API.
#pragma once

#include "kernel_operator.h"
