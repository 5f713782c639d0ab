/* AscendCL DVPP (OpenCANN): the media memory pair. DVPP's image and video engines read and
 * write a reserved part of device memory, which acldvppMalloc hands out (rounded up to 32
 * bytes, plus 32) and acldvppFree returns; on OpenCANN it is device memory like
 * aclrtMalloc's, kept apart so that freeing it with the wrong call is refused as on the NPU.
 * Link with -lacl_dvpp. */
#ifndef OPENCANN_ACL_OPS_ACL_DVPP_H_
#define OPENCANN_ACL_OPS_ACL_DVPP_H_

#include <stddef.h>

#include "../acl.h"

#ifdef __cplusplus
extern "C" {
#endif

ACL_FUNC_VISIBILITY aclError acldvppMalloc(void** devPtr, size_t size);
ACL_FUNC_VISIBILITY aclError acldvppFree(void* devPtr);

#ifdef __cplusplus
}
#endif

#endif /* OPENCANN_ACL_OPS_ACL_DVPP_H_ */
