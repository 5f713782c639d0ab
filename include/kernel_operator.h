// Ascend C's kernel API, emulated on the CPU by OpenCANN. Kernels written for CANN's
// kernel_operator.h compile with g++ unchanged (ASCENDC_CPU_DEBUG defined) and run one
// thread per block, with the hardware's rules checked (docs/ascendc.md).
#pragma once

// CANN's CPU-debug headers bring <iostream> along; kernels print with std::cout on that.
#include <iostream>

#include "ascendc/kernel_cube.h"
#include "ascendc/kernel_data_copy.h"
#include "ascendc/kernel_debug.h"
#include "ascendc/kernel_gather_pad.h"
#include "ascendc/kernel_layernorm.h"
#include "ascendc/kernel_math.h"
#include "ascendc/kernel_norm.h"
#include "ascendc/kernel_quant.h"
#include "ascendc/kernel_reduce.h"
#include "ascendc/kernel_reduce_pattern.h"
#include "ascendc/kernel_reduce_repeat.h"
#include "ascendc/kernel_runtime.h"
#include "ascendc/kernel_scalar.h"
#include "ascendc/kernel_softmax.h"
#include "ascendc/kernel_softmax_flash.h"
#include "ascendc/kernel_sort.h"
#include "ascendc/kernel_tensor.h"
#include "ascendc/kernel_topk.h"
#include "ascendc/kernel_types.h"
#include "ascendc/kernel_vector.h"

// The architecture the emulation models (Atlas A2, dav-2201), for kernels that choose their
// code by it (`#if __NPU_ARCH__ == 2201`); bisheng/ccec define it on the command line too.
#ifndef __NPU_ARCH__
#define __NPU_ARCH__ 2201
#endif

// Samples written for CANN's first Ascend C releases name the API tik2.
// A namespace of its own (not an alias), so code that reopens `namespace tik2 {` compiles.
namespace tik2 {
using namespace AscendC;
}
