/* AscendCL model API: loading .om models, descriptions, datasets, execution (OpenCANN). */
#ifndef OPENCANN_ACL_ACL_MDL_H_
#define OPENCANN_ACL_ACL_MDL_H_

#include <stddef.h>
#include <stdint.h>

#include "acl_base.h"
#include "acl_rt.h"

#ifdef __cplusplus
extern "C" {
#endif

#define ACL_MAX_DIM_CNT 128
#define ACL_MAX_TENSOR_NAME_LEN 128
#define ACL_MAX_BATCH_NUM 128
#define ACL_MAX_HW_NUM 128
#define ACL_MAX_SHAPE_COUNT 128
#define ACL_INVALID_NODE_INDEX 0xFFFFFFFF

#define ACL_MDL_LOAD_FROM_FILE 1
#define ACL_MDL_LOAD_FROM_FILE_WITH_MEM 2
#define ACL_MDL_LOAD_FROM_MEM 3
#define ACL_MDL_LOAD_FROM_MEM_WITH_MEM 4

#define ACL_DYNAMIC_TENSOR_NAME "ascend_mbatch_shape_data"
#define ACL_DYNAMIC_AIPP_NAME "ascend_dynamic_aipp_data"
#define ACL_ATTR_NAME_DATA_DUMP_ORIGIN_OP_NAMES "_datadump_original_op_names"

typedef struct aclmdlDataset aclmdlDataset;
typedef struct aclmdlDesc aclmdlDesc;
typedef struct aclmdlAIPP aclmdlAIPP;

typedef struct aclmdlIODims {
  char name[ACL_MAX_TENSOR_NAME_LEN];
  size_t dimCount;
  int64_t dims[ACL_MAX_DIM_CNT];
} aclmdlIODims;

typedef struct aclmdlBatch {
  size_t batchCount;
  uint64_t batch[ACL_MAX_BATCH_NUM];
} aclmdlBatch;

typedef struct aclmdlHW {
  size_t hwCount;
  uint64_t hw[ACL_MAX_HW_NUM][2];
} aclmdlHW;

typedef enum ACL_ENUM_INT {
  ACL_YUV420SP_U8 = 1,
  ACL_XRGB8888_U8,
  ACL_RGB888_U8,
  ACL_YUV400_U8,
  ACL_NC1HWC0DI_FP16,
  ACL_NC1HWC0DI_S8,
  ACL_ARGB8888_U8,
  ACL_YUYV_U8,
  ACL_YUV422SP_U8,
  ACL_AYUV444_U8,
  ACL_RAW10,
  ACL_RAW12,
  ACL_RAW16,
  ACL_RAW24,
  ACL_AIPP_RESERVED = 0xffff,
} aclAippInputFormat;

typedef enum ACL_ENUM_INT {
  ACL_DATA_WITHOUT_AIPP = 0,
  ACL_DATA_WITH_STATIC_AIPP,
  ACL_DATA_WITH_DYNAMIC_AIPP,
  ACL_DYNAMIC_AIPP_NODE
} aclmdlInputAippType;

typedef struct aclAippDims {
  aclmdlIODims srcDims;
  size_t srcSize;
  aclmdlIODims aippOutdims;
  size_t aippOutSize;
} aclAippDims;

// The static AIPP of an input, as atc's --insert_op_conf set it.
typedef struct aclAippInfo {
  aclAippInputFormat inputFormat;
  int32_t srcImageSizeW;
  int32_t srcImageSizeH;
  int8_t cropSwitch;
  int32_t loadStartPosW;
  int32_t loadStartPosH;
  int32_t cropSizeW;
  int32_t cropSizeH;
  int8_t resizeSwitch;
  int32_t resizeOutputW;
  int32_t resizeOutputH;
  int8_t paddingSwitch;
  int32_t leftPaddingSize;
  int32_t rightPaddingSize;
  int32_t topPaddingSize;
  int32_t bottomPaddingSize;
  int8_t cscSwitch;
  int8_t rbuvSwapSwitch;
  int8_t axSwapSwitch;
  int8_t singleLineMode;
  int32_t matrixR0C0;
  int32_t matrixR0C1;
  int32_t matrixR0C2;
  int32_t matrixR1C0;
  int32_t matrixR1C1;
  int32_t matrixR1C2;
  int32_t matrixR2C0;
  int32_t matrixR2C1;
  int32_t matrixR2C2;
  int32_t outputBias0;
  int32_t outputBias1;
  int32_t outputBias2;
  int32_t inputBias0;
  int32_t inputBias1;
  int32_t inputBias2;
  int32_t meanChn0;
  int32_t meanChn1;
  int32_t meanChn2;
  int32_t meanChn3;
  float minChn0;
  float minChn1;
  float minChn2;
  float minChn3;
  float varReciChn0;
  float varReciChn1;
  float varReciChn2;
  float varReciChn3;
  aclFormat srcFormat;
  aclDataType srcDatatype;
  size_t srcDimNum;
  size_t shapeCount;
  aclAippDims outDims[ACL_MAX_SHAPE_COUNT];
  void* aippExtend;
} aclAippInfo;

ACL_FUNC_VISIBILITY aclError aclmdlLoadFromFile(const char* modelPath, uint32_t* modelId);
ACL_FUNC_VISIBILITY aclError aclmdlLoadFromMem(const void* model, size_t modelSize,
                                               uint32_t* modelId);
ACL_FUNC_VISIBILITY aclError aclmdlLoadFromFileWithMem(const char* modelPath, uint32_t* modelId,
                                                       void* workPtr, size_t workSize,
                                                       void* weightPtr, size_t weightSize);
ACL_FUNC_VISIBILITY aclError aclmdlLoadFromMemWithMem(const void* model, size_t modelSize,
                                                      uint32_t* modelId, void* workPtr,
                                                      size_t workSize, void* weightPtr,
                                                      size_t weightSize);
/* Loading through a configuration: the load type and its arguments as options. */
#define ACL_MDL_LOAD_FROM_FILE 1
#define ACL_MDL_LOAD_FROM_FILE_WITH_MEM 2
#define ACL_MDL_LOAD_FROM_MEM 3
#define ACL_MDL_LOAD_FROM_MEM_WITH_MEM 4
#define ACL_MDL_LOAD_FROM_FILE_WITH_Q 5
#define ACL_MDL_LOAD_FROM_MEM_WITH_Q 6

typedef struct aclmdlConfigHandle aclmdlConfigHandle;

typedef enum {
  ACL_MDL_PRIORITY_INT32 = 0,
  ACL_MDL_LOAD_TYPE_SIZET,
  ACL_MDL_PATH_PTR,
  ACL_MDL_MEM_ADDR_PTR,
  ACL_MDL_MEM_SIZET,
  ACL_MDL_WEIGHT_ADDR_PTR,
  ACL_MDL_WEIGHT_SIZET,
  ACL_MDL_WORKSPACE_ADDR_PTR,
  ACL_MDL_WORKSPACE_SIZET,
  ACL_MDL_INPUTQ_NUM_SIZET,
  ACL_MDL_INPUTQ_ADDR_PTR,
  ACL_MDL_OUTPUTQ_NUM_SIZET,
  ACL_MDL_OUTPUTQ_ADDR_PTR,
  ACL_MDL_WORKSPACE_MEM_OPTIMIZE,
  ACL_MDL_WEIGHT_PATH_PTR,
  ACL_MDL_MODEL_DESC_PTR,
  ACL_MDL_MODEL_DESC_SIZET,
  ACL_MDL_KERNEL_PTR,
  ACL_MDL_KERNEL_SIZET,
  ACL_MDL_KERNEL_ARGS_PTR,
  ACL_MDL_KERNEL_ARGS_SIZET,
  ACL_MDL_STATIC_TASK_PTR,
  ACL_MDL_STATIC_TASK_SIZET,
  ACL_MDL_DYNAMIC_TASK_PTR,
  ACL_MDL_DYNAMIC_TASK_SIZET,
  ACL_MDL_MEM_MALLOC_POLICY_SIZET,
  ACL_MDL_FIFO_PTR,
  ACL_MDL_FIFO_SIZET,
  ACL_MDL_WITHOUT_GRAPH_INT32,
  ACL_MDL_RESERVED = 0xFFFF
} aclmdlConfigAttr;

ACL_FUNC_VISIBILITY aclmdlConfigHandle* aclmdlCreateConfigHandle(void);
ACL_FUNC_VISIBILITY aclError aclmdlDestroyConfigHandle(aclmdlConfigHandle* handle);
/* attrValue points at the value (for a _PTR option, at the pointer); valueSize is its size. */
ACL_FUNC_VISIBILITY aclError aclmdlSetConfigOpt(aclmdlConfigHandle* handle, aclmdlConfigAttr attr,
                                                const void* attrValue, size_t valueSize);
ACL_FUNC_VISIBILITY aclError aclmdlLoadWithConfig(const aclmdlConfigHandle* handle,
                                                  uint32_t* modelId);
ACL_FUNC_VISIBILITY aclError aclmdlSetExternalWeightAddress(aclmdlConfigHandle* handle,
                                                            const char* weightFileName,
                                                            void* devPtr, size_t size);
ACL_FUNC_VISIBILITY aclError aclmdlQuerySize(const char* fileName, size_t* workSize,
                                             size_t* weightSize);
ACL_FUNC_VISIBILITY aclError aclmdlQuerySizeFromMem(const void* model, size_t modelSize,
                                                    size_t* workSize, size_t* weightSize);
ACL_FUNC_VISIBILITY aclError aclmdlUnload(uint32_t modelId);

ACL_FUNC_VISIBILITY aclmdlDesc* aclmdlCreateDesc(void);
ACL_FUNC_VISIBILITY aclError aclmdlDestroyDesc(aclmdlDesc* modelDesc);
ACL_FUNC_VISIBILITY aclError aclmdlGetDesc(aclmdlDesc* modelDesc, uint32_t modelId);
ACL_FUNC_VISIBILITY size_t aclmdlGetNumInputs(aclmdlDesc* modelDesc);
ACL_FUNC_VISIBILITY size_t aclmdlGetNumOutputs(aclmdlDesc* modelDesc);
ACL_FUNC_VISIBILITY size_t aclmdlGetInputSizeByIndex(aclmdlDesc* modelDesc, size_t index);
ACL_FUNC_VISIBILITY size_t aclmdlGetOutputSizeByIndex(aclmdlDesc* modelDesc, size_t index);
ACL_FUNC_VISIBILITY aclError aclmdlGetInputDims(const aclmdlDesc* modelDesc, size_t index,
                                                aclmdlIODims* dims);
ACL_FUNC_VISIBILITY aclError aclmdlGetInputDimsV2(const aclmdlDesc* modelDesc, size_t index,
                                                  aclmdlIODims* dims);
ACL_FUNC_VISIBILITY aclError aclmdlGetOutputDims(const aclmdlDesc* modelDesc, size_t index,
                                                 aclmdlIODims* dims);
ACL_FUNC_VISIBILITY aclError aclmdlGetCurOutputDims(const aclmdlDesc* modelDesc, size_t index,
                                                    aclmdlIODims* dims);
ACL_FUNC_VISIBILITY const char* aclmdlGetInputNameByIndex(const aclmdlDesc* modelDesc,
                                                          size_t index);
ACL_FUNC_VISIBILITY const char* aclmdlGetOutputNameByIndex(const aclmdlDesc* modelDesc,
                                                           size_t index);
ACL_FUNC_VISIBILITY aclFormat aclmdlGetInputFormat(const aclmdlDesc* modelDesc, size_t index);
ACL_FUNC_VISIBILITY aclFormat aclmdlGetOutputFormat(const aclmdlDesc* modelDesc, size_t index);
ACL_FUNC_VISIBILITY aclDataType aclmdlGetInputDataType(const aclmdlDesc* modelDesc, size_t index);
ACL_FUNC_VISIBILITY aclDataType aclmdlGetOutputDataType(const aclmdlDesc* modelDesc, size_t index);
ACL_FUNC_VISIBILITY aclError aclmdlGetInputIndexByName(const aclmdlDesc* modelDesc,
                                                       const char* name, size_t* index);
ACL_FUNC_VISIBILITY aclError aclmdlGetOutputIndexByName(const aclmdlDesc* modelDesc,
                                                        const char* name, size_t* index);

ACL_FUNC_VISIBILITY aclmdlDataset* aclmdlCreateDataset(void);
ACL_FUNC_VISIBILITY aclError aclmdlDestroyDataset(const aclmdlDataset* dataset);
ACL_FUNC_VISIBILITY aclError aclmdlAddDatasetBuffer(aclmdlDataset* dataset,
                                                    aclDataBuffer* dataBuffer);
ACL_FUNC_VISIBILITY size_t aclmdlGetDatasetNumBuffers(const aclmdlDataset* dataset);
ACL_FUNC_VISIBILITY aclDataBuffer* aclmdlGetDatasetBuffer(const aclmdlDataset* dataset,
                                                          size_t index);
ACL_FUNC_VISIBILITY aclError aclmdlSetDatasetTensorDesc(aclmdlDataset* dataset,
                                                        aclTensorDesc* tensorDesc, size_t index);
ACL_FUNC_VISIBILITY aclTensorDesc* aclmdlGetDatasetTensorDesc(const aclmdlDataset* dataset,
                                                              size_t index);

ACL_FUNC_VISIBILITY aclError aclmdlExecute(uint32_t modelId, const aclmdlDataset* input,
                                           aclmdlDataset* output);
ACL_FUNC_VISIBILITY aclError aclmdlExecuteAsync(uint32_t modelId, const aclmdlDataset* input,
                                                aclmdlDataset* output, aclrtStream stream);

ACL_FUNC_VISIBILITY aclError aclmdlSetDynamicBatchSize(uint32_t modelId, aclmdlDataset* dataset,
                                                       size_t index, uint64_t batchSize);
ACL_FUNC_VISIBILITY aclError aclmdlSetDynamicHWSize(uint32_t modelId, aclmdlDataset* dataset,
                                                    size_t index, uint64_t height, uint64_t width);
ACL_FUNC_VISIBILITY aclError aclmdlSetInputDynamicDims(uint32_t modelId, aclmdlDataset* dataset,
                                                       size_t index, const aclmdlIODims* dims);
ACL_FUNC_VISIBILITY aclError aclmdlGetDynamicBatch(const aclmdlDesc* modelDesc, aclmdlBatch* batch);
ACL_FUNC_VISIBILITY aclError aclmdlGetDynamicHW(const aclmdlDesc* modelDesc, size_t index,
                                                aclmdlHW* hw);
ACL_FUNC_VISIBILITY aclError aclmdlGetInputDynamicGearCount(const aclmdlDesc* modelDesc,
                                                            size_t index, size_t* gearCount);
ACL_FUNC_VISIBILITY aclError aclmdlGetInputDynamicDims(const aclmdlDesc* modelDesc, size_t index,
                                                       aclmdlIODims* dims, size_t gearCount);
// AIPP of a model input. Static AIPP comes from atc's --insert_op_conf; with aipp_mode:
// dynamic the model gets an extra UINT8 input named ACL_DYNAMIC_AIPP_NAME that the
// application fills with aclmdlSetInputAIPP (or aclmdlSetAIPPByInputIndex, given the image
// input) from a parameter set made with aclmdlCreateAIPP and the aclmdlSetAIPP* setters.
ACL_FUNC_VISIBILITY aclError aclmdlGetAippType(uint32_t modelId, size_t index,
                                               aclmdlInputAippType* type,
                                               size_t* dynamicAttachedDataIndex);
ACL_FUNC_VISIBILITY aclError aclmdlGetFirstAippInfo(uint32_t modelId, size_t index,
                                                    aclAippInfo* aippInfo);

ACL_FUNC_VISIBILITY aclmdlAIPP* aclmdlCreateAIPP(uint64_t batchSize);
ACL_FUNC_VISIBILITY aclError aclmdlDestroyAIPP(const aclmdlAIPP* aippParmsSet);
ACL_FUNC_VISIBILITY aclError aclmdlGetAippDataSize(uint64_t batchSize, size_t* size);
ACL_FUNC_VISIBILITY aclError aclmdlSetAIPPInputFormat(aclmdlAIPP* aippParmsSet,
                                                      aclAippInputFormat inputFormat);
ACL_FUNC_VISIBILITY aclError aclmdlSetAIPPCscParams(
    aclmdlAIPP* aippParmsSet, int8_t csc_switch, int16_t cscMatrixR0C0, int16_t cscMatrixR0C1,
    int16_t cscMatrixR0C2, int16_t cscMatrixR1C0, int16_t cscMatrixR1C1, int16_t cscMatrixR1C2,
    int16_t cscMatrixR2C0, int16_t cscMatrixR2C1, int16_t cscMatrixR2C2, uint8_t cscOutputBiasR0,
    uint8_t cscOutputBiasR1, uint8_t cscOutputBiasR2, uint8_t cscInputBiasR0,
    uint8_t cscInputBiasR1, uint8_t cscInputBiasR2);
ACL_FUNC_VISIBILITY aclError aclmdlSetAIPPRbuvSwapSwitch(aclmdlAIPP* aippParmsSet,
                                                         int8_t rbuvSwapSwitch);
ACL_FUNC_VISIBILITY aclError aclmdlSetAIPPAxSwapSwitch(aclmdlAIPP* aippParmsSet,
                                                       int8_t axSwapSwitch);
ACL_FUNC_VISIBILITY aclError aclmdlSetAIPPSrcImageSize(aclmdlAIPP* aippParmsSet,
                                                       int32_t srcImageSizeW,
                                                       int32_t srcImageSizeH);
// Resizing (scfSwitch 1) is refused with ACL_ERROR_FEATURE_UNSUPPORTED.
ACL_FUNC_VISIBILITY aclError aclmdlSetAIPPScfParams(aclmdlAIPP* aippParmsSet, int8_t scfSwitch,
                                                    int32_t scfInputSizeW, int32_t scfInputSizeH,
                                                    int32_t scfOutputSizeW, int32_t scfOutputSizeH,
                                                    uint64_t batchIndex);
ACL_FUNC_VISIBILITY aclError aclmdlSetAIPPCropParams(aclmdlAIPP* aippParmsSet, int8_t cropSwitch,
                                                     int32_t cropStartPosW, int32_t cropStartPosH,
                                                     int32_t cropSizeW, int32_t cropSizeH,
                                                     uint64_t batchIndex);
ACL_FUNC_VISIBILITY aclError
aclmdlSetAIPPPaddingParams(aclmdlAIPP* aippParmsSet, int8_t paddingSwitch, int32_t paddingSizeTop,
                           int32_t paddingSizeBottom, int32_t paddingSizeLeft,
                           int32_t paddingSizeRight, uint64_t batchIndex);
ACL_FUNC_VISIBILITY aclError aclmdlSetAIPPDtcPixelMean(
    aclmdlAIPP* aippParmsSet, int16_t dtcPixelMeanChn0, int16_t dtcPixelMeanChn1,
    int16_t dtcPixelMeanChn2, int16_t dtcPixelMeanChn3, uint64_t batchIndex);
ACL_FUNC_VISIBILITY aclError aclmdlSetAIPPDtcPixelMin(aclmdlAIPP* aippParmsSet,
                                                      float dtcPixelMinChn0, float dtcPixelMinChn1,
                                                      float dtcPixelMinChn2, float dtcPixelMinChn3,
                                                      uint64_t batchIndex);
ACL_FUNC_VISIBILITY aclError aclmdlSetAIPPPixelVarReci(
    aclmdlAIPP* aippParmsSet, float dtcPixelVarReciChn0, float dtcPixelVarReciChn1,
    float dtcPixelVarReciChn2, float dtcPixelVarReciChn3, uint64_t batchIndex);
ACL_FUNC_VISIBILITY aclError aclmdlSetInputAIPP(uint32_t modelId, aclmdlDataset* dataset,
                                                size_t index, const aclmdlAIPP* aippParmsSet);
ACL_FUNC_VISIBILITY aclError aclmdlSetAIPPByInputIndex(uint32_t modelId, aclmdlDataset* dataset,
                                                       size_t index,
                                                       const aclmdlAIPP* aippParmsSet);

/* The tensors of a failed task (from the exception callback's stream and task ids): its name
 * and arrays of input and output descriptions with device addresses, each array freed with
 * aclDestroyTensorDesc. */
ACL_FUNC_VISIBILITY aclError aclmdlCreateAndGetOpDesc(uint32_t deviceId, uint32_t streamId,
                                                      uint32_t taskId, char* opName,
                                                      size_t opNameLen, aclTensorDesc** inputDesc,
                                                      size_t* numInputs, aclTensorDesc** outputDesc,
                                                      size_t* numOutputs);

#ifdef __cplusplus
}
#endif

#endif
