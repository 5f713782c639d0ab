/* aclnn's tensors and status codes (CANN's aclnn/acl_meta.h), for the two-stage operator
 * API: aclnn<Op>GetWorkspaceSize(inputs..., attrs..., outputs..., &size, &executor), then
 * aclnn<Op>(workspace, size, executor, stream). */
#ifndef OPENCANN_ACLNN_ACL_META_H_
#define OPENCANN_ACLNN_ACL_META_H_

#include <stdint.h>

#include "acl/acl_base.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef int32_t aclnnStatus;
typedef struct aclTensor aclTensor;
typedef struct aclOpExecutor aclOpExecutor;

#define ACLNN_SUCCESS 0
#define ACLNN_ERR_PARAM_NULLPTR 161001
#define ACLNN_ERR_PARAM_INVALID 161002
#define ACLNN_ERR_RUNTIME_ERROR 361001
#define ACLNN_ERR_INNER 561000

/* A tensor over device memory `tensorData` (aclrtMalloc). Strides and offset are in
 * elements; OpenCANN takes contiguous tensors (stride NULL or row-major). */
ACL_FUNC_VISIBILITY aclTensor* aclCreateTensor(const int64_t* viewDims, uint64_t viewDimsNum,
                                               aclDataType dataType, const int64_t* stride,
                                               int64_t offset, aclFormat format,
                                               const int64_t* storageDims, uint64_t storageDimsNum,
                                               void* tensorData);
ACL_FUNC_VISIBILITY aclnnStatus aclDestroyTensor(const aclTensor* tensor);

/* List arguments of aclnn calls (list attributes): copies of `size` values. */
typedef struct aclIntArray aclIntArray;
typedef struct aclFloatArray aclFloatArray;
ACL_FUNC_VISIBILITY aclIntArray* aclCreateIntArray(const int64_t* value, uint64_t size);
ACL_FUNC_VISIBILITY aclnnStatus aclDestroyIntArray(const aclIntArray* array);
ACL_FUNC_VISIBILITY aclFloatArray* aclCreateFloatArray(const float* value, uint64_t size);
ACL_FUNC_VISIBILITY aclnnStatus aclDestroyFloatArray(const aclFloatArray* array);

/* OpenCANN: the generic stages behind every generated aclnn<Op> function. */
typedef struct {
  const char* name;
  int kind; /* 0 int, 1 float, 2 bool, 3 string, 4 aclIntArray, 5 aclFloatArray (in `list`) */
  int64_t i;
  double f;
  const char* s;
  const void* list;
} OcAclnnAttr;
ACL_FUNC_VISIBILITY aclnnStatus OcAclnnGetWorkspaceSize(
    const char* opType, const aclTensor* const* inputs, uint64_t numInputs,
    const OcAclnnAttr* attrs, uint64_t numAttrs, const aclTensor* const* outputs,
    uint64_t numOutputs, uint64_t* workspaceSize, aclOpExecutor** executor);
ACL_FUNC_VISIBILITY aclnnStatus OcAclnnRun(void* workspace, uint64_t workspaceSize,
                                           aclOpExecutor* executor, aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* OPENCANN_ACLNN_ACL_META_H_ */
