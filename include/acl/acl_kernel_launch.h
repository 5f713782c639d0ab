/* OpenCANN: launching an Ascend C kernel on an AscendCL stream, as the
 * ACLRT_LAUNCH_KERNEL(kernel)(blockDim, stream, args...) of CANN's generated
 * aclrtlaunch_<kernel>.h headers does. ascendc_library() (OpenCANNConfig.cmake) writes those
 * headers; they call this function. */
#ifndef OPENCANN_ACL_ACL_KERNEL_LAUNCH_H_
#define OPENCANN_ACL_ACL_KERNEL_LAUNCH_H_

#include <stddef.h>
#include <stdint.h>

#include "acl/acl_base.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Runs `function` (an extern "C" kernel taking numArgs GM addresses) on blockDim blocks in
 * the Ascend C emulation, in order with the stream's other work (NULL: now). Arguments must
 * be device memory (aclrtMalloc) or NULL; the kernel's accesses are checked against their
 * allocations. A failing kernel returns ACL_ERROR_RT_AICORE_EXCEPTION (507015) now or from
 * aclrtSynchronizeStream, with the emulation's report in aclGetRecentErrMsg(). */
ACL_FUNC_VISIBILITY aclError OcLaunchKernel(const char* kernelName, void* function,
                                            uint32_t blockDim, aclrtStream stream, void** args,
                                            uint32_t numArgs);

/* The general form the generated headers use: argument i is a device pointer (argSizes[i]
 * == 0, checked as above) or a value passed by value (argSizes[i] bytes at args[i], copied
 * at the launch, so the caller's variable may change before the stream runs it). `call`
 * unpacks the array into the kernel's parameters. Every failure is also printed on stderr
 * with its reason. */
typedef void (*OcKernelCall)(void* const* args);
ACL_FUNC_VISIBILITY aclError OcLaunchKernelArgs(const char* kernelName, OcKernelCall call,
                                                uint32_t blockDim, aclrtStream stream, void** args,
                                                const size_t* argSizes, uint32_t numArgs);

#ifdef __cplusplus
}
#endif

#endif /* OPENCANN_ACL_ACL_KERNEL_LAUNCH_H_ */
