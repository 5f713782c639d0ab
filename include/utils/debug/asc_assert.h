// assert/ASSERT from a kernel, by the path CANN 9's samples include
// (utils/debug/asc_assert.h).
#pragma once

#include "ascendc/kernel_runtime.h"
#include "ascendc/kernel_types.h"
