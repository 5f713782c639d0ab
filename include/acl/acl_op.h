/* AscendCL single-operator API (OpenCANN). Operators are compiled ahead of time with
 * `atc --singleop=ops.json --output=DIR --soc_version=...` into one .om each; aclopSetModelDir
 * or aclopLoad makes them known, and a call runs the one whose type, tensor descriptions and
 * attributes match. */
#ifndef OPENCANN_ACL_ACL_OP_H_
#define OPENCANN_ACL_ACL_OP_H_

#include "acl_base.h"
#include "acl_rt.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct aclopAttr aclopAttr;
typedef struct aclopHandle aclopHandle;

ACL_FUNC_VISIBILITY aclopAttr* aclopCreateAttr(void);
ACL_FUNC_VISIBILITY void aclopDestroyAttr(const aclopAttr* attr);
ACL_FUNC_VISIBILITY aclError aclopSetAttrBool(aclopAttr* attr, const char* attrName,
                                              uint8_t attrValue);
ACL_FUNC_VISIBILITY aclError aclopSetAttrInt(aclopAttr* attr, const char* attrName,
                                             int64_t attrValue);
ACL_FUNC_VISIBILITY aclError aclopSetAttrFloat(aclopAttr* attr, const char* attrName,
                                               float attrValue);
ACL_FUNC_VISIBILITY aclError aclopSetAttrString(aclopAttr* attr, const char* attrName,
                                                const char* attrValue);
ACL_FUNC_VISIBILITY aclError aclopSetAttrDataType(aclopAttr* attr, const char* attrName,
                                                  aclDataType attrValue);
ACL_FUNC_VISIBILITY aclError aclopSetAttrListBool(aclopAttr* attr, const char* attrName,
                                                  int numValues, const uint8_t* values);
ACL_FUNC_VISIBILITY aclError aclopSetAttrListInt(aclopAttr* attr, const char* attrName,
                                                 int numValues, const int64_t* values);
ACL_FUNC_VISIBILITY aclError aclopSetAttrListFloat(aclopAttr* attr, const char* attrName,
                                                   int numValues, const float* values);
ACL_FUNC_VISIBILITY aclError aclopSetAttrListString(aclopAttr* attr, const char* attrName,
                                                    int numValues, const char** values);
ACL_FUNC_VISIBILITY aclError aclopSetAttrListDataType(aclopAttr* attr, const char* attrName,
                                                      int numValues, const aclDataType values[]);
ACL_FUNC_VISIBILITY aclError aclopSetAttrListListInt(aclopAttr* attr, const char* attrName,
                                                     int numLists, const int* numValues,
                                                     const int64_t* const values[]);

/* Loads every single-op .om under dir (subfolders included). */
ACL_FUNC_VISIBILITY aclError aclopSetModelDir(const char* modelDir);
/* Loads one single-op .om from memory (the caller keeps nothing alive: it is copied). */
ACL_FUNC_VISIBILITY aclError aclopLoad(const void* model, size_t modelSize);
/* Not needed on the CPU (there is no operator queue); accepted for any count >= 1. */
ACL_FUNC_VISIBILITY aclError aclopSetMaxOpQueueNum(uint64_t maxOpNum);

/* Runs the matching loaded operator; asynchronous on a stream (NULL: synchronous). The
 * buffers are device memory and must stay until the stream is synchronized. */
ACL_FUNC_VISIBILITY aclError aclopExecuteV2(const char* opType, int numInputs,
                                            aclTensorDesc* inputDesc[], aclDataBuffer* inputs[],
                                            int numOutputs, aclTensorDesc* outputDesc[],
                                            aclDataBuffer* outputs[], aclopAttr* attr,
                                            aclrtStream stream);
ACL_FUNC_VISIBILITY aclError aclopExecute(const char* opType, int numInputs,
                                          const aclTensorDesc* const inputDesc[],
                                          const aclDataBuffer* const inputs[], int numOutputs,
                                          const aclTensorDesc* const outputDesc[],
                                          aclDataBuffer* const outputs[], const aclopAttr* attr,
                                          aclrtStream stream);
/* The match made once: a handle to run the same operator on other buffers. */
ACL_FUNC_VISIBILITY aclError aclopCreateHandle(const char* opType, int numInputs,
                                               const aclTensorDesc* const inputDesc[],
                                               int numOutputs,
                                               const aclTensorDesc* const outputDesc[],
                                               const aclopAttr* opAttr, aclopHandle** handle);
ACL_FUNC_VISIBILITY void aclopDestroyHandle(aclopHandle* handle);
ACL_FUNC_VISIBILITY aclError aclopExecWithHandle(aclopHandle* handle, int numInputs,
                                                 const aclDataBuffer* const inputs[],
                                                 int numOutputs, aclDataBuffer* const outputs[],
                                                 aclrtStream stream);
/* A "Cast" operator compiled for these descriptions, with attribute dst_type. */
ACL_FUNC_VISIBILITY aclError aclopCast(const aclTensorDesc* srcDesc, const aclDataBuffer* srcBuffer,
                                       const aclTensorDesc* dstDesc, aclDataBuffer* dstBuffer,
                                       uint8_t truncate, aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif
