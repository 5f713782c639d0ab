/* Misuse of every public AscendCL function: null handles, wrong sizes, unknown ids and
 * wrong order return CANN's codes and never crash. A test (tests/e2e/test_c_programs.py)
 * checks that every function declared in include/acl appears here. The tables near the end
 * give every function taking a handle each kind of bad one (null, made-up, unmapped,
 * destroyed, of another type), the functions taking sizes zero and huge ones (and those that
 * overflow when rounded or multiplied), and the functions writing to or reading from caller
 * memory read-only, inaccessible and unmapped pages.
 *
 * usage: oc_acl_misuse STATIC.om GEARS.om   (GEARS.om built with --dynamic_batch_size) */
#include <pthread.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "acl/acl.h"
#include "acl/acl_kernel_launch.h"
#include "acl/acl_op_compiler.h"
#include "acl/ops/acl_cblas.h"
#include "acl/ops/acl_dvpp.h"
#include "aclnn/acl_meta.h"

static int failures = 0, checks = 0;

#define EXPECT_CODE(call, code)                                                          \
  do {                                                                                   \
    aclError got_ = (call);                                                              \
    ++checks;                                                                            \
    if (got_ != (aclError)(code)) {                                                      \
      ++failures;                                                                        \
      printf("FAIL %s:%d %s -> %d, expected %d (%s)\n", __FILE__, __LINE__, #call, got_, \
             (int)(code), aclGetRecentErrMsg());                                         \
    }                                                                                    \
  } while (0)

#define EXPECT_TRUE(cond)                                   \
  do {                                                      \
    ++checks;                                               \
    if (!(cond)) {                                          \
      ++failures;                                           \
      printf("FAIL %s:%d %s\n", __FILE__, __LINE__, #cond); \
    }                                                       \
  } while (0)

static void Callback(void* data) { (void)data; }

/* The exception callback's view of a failed asynchronous task. */
static uint32_t g_exc_stream = 0, g_exc_task = 0, g_exc_error = 0;
static int g_exc_calls = 0;
static void OnException(aclrtExceptionInfo* info) {
  ++g_exc_calls;
  g_exc_stream = aclrtGetStreamIdFromExceptionInfo(info);
  g_exc_task = aclrtGetTaskIdFromExceptionInfo(info);
  g_exc_error = aclrtGetErrorCodeFromExceptionInfo(info);
}

/* ---- the tables' live handles: what a call gets for the parameters not under test ---- */
static struct {
  aclDataBuffer* buf;
  aclTensorDesc* desc;
  aclmdlDataset* ds;
  aclmdlDesc* mdesc;
  aclmdlAIPP* aipp;
  aclopAttr* attr;
  aclrtStream stream;
  aclrtEvent event;
  uint32_t model;
  void* dev;
} g_ok;
static aclmdlIODims g_io;

/* ---- data-driven misuse: every function taking a handle, with every kind of bad handle ---- */

/* Whether a void function reported an error: the recent message changes from a marker. */
static aclError Reported(void (*call)(void*), void* h) {
  char before[256];
  aclrtGetDeviceCount(NULL); /* the marker: a known error */
  snprintf(before, sizeof(before), "%s", aclGetRecentErrMsg() ? aclGetRecentErrMsg() : "");
  call(h);
  const char* after = aclGetRecentErrMsg();
  return after && strcmp(before, after) != 0 ? ACL_ERROR_INVALID_PARAM : ACL_SUCCESS;
}
#define ERR_IF(cond) ((cond) ? ACL_ERROR_INVALID_PARAM : ACL_SUCCESS)

/* One wrapper per (function, handle parameter): the bad handle goes in as h. */
static void V_DestroyTensorDesc(void* h) { aclDestroyTensorDesc(h); }
static void V_DestroyAttr(void* h) { aclopDestroyAttr(h); }
static void V_DestroyHandle(void* h) { aclopDestroyHandle(h); }
static void Cb(void* d) { (void)d; }
#define W(name, expr) \
  static aclError name(void* h) { return (expr); }
/* aclDataBuffer */
W(B_Destroy, aclDestroyDataBuffer(h))
W(B_Update, aclUpdateDataBuffer(h, g_ok.dev, 4))
W(B_Addr, ERR_IF(aclGetDataBufferAddr(h) == NULL))
W(B_Size, ERR_IF(aclGetDataBufferSize(h) == 0))
W(B_SizeV2, ERR_IF(aclGetDataBufferSizeV2(h) == 0))
W(B_AddToDataset, aclmdlAddDatasetBuffer(g_ok.ds, h))
/* aclTensorDesc */
W(T_Destroy, Reported(V_DestroyTensorDesc, h))
W(T_Type, ERR_IF(aclGetTensorDescType(h) == ACL_DT_UNDEFINED))
W(T_Format, ERR_IF(aclGetTensorDescFormat(h) == ACL_FORMAT_UNDEFINED))
W(T_Size, ERR_IF(aclGetTensorDescSize(h) == 0))
W(T_Count, ERR_IF(aclGetTensorDescElementCount(h) == 0))
W(T_NumDims, ERR_IF(aclGetTensorDescNumDims(h) == 0))
W(T_Dim, aclGetTensorDescDimV2(h, 0, &(int64_t){0}))
W(T_ByIndex, ERR_IF(aclGetTensorDescByIndex(h, 0) == NULL))
W(T_Address, ERR_IF(aclGetTensorDescAddress(h) == NULL))
W(T_SetInDataset, aclmdlSetDatasetTensorDesc(g_ok.ds, h, 0))
W(T_Cast, aclopCast(h, g_ok.buf, g_ok.desc, g_ok.buf, 0, NULL))
W(T_CreateHandle,
  aclopCreateHandle("Add", 1, (const aclTensorDesc* const[]){h}, 1,
                    (const aclTensorDesc* const[]){g_ok.desc}, NULL, &(aclopHandle*){NULL}))
W(T_Compile, aclopCompile("Relu", 1, (const aclTensorDesc* const[]){h}, 1,
                          (const aclTensorDesc* const[]){g_ok.desc}, NULL, ACL_ENGINE_SYS,
                          ACL_COMPILE_SYS, NULL))
/* aclmdlDataset */
W(D_Destroy, aclmdlDestroyDataset(h))
W(D_AddBuffer, aclmdlAddDatasetBuffer(h, g_ok.buf))
W(D_NumBuffers, ERR_IF(aclmdlGetDatasetNumBuffers(h) == 0))
W(D_Buffer, ERR_IF(aclmdlGetDatasetBuffer(h, 0) == NULL))
W(D_SetDesc, aclmdlSetDatasetTensorDesc(h, g_ok.desc, 0))
W(D_GetDesc, ERR_IF(aclmdlGetDatasetTensorDesc(h, 0) == NULL))
W(D_ExecuteIn, aclmdlExecute(g_ok.model, h, g_ok.ds))
W(D_ExecuteOut, aclmdlExecute(g_ok.model, g_ok.ds, h))
W(D_ExecuteAsync, aclmdlExecuteAsync(g_ok.model, h, g_ok.ds, g_ok.stream))
W(D_Batch, aclmdlSetDynamicBatchSize(g_ok.model, h, 0, 1))
W(D_HW, aclmdlSetDynamicHWSize(g_ok.model, h, 0, 8, 8))
W(D_InputAipp, aclmdlSetInputAIPP(g_ok.model, h, 0, g_ok.aipp))
W(D_AippByIndex, aclmdlSetAIPPByInputIndex(g_ok.model, h, 0, g_ok.aipp))
/* aclmdlDesc */
W(M_Destroy, aclmdlDestroyDesc(h))
W(M_Get, aclmdlGetDesc(h, g_ok.model))
W(M_NumIn, ERR_IF(aclmdlGetNumInputs(h) == 0))
W(M_NumOut, ERR_IF(aclmdlGetNumOutputs(h) == 0))
W(M_InSize, ERR_IF(aclmdlGetInputSizeByIndex(h, 0) == 0))
W(M_OutSize, ERR_IF(aclmdlGetOutputSizeByIndex(h, 0) == 0))
W(M_InDims, aclmdlGetInputDims(h, 0, &g_io))
W(M_InDimsV2, aclmdlGetInputDimsV2(h, 0, &g_io))
W(M_OutDims, aclmdlGetOutputDims(h, 0, &g_io))
W(M_CurOutDims, aclmdlGetCurOutputDims(h, 0, &g_io))
W(M_InName, ERR_IF(*aclmdlGetInputNameByIndex(h, 0) == '\0'))
W(M_OutName, ERR_IF(*aclmdlGetOutputNameByIndex(h, 0) == '\0'))
W(M_InFormat, ERR_IF(aclmdlGetInputFormat(h, 0) == ACL_FORMAT_UNDEFINED))
W(M_OutFormat, ERR_IF(aclmdlGetOutputFormat(h, 0) == ACL_FORMAT_UNDEFINED))
W(M_InType, ERR_IF(aclmdlGetInputDataType(h, 0) == ACL_DT_UNDEFINED))
W(M_OutType, ERR_IF(aclmdlGetOutputDataType(h, 0) == ACL_DT_UNDEFINED))
W(M_InIndex, aclmdlGetInputIndexByName(h, "x", &(size_t){0}))
W(M_OutIndex, aclmdlGetOutputIndexByName(h, "y", &(size_t){0}))
W(M_DynBatch, aclmdlGetDynamicBatch(h, &(aclmdlBatch){0}))
W(M_DynHW, aclmdlGetDynamicHW(h, 0, &(aclmdlHW){0}))
W(M_GearCount, aclmdlGetInputDynamicGearCount(h, 0, &(size_t){0}))
W(M_DynDims, aclmdlGetInputDynamicDims(h, 0, &g_io, 1))
/* aclmdlAIPP */
W(A_Destroy, aclmdlDestroyAIPP(h))
W(A_Format, aclmdlSetAIPPInputFormat(h, ACL_RGB888_U8))
W(A_Csc, aclmdlSetAIPPCscParams(h, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0))
W(A_Rbuv, aclmdlSetAIPPRbuvSwapSwitch(h, 0))
W(A_Ax, aclmdlSetAIPPAxSwapSwitch(h, 0))
W(A_Src, aclmdlSetAIPPSrcImageSize(h, 8, 8))
W(A_Scf, aclmdlSetAIPPScfParams(h, 0, 8, 8, 8, 8, 0))
W(A_Crop, aclmdlSetAIPPCropParams(h, 0, 0, 0, 8, 8, 0))
W(A_Pad, aclmdlSetAIPPPaddingParams(h, 0, 0, 0, 0, 0, 0))
W(A_Mean, aclmdlSetAIPPDtcPixelMean(h, 0, 0, 0, 0, 0))
W(A_Min, aclmdlSetAIPPDtcPixelMin(h, 0, 0, 0, 0, 0))
W(A_Var, aclmdlSetAIPPPixelVarReci(h, 1, 1, 1, 1, 0))
W(A_SetInput, aclmdlSetInputAIPP(g_ok.model, g_ok.ds, 0, h))
W(A_ByIndex, aclmdlSetAIPPByInputIndex(g_ok.model, g_ok.ds, 0, h))
/* aclopAttr */
W(O_Destroy, Reported(V_DestroyAttr, h))
W(O_Bool, aclopSetAttrBool(h, "a", 1))
W(O_Int, aclopSetAttrInt(h, "a", 1))
W(O_Float, aclopSetAttrFloat(h, "a", 1))
W(O_String, aclopSetAttrString(h, "a", "v"))
W(O_DataType, aclopSetAttrDataType(h, "a", ACL_FLOAT))
W(O_ListBool, aclopSetAttrListBool(h, "a", 1, (const uint8_t[]){1}))
W(O_ListInt, aclopSetAttrListInt(h, "a", 1, (const int64_t[]){1}))
W(O_ListFloat, aclopSetAttrListFloat(h, "a", 1, (const float[]){1}))
W(O_ListString, aclopSetAttrListString(h, "a", 1, (const char*[]){"v"}))
W(O_ListDataType, aclopSetAttrListDataType(h, "a", 1, (const aclDataType[]){ACL_FLOAT}))
W(O_ListListInt, aclopSetAttrListListInt(h, "a", 1, (const int[]){1},
                                         (const int64_t* const[]){(const int64_t[]){1}}))
W(O_ExecuteV2,
  aclopExecuteV2("Add", 1, (aclTensorDesc*[]){g_ok.desc}, (aclDataBuffer*[]){g_ok.buf}, 1,
                 (aclTensorDesc*[]){g_ok.desc}, (aclDataBuffer*[]){g_ok.buf}, h, NULL))
W(O_Compile,
  aclopCompile("Relu", 1, (const aclTensorDesc* const[]){g_ok.desc}, 1,
               (const aclTensorDesc* const[]){g_ok.desc}, h, ACL_ENGINE_SYS, ACL_COMPILE_SYS, NULL))
/* aclopHandle */
W(H_Destroy, Reported(V_DestroyHandle, h))
W(H_Exec, aclopExecWithHandle(h, 1, (const aclDataBuffer* const[]){g_ok.buf}, 1,
                              (aclDataBuffer* const[]){g_ok.buf}, NULL))
/* aclrtStream (NULL is the default stream for most: not a bad value there) */
W(S_Destroy, aclrtDestroyStream(h))
W(S_Sync, aclrtSynchronizeStream(h))
W(S_SyncTimeout, aclrtSynchronizeStreamWithTimeout(h, 10))
W(S_Record, aclrtRecordEvent(g_ok.event, h))
W(S_Subscribe, aclrtSubscribeReport(7, h))
W(S_Launch, aclrtLaunchCallback(Cb, NULL, ACL_CALLBACK_NO_BLOCK, h))
W(S_Unsubscribe, aclrtUnSubscribeReport(7, h))
W(S_Memcpy, aclrtMemcpyAsync(g_ok.dev, 4, g_ok.dev, 4, ACL_MEMCPY_DEVICE_TO_DEVICE, h))
W(S_Memset, aclrtMemsetAsync(g_ok.dev, 4, 0, 4, h))
W(S_Execute, aclmdlExecuteAsync(g_ok.model, g_ok.ds, g_ok.ds, h))
/* aclrtEvent */
W(E_Destroy, aclrtDestroyEvent(h))
W(E_Record, aclrtRecordEvent(h, g_ok.stream))
W(E_Sync, aclrtSynchronizeEvent(h))
W(E_ElapsedStart, aclrtEventElapsedTime(&(float){0}, h, g_ok.event))
W(E_ElapsedEnd, aclrtEventElapsedTime(&(float){0}, g_ok.event, h))
/* aclrtContext */
W(C_Destroy, aclrtDestroyContext(h))
W(C_SetCurrent, aclrtSetCurrentContext(h))
/* aclrtExceptionInfo: outside the callback every pointer is a bad one */
W(X_Task, ERR_IF(aclrtGetTaskIdFromExceptionInfo(h) == 0xFFFFFFFFu))
W(X_Stream, ERR_IF(aclrtGetStreamIdFromExceptionInfo(h) == 0xFFFFFFFFu))
W(X_Thread, ERR_IF(aclrtGetThreadIdFromExceptionInfo(h) == 0xFFFFFFFFu))
W(X_Device, ERR_IF(aclrtGetDeviceIdFromExceptionInfo(h) == 0xFFFFFFFFu))
W(X_Error, ERR_IF(aclrtGetErrorCodeFromExceptionInfo(h) == 0xFFFFFFFFu))
#undef W

enum Kind {
  K_BUF,
  K_DESC,
  K_DS,
  K_MDESC,
  K_AIPP,
  K_ATTR,
  K_OPHANDLE,
  K_STREAM,
  K_EVENT,
  K_CTX,
  K_INFO,
  K_KINDS
};
static const struct {
  const char* name;
  enum Kind kind;
  aclError (*call)(void*);
  aclError expect; /* for every bad handle */
  int null_ok;     /* NULL is a valid value of the parameter (the default stream) */
} kHandleCalls[] = {
    {"aclDestroyDataBuffer", K_BUF, B_Destroy, ACL_ERROR_INVALID_PARAM, 0},
    {"aclUpdateDataBuffer", K_BUF, B_Update, ACL_ERROR_INVALID_PARAM, 0},
    {"aclGetDataBufferAddr", K_BUF, B_Addr, ACL_ERROR_INVALID_PARAM, 0},
    {"aclGetDataBufferSize", K_BUF, B_Size, ACL_ERROR_INVALID_PARAM, 0},
    {"aclGetDataBufferSizeV2", K_BUF, B_SizeV2, ACL_ERROR_INVALID_PARAM, 0},
    {"aclmdlAddDatasetBuffer(buffer)", K_BUF, B_AddToDataset, ACL_ERROR_INVALID_PARAM, 0},
    {"aclDestroyTensorDesc", K_DESC, T_Destroy, ACL_ERROR_INVALID_PARAM, 0},
    {"aclGetTensorDescType", K_DESC, T_Type, ACL_ERROR_INVALID_PARAM, 0},
    {"aclGetTensorDescFormat", K_DESC, T_Format, ACL_ERROR_INVALID_PARAM, 0},
    {"aclGetTensorDescSize", K_DESC, T_Size, ACL_ERROR_INVALID_PARAM, 0},
    {"aclGetTensorDescElementCount", K_DESC, T_Count, ACL_ERROR_INVALID_PARAM, 0},
    {"aclGetTensorDescNumDims", K_DESC, T_NumDims, ACL_ERROR_INVALID_PARAM, 0},
    {"aclGetTensorDescDimV2", K_DESC, T_Dim, ACL_ERROR_INVALID_PARAM, 0},
    {"aclGetTensorDescByIndex", K_DESC, T_ByIndex, ACL_ERROR_INVALID_PARAM, 0},
    {"aclGetTensorDescAddress", K_DESC, T_Address, ACL_ERROR_INVALID_PARAM, 0},
    {"aclmdlSetDatasetTensorDesc(desc)", K_DESC, T_SetInDataset, ACL_ERROR_INVALID_PARAM, 0},
    {"aclopCast(srcDesc)", K_DESC, T_Cast, ACL_ERROR_INVALID_PARAM, 0},
    {"aclopCreateHandle(inputDesc)", K_DESC, T_CreateHandle, ACL_ERROR_INVALID_PARAM, 0},
    {"aclopCompile(inputDesc)", K_DESC, T_Compile, ACL_ERROR_INVALID_PARAM, 0},
    {"aclmdlDestroyDataset", K_DS, D_Destroy, ACL_ERROR_INVALID_PARAM, 0},
    {"aclmdlAddDatasetBuffer(dataset)", K_DS, D_AddBuffer, ACL_ERROR_INVALID_PARAM, 0},
    {"aclmdlGetDatasetNumBuffers", K_DS, D_NumBuffers, ACL_ERROR_INVALID_PARAM, 0},
    {"aclmdlGetDatasetBuffer", K_DS, D_Buffer, ACL_ERROR_INVALID_PARAM, 0},
    {"aclmdlSetDatasetTensorDesc(dataset)", K_DS, D_SetDesc, ACL_ERROR_INVALID_PARAM, 0},
    {"aclmdlGetDatasetTensorDesc", K_DS, D_GetDesc, ACL_ERROR_INVALID_PARAM, 0},
    {"aclmdlExecute(input)", K_DS, D_ExecuteIn, ACL_ERROR_INVALID_PARAM, 0},
    {"aclmdlExecute(output)", K_DS, D_ExecuteOut, ACL_ERROR_INVALID_PARAM, 0},
    {"aclmdlExecuteAsync(input)", K_DS, D_ExecuteAsync, ACL_ERROR_INVALID_PARAM, 0},
    {"aclmdlSetDynamicBatchSize", K_DS, D_Batch, ACL_ERROR_INVALID_PARAM, 0},
    {"aclmdlSetDynamicHWSize", K_DS, D_HW, ACL_ERROR_INVALID_PARAM, 0},
    {"aclmdlSetInputAIPP(dataset)", K_DS, D_InputAipp, ACL_ERROR_INVALID_PARAM, 0},
    {"aclmdlSetAIPPByInputIndex(dataset)", K_DS, D_AippByIndex, ACL_ERROR_INVALID_PARAM, 0},
    {"aclmdlDestroyDesc", K_MDESC, M_Destroy, ACL_ERROR_INVALID_PARAM, 0},
    {"aclmdlGetDesc", K_MDESC, M_Get, ACL_ERROR_INVALID_PARAM, 0},
    {"aclmdlGetNumInputs", K_MDESC, M_NumIn, ACL_ERROR_INVALID_PARAM, 0},
    {"aclmdlGetNumOutputs", K_MDESC, M_NumOut, ACL_ERROR_INVALID_PARAM, 0},
    {"aclmdlGetInputSizeByIndex", K_MDESC, M_InSize, ACL_ERROR_INVALID_PARAM, 0},
    {"aclmdlGetOutputSizeByIndex", K_MDESC, M_OutSize, ACL_ERROR_INVALID_PARAM, 0},
    {"aclmdlGetInputDims", K_MDESC, M_InDims, ACL_ERROR_INVALID_PARAM, 0},
    {"aclmdlGetInputDimsV2", K_MDESC, M_InDimsV2, ACL_ERROR_INVALID_PARAM, 0},
    {"aclmdlGetOutputDims", K_MDESC, M_OutDims, ACL_ERROR_INVALID_PARAM, 0},
    {"aclmdlGetCurOutputDims", K_MDESC, M_CurOutDims, ACL_ERROR_INVALID_PARAM, 0},
    {"aclmdlGetInputNameByIndex", K_MDESC, M_InName, ACL_ERROR_INVALID_PARAM, 0},
    {"aclmdlGetOutputNameByIndex", K_MDESC, M_OutName, ACL_ERROR_INVALID_PARAM, 0},
    {"aclmdlGetInputFormat", K_MDESC, M_InFormat, ACL_ERROR_INVALID_PARAM, 0},
    {"aclmdlGetOutputFormat", K_MDESC, M_OutFormat, ACL_ERROR_INVALID_PARAM, 0},
    {"aclmdlGetInputDataType", K_MDESC, M_InType, ACL_ERROR_INVALID_PARAM, 0},
    {"aclmdlGetOutputDataType", K_MDESC, M_OutType, ACL_ERROR_INVALID_PARAM, 0},
    {"aclmdlGetInputIndexByName", K_MDESC, M_InIndex, ACL_ERROR_INVALID_PARAM, 0},
    {"aclmdlGetOutputIndexByName", K_MDESC, M_OutIndex, ACL_ERROR_INVALID_PARAM, 0},
    {"aclmdlGetDynamicBatch", K_MDESC, M_DynBatch, ACL_ERROR_INVALID_PARAM, 0},
    {"aclmdlGetDynamicHW", K_MDESC, M_DynHW, ACL_ERROR_INVALID_PARAM, 0},
    {"aclmdlGetInputDynamicGearCount", K_MDESC, M_GearCount, ACL_ERROR_INVALID_PARAM, 0},
    {"aclmdlGetInputDynamicDims", K_MDESC, M_DynDims, ACL_ERROR_INVALID_PARAM, 0},
    {"aclmdlDestroyAIPP", K_AIPP, A_Destroy, ACL_ERROR_INVALID_PARAM, 0},
    {"aclmdlSetAIPPInputFormat", K_AIPP, A_Format, ACL_ERROR_INVALID_PARAM, 0},
    {"aclmdlSetAIPPCscParams", K_AIPP, A_Csc, ACL_ERROR_INVALID_PARAM, 0},
    {"aclmdlSetAIPPRbuvSwapSwitch", K_AIPP, A_Rbuv, ACL_ERROR_INVALID_PARAM, 0},
    {"aclmdlSetAIPPAxSwapSwitch", K_AIPP, A_Ax, ACL_ERROR_INVALID_PARAM, 0},
    {"aclmdlSetAIPPSrcImageSize", K_AIPP, A_Src, ACL_ERROR_INVALID_PARAM, 0},
    {"aclmdlSetAIPPScfParams", K_AIPP, A_Scf, ACL_ERROR_INVALID_PARAM, 0},
    {"aclmdlSetAIPPCropParams", K_AIPP, A_Crop, ACL_ERROR_INVALID_PARAM, 0},
    {"aclmdlSetAIPPPaddingParams", K_AIPP, A_Pad, ACL_ERROR_INVALID_PARAM, 0},
    {"aclmdlSetAIPPDtcPixelMean", K_AIPP, A_Mean, ACL_ERROR_INVALID_PARAM, 0},
    {"aclmdlSetAIPPDtcPixelMin", K_AIPP, A_Min, ACL_ERROR_INVALID_PARAM, 0},
    {"aclmdlSetAIPPPixelVarReci", K_AIPP, A_Var, ACL_ERROR_INVALID_PARAM, 0},
    {"aclmdlSetInputAIPP(aipp)", K_AIPP, A_SetInput, ACL_ERROR_INVALID_PARAM, 0},
    {"aclmdlSetAIPPByInputIndex(aipp)", K_AIPP, A_ByIndex, ACL_ERROR_INVALID_PARAM, 0},
    {"aclopDestroyAttr", K_ATTR, O_Destroy, ACL_ERROR_INVALID_PARAM, 0},
    {"aclopSetAttrBool", K_ATTR, O_Bool, ACL_ERROR_INVALID_PARAM, 0},
    {"aclopSetAttrInt", K_ATTR, O_Int, ACL_ERROR_INVALID_PARAM, 0},
    {"aclopSetAttrFloat", K_ATTR, O_Float, ACL_ERROR_INVALID_PARAM, 0},
    {"aclopSetAttrString", K_ATTR, O_String, ACL_ERROR_INVALID_PARAM, 0},
    {"aclopSetAttrDataType", K_ATTR, O_DataType, ACL_ERROR_INVALID_PARAM, 0},
    {"aclopSetAttrListBool", K_ATTR, O_ListBool, ACL_ERROR_INVALID_PARAM, 0},
    {"aclopSetAttrListInt", K_ATTR, O_ListInt, ACL_ERROR_INVALID_PARAM, 0},
    {"aclopSetAttrListFloat", K_ATTR, O_ListFloat, ACL_ERROR_INVALID_PARAM, 0},
    {"aclopSetAttrListString", K_ATTR, O_ListString, ACL_ERROR_INVALID_PARAM, 0},
    {"aclopSetAttrListDataType", K_ATTR, O_ListDataType, ACL_ERROR_INVALID_PARAM, 0},
    {"aclopSetAttrListListInt", K_ATTR, O_ListListInt, ACL_ERROR_INVALID_PARAM, 0},
    {"aclopExecuteV2(attr)", K_ATTR, O_ExecuteV2, ACL_ERROR_INVALID_PARAM, 1},
    {"aclopCompile(attr)", K_ATTR, O_Compile, ACL_ERROR_INVALID_PARAM, 1},
    {"aclopDestroyHandle", K_OPHANDLE, H_Destroy, ACL_ERROR_INVALID_PARAM, 0},
    {"aclopExecWithHandle", K_OPHANDLE, H_Exec, ACL_ERROR_INVALID_PARAM, 0},
    {"aclrtDestroyStream", K_STREAM, S_Destroy, ACL_ERROR_INVALID_PARAM, 0},
    {"aclrtSynchronizeStream", K_STREAM, S_Sync, ACL_ERROR_INVALID_PARAM, 1},
    {"aclrtSynchronizeStreamWithTimeout", K_STREAM, S_SyncTimeout, ACL_ERROR_INVALID_PARAM, 1},
    {"aclrtRecordEvent(stream)", K_STREAM, S_Record, ACL_ERROR_INVALID_PARAM, 1},
    {"aclrtSubscribeReport", K_STREAM, S_Subscribe, ACL_ERROR_INVALID_PARAM, 0},
    {"aclrtLaunchCallback", K_STREAM, S_Launch, ACL_ERROR_INVALID_PARAM, 0},
    {"aclrtUnSubscribeReport", K_STREAM, S_Unsubscribe, ACL_ERROR_INVALID_PARAM, 0},
    {"aclrtMemcpyAsync(stream)", K_STREAM, S_Memcpy, ACL_ERROR_INVALID_PARAM, 1},
    {"aclrtMemsetAsync(stream)", K_STREAM, S_Memset, ACL_ERROR_INVALID_PARAM, 1},
    {"aclmdlExecuteAsync(stream)", K_STREAM, S_Execute, ACL_ERROR_INVALID_PARAM, 1},
    {"aclrtDestroyEvent", K_EVENT, E_Destroy, ACL_ERROR_INVALID_PARAM, 0},
    {"aclrtRecordEvent(event)", K_EVENT, E_Record, ACL_ERROR_INVALID_PARAM, 0},
    {"aclrtSynchronizeEvent", K_EVENT, E_Sync, ACL_ERROR_INVALID_PARAM, 0},
    {"aclrtEventElapsedTime(start)", K_EVENT, E_ElapsedStart, ACL_ERROR_INVALID_PARAM, 0},
    {"aclrtEventElapsedTime(end)", K_EVENT, E_ElapsedEnd, ACL_ERROR_INVALID_PARAM, 0},
    {"aclrtDestroyContext", K_CTX, C_Destroy, ACL_ERROR_INVALID_PARAM, 0},
    {"aclrtSetCurrentContext", K_CTX, C_SetCurrent, ACL_ERROR_INVALID_PARAM, 0},
    {"aclrtGetTaskIdFromExceptionInfo", K_INFO, X_Task, ACL_ERROR_INVALID_PARAM, 0},
    {"aclrtGetStreamIdFromExceptionInfo", K_INFO, X_Stream, ACL_ERROR_INVALID_PARAM, 0},
    {"aclrtGetThreadIdFromExceptionInfo", K_INFO, X_Thread, ACL_ERROR_INVALID_PARAM, 0},
    {"aclrtGetDeviceIdFromExceptionInfo", K_INFO, X_Device, ACL_ERROR_INVALID_PARAM, 0},
    {"aclrtGetErrorCodeFromExceptionInfo", K_INFO, X_Error, ACL_ERROR_INVALID_PARAM, 0},
};

/* A handle of each kind, destroyed: what a stale handle looks like. */
static void* Destroyed(enum Kind k) {
  void* h = NULL;
  switch (k) {
    case K_BUF:
      h = aclCreateDataBuffer(NULL, 0);
      aclDestroyDataBuffer(h);
      break;
    case K_DESC:
      h = aclCreateTensorDesc(ACL_FLOAT, 0, NULL, ACL_FORMAT_ND);
      aclDestroyTensorDesc(h);
      break;
    case K_DS:
      h = aclmdlCreateDataset();
      aclmdlDestroyDataset(h);
      break;
    case K_MDESC:
      h = aclmdlCreateDesc();
      aclmdlDestroyDesc(h);
      break;
    case K_AIPP:
      h = aclmdlCreateAIPP(1);
      aclmdlDestroyAIPP(h);
      break;
    case K_ATTR:
      h = aclopCreateAttr();
      aclopDestroyAttr(h);
      break;
    case K_STREAM:
      aclrtCreateStream(&h);
      aclrtDestroyStream(h);
      break;
    case K_EVENT:
      aclrtCreateEvent(&h);
      aclrtDestroyEvent(h);
      break;
    case K_CTX: {
      aclrtContext keep = NULL;
      aclrtGetCurrentContext(&keep);
      aclrtCreateContext(&h, 0);
      aclrtDestroyContext(h);
      aclrtSetCurrentContext(keep);
      break;
    }
    default: /* aclopHandle, exception info: none can be made here */
      break;
  }
  return h;
}

static void BadHandles(void) {
  static char forged[256];             /* mapped memory that is no handle */
  void* wild = (void*)(uintptr_t)0x18; /* not mapped at all */
  void* destroyed[K_KINDS];
  for (int k = 0; k < K_KINDS; ++k) destroyed[k] = Destroyed((enum Kind)k);
  /* A live handle of another kind, for each kind: a data buffer for all but buffers. */
  for (size_t i = 0; i < sizeof(kHandleCalls) / sizeof(kHandleCalls[0]); ++i) {
    void* other = kHandleCalls[i].kind == K_BUF ? (void*)g_ok.ds : (void*)g_ok.buf;
    void* bad[5] = {NULL, forged, wild, destroyed[kHandleCalls[i].kind], other};
    for (int b = 0; b < 5; ++b) {
      if ((b == 0 && kHandleCalls[i].null_ok) || (b == 3 && !bad[b])) continue;
      aclError got = kHandleCalls[i].call(bad[b]);
      ++checks;
      if (got != kHandleCalls[i].expect) {
        ++failures;
        printf("FAIL bad handle %d to %s -> %d, expected %d (%s)\n", b, kHandleCalls[i].name, got,
               kHandleCalls[i].expect, aclGetRecentErrMsg());
      }
    }
  }
}

/* ---- sizes: zero, huge, and those that overflow when rounded or multiplied ---- */
static void BadSizes(const char* om) {
  void* p = NULL;
  uint32_t id = 0;
  size_t work = 0, weight = 0, sz = 0;
  static char small[64];
  const size_t kHuge[] = {SIZE_MAX, SIZE_MAX - 1, SIZE_MAX - 63, SIZE_MAX / 2 + 1, (size_t)1 << 62};
  for (size_t i = 0; i < sizeof(kHuge) / sizeof(kHuge[0]); ++i) {
    const size_t n = kHuge[i];
    EXPECT_CODE(aclrtMalloc(&p, n, ACL_MEM_MALLOC_HUGE_FIRST), ACL_ERROR_RT_MEMORY_ALLOCATION);
    EXPECT_CODE(aclrtMallocHost(&p, n), ACL_ERROR_RT_MEMORY_ALLOCATION);
    /* Ranges past the allocation or the address space: refused before any byte moves. */
    EXPECT_CODE(aclrtMemcpy(g_ok.dev, n, small, n, ACL_MEMCPY_HOST_TO_DEVICE),
                ACL_ERROR_RT_PARAM_INVALID);
    EXPECT_CODE(aclrtMemcpy(small, n, g_ok.dev, n, ACL_MEMCPY_DEVICE_TO_HOST),
                ACL_ERROR_RT_PARAM_INVALID);
    EXPECT_CODE(aclrtMemcpy(small, n, small + 1, n, ACL_MEMCPY_HOST_TO_HOST),
                ACL_ERROR_INVALID_PARAM);
    EXPECT_CODE(aclrtMemcpyAsync(small, n, g_ok.dev, n, ACL_MEMCPY_DEVICE_TO_HOST, g_ok.stream),
                ACL_ERROR_INVALID_PARAM);
    EXPECT_CODE(aclrtMemset(g_ok.dev, n, 0, n), ACL_ERROR_INVALID_PARAM);
    EXPECT_CODE(aclrtMemsetAsync(g_ok.dev, n, 0, n, g_ok.stream), ACL_ERROR_INVALID_PARAM);
    EXPECT_CODE(aclmdlLoadFromMem(small, n, &id), ACL_ERROR_INVALID_PARAM);
    EXPECT_CODE(aclmdlLoadFromMemWithMem(small, n, &id, NULL, 0, NULL, 0), ACL_ERROR_INVALID_PARAM);
    EXPECT_CODE(aclmdlQuerySizeFromMem(small, n, &work, &weight), ACL_ERROR_INVALID_PARAM);
    EXPECT_CODE(aclopLoad(small, n), ACL_ERROR_INVALID_PARAM);
    EXPECT_CODE(aclmdlLoadFromFileWithMem(om, &id, g_ok.dev, n, NULL, 0), ACL_ERROR_INVALID_PARAM);
    EXPECT_CODE(aclmdlLoadFromFileWithMem(om, &id, NULL, 0, g_ok.dev, n), ACL_ERROR_INVALID_PARAM);
    EXPECT_TRUE(aclmdlCreateAIPP(n) == NULL);
    EXPECT_CODE(aclmdlGetAippDataSize(n, &sz), ACL_ERROR_INVALID_PARAM);
    EXPECT_CODE(aclmdlGetAippDataSize(n / 96, &sz), ACL_ERROR_INVALID_PARAM); /* 64 + n * 96 */
    EXPECT_TRUE(aclmdlGetDatasetBuffer(g_ok.ds, n) == NULL);
    EXPECT_TRUE(aclmdlGetDatasetTensorDesc(g_ok.ds, n) == NULL);
    EXPECT_CODE(aclmdlSetDatasetTensorDesc(g_ok.ds, g_ok.desc, n), ACL_ERROR_INVALID_PARAM);
    EXPECT_CODE(aclGetTensorDescDimV2(g_ok.desc, n, &(int64_t){0}), ACL_ERROR_INVALID_PARAM);
    EXPECT_TRUE(aclmdlGetInputSizeByIndex(g_ok.mdesc, n) == 0);
    EXPECT_CODE(aclmdlGetInputDims(g_ok.mdesc, n, &g_io), ACL_ERROR_INVALID_PARAM);
    EXPECT_CODE(aclmdlGetAippType(g_ok.model, n, &(aclmdlInputAippType){0}, &sz),
                ACL_ERROR_INVALID_PARAM);
    EXPECT_CODE(aclmdlSetAIPPCropParams(g_ok.aipp, 0, 0, 0, 8, 8, n), ACL_ERROR_INVALID_PARAM);
    /* A buffer whose size claim is huge: execution refuses it (not device memory of it). */
    aclDataBuffer* liar = aclCreateDataBuffer(g_ok.dev, n);
    aclmdlDataset* in = aclmdlCreateDataset();
    aclmdlAddDatasetBuffer(in, liar);
    EXPECT_CODE(aclmdlExecute(g_ok.model, in, in), ACL_ERROR_INVALID_PARAM);
    aclmdlDestroyDataset(in);
    aclDestroyDataBuffer(liar);
  }
  /* Counts and lengths of zero. */
  EXPECT_CODE(aclrtMalloc(&p, 0, ACL_MEM_MALLOC_HUGE_FIRST), ACL_ERROR_INVALID_PARAM);
  EXPECT_CODE(aclrtMemcpy(g_ok.dev, 0, small, 0, ACL_MEMCPY_HOST_TO_DEVICE), ACL_SUCCESS);
  EXPECT_CODE(aclmdlLoadFromMem(small, 0, &id), ACL_ERROR_INVALID_PARAM);
  EXPECT_CODE(aclopLoad(small, 0), ACL_ERROR_INVALID_PARAM);
  /* A model without --dynamic_dims gears has none to give: success, as CANN's. */
  EXPECT_CODE(aclmdlGetInputDynamicDims(g_ok.mdesc, 0, &g_io, 0), ACL_SUCCESS);
  EXPECT_CODE(aclmdlCreateAndGetOpDesc(0, 1, 1, small, 0, &(aclTensorDesc*){NULL}, &sz,
                                       &(aclTensorDesc*){NULL}, &sz),
              ACL_ERROR_INVALID_PARAM);
  EXPECT_CODE(aclGetCompileopt(ACL_PRECISION_MODE, small, 0), ACL_ERROR_INVALID_PARAM);
  /* Counts of list attributes and operator arrays: negative, and INT_MAX with no array. */
  EXPECT_CODE(aclopSetAttrListInt(g_ok.attr, "l", -1, (const int64_t[]){1}),
              ACL_ERROR_INVALID_PARAM);
  EXPECT_CODE(aclopSetAttrListInt(g_ok.attr, "l", 0x7fffffff, NULL), ACL_ERROR_INVALID_PARAM);
  EXPECT_CODE(
      aclopSetAttrListListInt(g_ok.attr, "l", 1, (const int[]){-1}, (const int64_t* const[]){NULL}),
      ACL_ERROR_INVALID_PARAM);
  EXPECT_CODE(aclopExecuteV2("Add", -1, NULL, NULL, 1, NULL, NULL, NULL, NULL),
              ACL_ERROR_INVALID_PARAM);
  EXPECT_CODE(aclopExecuteV2("Add", 0x7fffffff, NULL, NULL, 0, NULL, NULL, NULL, NULL),
              ACL_ERROR_INVALID_PARAM);
  EXPECT_CODE(aclopCompile("Add", -3, NULL, 1, NULL, NULL, ACL_ENGINE_SYS, ACL_COMPILE_SYS, NULL),
              ACL_ERROR_INVALID_PARAM);
  /* BLAS: sizes whose products overflow int are refused, not allocated. */
  EXPECT_CODE(
      aclblasGemmEx(ACL_TRANS_N, ACL_TRANS_N, ACL_TRANS_N, 0x7fffffff, 0x7fffffff, 0x7fffffff,
                    g_ok.dev, g_ok.dev, 0x7fffffff, ACL_FLOAT, g_ok.dev, 0x7fffffff, ACL_FLOAT,
                    g_ok.dev, g_ok.dev, 0x7fffffff, ACL_FLOAT, ACL_COMPUTE_HIGH_PRECISION, NULL),
      ACL_ERROR_INVALID_PARAM);
  EXPECT_CODE(aclblasGemmEx(ACL_TRANS_N, ACL_TRANS_N, ACL_TRANS_N, -1, 4, 4, g_ok.dev, g_ok.dev, 4,
                            ACL_FLOAT, g_ok.dev, 4, ACL_FLOAT, g_ok.dev, g_ok.dev, 4, ACL_FLOAT,
                            ACL_COMPUTE_HIGH_PRECISION, NULL),
              ACL_ERROR_INVALID_PARAM);
}

/* ---- memory that would fault: read-only and inaccessible pages, unmapped ranges ---- */
static void UnwritableMemory(void) {
  const size_t page = (size_t)sysconf(_SC_PAGESIZE);
  char* ro = mmap(NULL, 2 * page, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  EXPECT_TRUE(ro != MAP_FAILED);
  if (ro == MAP_FAILED) return;
  char* none = ro + page;
  memset(ro, 0x11, 2 * page);
  mprotect(ro, page, PROT_READ);
  mprotect(none, page, PROT_NONE);
  char host[64];
  size_t sz = 0;
  uint32_t id = 0;
  /* Copies into a read-only page, out of an inaccessible one, or across into one. */
  EXPECT_CODE(aclrtMemcpy(ro, 64, g_ok.dev, 64, ACL_MEMCPY_DEVICE_TO_HOST),
              ACL_ERROR_INVALID_PARAM);
  EXPECT_CODE(aclrtMemcpy(g_ok.dev, 64, none, 64, ACL_MEMCPY_HOST_TO_DEVICE),
              ACL_ERROR_INVALID_PARAM);
  EXPECT_CODE(aclrtMemcpy(ro, 64, host, 64, ACL_MEMCPY_HOST_TO_HOST), ACL_ERROR_INVALID_PARAM);
  EXPECT_CODE(aclrtMemcpy(host, 64, none, 64, ACL_MEMCPY_HOST_TO_HOST), ACL_ERROR_INVALID_PARAM);
  EXPECT_CODE(aclrtMemcpy(host, 64, ro + page - 32, 64, ACL_MEMCPY_HOST_TO_HOST),
              ACL_ERROR_INVALID_PARAM); /* readable, then not */
  EXPECT_CODE(aclrtMemcpy(host, 64, ro, 64, ACL_MEMCPY_HOST_TO_HOST), ACL_SUCCESS);
  EXPECT_CODE(aclrtMemcpyAsync(ro, 64, g_ok.dev, 64, ACL_MEMCPY_DEVICE_TO_HOST, g_ok.stream),
              ACL_ERROR_INVALID_PARAM);
  EXPECT_CODE(aclrtMemcpyAsync(g_ok.dev, 64, none, 64, ACL_MEMCPY_HOST_TO_DEVICE, g_ok.stream),
              ACL_ERROR_INVALID_PARAM);
  EXPECT_CODE(aclrtSynchronizeStream(g_ok.stream), ACL_SUCCESS);    /* nothing was queued */
  EXPECT_CODE(aclrtMemset(ro, 64, 0, 64), ACL_ERROR_INVALID_PARAM); /* not an allocation */
  /* Models read from inaccessible memory. */
  EXPECT_CODE(aclmdlLoadFromMem(none, 64, &id), ACL_ERROR_INVALID_PARAM);
  EXPECT_CODE(aclmdlLoadFromMemWithMem(none, 64, &id, NULL, 0, NULL, 0), ACL_ERROR_INVALID_PARAM);
  EXPECT_CODE(aclmdlQuerySizeFromMem(none, 64, &sz, &sz), ACL_ERROR_INVALID_PARAM);
  EXPECT_CODE(aclopLoad(none, 64), ACL_ERROR_INVALID_PARAM);
  /* Descriptions and names written into read-only memory. */
  EXPECT_CODE(aclmdlGetInputDims(g_ok.mdesc, 0, (aclmdlIODims*)ro), ACL_ERROR_INVALID_PARAM);
  EXPECT_CODE(aclmdlGetOutputDims(g_ok.mdesc, 0, (aclmdlIODims*)ro), ACL_ERROR_INVALID_PARAM);
  EXPECT_CODE(aclmdlGetCurOutputDims(g_ok.mdesc, 0, (aclmdlIODims*)ro), ACL_ERROR_INVALID_PARAM);
  EXPECT_CODE(aclmdlGetDynamicBatch(g_ok.mdesc, (aclmdlBatch*)ro), ACL_ERROR_INVALID_PARAM);
  EXPECT_CODE(aclmdlGetDynamicHW(g_ok.mdesc, 0, (aclmdlHW*)ro), ACL_ERROR_INVALID_PARAM);
  EXPECT_CODE(aclmdlGetFirstAippInfo(g_ok.model, 0, (aclAippInfo*)ro), ACL_ERROR_INVALID_PARAM);
  EXPECT_CODE(aclSetCompileopt(ACL_PRECISION_MODE, "allow_fp32_to_fp16"), ACL_SUCCESS);
  EXPECT_CODE(aclGetCompileopt(ACL_PRECISION_MODE, ro, 64), ACL_ERROR_INVALID_PARAM);
  /* Nothing of the read-only page changed. */
  EXPECT_TRUE(ro[0] == 0x11 && ro[63] == 0x11 && ro[page - 1] == 0x11);
  munmap(ro, 2 * page);
  /* Gone: unmapped now. */
  EXPECT_CODE(aclrtMemcpy(ro, 64, g_ok.dev, 64, ACL_MEMCPY_DEVICE_TO_HOST),
              ACL_ERROR_INVALID_PARAM);
}

/* ---- tensor descriptions: rank, dims, data type and format ---- */
static void TensorDescLimits(void) {
  int64_t d64[64], dims[9] = {1, 2, 3, 1, 1, 1, 1, 2, 1};
  for (int i = 0; i < 64; ++i) d64[i] = 1;
  EXPECT_TRUE(aclCreateTensorDesc(ACL_FLOAT, 64, d64, ACL_FORMAT_ND) == NULL);
  EXPECT_TRUE(aclGetRecentErrMsg() && strstr(aclGetRecentErrMsg(), "numDims 64"));
  EXPECT_TRUE(aclCreateTensorDesc(ACL_FLOAT, 9, dims, ACL_FORMAT_ND) == NULL);
  EXPECT_TRUE(aclCreateTensorDesc(ACL_FLOAT, 0x7fffffff, d64, ACL_FORMAT_ND) == NULL);
  EXPECT_TRUE(aclCreateTensorDesc(ACL_FLOAT, -1, dims, ACL_FORMAT_ND) == NULL);
  aclTensorDesc* eight = aclCreateTensorDesc(ACL_FLOAT, 8, dims, ACL_FORMAT_ND);
  EXPECT_TRUE(eight != NULL && aclGetTensorDescNumDims(eight) == 8);
  /* aclSetTensorConst: the value must be the description's size (12 floats here). */
  float value[12] = {0};
  EXPECT_CODE(aclSetTensorConst(NULL, value, sizeof value), ACL_ERROR_INVALID_PARAM);
  EXPECT_CODE(aclSetTensorConst(eight, NULL, sizeof value), ACL_ERROR_INVALID_PARAM);
  EXPECT_CODE(aclSetTensorConst(eight, value, 4), ACL_ERROR_INVALID_PARAM);
  EXPECT_CODE(aclSetTensorConst(eight, value, sizeof value), ACL_SUCCESS);
  aclDestroyTensorDesc(eight);
  EXPECT_CODE(aclSetTensorConst(eight, value, sizeof value), ACL_ERROR_INVALID_PARAM); /* stale */
  const int64_t minus5[2] = {2, -5}, minus2_in[2] = {2, -2}, minus2[1] = {-2}, unknown[2] = {-1, 3};
  EXPECT_TRUE(aclCreateTensorDesc(ACL_FLOAT, 2, minus5, ACL_FORMAT_ND) == NULL);
  EXPECT_TRUE(aclGetRecentErrMsg() && strstr(aclGetRecentErrMsg(), "-5"));
  EXPECT_TRUE(aclCreateTensorDesc(ACL_FLOAT, 2, minus2_in, ACL_FORMAT_ND) == NULL);
  aclTensorDesc* dyn = aclCreateTensorDesc(ACL_FLOAT, 2, unknown, ACL_FORMAT_ND);
  EXPECT_TRUE(dyn != NULL && aclGetTensorDescElementCount(dyn) == 0);
  aclDestroyTensorDesc(dyn);
  aclTensorDesc* rankless = aclCreateTensorDesc(ACL_FLOAT, 1, minus2, ACL_FORMAT_ND);
  EXPECT_TRUE(rankless != NULL && aclGetTensorDescNumDims(rankless) == ACL_UNKNOWN_RANK);
  EXPECT_CODE(aclGetTensorDescDimV2(rankless, 0, &(int64_t){0}), ACL_ERROR_INVALID_PARAM);
  aclDestroyTensorDesc(rankless);
  EXPECT_TRUE(aclCreateTensorDesc((aclDataType)999, 1, dims, ACL_FORMAT_ND) == NULL);
  EXPECT_TRUE(aclGetRecentErrMsg() && strstr(aclGetRecentErrMsg(), "999"));
  EXPECT_TRUE(aclCreateTensorDesc((aclDataType)5, 1, dims, ACL_FORMAT_ND) == NULL); /* a gap */
  EXPECT_TRUE(aclCreateTensorDesc(ACL_FLOAT, 1, dims, (aclFormat)999) == NULL);
  EXPECT_TRUE(aclCreateTensorDesc(ACL_FLOAT, 1, dims, (aclFormat)-7) == NULL);
  /* More bytes than a size_t (or an int64_t) counts. */
  const int64_t huge[3] = {(int64_t)1 << 40, (int64_t)1 << 40, 4};
  EXPECT_TRUE(aclCreateTensorDesc(ACL_FLOAT, 3, huge, ACL_FORMAT_ND) == NULL);
  const int64_t big[2] = {(int64_t)1 << 30, (int64_t)1 << 30}; /* 2^60 bytes: countable */
  aclTensorDesc* b = aclCreateTensorDesc(ACL_INT8, 2, big, ACL_FORMAT_ND);
  EXPECT_TRUE(b != NULL && aclGetTensorDescSize(b) == (size_t)1 << 60);
  aclDestroyTensorDesc(b);
  aclTensorDesc* undefined = aclCreateTensorDesc(ACL_DT_UNDEFINED, 0, NULL, ACL_FORMAT_UNDEFINED);
  EXPECT_TRUE(undefined != NULL); /* CANN's defaults are values too */
  aclDestroyTensorDesc(undefined);
}

/* ---- DVPP's descriptions and calls: null, stale and foreign handles, broken rules ---- */
static void DvppMisuse(void) {
  const uint8_t not_jpeg[8] = {1, 2, 3, 4, 5, 6, 7, 8};
  uint32_t w = 0, h = 0, size = 0;
  int32_t comps = 0;
  acldvppJpegFormat jf;
  EXPECT_CODE(acldvppJpegGetImageInfo(NULL, 10, &w, &h, &comps), ACL_ERROR_INVALID_PARAM);
  EXPECT_CODE(acldvppJpegGetImageInfo(not_jpeg, 8, &w, &h, &comps), ACL_ERROR_UNSUPPORTED_JPEG);
  EXPECT_CODE(acldvppJpegGetImageInfoV2(not_jpeg, 8, &w, &h, &comps, &jf),
              ACL_ERROR_UNSUPPORTED_JPEG);
  EXPECT_CODE(acldvppJpegPredictDecSize(not_jpeg, 8, PIXEL_FORMAT_YUV_SEMIPLANAR_420, NULL),
              ACL_ERROR_INVALID_PARAM);
  EXPECT_CODE(acldvppJpegPredictDecSize(not_jpeg, 8, PIXEL_FORMAT_YUV_SEMIPLANAR_420, &size),
              ACL_ERROR_UNSUPPORTED_JPEG);
  EXPECT_CODE(acldvppPngGetImageInfo(NULL, 40, &w, &h, &comps), ACL_ERROR_INVALID_PARAM);
  EXPECT_CODE(acldvppPngGetImageInfo(not_jpeg, 8, &w, &h, &comps), ACL_ERROR_INVALID_PARAM);
  EXPECT_CODE(acldvppPngPredictDecSize(not_jpeg, 8, PIXEL_FORMAT_RGB_888, NULL),
              ACL_ERROR_INVALID_PARAM);
  EXPECT_CODE(acldvppPngDecodeAsync(NULL, not_jpeg, 8, NULL, NULL), ACL_ERROR_INVALID_PARAM);
  acldvppChannelDesc* ch = acldvppCreateChannelDesc();
  EXPECT_TRUE(ch != NULL && acldvppGetChannelDescChannelId(NULL) == 0);
  EXPECT_CODE(acldvppSetChannelDescMode(ch, 0), ACL_ERROR_INVALID_PARAM);
  EXPECT_CODE(acldvppSetChannelDescMode(ch, DVPP_CHNMODE_VPC | DVPP_CHNMODE_JPEGD), ACL_SUCCESS);
  EXPECT_CODE(acldvppDestroyChannel(ch), ACL_ERROR_INVALID_PARAM); /* not created */
  EXPECT_CODE(acldvppCreateChannel(NULL), ACL_ERROR_INVALID_PARAM);
  EXPECT_CODE(acldvppCreateChannel(ch), ACL_SUCCESS);
  EXPECT_CODE(acldvppCreateChannel(ch), ACL_ERROR_INVALID_PARAM); /* twice */
  (void)acldvppGetChannelDescChannelId(ch);
  acldvppPicDesc* in = acldvppCreatePicDesc();
  acldvppPicDesc* out = acldvppCreatePicDesc();
  void *src = NULL, *dst = NULL;
  EXPECT_CODE(acldvppMalloc(&src, 64 * 48 * 3 / 2), ACL_SUCCESS);
  EXPECT_CODE(acldvppMalloc(&dst, 32 * 24 * 3 / 2), ACL_SUCCESS);
  EXPECT_CODE(acldvppSetPicDescData(NULL, src), ACL_ERROR_INVALID_PARAM);
  EXPECT_CODE(acldvppSetPicDescData(in, src), ACL_SUCCESS);
  EXPECT_CODE(acldvppSetPicDescSize(in, 64 * 48 * 3 / 2), ACL_SUCCESS);
  EXPECT_CODE(acldvppSetPicDescFormat(in, PIXEL_FORMAT_YUV_SEMIPLANAR_420), ACL_SUCCESS);
  EXPECT_CODE(acldvppSetPicDescWidth(in, 64), ACL_SUCCESS);
  EXPECT_CODE(acldvppSetPicDescHeight(in, 48), ACL_SUCCESS);
  EXPECT_CODE(acldvppSetPicDescWidthStride(in, 64), ACL_SUCCESS);
  EXPECT_CODE(acldvppSetPicDescHeightStride(in, 48), ACL_SUCCESS);
  EXPECT_CODE(acldvppSetPicDescRetCode(in, 0), ACL_SUCCESS);
  EXPECT_TRUE(acldvppGetPicDescData(in) == src && acldvppGetPicDescSize(in) == 64 * 48 * 3 / 2);
  EXPECT_TRUE(acldvppGetPicDescFormat(in) == PIXEL_FORMAT_YUV_SEMIPLANAR_420);
  EXPECT_TRUE(acldvppGetPicDescWidth(in) == 64 && acldvppGetPicDescHeight(in) == 48);
  EXPECT_TRUE(acldvppGetPicDescWidthStride(in) == 64 && acldvppGetPicDescHeightStride(in) == 48);
  EXPECT_TRUE(acldvppGetPicDescRetCode(in) == 0 && acldvppGetPicDescWidth(NULL) == 0);
  acldvppSetPicDescData(out, dst);
  acldvppSetPicDescSize(out, 32 * 24 * 3 / 2);
  acldvppSetPicDescFormat(out, PIXEL_FORMAT_YUV_SEMIPLANAR_420);
  acldvppSetPicDescWidth(out, 32);
  acldvppSetPicDescHeight(out, 24);
  acldvppSetPicDescWidthStride(out, 32);
  acldvppSetPicDescHeightStride(out, 24);
  acldvppResizeConfig* rc = acldvppCreateResizeConfig();
  EXPECT_CODE(acldvppSetResizeConfigInterpolation(rc, 9), ACL_ERROR_INVALID_PARAM);
  EXPECT_CODE(acldvppSetResizeConfigInterpolation(rc, 1), ACL_SUCCESS);
  EXPECT_TRUE(acldvppGetResizeConfigInterpolation(rc) == 1);
  acldvppRoiConfig* crop = acldvppCreateRoiConfig(0, 31, 0, 23);
  acldvppRoiConfig* paste = acldvppCreateRoiConfig(0, 31, 0, 23);
  EXPECT_CODE(acldvppSetRoiConfigLeft(crop, 0), ACL_SUCCESS);
  EXPECT_CODE(acldvppSetRoiConfigRight(crop, 31), ACL_SUCCESS);
  EXPECT_CODE(acldvppSetRoiConfigTop(crop, 0), ACL_SUCCESS);
  EXPECT_CODE(acldvppSetRoiConfigBottom(crop, 23), ACL_SUCCESS);
  EXPECT_CODE(acldvppSetRoiConfig(NULL, 0, 1, 0, 1), ACL_ERROR_INVALID_PARAM);
  EXPECT_CODE(acldvppVpcResizeAsync(ch, in, out, rc, NULL), ACL_SUCCESS);
  EXPECT_CODE(acldvppVpcResizeAsync(ch, in, out, NULL, NULL), ACL_ERROR_INVALID_PARAM);
  EXPECT_CODE(acldvppVpcCropAsync(ch, in, out, crop, NULL), ACL_SUCCESS);
  EXPECT_CODE(acldvppVpcCropResizeAsync(ch, in, out, crop, rc, NULL), ACL_SUCCESS);
  EXPECT_CODE(acldvppVpcCropAndPasteAsync(ch, in, out, crop, paste, NULL), ACL_SUCCESS);
  EXPECT_CODE(acldvppVpcCropResizePasteAsync(ch, in, out, crop, paste, rc, NULL), ACL_SUCCESS);
  EXPECT_CODE(acldvppVpcConvertColorAsync(ch, in, out, NULL), ACL_ERROR_INVALID_PARAM); /* sizes */
  EXPECT_CODE(acldvppVpcResizeAsync(ch, in, (acldvppPicDesc*)&w, rc, NULL),
              ACL_ERROR_INVALID_PARAM); /* foreign */
  EXPECT_CODE(acldvppJpegDecodeAsync(ch, src, 100, out, NULL), ACL_ERROR_INVALID_PARAM);
  {
    acldvppJpegeConfig* jc = acldvppCreateJpegeConfig();
    uint32_t enc = 0;
    EXPECT_CODE(acldvppSetJpegeConfigLevel(jc, 101), ACL_ERROR_INVALID_PARAM);
    EXPECT_CODE(acldvppSetJpegeConfigLevel(jc, 90), ACL_SUCCESS);
    EXPECT_TRUE(acldvppGetJpegeConfigLevel(jc) == 90 && acldvppGetJpegeConfigLevel(NULL) == 0);
    EXPECT_CODE(acldvppJpegPredictEncSize(in, jc, NULL), ACL_ERROR_INVALID_PARAM);
    EXPECT_CODE(acldvppJpegPredictEncSize(in, jc, &enc), ACL_SUCCESS);
    EXPECT_CODE(acldvppJpegPredictEncSize(in, NULL, &enc), ACL_ERROR_INVALID_PARAM);
    enc = 64 * 48 * 3 / 2;
    EXPECT_CODE(acldvppJpegEncodeAsync(ch, in, dst, NULL, jc, NULL), ACL_ERROR_INVALID_PARAM);
    /* The channel's mode (VPC | JPEGD) has no JPEGE. */
    EXPECT_CODE(acldvppJpegEncodeAsync(ch, in, dst, &enc, jc, NULL), ACL_ERROR_INVALID_PARAM);
    EXPECT_CODE(acldvppDestroyJpegeConfig(jc), ACL_SUCCESS);
    EXPECT_CODE(acldvppDestroyJpegeConfig(jc), ACL_ERROR_INVALID_PARAM);
  }
  {
    acldvppBatchPicDesc* bsrc = acldvppCreateBatchPicDesc(1);
    acldvppBatchPicDesc* bdst = acldvppCreateBatchPicDesc(1);
    uint32_t nums[1] = {1};
    acldvppRoiConfig* crops[1] = {crop};
    acldvppRoiConfig* pastes[1] = {paste};
    EXPECT_TRUE(acldvppCreateBatchPicDesc(0) == NULL && acldvppGetPicDesc(bsrc, 1) == NULL);
    EXPECT_TRUE(acldvppGetPicDesc(bsrc, 0) != NULL);
    /* The batch's pictures are not filled in: refused as a picture without data. */
    EXPECT_CODE(acldvppVpcBatchCropAsync(ch, bsrc, nums, 1, bdst, crops, NULL),
                ACL_ERROR_INVALID_PARAM);
    EXPECT_CODE(acldvppVpcBatchCropResizeAsync(ch, bsrc, nums, 1, bdst, crops, NULL, NULL),
                ACL_ERROR_INVALID_PARAM);
    EXPECT_CODE(acldvppVpcBatchCropAndPasteAsync(ch, bsrc, nums, 2, bdst, crops, pastes, NULL),
                ACL_ERROR_INVALID_PARAM); /* size beyond the batch */
    EXPECT_CODE(
        acldvppVpcBatchCropResizePasteAsync(ch, bsrc, NULL, 1, bdst, crops, pastes, rc, NULL),
        ACL_ERROR_INVALID_PARAM);
    EXPECT_CODE(acldvppDestroyBatchPicDesc(bsrc), ACL_SUCCESS);
    EXPECT_CODE(acldvppDestroyBatchPicDesc(bsrc), ACL_ERROR_INVALID_PARAM);
    EXPECT_CODE(acldvppDestroyBatchPicDesc(bdst), ACL_SUCCESS);
  }
  {
    acldvppBorderConfig* bc = acldvppCreateBorderConfig();
    EXPECT_CODE(acldvppSetBorderConfigValue(bc, 4, 1.0), ACL_ERROR_INVALID_PARAM);
    EXPECT_CODE(acldvppSetBorderConfigValue(bc, 0, 16.0), ACL_SUCCESS);
    EXPECT_CODE(acldvppSetBorderConfigBorderType(bc, (acldvppBorderType)9),
                ACL_ERROR_INVALID_PARAM);
    EXPECT_CODE(acldvppSetBorderConfigBorderType(bc, BORDER_REFLECT_101), ACL_SUCCESS);
    EXPECT_CODE(acldvppSetBorderConfigTop(bc, 2), ACL_SUCCESS);
    EXPECT_CODE(acldvppSetBorderConfigBottom(bc, 2), ACL_SUCCESS);
    EXPECT_CODE(acldvppSetBorderConfigLeft(bc, 4), ACL_SUCCESS);
    EXPECT_CODE(acldvppSetBorderConfigRight(NULL, 4), ACL_ERROR_INVALID_PARAM);
    EXPECT_TRUE(acldvppGetBorderConfigValue(bc, 0) == 16.0 &&
                acldvppGetBorderConfigBorderType(bc) == BORDER_REFLECT_101);
    EXPECT_TRUE(acldvppGetBorderConfigTop(bc) == 2 && acldvppGetBorderConfigBottom(bc) == 2);
    EXPECT_TRUE(acldvppGetBorderConfigLeft(bc) == 4 && acldvppGetBorderConfigRight(bc) == 0);
    /* 64x48 plus borders is not the 32x24 output. */
    EXPECT_CODE(acldvppVpcMakeBorderAsync(ch, in, out, bc, NULL), ACL_ERROR_INVALID_PARAM);
    EXPECT_CODE(acldvppVpcMakeBorderAsync(ch, in, out, NULL, NULL), ACL_ERROR_INVALID_PARAM);
    /* Borders whose sum wraps a uint32 to the output's width are refused, not looped over. */
    acldvppSetBorderConfigTop(bc, 0);
    acldvppSetBorderConfigBottom(bc, 0);
    acldvppSetBorderConfigLeft(bc, 0xFFFFFFFFu);
    acldvppSetBorderConfigRight(bc, 1);
    EXPECT_CODE(acldvppVpcMakeBorderAsync(ch, in, in, bc, NULL), ACL_ERROR_INVALID_PARAM);
    EXPECT_CODE(acldvppDestroyBorderConfig(bc), ACL_SUCCESS);
    EXPECT_CODE(acldvppDestroyBorderConfig(bc), ACL_ERROR_INVALID_PARAM);
  }
  {
    /* Histograms and remapping tables: dims, null outputs, stale handles. */
    acldvppHist* hist = acldvppCreateHist();
    acldvppLutMap* lut = acldvppCreateLutMap();
    uint32_t* counts = NULL;
    uint8_t* map = NULL;
    uint16_t hist_len = 0;
    uint32_t map_len = 0;
    EXPECT_TRUE(acldvppGetHistDims(hist) == 3 && acldvppGetLutMapDims(lut) == 3);
    EXPECT_CODE(acldvppGetHistData(hist, 3, &counts, &hist_len), ACL_ERROR_INVALID_PARAM);
    EXPECT_CODE(acldvppGetHistData(hist, 0, NULL, &hist_len), ACL_ERROR_INVALID_PARAM);
    EXPECT_CODE(acldvppGetLutMapData(lut, 0, &map, NULL), ACL_ERROR_INVALID_PARAM);
    EXPECT_CODE(acldvppGetLutMapData(lut, 2, &map, &map_len), ACL_SUCCESS);
    EXPECT_TRUE(map_len == 256 && map[200] == 200); /* the identity until written */
    EXPECT_CODE(acldvppVpcCalcHistAsync(ch, in, hist, NULL, NULL), ACL_SUCCESS);
    EXPECT_CODE(acldvppGetHistData(hist, 0, &counts, &hist_len), ACL_SUCCESS);
    EXPECT_TRUE(hist_len == 256 && acldvppGetHistRetCode(hist) == 0);
    EXPECT_CODE(acldvppVpcCalcHistAsync(ch, NULL, hist, NULL, NULL), ACL_ERROR_INVALID_PARAM);
    EXPECT_CODE(acldvppVpcCalcHistAsync(ch, in, (acldvppHist*)lut, NULL, NULL),
                ACL_ERROR_INVALID_PARAM); /* foreign */
    /* 64x48 in, 32x24 out: the remapping keeps the size; the pyramid is 310P's only. */
    EXPECT_CODE(acldvppVpcEqualizeHistAsync(ch, in, out, lut, NULL), ACL_ERROR_INVALID_PARAM);
    EXPECT_CODE(acldvppVpcEqualizeHistAsync(ch, in, in, NULL, NULL), ACL_ERROR_INVALID_PARAM);
    EXPECT_CODE(acldvppVpcPyrDownAsync(ch, in, out, NULL, NULL), ACL_ERROR_FEATURE_UNSUPPORTED);
    EXPECT_CODE(acldvppDestroyHist(hist), ACL_SUCCESS);
    EXPECT_CODE(acldvppDestroyHist(hist), ACL_ERROR_INVALID_PARAM);
    EXPECT_CODE(acldvppClearHist(hist), ACL_ERROR_INVALID_PARAM);
    EXPECT_TRUE(acldvppGetHistDims(hist) == 0 && acldvppGetHistRetCode(hist) != 0);
    EXPECT_CODE(acldvppDestroyLutMap(lut), ACL_SUCCESS);
    EXPECT_CODE(acldvppGetLutMapData(lut, 0, &map, &map_len), ACL_ERROR_INVALID_PARAM);
    EXPECT_CODE(acldvppVpcEqualizeHistAsync(ch, in, in, lut, NULL), ACL_ERROR_INVALID_PARAM);
  }
  {
    acldvppBatchPicDesc* bsrc = acldvppCreateBatchPicDesc(1);
    acldvppBatchPicDesc* bdst = acldvppCreateBatchPicDesc(1);
    acldvppBorderConfig* bc = acldvppCreateBorderConfig();
    uint32_t nums[1] = {1};
    acldvppRoiConfig* crops[1] = {crop};
    acldvppBorderConfig* borders[1] = {bc};
    EXPECT_CODE(
        acldvppVpcBatchCropResizeMakeBorderAsync(ch, bsrc, nums, 1, bdst, crops, NULL, rc, NULL),
        ACL_ERROR_INVALID_PARAM); /* no border array */
    EXPECT_CODE(acldvppVpcBatchCropResizeMakeBorderAsync(ch, bsrc, nums, 1, bdst, crops, borders,
                                                         NULL, NULL),
                ACL_ERROR_INVALID_PARAM);
    EXPECT_CODE(
        acldvppVpcBatchCropResizeMakeBorderAsync(ch, bsrc, nums, 1, bdst, crops, borders, rc, NULL),
        ACL_ERROR_INVALID_PARAM); /* pictures without data */
    {
      /* A null region is refused, not read as the whole picture. */
      acldvppBatchPicDesc* one = acldvppCreateBatchPicDesc(1);
      acldvppBatchPicDesc* into = acldvppCreateBatchPicDesc(1);
      acldvppPicDesc* p = acldvppGetPicDesc(one, 0);
      acldvppPicDesc* q = acldvppGetPicDesc(into, 0);
      acldvppRoiConfig* none[1] = {NULL};
      acldvppSetPicDescData(p, src);
      acldvppSetPicDescSize(p, 64 * 48 * 3 / 2);
      acldvppSetPicDescFormat(p, PIXEL_FORMAT_YUV_SEMIPLANAR_420);
      acldvppSetPicDescWidth(p, 64);
      acldvppSetPicDescHeight(p, 48);
      acldvppSetPicDescWidthStride(p, 64);
      acldvppSetPicDescHeightStride(p, 48);
      acldvppSetPicDescData(q, dst);
      acldvppSetPicDescSize(q, 32 * 24 * 3 / 2);
      acldvppSetPicDescFormat(q, PIXEL_FORMAT_YUV_SEMIPLANAR_420);
      acldvppSetPicDescWidth(q, 32);
      acldvppSetPicDescHeight(q, 24);
      acldvppSetPicDescWidthStride(q, 32);
      acldvppSetPicDescHeightStride(q, 24);
      EXPECT_CODE(acldvppVpcBatchCropResizeAsync(ch, one, nums, 1, into, crops, rc, NULL),
                  ACL_SUCCESS);
      EXPECT_CODE(acldvppVpcBatchCropResizeAsync(ch, one, nums, 1, into, none, rc, NULL),
                  ACL_ERROR_INVALID_PARAM);
      /* An odd-width NV12 row stores its last chroma pair: the stride must be even. */
      acldvppSetPicDescWidth(p, 33);
      acldvppSetPicDescWidthStride(p, 33);
      EXPECT_CODE(acldvppVpcBatchCropResizeAsync(ch, one, nums, 1, into, crops, rc, NULL),
                  ACL_ERROR_INVALID_PARAM);
      acldvppDestroyBatchPicDesc(one);
      acldvppDestroyBatchPicDesc(into);
    }
    acldvppDestroyBorderConfig(bc);
    acldvppDestroyBatchPicDesc(bsrc);
    acldvppDestroyBatchPicDesc(bdst);
  }
  EXPECT_CODE(acldvppDestroyRoiConfig(crop), ACL_SUCCESS);
  EXPECT_CODE(acldvppDestroyRoiConfig(crop), ACL_ERROR_INVALID_PARAM);                /* twice */
  EXPECT_CODE(acldvppVpcCropAsync(ch, in, out, crop, NULL), ACL_ERROR_INVALID_PARAM); /* stale */
  EXPECT_CODE(acldvppDestroyRoiConfig(paste), ACL_SUCCESS);
  EXPECT_CODE(acldvppDestroyResizeConfig(rc), ACL_SUCCESS);
  EXPECT_CODE(acldvppDestroyPicDesc(in), ACL_SUCCESS);
  EXPECT_CODE(acldvppDestroyPicDesc(in), ACL_ERROR_INVALID_PARAM);
  EXPECT_CODE(acldvppDestroyPicDesc(out), ACL_SUCCESS);
  EXPECT_CODE(acldvppDestroyChannel(ch), ACL_SUCCESS);
  EXPECT_CODE(acldvppDestroyChannelDesc(ch), ACL_SUCCESS);
  EXPECT_CODE(acldvppDestroyChannelDesc(ch), ACL_ERROR_INVALID_PARAM);
  acldvppFree(src);
  acldvppFree(dst);
}

/* ---- DVPP's stream descriptions and VDEC: handles, ranges, a channel without a callback ---- */
static void VdecMisuse(void) {
  acldvppStreamDesc* sd = acldvppCreateStreamDesc();
  EXPECT_CODE(acldvppSetStreamDescData(NULL, NULL), ACL_ERROR_INVALID_PARAM);
  EXPECT_CODE(acldvppSetStreamDescData(sd, NULL), ACL_SUCCESS);
  EXPECT_CODE(acldvppSetStreamDescSize(sd, 0), ACL_SUCCESS);
  EXPECT_CODE(acldvppSetStreamDescFormat(sd, H264_MAIN_LEVEL), ACL_SUCCESS);
  EXPECT_CODE(acldvppSetStreamDescTimestamp(sd, 7), ACL_SUCCESS);
  EXPECT_CODE(acldvppSetStreamDescRetCode(sd, 0), ACL_SUCCESS);
  EXPECT_CODE(acldvppSetStreamDescEos(sd, 0), ACL_SUCCESS);
  EXPECT_TRUE(acldvppGetStreamDescData(sd) == NULL && acldvppGetStreamDescSize(sd) == 0);
  EXPECT_TRUE(acldvppGetStreamDescFormat(sd) == H264_MAIN_LEVEL);
  EXPECT_TRUE(acldvppGetStreamDescTimestamp(sd) == 7 && acldvppGetStreamDescRetCode(sd) == 0);
  EXPECT_TRUE(acldvppGetStreamDescEos(sd) == 0 && acldvppGetStreamDescSize(NULL) == 0);
  aclvdecChannelDesc* v = aclvdecCreateChannelDesc();
  EXPECT_CODE(aclvdecSetChannelDescChannelId(v, 100000), ACL_ERROR_INVALID_PARAM);
  EXPECT_CODE(aclvdecSetChannelDescChannelId(v, 1), ACL_SUCCESS);
  EXPECT_CODE(aclvdecSetChannelDescThreadId(v, 1), ACL_SUCCESS);
  EXPECT_CODE(aclvdecSetChannelDescCallback(NULL, NULL), ACL_ERROR_INVALID_PARAM);
  EXPECT_CODE(aclvdecSetChannelDescEnType(v, (acldvppStreamFormat)9), ACL_ERROR_INVALID_PARAM);
  EXPECT_CODE(aclvdecSetChannelDescEnType(v, H265_MAIN_LEVEL), ACL_SUCCESS);
  EXPECT_CODE(aclvdecSetChannelDescOutPicFormat(v, PIXEL_FORMAT_RGB_888),
              ACL_ERROR_FEATURE_UNSUPPORTED);
  EXPECT_CODE(aclvdecSetChannelDescOutPicWidth(v, 64), ACL_SUCCESS);
  EXPECT_CODE(aclvdecSetChannelDescOutPicHeight(v, 48), ACL_SUCCESS);
  EXPECT_CODE(aclvdecSetChannelDescRefFrameNum(v, 4), ACL_SUCCESS);
  EXPECT_CODE(aclvdecSetChannelDescOutMode(v, 5), ACL_ERROR_INVALID_PARAM);
  EXPECT_TRUE(aclvdecGetChannelDescChannelId(v) == 1 && aclvdecGetChannelDescThreadId(v) == 1);
  EXPECT_TRUE(aclvdecGetChannelDescCallback(v) == NULL);
  EXPECT_TRUE(aclvdecGetChannelDescEnType(v) == H265_MAIN_LEVEL);
  EXPECT_TRUE(aclvdecGetChannelDescOutPicFormat(v) == PIXEL_FORMAT_YUV_SEMIPLANAR_420);
  EXPECT_TRUE(aclvdecGetChannelDescOutMode(v) == 0);
  EXPECT_CODE(aclvdecCreateChannel(v), ACL_ERROR_INVALID_PARAM); /* no callback */
  EXPECT_CODE(aclvdecDestroyChannel(v), ACL_ERROR_INVALID_PARAM);
  aclvdecFrameConfig* fc = aclvdecCreateFrameConfig();
  EXPECT_CODE(aclvdecSendFrame(v, sd, NULL, fc, NULL), ACL_ERROR_INVALID_PARAM);
  EXPECT_CODE(aclvdecSendSkippedFrame(v, sd, fc, NULL), ACL_ERROR_INVALID_PARAM);
  EXPECT_CODE(aclvdecDestroyFrameConfig(fc), ACL_SUCCESS);
  EXPECT_CODE(aclvdecDestroyFrameConfig(fc), ACL_ERROR_INVALID_PARAM);
  EXPECT_CODE(aclvdecDestroyChannelDesc(v), ACL_SUCCESS);
  EXPECT_CODE(aclvdecDestroyChannelDesc(v), ACL_ERROR_INVALID_PARAM);
  EXPECT_CODE(acldvppDestroyStreamDesc(sd), ACL_SUCCESS);
  EXPECT_CODE(acldvppDestroyStreamDesc(sd), ACL_ERROR_INVALID_PARAM);
}

/* ---- VENC: descriptions, ranges, and the chip without an encoder (the default 910B) ---- */
static void VencMisuse(void) {
  aclvencChannelDesc* v = aclvencCreateChannelDesc();
  EXPECT_CODE(aclvencSetChannelDescThreadId(NULL, 1), ACL_ERROR_INVALID_PARAM);
  EXPECT_CODE(aclvencSetChannelDescThreadId(v, 1), ACL_SUCCESS);
  EXPECT_CODE(aclvencSetChannelDescCallback(v, NULL), ACL_SUCCESS);
  EXPECT_CODE(aclvencSetChannelDescEnType(v, (acldvppStreamFormat)7), ACL_ERROR_INVALID_PARAM);
  EXPECT_CODE(aclvencSetChannelDescEnType(v, H264_HIGH_LEVEL), ACL_SUCCESS);
  EXPECT_CODE(aclvencSetChannelDescPicFormat(v, PIXEL_FORMAT_RGB_888), ACL_ERROR_INVALID_PARAM);
  EXPECT_CODE(aclvencSetChannelDescPicFormat(v, PIXEL_FORMAT_YUV_SEMIPLANAR_420), ACL_SUCCESS);
  EXPECT_CODE(aclvencSetChannelDescPicWidth(v, 160), ACL_SUCCESS);
  EXPECT_CODE(aclvencSetChannelDescPicHeight(v, 128), ACL_SUCCESS);
  EXPECT_CODE(aclvencSetChannelDescKeyFrameInterval(v, 10), ACL_SUCCESS);
  EXPECT_CODE(aclvencSetChannelDescBufAddr(v, NULL), ACL_SUCCESS);
  EXPECT_CODE(aclvencSetChannelDescBufSize(v, 0), ACL_SUCCESS);
  EXPECT_CODE(aclvencSetChannelDescRcMode(v, 3), ACL_ERROR_INVALID_PARAM);
  EXPECT_CODE(aclvencSetChannelDescRcMode(v, 2), ACL_SUCCESS);
  EXPECT_CODE(aclvencSetChannelDescSrcRate(v, 25), ACL_SUCCESS);
  EXPECT_CODE(aclvencSetChannelDescMaxBitRate(v, 2000), ACL_SUCCESS);
  (void)aclvencGetChannelDescChannelId(v);
  EXPECT_TRUE(aclvencGetChannelDescThreadId(v) == 1 && aclvencGetChannelDescCallback(v) == NULL);
  EXPECT_TRUE(aclvencGetChannelDescEnType(v) == H264_HIGH_LEVEL);
  EXPECT_TRUE(aclvencGetChannelDescPicFormat(v) == PIXEL_FORMAT_YUV_SEMIPLANAR_420);
  EXPECT_TRUE(aclvencGetChannelDescPicWidth(v) == 160 && aclvencGetChannelDescPicHeight(v) == 128);
  EXPECT_TRUE(aclvencGetChannelDescKeyFrameInterval(v) == 10 &&
              aclvencGetChannelDescRcMode(v) == 2);
  EXPECT_TRUE(aclvencGetChannelDescSrcRate(v) == 25 && aclvencGetChannelDescMaxBitRate(v) == 2000);
  EXPECT_CODE(aclvencCreateChannel(v), ACL_ERROR_INVALID_PARAM); /* no callback */
  EXPECT_CODE(aclvencDestroyChannel(v), ACL_ERROR_INVALID_PARAM);
  aclvencFrameConfig* fc = aclvencCreateFrameConfig();
  EXPECT_CODE(aclvencSetFrameConfigForceIFrame(fc, 1), ACL_SUCCESS);
  EXPECT_CODE(aclvencSetFrameConfigEos(NULL, 1), ACL_ERROR_INVALID_PARAM);
  EXPECT_CODE(aclvencSetFrameConfigEos(fc, 0), ACL_SUCCESS);
  EXPECT_TRUE(aclvencGetFrameConfigForceIFrame(fc) == 1 && aclvencGetFrameConfigEos(fc) == 0);
  EXPECT_CODE(aclvencSendFrame(v, NULL, NULL, fc, NULL), ACL_ERROR_INVALID_PARAM);
  EXPECT_CODE(aclvencDestroyFrameConfig(fc), ACL_SUCCESS);
  EXPECT_CODE(aclvencDestroyFrameConfig(fc), ACL_ERROR_INVALID_PARAM);
  EXPECT_CODE(aclvencDestroyChannelDesc(v), ACL_SUCCESS);
  EXPECT_CODE(aclvencDestroyChannelDesc(v), ACL_ERROR_INVALID_PARAM);
}

/* ---- synchronizing a stream whose blocking callback nobody has processed yet ---- */
static atomic_int g_sync_done;
static aclrtStream g_cb_stream;
static aclrtContext g_cb_context;
static void* SyncInThread(void* arg) {
  (void)arg;
  aclError* rc = malloc(sizeof(aclError));
  /* A new thread has no context: synchronizing without one is refused, as on CANN. */
  *rc = aclrtSynchronizeStream(g_cb_stream);
  if (*rc != ACL_ERROR_RT_CONTEXT_NULL) return rc;
  aclrtSetCurrentContext(g_cb_context);
  *rc = aclrtSynchronizeStream(g_cb_stream);
  atomic_store(&g_sync_done, 1);
  return rc;
}
static int g_cb_ran;
static void CountCallback(void* data) { ++*(int*)data; }

static void BlockingCallbackSync(void) {
  const uint64_t self = (uint64_t)pthread_self();
  EXPECT_CODE(aclrtCreateStream(&g_cb_stream), ACL_SUCCESS);
  EXPECT_CODE(aclrtSubscribeReport(self, g_cb_stream), ACL_SUCCESS);
  EXPECT_CODE(aclrtLaunchCallback(CountCallback, &g_cb_ran, ACL_CALLBACK_BLOCK, g_cb_stream),
              ACL_SUCCESS);
  /* Queued and unprocessed: the stream's work is not done. */
  EXPECT_CODE(aclrtSynchronizeStreamWithTimeout(g_cb_stream, 50), ACL_ERROR_RT_STREAM_SYNC_TIMEOUT);
  EXPECT_CODE(aclrtSynchronizeStreamWithTimeout(g_cb_stream, 0), ACL_ERROR_RT_STREAM_SYNC_TIMEOUT);
  /* Without a limit (as aclrtSynchronizeStream): waiting until the callback has run. */
  pthread_t t;
  void* rc = NULL;
  EXPECT_CODE(aclrtGetCurrentContext(&g_cb_context), ACL_SUCCESS);
  atomic_store(&g_sync_done, 0);
  pthread_create(&t, NULL, SyncInThread, NULL);
  usleep(100 * 1000);
  EXPECT_TRUE(!atomic_load(&g_sync_done) && g_cb_ran == 0);
  EXPECT_CODE(aclrtProcessReport(1000), ACL_SUCCESS);
  pthread_join(t, &rc);
  EXPECT_TRUE(rc && *(aclError*)rc == ACL_SUCCESS && g_cb_ran == 1);
  free(rc);
  EXPECT_CODE(aclrtSynchronizeStreamWithTimeout(g_cb_stream, 50), ACL_SUCCESS);
  /* The same for -1, once more. */
  EXPECT_CODE(aclrtLaunchCallback(CountCallback, &g_cb_ran, ACL_CALLBACK_BLOCK, g_cb_stream),
              ACL_SUCCESS);
  EXPECT_CODE(aclrtSynchronizeStreamWithTimeout(g_cb_stream, 20), ACL_ERROR_RT_STREAM_SYNC_TIMEOUT);
  EXPECT_CODE(aclrtProcessReport(1000), ACL_SUCCESS);
  EXPECT_CODE(aclrtSynchronizeStreamWithTimeout(g_cb_stream, -1), ACL_SUCCESS);
  EXPECT_TRUE(g_cb_ran == 2);
  /* Unsubscribing does not drop a queued callback: it waits for the stream's next thread,
   * and the stream is not done until then. */
  EXPECT_CODE(aclrtLaunchCallback(CountCallback, &g_cb_ran, ACL_CALLBACK_BLOCK, g_cb_stream),
              ACL_SUCCESS);
  EXPECT_CODE(aclrtSynchronizeStreamWithTimeout(g_cb_stream, 10), ACL_ERROR_RT_STREAM_SYNC_TIMEOUT);
  EXPECT_CODE(aclrtUnSubscribeReport(self, g_cb_stream), ACL_SUCCESS);
  EXPECT_CODE(aclrtSynchronizeStreamWithTimeout(g_cb_stream, 20), ACL_ERROR_RT_STREAM_SYNC_TIMEOUT);
  EXPECT_CODE(aclrtProcessReport(10), ACL_ERROR_THREAD_NOT_SUBSCRIBE);
  EXPECT_TRUE(g_cb_ran == 2);
  EXPECT_CODE(aclrtSubscribeReport(self, g_cb_stream), ACL_SUCCESS);
  EXPECT_CODE(aclrtProcessReport(1000), ACL_SUCCESS);
  EXPECT_CODE(aclrtSynchronizeStreamWithTimeout(g_cb_stream, 1000), ACL_SUCCESS);
  EXPECT_TRUE(g_cb_ran == 3);
  /* A blocking callback left unprocessed does not keep the stream from being destroyed. */
  EXPECT_CODE(aclrtLaunchCallback(CountCallback, &g_cb_ran, ACL_CALLBACK_BLOCK, g_cb_stream),
              ACL_SUCCESS);
  EXPECT_CODE(aclrtSynchronizeStreamWithTimeout(g_cb_stream, 10), ACL_ERROR_RT_STREAM_SYNC_TIMEOUT);
  EXPECT_CODE(aclrtUnSubscribeReport(self, g_cb_stream), ACL_SUCCESS);
  EXPECT_CODE(aclrtDestroyStream(g_cb_stream), ACL_SUCCESS);
  EXPECT_TRUE(g_cb_ran == 3);
}

/* ---- the other headers: aclnn's tensors and executors, kernel launches ---- */
static void KernelFn(void* const* args) { (void)args; }
static void AclnnAndKernels(void) {
  static char forged[64];
  const int64_t d2[2] = {2, 2}, neg[2] = {2, -1}, d9[9] = {1, 1, 1, 1, 1, 1, 1, 1, 1};
  EXPECT_TRUE(aclCreateTensor(NULL, 2, ACL_FLOAT, NULL, 0, ACL_FORMAT_ND, NULL, 0, g_ok.dev) ==
              NULL);
  EXPECT_TRUE(aclCreateTensor(neg, 2, ACL_FLOAT, NULL, 0, ACL_FORMAT_ND, NULL, 0, g_ok.dev) ==
              NULL);
  EXPECT_TRUE(aclCreateTensor(d9, 9, ACL_FLOAT, NULL, 0, ACL_FORMAT_ND, NULL, 0, g_ok.dev) == NULL);
  EXPECT_TRUE(aclCreateTensor(d2, UINT64_MAX, ACL_FLOAT, NULL, 0, ACL_FORMAT_ND, NULL, 0,
                              g_ok.dev) == NULL);
  EXPECT_TRUE(aclCreateTensor(d2, 2, (aclDataType)999, NULL, 0, ACL_FORMAT_ND, NULL, 0, g_ok.dev) ==
              NULL);
  EXPECT_TRUE(aclCreateTensor(d2, 2, ACL_FLOAT, NULL, -1, ACL_FORMAT_ND, NULL, 0, g_ok.dev) ==
              NULL);
  aclTensor* t = aclCreateTensor(d2, 2, ACL_FLOAT, NULL, 0, ACL_FORMAT_ND, NULL, 0, g_ok.dev);
  EXPECT_TRUE(t != NULL);
  EXPECT_CODE(aclDestroyTensor(NULL), ACLNN_ERR_PARAM_NULLPTR);
  EXPECT_CODE(aclDestroyTensor((const aclTensor*)forged), ACLNN_ERR_PARAM_INVALID);
  EXPECT_CODE(aclDestroyTensor((const aclTensor*)g_ok.buf), ACLNN_ERR_PARAM_INVALID);
  uint64_t ws = 0;
  aclOpExecutor* ex = NULL;
  const aclTensor* bad[1] = {(const aclTensor*)forged};
  const aclTensor* good[1] = {t};
  EXPECT_CODE(OcAclnnGetWorkspaceSize(NULL, good, 1, NULL, 0, good, 1, &ws, &ex),
              ACLNN_ERR_PARAM_NULLPTR);
  EXPECT_CODE(OcAclnnGetWorkspaceSize("Relu", bad, 1, NULL, 0, good, 1, &ws, &ex),
              ACLNN_ERR_PARAM_INVALID);
  EXPECT_CODE(OcAclnnGetWorkspaceSize("Relu", good, 1, NULL, 0, bad, 1, &ws, &ex),
              ACLNN_ERR_PARAM_INVALID);
  EXPECT_CODE(OcAclnnGetWorkspaceSize("Relu", NULL, 3, NULL, 0, good, 1, &ws, &ex),
              ACLNN_ERR_PARAM_NULLPTR);
  EXPECT_CODE(OcAclnnRun(NULL, 0, NULL, NULL), ACLNN_ERR_PARAM_NULLPTR);
  EXPECT_CODE(OcAclnnRun(NULL, 0, (aclOpExecutor*)forged, NULL), ACLNN_ERR_PARAM_INVALID);
  EXPECT_CODE(OcAclnnRun(NULL, 0, (aclOpExecutor*)t, NULL), ACLNN_ERR_PARAM_INVALID);
  EXPECT_CODE(aclDestroyTensor(t), ACLNN_SUCCESS);
  EXPECT_CODE(aclDestroyTensor(t), ACLNN_ERR_PARAM_INVALID); /* twice */
  /* Kernel launches: null names and functions, block counts, argument arrays and sizes. */
  void* args[2] = {g_ok.dev, forged};
  const size_t huge[2] = {0, SIZE_MAX}, big[2] = {0, (size_t)1 << 20}, ok[2] = {0, 8};
  EXPECT_CODE(OcLaunchKernel(NULL, (void*)KernelFn, 1, NULL, args, 1), ACL_ERROR_INVALID_PARAM);
  EXPECT_CODE(OcLaunchKernel("k", NULL, 1, NULL, args, 1), ACL_ERROR_INVALID_PARAM);
  EXPECT_CODE(OcLaunchKernel("k", (void*)KernelFn, 0, NULL, args, 1), ACL_ERROR_INVALID_PARAM);
  EXPECT_CODE(OcLaunchKernel("k", (void*)KernelFn, 1, NULL, NULL, 1), ACL_ERROR_INVALID_PARAM);
  EXPECT_CODE(OcLaunchKernel("k", (void*)KernelFn, 1, NULL, (void**)(uintptr_t)0x18, 2),
              ACL_ERROR_INVALID_PARAM);
  EXPECT_CODE(OcLaunchKernel("k", (void*)KernelFn, 1, NULL, args, 0xffffffffu),
              ACL_ERROR_INVALID_PARAM);
  EXPECT_CODE(OcLaunchKernel("k", (void*)KernelFn, 1, NULL, args, 2),
              ACL_ERROR_INVALID_PARAM); /* forged is not device memory */
  EXPECT_CODE(OcLaunchKernel("k", (void*)KernelFn, 1, (aclrtStream)forged, args, 1),
              ACL_ERROR_INVALID_PARAM);
  EXPECT_CODE(OcLaunchKernelArgs("k", NULL, 1, NULL, args, ok, 2), ACL_ERROR_INVALID_PARAM);
  EXPECT_CODE(OcLaunchKernelArgs("k", KernelFn, 1, NULL, args, huge, 2), ACL_ERROR_INVALID_PARAM);
  EXPECT_CODE(OcLaunchKernelArgs("k", KernelFn, 1, NULL, args, big, 2), ACL_ERROR_INVALID_PARAM);
  EXPECT_CODE(OcLaunchKernelArgs("k", KernelFn, 1, NULL, args, (const size_t*)(uintptr_t)0x18, 2),
              ACL_ERROR_INVALID_PARAM);
}

static void RunTables(const char* om) {
  EXPECT_CODE(aclmdlLoadFromFile(om, &g_ok.model), ACL_SUCCESS);
  EXPECT_CODE(aclrtMalloc(&g_ok.dev, 4096, ACL_MEM_MALLOC_HUGE_FIRST), ACL_SUCCESS);
  const int64_t d4[1] = {4};
  g_ok.buf = aclCreateDataBuffer(g_ok.dev, 16);
  g_ok.desc = aclCreateTensorDesc(ACL_FLOAT, 1, d4, ACL_FORMAT_ND);
  g_ok.ds = aclmdlCreateDataset();
  EXPECT_CODE(aclmdlAddDatasetBuffer(g_ok.ds, g_ok.buf), ACL_SUCCESS);
  g_ok.mdesc = aclmdlCreateDesc();
  EXPECT_CODE(aclmdlGetDesc(g_ok.mdesc, g_ok.model), ACL_SUCCESS);
  g_ok.aipp = aclmdlCreateAIPP(1);
  g_ok.attr = aclopCreateAttr();
  EXPECT_CODE(aclrtCreateStream(&g_ok.stream), ACL_SUCCESS);
  EXPECT_CODE(aclrtCreateEvent(&g_ok.event), ACL_SUCCESS);
  EXPECT_CODE(aclrtRecordEvent(g_ok.event, g_ok.stream), ACL_SUCCESS);
  EXPECT_CODE(aclrtSynchronizeStream(g_ok.stream), ACL_SUCCESS);

  BadHandles();
  BadSizes(om);
  UnwritableMemory();
  TensorDescLimits();
  BlockingCallbackSync();
  AclnnAndKernels();

  /* The live handles were left alone by all of it. */
  EXPECT_TRUE(aclmdlGetDatasetNumBuffers(g_ok.ds) == 1 &&
              aclGetDataBufferAddr(g_ok.buf) == g_ok.dev);
  EXPECT_CODE(aclrtSynchronizeStream(g_ok.stream), ACL_SUCCESS);
  EXPECT_CODE(aclrtDestroyEvent(g_ok.event), ACL_SUCCESS);
  EXPECT_CODE(aclrtDestroyStream(g_ok.stream), ACL_SUCCESS);
  aclopDestroyAttr(g_ok.attr);
  EXPECT_CODE(aclmdlDestroyAIPP(g_ok.aipp), ACL_SUCCESS);
  EXPECT_CODE(aclmdlDestroyDesc(g_ok.mdesc), ACL_SUCCESS);
  EXPECT_CODE(aclmdlDestroyDataset(g_ok.ds), ACL_SUCCESS);
  aclDestroyTensorDesc(g_ok.desc);
  EXPECT_CODE(aclDestroyDataBuffer(g_ok.buf), ACL_SUCCESS);
  EXPECT_CODE(aclrtFree(g_ok.dev), ACL_SUCCESS);
  EXPECT_CODE(aclmdlUnload(g_ok.model), ACL_SUCCESS);
}

int main(int argc, char** argv) {
  if (argc != 3) {
    printf("usage: %s STATIC.om GEARS.om\n", argv[0]);
    return 2;
  }
  const char *om = argv[1], *gears_om = argv[2];
  void* p = NULL;
  uint32_t id = 0;
  size_t work = 0, weight = 0, idx = 0;

  /* ---- wrong order: everything before aclInit ---- */
  EXPECT_CODE(aclFinalize(), ACL_ERROR_UNINITIALIZE);
  /* (aclrtSetDevice before aclInit initialises implicitly, as CANN's runtime does:
     tests/e2e/test_acl_errors.py covers it.) */
  EXPECT_CODE(aclrtMalloc(&p, 16, ACL_MEM_MALLOC_HUGE_FIRST), ACL_ERROR_UNINITIALIZE);
  EXPECT_CODE(aclmdlLoadFromFile(om, &id), ACL_ERROR_UNINITIALIZE);
  EXPECT_CODE(aclmdlQuerySize(om, &work, &weight), ACL_ERROR_UNINITIALIZE);

  /* ---- init ---- */
  EXPECT_CODE(aclInit("/nonexistent/acl.json"), ACL_ERROR_INVALID_FILE);
  EXPECT_CODE(aclInit(NULL), ACL_SUCCESS);
  EXPECT_CODE(aclInit(NULL), ACL_ERROR_REPEAT_INITIALIZE);
  int32_t major = 0, minor = 0, patch = 0;
  EXPECT_CODE(aclrtGetVersion(NULL, &minor, &patch), ACL_ERROR_INVALID_PARAM);
  EXPECT_CODE(aclrtGetVersion(&major, &minor, &patch), ACL_SUCCESS);
  EXPECT_TRUE(aclGetRecentErrMsg() != NULL);
  aclAppLog(ACL_INFO, NULL, NULL, 0, "null func and file are tolerated");
  aclAppLog((aclLogLevel)42, "f", "file.c", 1, "unknown level %d", 42);

  /* ---- devices and contexts ---- */
  int32_t dev = -1;
  uint32_t count = 0;
  aclrtRunMode mode;
  aclrtContext ctx = NULL, cur = NULL;
  EXPECT_CODE(aclrtGetDevice(&dev), ACL_ERROR_RT_CONTEXT_NULL); /* no device set yet */
  EXPECT_CODE(aclrtSetDevice(-1), ACL_ERROR_RT_INVALID_DEVICEID);
  EXPECT_CODE(aclrtSetDevice(7), ACL_ERROR_RT_INVALID_DEVICEID);
  EXPECT_CODE(aclrtResetDevice(7), ACL_ERROR_RT_INVALID_DEVICEID);
  EXPECT_CODE(aclrtGetDeviceCount(NULL), ACL_ERROR_INVALID_PARAM);
  EXPECT_CODE(aclrtGetDeviceCount(&count), ACL_SUCCESS);
  EXPECT_TRUE(count == 1);
  EXPECT_CODE(aclrtGetRunMode(NULL), ACL_ERROR_INVALID_PARAM);
  EXPECT_CODE(aclrtCreateContext(NULL, 0), ACL_ERROR_INVALID_PARAM);
  EXPECT_CODE(aclrtCreateContext(&ctx, 9), ACL_ERROR_RT_INVALID_DEVICEID);
  EXPECT_CODE(aclrtDestroyContext(NULL), ACL_ERROR_INVALID_PARAM);
  EXPECT_CODE(aclrtDestroyContext((aclrtContext)&count), ACL_ERROR_INVALID_PARAM); /* foreign */
  EXPECT_CODE(aclrtSetCurrentContext(NULL), ACL_ERROR_INVALID_PARAM);
  EXPECT_CODE(aclrtSetCurrentContext((aclrtContext)&count), ACL_ERROR_INVALID_PARAM);
  EXPECT_CODE(aclrtGetCurrentContext(NULL), ACL_ERROR_INVALID_PARAM);
  EXPECT_CODE(aclrtSynchronizeDevice(), ACL_ERROR_RT_CONTEXT_NULL);
  /* Runtime calls need a current context (CANN's "current context null"). */
  {
    void* nop = NULL;
    aclrtStream nos = NULL;
    aclrtEvent noe = NULL;
    uint32_t no_id = 0;
    char host_buf[16] = {0};
    EXPECT_CODE(aclrtMalloc(&nop, 64, ACL_MEM_MALLOC_HUGE_FIRST), ACL_ERROR_RT_CONTEXT_NULL);
    EXPECT_TRUE(nop == NULL);
    EXPECT_CODE(aclrtMallocHost(&nop, 64), ACL_ERROR_RT_CONTEXT_NULL);
    EXPECT_CODE(aclrtMemcpy(host_buf, 8, host_buf + 8, 8, ACL_MEMCPY_HOST_TO_HOST),
                ACL_ERROR_RT_CONTEXT_NULL);
    EXPECT_CODE(aclrtCreateStream(&nos), ACL_ERROR_RT_CONTEXT_NULL);
    EXPECT_CODE(aclrtCreateEvent(&noe), ACL_ERROR_RT_CONTEXT_NULL);
    EXPECT_CODE(aclmdlLoadFromFile("no_such.om", &no_id), ACL_ERROR_RT_CONTEXT_NULL);
    EXPECT_CODE(aclmdlExecute(1, NULL, NULL), ACL_ERROR_RT_CONTEXT_NULL);
  }
  EXPECT_CODE(aclrtSetDevice(0), ACL_SUCCESS);
  EXPECT_CODE(aclrtGetDevice(NULL), ACL_ERROR_INVALID_PARAM);
  EXPECT_CODE(aclrtGetDevice(&dev), ACL_SUCCESS);
  EXPECT_CODE(aclrtGetRunMode(&mode), ACL_SUCCESS);
  EXPECT_TRUE(mode == ACL_HOST);
  EXPECT_CODE(aclrtCreateContext(&ctx, 0), ACL_SUCCESS);
  EXPECT_CODE(aclrtGetCurrentContext(&cur), ACL_SUCCESS);
  EXPECT_TRUE(cur == ctx);
  EXPECT_CODE(aclrtSynchronizeDevice(), ACL_SUCCESS);

  /* ---- memory ---- */
  char host[64];
  size_t free_mem = 0, total_mem = 0;
  EXPECT_CODE(aclrtMalloc(NULL, 16, ACL_MEM_MALLOC_HUGE_FIRST), ACL_ERROR_INVALID_PARAM);
  EXPECT_CODE(aclrtMalloc(&p, 0, ACL_MEM_MALLOC_HUGE_FIRST), ACL_ERROR_INVALID_PARAM);
  EXPECT_CODE(aclrtMalloc(&p, 64, ACL_MEM_MALLOC_HUGE_FIRST), ACL_SUCCESS);
  EXPECT_CODE(aclrtMallocHost(NULL, 16), ACL_ERROR_INVALID_PARAM);
  EXPECT_CODE(aclrtMallocHost(&p, 0), ACL_ERROR_INVALID_PARAM);
  /* Sizes whose rounding to the alignment would wrap are out of memory, never a tiny block. */
  EXPECT_CODE(aclrtMallocHost(&p, SIZE_MAX), ACL_ERROR_RT_MEMORY_ALLOCATION);
  EXPECT_CODE(aclrtMallocHost(&p, SIZE_MAX - 30), ACL_ERROR_RT_MEMORY_ALLOCATION);
  EXPECT_CODE(aclrtMalloc(&p, SIZE_MAX, ACL_MEM_MALLOC_HUGE_FIRST), ACL_ERROR_RT_MEMORY_ALLOCATION);
  void *dev_mem = NULL, *host_mem = NULL;
  EXPECT_CODE(aclrtMalloc(&dev_mem, 64, ACL_MEM_MALLOC_HUGE_FIRST), ACL_SUCCESS);
  EXPECT_CODE(aclrtMallocHost(&host_mem, 64), ACL_SUCCESS);
  EXPECT_CODE(aclrtMemcpy(NULL, 64, host, 64, ACL_MEMCPY_HOST_TO_DEVICE), ACL_ERROR_INVALID_PARAM);
  EXPECT_CODE(aclrtMemcpy(dev_mem, 64, NULL, 64, ACL_MEMCPY_HOST_TO_DEVICE),
              ACL_ERROR_INVALID_PARAM);
  EXPECT_CODE(aclrtMemcpy(dev_mem, 32, host, 64, ACL_MEMCPY_HOST_TO_DEVICE),
              ACL_ERROR_INVALID_PARAM); /* count > destMax */
  /* A kind that contradicts the pointers: copied by the pointers, as CANN's runtime does. */
  EXPECT_CODE(aclrtMemcpy(host, 64, host_mem, 64, ACL_MEMCPY_HOST_TO_DEVICE), ACL_SUCCESS);
  EXPECT_CODE(aclrtMemcpy(dev_mem, 64, host, 64, ACL_MEMCPY_DEVICE_TO_HOST), ACL_SUCCESS);
  EXPECT_CODE(aclrtMemcpy(host, 64, dev_mem, 64, ACL_MEMCPY_HOST_TO_HOST), ACL_SUCCESS);
  {
    /* ... but freed device memory named as device is refused, never read. */
    void* gone = NULL;
    EXPECT_CODE(aclrtMalloc(&gone, 4096, ACL_MEM_MALLOC_HUGE_FIRST), ACL_SUCCESS);
    EXPECT_CODE(aclrtFree(gone), ACL_SUCCESS);
    EXPECT_CODE(aclrtMemcpy(host, 64, gone, 64, ACL_MEMCPY_DEVICE_TO_HOST),
                ACL_ERROR_RT_PARAM_INVALID);
    EXPECT_CODE(aclrtMemcpy(gone, 64, host, 64, ACL_MEMCPY_HOST_TO_DEVICE),
                ACL_ERROR_RT_PARAM_INVALID);
  }
  EXPECT_CODE(aclrtMemcpy(dev_mem, 64, host, 64, (aclrtMemcpyKind)9), ACL_ERROR_INVALID_PARAM);
  EXPECT_CODE(aclrtMemcpy(dev_mem, 64, host, 64, ACL_MEMCPY_HOST_TO_DEVICE), ACL_SUCCESS);
  EXPECT_CODE(
      aclrtMemcpyAsync(dev_mem, 64, host, 64, ACL_MEMCPY_HOST_TO_DEVICE, (aclrtStream)&count),
      ACL_ERROR_INVALID_PARAM); /* unknown stream */
  EXPECT_CODE(aclrtMemset(NULL, 64, 0, 64), ACL_ERROR_INVALID_PARAM);
  EXPECT_CODE(aclrtMemset(dev_mem, 32, 0, 64), ACL_ERROR_INVALID_PARAM);
  EXPECT_CODE(aclrtMemset(dev_mem, 64, 0, 64), ACL_SUCCESS);
  EXPECT_CODE(aclrtGetMemInfo(0, NULL, &total_mem), ACL_ERROR_INVALID_PARAM);
  EXPECT_CODE(aclrtGetMemInfo(ACL_HBM_MEM, &free_mem, &total_mem), ACL_SUCCESS);
  EXPECT_TRUE(total_mem == (size_t)64 << 30 && free_mem <= total_mem);
  EXPECT_CODE(aclrtGetMemInfo((aclrtMemAttr)42, &free_mem, &total_mem), ACL_ERROR_INVALID_PARAM);
  EXPECT_CODE(aclrtMemsetAsync(dev_mem, 32, 0, 64, NULL), ACL_ERROR_INVALID_PARAM);
  EXPECT_CODE(aclrtMemsetAsync(dev_mem, 64, 0, 64, (aclrtStream)&count), ACL_ERROR_INVALID_PARAM);
  EXPECT_CODE(aclrtMemsetAsync(dev_mem, 64, 7, 64, NULL), ACL_SUCCESS); /* no stream: now */
  /* DVPP's memory: device memory of its own, freed only with acldvppFree. */
  void* dvpp = NULL;
  char back[100];
  EXPECT_CODE(acldvppMalloc(NULL, 16), ACL_ERROR_INVALID_PARAM);
  EXPECT_CODE(acldvppMalloc(&dvpp, 0), ACL_ERROR_INVALID_PARAM);
  EXPECT_CODE(acldvppMalloc(&dvpp, SIZE_MAX), ACL_ERROR_INVALID_PARAM);
  EXPECT_CODE(acldvppMalloc(&dvpp, 100), ACL_SUCCESS);
  memset(back, 0x5a, sizeof back);
  EXPECT_CODE(aclrtMemcpy(dvpp, 100, back, 100, ACL_MEMCPY_HOST_TO_DEVICE), ACL_SUCCESS);
  /* The rounding (up to 32, plus 32) is the block's: 160 bytes for 100. */
  EXPECT_CODE(aclrtMemset(dvpp, 160, 0x5a, 160), ACL_SUCCESS);
  memset(back, 0, sizeof back);
  EXPECT_CODE(aclrtMemcpy(back, 100, dvpp, 100, ACL_MEMCPY_DEVICE_TO_HOST), ACL_SUCCESS);
  EXPECT_TRUE(back[0] == 0x5a && back[99] == 0x5a);
  EXPECT_CODE(acldvppFree(dev_mem), ACL_ERROR_INVALID_PARAM); /* aclrtMalloc's */
  EXPECT_CODE(acldvppFree(NULL), ACL_ERROR_INVALID_PARAM);
  EXPECT_CODE(acldvppFree(dvpp), ACL_SUCCESS);
  EXPECT_CODE(acldvppFree(dvpp), ACL_ERROR_INVALID_PARAM); /* twice */
  DvppMisuse();
  VdecMisuse();
  VencMisuse();
  /* Model load configurations: sizes, values and handles checked. */
  {
    aclmdlConfigHandle* cfg = aclmdlCreateConfigHandle();
    size_t type = ACL_MDL_LOAD_FROM_FILE;
    int32_t prio = 9;
    const char* path = om;
    uint32_t cfg_id = 0;
    EXPECT_TRUE(cfg != NULL);
    EXPECT_CODE(aclmdlSetConfigOpt(NULL, ACL_MDL_LOAD_TYPE_SIZET, &type, sizeof type),
                ACL_ERROR_INVALID_PARAM);
    EXPECT_CODE(aclmdlSetConfigOpt(cfg, ACL_MDL_LOAD_TYPE_SIZET, NULL, sizeof type),
                ACL_ERROR_INVALID_PARAM);
    EXPECT_CODE(aclmdlSetConfigOpt(cfg, ACL_MDL_LOAD_TYPE_SIZET, &type, 4),
                ACL_ERROR_INVALID_PARAM); /* a size_t option given 4 bytes */
    EXPECT_CODE(aclmdlSetConfigOpt(cfg, ACL_MDL_PRIORITY_INT32, &prio, sizeof prio),
                ACL_ERROR_INVALID_PARAM);
    EXPECT_CODE(aclmdlSetConfigOpt(cfg, ACL_MDL_FIFO_PTR, &path, sizeof path),
                ACL_ERROR_API_NOT_SUPPORT);
    EXPECT_CODE(aclmdlLoadWithConfig(cfg, &cfg_id), ACL_ERROR_INVALID_PARAM); /* no type */
    EXPECT_CODE(aclmdlSetConfigOpt(cfg, ACL_MDL_LOAD_TYPE_SIZET, &type, sizeof type), ACL_SUCCESS);
    EXPECT_CODE(aclmdlLoadWithConfig(cfg, &cfg_id), ACL_ERROR_INVALID_PARAM); /* no path */
    EXPECT_CODE(aclmdlSetConfigOpt(cfg, ACL_MDL_PATH_PTR, &path, sizeof path), ACL_SUCCESS);
    EXPECT_CODE(aclmdlLoadWithConfig(cfg, NULL), ACL_ERROR_INVALID_PARAM);
    EXPECT_CODE(aclmdlSetExternalWeightAddress(cfg, "w.bin", NULL, 16), ACL_ERROR_INVALID_PARAM);
    EXPECT_CODE(aclmdlLoadWithConfig(cfg, &cfg_id), ACL_SUCCESS);
    EXPECT_CODE(aclmdlUnload(cfg_id), ACL_SUCCESS);
    EXPECT_CODE(aclmdlSetExternalWeightAddress(cfg, "w.bin", dev_mem, 64), ACL_SUCCESS);
    EXPECT_CODE(aclmdlLoadWithConfig(cfg, &cfg_id), ACL_ERROR_INVALID_PARAM); /* no such file */
    EXPECT_CODE(aclmdlDestroyConfigHandle(cfg), ACL_SUCCESS);
    EXPECT_CODE(aclmdlDestroyConfigHandle(cfg), ACL_ERROR_INVALID_PARAM);
    EXPECT_CODE(aclmdlLoadWithConfig(cfg, &cfg_id), ACL_ERROR_INVALID_PARAM);
  }
  EXPECT_TRUE(aclrtGetSocName() != NULL && strcmp(aclrtGetSocName(), "Ascend910B3") == 0);
  {
    int64_t cap = 0;
    EXPECT_CODE(aclGetDeviceCapability(0, ACL_DEVICE_INFO_AI_CORE_NUM, NULL),
                ACL_ERROR_INVALID_PARAM);
    EXPECT_CODE(aclGetDeviceCapability(1, ACL_DEVICE_INFO_AI_CORE_NUM, &cap),
                ACL_ERROR_RT_INVALID_DEVICEID);
    EXPECT_CODE(aclGetDeviceCapability(0, (aclDeviceInfo)9, &cap), ACL_ERROR_INVALID_PARAM);
    EXPECT_CODE(aclGetDeviceCapability(0, ACL_DEVICE_INFO_VECTOR_CORE_NUM, &cap), ACL_SUCCESS);
    EXPECT_TRUE(cap == 40);
  }
  /* Host sides of a copy must be mapped memory: a made-up pointer is refused. */
  EXPECT_CODE(aclrtMemcpy(dev_mem, 64, (void*)(uintptr_t)0x1000, 64, ACL_MEMCPY_HOST_TO_DEVICE),
              ACL_ERROR_INVALID_PARAM);
  /* Single-operator mode: nothing loaded, so nothing matches; attributes and handles are
   * checked like every other handle. */
  {
    aclopAttr* at = aclopCreateAttr();
    const int64_t li[2] = {1, 2};
    const float lf[1] = {0.5f};
    const uint8_t lb[1] = {1};
    const char* ls[1] = {"x"};
    const aclDataType ld[1] = {ACL_FLOAT};
    const int nv[1] = {2};
    const int64_t* lv[1] = {li};
    EXPECT_CODE(aclopSetAttrBool(at, "b", 1), ACL_SUCCESS);
    EXPECT_CODE(aclopSetAttrInt(at, "i", 3), ACL_SUCCESS);
    EXPECT_CODE(aclopSetAttrFloat(at, "f", 1.5f), ACL_SUCCESS);
    EXPECT_CODE(aclopSetAttrString(at, "s", "v"), ACL_SUCCESS);
    EXPECT_CODE(aclopSetAttrString(at, "s", NULL), ACL_ERROR_INVALID_PARAM);
    EXPECT_CODE(aclopSetAttrDataType(at, "d", ACL_FLOAT16), ACL_SUCCESS);
    EXPECT_CODE(aclopSetAttrListBool(at, "lb", 1, lb), ACL_SUCCESS);
    EXPECT_CODE(aclopSetAttrListInt(at, "li", 2, li), ACL_SUCCESS);
    EXPECT_CODE(aclopSetAttrListInt(at, "li", 2, NULL), ACL_ERROR_INVALID_PARAM);
    EXPECT_CODE(aclopSetAttrListFloat(at, "lf", 1, lf), ACL_SUCCESS);
    EXPECT_CODE(aclopSetAttrListString(at, "ls", 1, ls), ACL_SUCCESS);
    EXPECT_CODE(aclopSetAttrListDataType(at, "ld", 1, ld), ACL_SUCCESS);
    EXPECT_CODE(aclopSetAttrListListInt(at, "ll", 1, nv, lv), ACL_SUCCESS);
    EXPECT_CODE(aclopSetAttrInt(NULL, "i", 3), ACL_ERROR_INVALID_PARAM);
    EXPECT_CODE(aclopSetAttrInt((aclopAttr*)&count, "i", 3), ACL_ERROR_INVALID_PARAM);
    EXPECT_CODE(aclopSetModelDir("/nonexistent"), ACL_ERROR_INVALID_FILE);
    EXPECT_CODE(aclopLoad(NULL, 16), ACL_ERROR_INVALID_PARAM);
    EXPECT_CODE(aclopLoad(om, 0), ACL_ERROR_INVALID_PARAM);
    EXPECT_CODE(aclopSetMaxOpQueueNum(0), ACL_ERROR_INVALID_PARAM);
    EXPECT_CODE(aclopSetMaxOpQueueNum(64), ACL_SUCCESS);
    int64_t od[1] = {4};
    aclTensorDesc* td = aclCreateTensorDesc(ACL_FLOAT, 1, od, ACL_FORMAT_ND);
    aclTensorDesc* tds[2] = {td, td};
    aclDataBuffer* tb[2] = {NULL, NULL};
    const aclTensorDesc* ctds[2] = {td, td};
    EXPECT_CODE(aclopExecuteV2("Add", 2, tds, tb, 1, tds, tb, NULL, NULL), ACL_ERROR_OP_NOT_FOUND);
    EXPECT_CODE(aclopExecuteV2(NULL, 2, tds, tb, 1, tds, tb, NULL, NULL), ACL_ERROR_INVALID_PARAM);
    EXPECT_CODE(
        aclopExecute("Add", 2, ctds, (const aclDataBuffer* const*)tb, 1, ctds, tb, NULL, NULL),
        ACL_ERROR_OP_NOT_FOUND);
    aclopHandle* oh = NULL;
    EXPECT_CODE(aclopCreateHandle("Add", 2, ctds, 1, ctds, at, &oh), ACL_ERROR_OP_NOT_FOUND);
    EXPECT_CODE(aclopExecWithHandle(NULL, 0, NULL, 0, NULL, NULL), ACL_ERROR_INVALID_PARAM);
    aclopDestroyHandle(NULL); /* reported, not a crash */
    EXPECT_CODE(aclopCast(td, NULL, td, NULL, 1, NULL), ACL_ERROR_FEATURE_UNSUPPORTED);
    EXPECT_CODE(aclopCast(td, NULL, td, NULL, 0, NULL), ACL_ERROR_OP_NOT_FOUND);
    /* BLAS: what OpenCANN refuses, and no GEMM model loaded. */
    EXPECT_CODE(aclblasGemmEx(ACL_TRANS_NZ, ACL_TRANS_N, ACL_TRANS_N, 4, 4, 4, dev_mem, dev_mem, 4,
                              ACL_FLOAT, dev_mem, 4, ACL_FLOAT, dev_mem, dev_mem, 4, ACL_FLOAT,
                              ACL_COMPUTE_HIGH_PRECISION, NULL),
                ACL_ERROR_FEATURE_UNSUPPORTED);
    EXPECT_CODE(aclblasHgemm(ACL_TRANS_N, ACL_TRANS_N, ACL_TRANS_N, 4, 4, 4, NULL, NULL, 4, NULL, 4,
                             NULL, NULL, 4, ACL_COMPUTE_LOW_PRECISION, NULL),
                ACL_ERROR_FEATURE_UNSUPPORTED);
    EXPECT_CODE(aclblasS8gemm(ACL_TRANS_N, ACL_TRANS_N, ACL_TRANS_N, 0, 4, 4, NULL, NULL, 4, NULL,
                              4, NULL, NULL, 4, ACL_COMPUTE_HIGH_PRECISION, NULL),
                ACL_ERROR_INVALID_PARAM);
    EXPECT_CODE(
        aclblasCreateHandleForGemmEx(ACL_TRANS_N, ACL_TRANS_N, ACL_TRANS_N, 4, 4, 4, ACL_FLOAT,
                                     ACL_FLOAT, ACL_FLOAT, ACL_COMPUTE_HIGH_PRECISION, &oh),
        ACL_ERROR_OP_NOT_FOUND);
    EXPECT_CODE(aclblasCreateHandleForHgemm(ACL_TRANS_N, ACL_TRANS_N, ACL_TRANS_T, 4, 4, 4,
                                            ACL_COMPUTE_HIGH_PRECISION, &oh),
                ACL_ERROR_FEATURE_UNSUPPORTED);
    EXPECT_CODE(aclblasCreateHandleForS8gemm(ACL_TRANS_N, ACL_TRANS_N, ACL_TRANS_N, 4, 4, 4,
                                             ACL_COMPUTE_HIGH_PRECISION, &oh),
                ACL_ERROR_OP_NOT_FOUND);
    EXPECT_CODE(aclblasGemvEx(ACL_TRANS_N, 4, 4, NULL, NULL, 4, ACL_FLOAT, NULL, 1, ACL_FLOAT, NULL,
                              NULL, 1, ACL_FLOAT, ACL_COMPUTE_HIGH_PRECISION, NULL),
                ACL_ERROR_API_NOT_SUPPORT);
    EXPECT_CODE(aclblasHgemv(ACL_TRANS_N, 4, 4, NULL, NULL, 4, NULL, 1, NULL, NULL, 1,
                             ACL_COMPUTE_HIGH_PRECISION, NULL),
                ACL_ERROR_API_NOT_SUPPORT);
    EXPECT_CODE(aclblasS8gemv(ACL_TRANS_N, 4, 4, NULL, NULL, 4, NULL, 1, NULL, NULL, 1,
                              ACL_COMPUTE_HIGH_PRECISION, NULL),
                ACL_ERROR_API_NOT_SUPPORT);
    aclDestroyTensorDesc(td);
    aclopDestroyAttr(at);
    aclopDestroyAttr(at); /* twice: reported, not a crash */
  }
  /* Exception information: nothing failed, so no task is known; null infos read as ~0. */
  EXPECT_CODE(aclrtSetExceptionInfoCallback(NULL), ACL_SUCCESS);
  EXPECT_TRUE(aclrtGetTaskIdFromExceptionInfo(NULL) == 0xFFFFFFFFu);
  EXPECT_TRUE(aclrtGetStreamIdFromExceptionInfo(NULL) == 0xFFFFFFFFu);
  EXPECT_TRUE(aclrtGetThreadIdFromExceptionInfo(NULL) == 0xFFFFFFFFu);
  EXPECT_TRUE(aclrtGetDeviceIdFromExceptionInfo(NULL) == 0xFFFFFFFFu);
  EXPECT_TRUE(aclrtGetErrorCodeFromExceptionInfo(NULL) == 0xFFFFFFFFu);
  {
    char op[64];
    aclTensorDesc *ins = NULL, *outs = NULL;
    size_t nin = 0, nout = 0;
    EXPECT_CODE(aclmdlCreateAndGetOpDesc(0, 1, 99999, op, sizeof(op), &ins, &nin, &outs, &nout),
                ACL_ERROR_INVALID_PARAM);
    EXPECT_CODE(aclmdlCreateAndGetOpDesc(3, 1, 1, op, sizeof(op), &ins, &nin, &outs, &nout),
                ACL_ERROR_RT_INVALID_DEVICEID);
    EXPECT_CODE(aclmdlCreateAndGetOpDesc(0, 1, 1, NULL, 0, &ins, &nin, &outs, &nout),
                ACL_ERROR_INVALID_PARAM);
    EXPECT_TRUE(aclGetTensorDescByIndex(NULL, 0) == NULL);
    EXPECT_TRUE(aclGetTensorDescAddress(NULL) == NULL);
  }
  EXPECT_CODE(aclrtFree(NULL), ACL_ERROR_INVALID_PARAM);
  EXPECT_CODE(aclrtFree(host), ACL_ERROR_INVALID_PARAM); /* not from aclrtMalloc */
  EXPECT_CODE(aclrtFree(host_mem), ACL_ERROR_INVALID_PARAM);
  EXPECT_CODE(aclrtFreeHost(NULL), ACL_ERROR_INVALID_PARAM);
  EXPECT_CODE(aclrtFreeHost(dev_mem), ACL_ERROR_INVALID_PARAM);
  EXPECT_CODE(aclrtFree(p), ACL_SUCCESS);
  EXPECT_CODE(aclrtFree(p), ACL_ERROR_INVALID_PARAM); /* double free */
  EXPECT_CODE(aclrtFreeHost(host_mem), ACL_SUCCESS);
  EXPECT_CODE(aclrtFreeHost(host_mem), ACL_ERROR_INVALID_PARAM);

  /* ---- operator-compiler options (acl/acl_op_compiler.h) ---- */
  {
    char value[64];
    EXPECT_CODE(aclSetCompileopt(ACL_PRECISION_MODE, NULL), ACL_ERROR_INVALID_PARAM);
    EXPECT_CODE(aclSetCompileopt(ACL_PRECISION_MODE, "fp17"), ACL_ERROR_INVALID_PARAM);
    EXPECT_CODE(aclSetCompileopt((aclCompileOpt)99, "x"), ACL_ERROR_INVALID_PARAM);
    EXPECT_CODE(aclSetCompileopt(ACL_AICORE_NUM, "0"), ACL_ERROR_INVALID_PARAM);
    EXPECT_CODE(aclGetCompileopt(ACL_OP_DEBUG_OPTION, value, sizeof(value)),
                ACL_ERROR_INVALID_PARAM);
    EXPECT_CODE(aclSetCompileopt(ACL_PRECISION_MODE, "allow_fp32_to_fp16"), ACL_SUCCESS);
    EXPECT_TRUE(aclGetCompileoptSize(ACL_PRECISION_MODE) == strlen("allow_fp32_to_fp16") + 1);
    EXPECT_CODE(aclGetCompileopt(ACL_PRECISION_MODE, value, 4), ACL_ERROR_INVALID_PARAM);
    EXPECT_CODE(aclGetCompileopt(ACL_PRECISION_MODE, value, sizeof(value)), ACL_SUCCESS);
    EXPECT_TRUE(strcmp(value, "allow_fp32_to_fp16") == 0);
    EXPECT_CODE(aclSetCompileopt(ACL_OP_JIT_COMPILE, "disable"), ACL_SUCCESS);
    EXPECT_CODE(aclopSetCompileFlag(ACL_OP_COMPILE_FUZZ), ACL_SUCCESS);
    EXPECT_CODE(aclopSetCompileFlag((aclOpCompileFlag)7), ACL_ERROR_INVALID_PARAM);
    EXPECT_CODE(aclopCompile("Add", 0, NULL, 0, NULL, NULL, ACL_ENGINE_SYS, ACL_COMPILE_SYS, NULL),
                ACL_ERROR_INVALID_PARAM); /* no outputs */
    EXPECT_CODE(aclopCompileAndExecute("Add", 0, NULL, NULL, 0, NULL, NULL, NULL, ACL_ENGINE_SYS,
                                       ACL_COMPILE_SYS, NULL, NULL),
                ACL_ERROR_INVALID_PARAM);
    EXPECT_CODE(aclopCompileAndExecuteV2("Add", 0, NULL, NULL, 0, NULL, NULL, NULL, ACL_ENGINE_SYS,
                                         ACL_COMPILE_SYS, NULL, NULL),
                ACL_ERROR_INVALID_PARAM);
    {
      /* Compiled at run time (atc in a child process), then run: Relu on 4 floats. */
      int64_t d4[1] = {4};
      aclTensorDesc* rd = aclCreateTensorDesc(ACL_FLOAT, 1, d4, ACL_FORMAT_ND);
      const aclTensorDesc* rds[1] = {rd};
      const float rin[4] = {-1.5f, 2.0f, 0.0f, 3.25f};
      float rout[4] = {9, 9, 9, 9};
      void *rx = NULL, *ry = NULL;
      aclrtMalloc(&rx, 16, ACL_MEM_MALLOC_HUGE_FIRST);
      aclrtMalloc(&ry, 16, ACL_MEM_MALLOC_HUGE_FIRST);
      aclrtMemcpy(rx, 16, rin, 16, ACL_MEMCPY_HOST_TO_DEVICE);
      const aclDataBuffer* rbin[1] = {aclCreateDataBuffer(rx, 16)};
      aclDataBuffer* rbout[1] = {aclCreateDataBuffer(ry, 16)};
      EXPECT_CODE(aclopCompileAndExecute("Relu", 1, rds, rbin, 1, rds, rbout, NULL, ACL_ENGINE_SYS,
                                         ACL_COMPILE_SYS, NULL, NULL),
                  ACL_SUCCESS);
      aclrtMemcpy(rout, 16, ry, 16, ACL_MEMCPY_DEVICE_TO_HOST);
      EXPECT_TRUE(rout[0] == 0.0f && rout[1] == 2.0f && rout[2] == 0.0f && rout[3] == 3.25f);
      EXPECT_CODE(
          aclopCompile("NoSuchOp", 1, rds, 1, rds, NULL, ACL_ENGINE_SYS, ACL_COMPILE_SYS, NULL),
          ACL_ERROR_OP_NOT_FOUND);
      EXPECT_CODE(aclopCompile("Relu", 1, rds, 1, rds, NULL, ACL_ENGINE_SYS,
                               ACL_COMPILE_UNREGISTERED, "/some/path"),
                  ACL_ERROR_FEATURE_UNSUPPORTED);
      aclDestroyDataBuffer(rbin[0]);
      aclDestroyDataBuffer(rbout[0]);
      aclrtFree(rx);
      aclrtFree(ry);
      aclDestroyTensorDesc(rd);
    }
  }

  /* ---- streams, events, callbacks ---- */
  aclrtStream stream = NULL;
  aclrtEvent ev1 = NULL, ev2 = NULL;
  float ms = 0;
  EXPECT_CODE(aclrtCreateStream(NULL), ACL_ERROR_INVALID_PARAM);
  EXPECT_CODE(aclrtDestroyStream(NULL), ACL_ERROR_INVALID_PARAM);
  EXPECT_CODE(aclrtDestroyStream((aclrtStream)&count), ACL_ERROR_INVALID_PARAM);
  EXPECT_CODE(aclrtSynchronizeStream((aclrtStream)&count), ACL_ERROR_INVALID_PARAM);
  EXPECT_CODE(aclrtCreateStream(&stream), ACL_SUCCESS);
  EXPECT_CODE(aclrtSynchronizeStreamWithTimeout((aclrtStream)&count, 10), ACL_ERROR_INVALID_PARAM);
  EXPECT_CODE(aclrtSynchronizeStreamWithTimeout(stream, -2), ACL_ERROR_INVALID_PARAM);
  EXPECT_CODE(aclrtSynchronizeStreamWithTimeout(stream, 100), ACL_SUCCESS);
  EXPECT_CODE(aclrtSynchronizeStreamWithTimeout(stream, -1), ACL_SUCCESS);
  EXPECT_CODE(aclrtCreateEvent(NULL), ACL_ERROR_INVALID_PARAM);
  EXPECT_CODE(aclrtCreateEvent(&ev1), ACL_SUCCESS);
  EXPECT_CODE(aclrtCreateEvent(&ev2), ACL_SUCCESS);
  EXPECT_CODE(aclrtRecordEvent(NULL, stream), ACL_ERROR_INVALID_PARAM);
  EXPECT_CODE(aclrtRecordEvent(ev1, (aclrtStream)&count), ACL_ERROR_INVALID_PARAM);
  EXPECT_CODE(aclrtSynchronizeEvent(NULL), ACL_ERROR_INVALID_PARAM);
  EXPECT_CODE(aclrtEventElapsedTime(NULL, ev1, ev2), ACL_ERROR_INVALID_PARAM);
  EXPECT_CODE(aclrtEventElapsedTime(&ms, NULL, ev2), ACL_ERROR_INVALID_PARAM);
  EXPECT_CODE(aclrtEventElapsedTime(&ms, ev1, ev2),
              ACL_ERROR_RT_EVENT_TIMESTAMP_INVALID); /* not recorded */
  EXPECT_CODE(aclrtRecordEvent(ev1, stream), ACL_SUCCESS);
  EXPECT_CODE(aclrtRecordEvent(ev2, stream), ACL_SUCCESS);
  EXPECT_CODE(aclrtSynchronizeEvent(ev2), ACL_SUCCESS);
  EXPECT_CODE(aclrtEventElapsedTime(&ms, ev1, ev2), ACL_SUCCESS);
  EXPECT_CODE(aclrtDestroyEvent(NULL), ACL_ERROR_INVALID_PARAM);
  EXPECT_CODE(aclrtLaunchCallback(NULL, NULL, ACL_CALLBACK_BLOCK, stream), ACL_ERROR_INVALID_PARAM);
  EXPECT_CODE(aclrtLaunchCallback(Callback, NULL, ACL_CALLBACK_BLOCK, stream),
              ACL_ERROR_STREAM_NOT_SUBSCRIBE);
  EXPECT_CODE(aclrtProcessReport(10), ACL_ERROR_THREAD_NOT_SUBSCRIBE);
  EXPECT_CODE(aclrtProcessReport(-5), ACL_ERROR_INVALID_PARAM);
  EXPECT_CODE(aclrtSubscribeReport(1, NULL), ACL_ERROR_INVALID_PARAM);
  EXPECT_CODE(aclrtSubscribeReport(1, stream), ACL_SUCCESS);
  EXPECT_CODE(aclrtSubscribeReport(1, stream), ACL_ERROR_REPEAT_SUBSCRIBE);
  EXPECT_CODE(aclrtUnSubscribeReport(2, stream), ACL_ERROR_STREAM_NOT_SUBSCRIBE); /* other thread */
  EXPECT_CODE(aclrtUnSubscribeReport(1, NULL), ACL_ERROR_INVALID_PARAM);
  EXPECT_CODE(aclrtUnSubscribeReport(1, stream), ACL_SUCCESS);
  EXPECT_CODE(aclrtDestroyEvent(ev1), ACL_SUCCESS);
  EXPECT_CODE(aclrtDestroyEvent(ev2), ACL_SUCCESS);

  /* ---- data buffers and tensor descriptions ---- */
  int64_t dims4[4] = {1, 3, 8, 8}, d = 0;
  aclDataBuffer* buf = aclCreateDataBuffer(dev_mem, 64);
  EXPECT_TRUE(buf != NULL);
  EXPECT_TRUE(aclCreateDataBuffer(NULL, 64) == NULL || 1); /* CANN allows a null address */
  EXPECT_CODE(aclDestroyDataBuffer(NULL), ACL_ERROR_INVALID_PARAM);
  EXPECT_CODE(aclUpdateDataBuffer(NULL, dev_mem, 64), ACL_ERROR_INVALID_PARAM);
  EXPECT_CODE(aclUpdateDataBuffer(buf, dev_mem, 32), ACL_SUCCESS);
  EXPECT_TRUE(aclGetDataBufferAddr(NULL) == NULL);
  EXPECT_TRUE(aclGetDataBufferSize(NULL) == 0);
  EXPECT_TRUE(aclGetDataBufferSizeV2(NULL) == 0);
  EXPECT_TRUE(aclGetDataBufferSizeV2(buf) == 32);
  EXPECT_TRUE(aclDataTypeSize((aclDataType)99) == 0);
  EXPECT_TRUE(aclDataTypeSize(ACL_FLOAT16) == 2);
  EXPECT_TRUE(aclFloat16ToFloat(aclFloatToFloat16(1.5f)) == 1.5f);
  EXPECT_TRUE(aclCreateTensorDesc(ACL_FLOAT, 2, NULL, ACL_FORMAT_ND) == NULL);
  EXPECT_TRUE(aclCreateTensorDesc(ACL_FLOAT, -1, dims4, ACL_FORMAT_ND) == NULL);
  aclTensorDesc* td = aclCreateTensorDesc(ACL_FLOAT, 4, dims4, ACL_FORMAT_NCHW);
  EXPECT_TRUE(td != NULL);
  EXPECT_TRUE(aclGetTensorDescType(NULL) == ACL_DT_UNDEFINED);
  EXPECT_TRUE(aclGetTensorDescFormat(NULL) == ACL_FORMAT_UNDEFINED);
  EXPECT_TRUE(aclGetTensorDescSize(NULL) == 0);
  EXPECT_TRUE(aclGetTensorDescElementCount(NULL) == 0);
  EXPECT_TRUE(aclGetTensorDescNumDims(NULL) == 0);
  EXPECT_TRUE(aclGetTensorDescSize(td) == 192 * 4);
  EXPECT_TRUE(aclGetTensorDescElementCount(td) == 192);
  EXPECT_CODE(aclGetTensorDescDimV2(NULL, 0, &d), ACL_ERROR_INVALID_PARAM);
  EXPECT_CODE(aclGetTensorDescDimV2(td, 4, &d), ACL_ERROR_INVALID_PARAM);
  EXPECT_CODE(aclGetTensorDescDimV2(td, 0, NULL), ACL_ERROR_INVALID_PARAM);
  EXPECT_CODE(aclGetTensorDescDimV2(td, 3, &d), ACL_SUCCESS);
  EXPECT_TRUE(d == 8);
  aclDestroyTensorDesc(NULL); /* tolerated */

  /* ---- datasets ---- */
  aclmdlDataset* ds = aclmdlCreateDataset();
  EXPECT_CODE(aclmdlAddDatasetBuffer(NULL, buf), ACL_ERROR_INVALID_PARAM);
  EXPECT_CODE(aclmdlAddDatasetBuffer(ds, NULL), ACL_ERROR_INVALID_PARAM);
  EXPECT_TRUE(aclmdlGetDatasetNumBuffers(NULL) == 0);
  EXPECT_TRUE(aclmdlGetDatasetBuffer(ds, 0) == NULL);
  EXPECT_CODE(aclmdlAddDatasetBuffer(ds, buf), ACL_SUCCESS);
  EXPECT_TRUE(aclmdlGetDatasetBuffer(ds, 1) == NULL);
  EXPECT_TRUE(aclmdlGetDatasetBuffer(NULL, 0) == NULL);
  EXPECT_CODE(aclmdlSetDatasetTensorDesc(NULL, td, 0), ACL_ERROR_INVALID_PARAM);
  EXPECT_CODE(aclmdlSetDatasetTensorDesc(ds, NULL, 0), ACL_ERROR_INVALID_PARAM);
  EXPECT_CODE(aclmdlSetDatasetTensorDesc(ds, td, 5), ACL_ERROR_INVALID_PARAM);
  EXPECT_CODE(aclmdlSetDatasetTensorDesc(ds, td, 0), ACL_SUCCESS);
  EXPECT_TRUE(aclmdlGetDatasetTensorDesc(ds, 0) != NULL);
  EXPECT_TRUE(aclmdlGetDatasetTensorDesc(ds, 3) == NULL);
  EXPECT_TRUE(aclmdlGetDatasetTensorDesc(NULL, 0) == NULL);
  aclDestroyTensorDesc(td);
  EXPECT_CODE(aclmdlDestroyDataset(NULL), ACL_ERROR_INVALID_PARAM);

  /* ---- models ---- */
  EXPECT_CODE(aclmdlLoadFromFile(NULL, &id), ACL_ERROR_INVALID_PARAM);
  EXPECT_CODE(aclmdlLoadFromFile(om, NULL), ACL_ERROR_INVALID_PARAM);
  EXPECT_CODE(aclmdlLoadFromFile("/nonexistent.om", &id), ACL_ERROR_READ_MODEL_FAILURE);
  EXPECT_CODE(aclmdlLoadFromMem(NULL, 10, &id), ACL_ERROR_INVALID_PARAM);
  EXPECT_CODE(aclmdlLoadFromMem(host, 0, &id), ACL_ERROR_INVALID_PARAM);
  memset(host, 0x5a, sizeof(host));
  EXPECT_CODE(aclmdlLoadFromMem(host, sizeof(host), &id), ACL_ERROR_PARSE_MODEL);
  EXPECT_CODE(aclmdlQuerySize(NULL, &work, &weight), ACL_ERROR_INVALID_PARAM);
  EXPECT_CODE(aclmdlQuerySize(om, NULL, &weight), ACL_ERROR_INVALID_PARAM);
  EXPECT_CODE(aclmdlQuerySize("/nonexistent.om", &work, &weight), ACL_ERROR_READ_MODEL_FAILURE);
  EXPECT_CODE(aclmdlQuerySizeFromMem(NULL, 10, &work, &weight), ACL_ERROR_INVALID_PARAM);
  EXPECT_CODE(aclmdlQuerySizeFromMem(host, sizeof(host), &work, &weight), ACL_ERROR_PARSE_MODEL);
  EXPECT_CODE(aclmdlQuerySize(om, &work, &weight), ACL_SUCCESS);
  EXPECT_CODE(aclmdlLoadFromFileWithMem(om, &id, host, work, NULL, 0),
              ACL_ERROR_INVALID_PARAM); /* work memory must be device memory */
  EXPECT_CODE(aclmdlLoadFromFileWithMem(NULL, &id, NULL, 0, NULL, 0), ACL_ERROR_INVALID_PARAM);
  EXPECT_CODE(aclmdlLoadFromMemWithMem(NULL, 0, &id, NULL, 0, NULL, 0), ACL_ERROR_INVALID_PARAM);
  EXPECT_CODE(aclmdlLoadFromMemWithMem(host, sizeof(host), &id, NULL, 0, NULL, 0),
              ACL_ERROR_PARSE_MODEL);
  void* small_work = NULL;
  EXPECT_CODE(aclrtMalloc(&small_work, 1, ACL_MEM_MALLOC_HUGE_FIRST), ACL_SUCCESS);
  if (work > 1)
    EXPECT_CODE(aclmdlLoadFromFileWithMem(om, &id, small_work, 1, NULL, 0),
                ACL_ERROR_INVALID_PARAM); /* smaller than aclmdlQuerySize says */
  aclrtFree(small_work);
  EXPECT_CODE(aclmdlUnload(12345), ACL_ERROR_INVALID_MODEL_ID);

  /* ---- descriptions ---- */
  aclmdlDesc* desc = aclmdlCreateDesc();
  aclmdlIODims io;
  aclmdlBatch batch;
  memset(&io, 0, sizeof(io));
  aclmdlHW hw;
  size_t gear_count = 9;
  EXPECT_CODE(aclmdlGetDesc(NULL, 1), ACL_ERROR_INVALID_PARAM);
  EXPECT_CODE(aclmdlGetDesc(desc, 12345), ACL_ERROR_INVALID_MODEL_ID);
  /* An empty description answers 0, null or an error. */
  EXPECT_TRUE(aclmdlGetNumInputs(desc) == 0 && aclmdlGetNumOutputs(NULL) == 0);
  EXPECT_TRUE(aclmdlGetNumInputs(NULL) == 0 && aclmdlGetNumOutputs(desc) == 0);
  EXPECT_TRUE(aclmdlGetInputSizeByIndex(desc, 0) == 0 && aclmdlGetOutputSizeByIndex(NULL, 0) == 0);
  EXPECT_TRUE(aclmdlGetOutputSizeByIndex(desc, 0) == 0);
  EXPECT_CODE(aclmdlGetInputDims(desc, 0, &io), ACL_ERROR_INVALID_PARAM);
  EXPECT_CODE(aclmdlGetInputDimsV2(NULL, 0, &io), ACL_ERROR_INVALID_PARAM);
  EXPECT_CODE(aclmdlGetOutputDims(desc, 0, NULL), ACL_ERROR_INVALID_PARAM);
  EXPECT_CODE(aclmdlGetCurOutputDims(desc, 0, &io), ACL_ERROR_INVALID_PARAM);
  EXPECT_TRUE(strcmp(aclmdlGetInputNameByIndex(desc, 0), "") == 0);
  EXPECT_TRUE(strcmp(aclmdlGetOutputNameByIndex(NULL, 0), "") == 0);
  EXPECT_TRUE(aclmdlGetInputFormat(desc, 0) == ACL_FORMAT_UNDEFINED);
  EXPECT_TRUE(aclmdlGetOutputFormat(NULL, 0) == ACL_FORMAT_UNDEFINED);
  EXPECT_TRUE(aclmdlGetInputDataType(desc, 0) == ACL_DT_UNDEFINED);
  EXPECT_TRUE(aclmdlGetOutputDataType(NULL, 0) == ACL_DT_UNDEFINED);
  EXPECT_CODE(aclmdlGetInputIndexByName(desc, NULL, &idx), ACL_ERROR_INVALID_PARAM);
  EXPECT_CODE(aclmdlGetOutputIndexByName(desc, "y", NULL), ACL_ERROR_INVALID_PARAM);
  EXPECT_CODE(aclmdlGetDynamicBatch(desc, &batch), ACL_ERROR_INVALID_PARAM);
  EXPECT_CODE(aclmdlGetDynamicHW(NULL, 0, &hw), ACL_ERROR_INVALID_PARAM);
  EXPECT_CODE(aclmdlGetInputDynamicGearCount(desc, (size_t)-1, NULL), ACL_ERROR_INVALID_PARAM);
  EXPECT_CODE(aclmdlGetInputDynamicDims(desc, (size_t)-1, &io, 1), ACL_ERROR_INVALID_PARAM);

  /* A static model: gears calls say it is not dynamic. */
  EXPECT_CODE(aclmdlLoadFromFile(om, &id), ACL_SUCCESS);
  EXPECT_CODE(aclmdlGetDesc(desc, id), ACL_SUCCESS);
  EXPECT_CODE(aclmdlGetInputDims(desc, 99, &io), ACL_ERROR_INVALID_PARAM);
  EXPECT_CODE(aclmdlGetOutputDims(desc, 99, &io), ACL_ERROR_INVALID_PARAM);
  EXPECT_CODE(aclmdlGetInputIndexByName(desc, "no_such_input", &idx), ACL_ERROR_INVALID_PARAM);
  EXPECT_CODE(aclmdlGetOutputIndexByName(desc, "no_such_output", &idx), ACL_ERROR_INVALID_PARAM);
  EXPECT_CODE(aclmdlGetDynamicBatch(desc, &batch), ACL_SUCCESS);
  EXPECT_TRUE(batch.batchCount == 0);
  EXPECT_CODE(aclmdlGetDynamicHW(desc, (size_t)-1, &hw), ACL_SUCCESS);
  EXPECT_TRUE(hw.hwCount == 0);
  EXPECT_CODE(aclmdlGetInputDynamicGearCount(desc, (size_t)-1, &gear_count), ACL_SUCCESS);
  EXPECT_TRUE(gear_count == 0);
  EXPECT_CODE(aclmdlGetInputDynamicDims(desc, (size_t)-1, &io, 1), ACL_SUCCESS);
  EXPECT_CODE(aclmdlSetDynamicBatchSize(id, ds, 0, 1), ACL_ERROR_MODEL_NOT_DYNAMIC);
  EXPECT_CODE(aclmdlSetDynamicHWSize(id, ds, 0, 8, 8), ACL_ERROR_MODEL_NOT_DYNAMIC);
  EXPECT_CODE(aclmdlSetInputDynamicDims(id, ds, 0, &io), ACL_ERROR_MODEL_NOT_DYNAMIC);
  EXPECT_CODE(aclmdlSetInputDynamicDims(id, ds, 0, NULL), ACL_ERROR_INVALID_PARAM);
  /* AIPP queries: a model without AIPP, bad ids, indexes and pointers. */
  {
    aclmdlInputAippType aipp_type = ACL_DYNAMIC_AIPP_NODE;
    size_t attached = 0;
    aclAippInfo aipp_info;
    EXPECT_CODE(aclmdlGetAippType(id, 0, &aipp_type, &attached), ACL_SUCCESS);
    EXPECT_TRUE(aipp_type == ACL_DATA_WITHOUT_AIPP && attached == ACL_INVALID_NODE_INDEX);
    EXPECT_CODE(aclmdlGetAippType(id, 99, &aipp_type, &attached), ACL_ERROR_INVALID_PARAM);
    EXPECT_CODE(aclmdlGetAippType(424242, 0, &aipp_type, &attached), ACL_ERROR_INVALID_MODEL_ID);
    EXPECT_CODE(aclmdlGetAippType(id, 0, NULL, &attached), ACL_ERROR_INVALID_PARAM);
    EXPECT_CODE(aclmdlGetFirstAippInfo(id, 0, &aipp_info), ACL_ERROR_NOT_STATIC_AIPP);
    EXPECT_CODE(aclmdlGetFirstAippInfo(id, 0, NULL), ACL_ERROR_INVALID_PARAM);
    EXPECT_CODE(aclmdlGetFirstAippInfo(424242, 0, &aipp_info), ACL_ERROR_INVALID_MODEL_ID);
  }
  /* Dynamic AIPP parameter sets: bad batch sizes, indexes, switches; a model without it. */
  {
    size_t aipp_size = 0;
    aclmdlAIPP* aipp = aclmdlCreateAIPP(2);
    EXPECT_TRUE(aipp != NULL);
    EXPECT_TRUE(aclmdlCreateAIPP(0) == NULL);
    EXPECT_TRUE(aclmdlCreateAIPP(1000) == NULL);
    EXPECT_CODE(aclmdlGetAippDataSize(2, &aipp_size), ACL_SUCCESS);
    EXPECT_TRUE(aipp_size == 64 + 2 * 96);
    EXPECT_CODE(aclmdlGetAippDataSize(0, &aipp_size), ACL_ERROR_INVALID_PARAM);
    EXPECT_CODE(aclmdlGetAippDataSize(1, NULL), ACL_ERROR_INVALID_PARAM);
    EXPECT_CODE(aclmdlSetAIPPInputFormat(aipp, ACL_RGB888_U8), ACL_SUCCESS);
    EXPECT_CODE(aclmdlSetAIPPInputFormat(aipp, (aclAippInputFormat)77), ACL_ERROR_INVALID_PARAM);
    EXPECT_CODE(aclmdlSetAIPPInputFormat(NULL, ACL_RGB888_U8), ACL_ERROR_INVALID_PARAM);
    EXPECT_CODE(aclmdlSetAIPPCscParams(aipp, 2, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0),
                ACL_ERROR_INVALID_PARAM);
    EXPECT_CODE(aclmdlSetAIPPCscParams(NULL, 1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0),
                ACL_ERROR_INVALID_PARAM);
    EXPECT_CODE(aclmdlSetAIPPRbuvSwapSwitch(aipp, 3), ACL_ERROR_INVALID_PARAM);
    EXPECT_CODE(aclmdlSetAIPPAxSwapSwitch(NULL, 0), ACL_ERROR_INVALID_PARAM);
    EXPECT_CODE(aclmdlSetAIPPSrcImageSize(aipp, 0, 8), ACL_ERROR_INVALID_PARAM);
    EXPECT_CODE(aclmdlSetAIPPSrcImageSize(aipp, 16, 8), ACL_SUCCESS);
    EXPECT_CODE(aclmdlSetAIPPScfParams(aipp, 1, 16, 8, 8, 4, 0), ACL_ERROR_FEATURE_UNSUPPORTED);
    EXPECT_CODE(aclmdlSetAIPPScfParams(aipp, 0, 0, 0, 0, 0, 2), ACL_ERROR_INVALID_PARAM);
    EXPECT_CODE(aclmdlSetAIPPCropParams(aipp, 1, 0, 0, 8, 4, 5), ACL_ERROR_INVALID_PARAM);
    EXPECT_CODE(aclmdlSetAIPPCropParams(aipp, 1, -1, 0, 8, 4, 0), ACL_ERROR_INVALID_PARAM);
    EXPECT_CODE(aclmdlSetAIPPPaddingParams(aipp, 1, 40, 0, 0, 0, 0), ACL_ERROR_INVALID_PARAM);
    EXPECT_CODE(aclmdlSetAIPPDtcPixelMean(aipp, 1, 2, 3, 4, 9), ACL_ERROR_INVALID_PARAM);
    EXPECT_CODE(aclmdlSetAIPPDtcPixelMin(NULL, 0, 0, 0, 0, 0), ACL_ERROR_INVALID_PARAM);
    EXPECT_CODE(aclmdlSetAIPPPixelVarReci(aipp, 1, 1, 1, 1, 2), ACL_ERROR_INVALID_PARAM);
    /* This model has no dynamic AIPP: neither input form accepts the parameters. */
    EXPECT_CODE(aclmdlSetInputAIPP(id, ds, 0, aipp), ACL_ERROR_INVALID_PARAM);
    EXPECT_CODE(aclmdlSetAIPPByInputIndex(id, ds, 0, aipp), ACL_ERROR_INVALID_PARAM);
    EXPECT_CODE(aclmdlSetInputAIPP(424242, ds, 0, aipp), ACL_ERROR_INVALID_MODEL_ID);
    EXPECT_CODE(aclmdlSetInputAIPP(id, NULL, 0, aipp), ACL_ERROR_INVALID_PARAM);
    EXPECT_CODE(aclmdlSetAIPPByInputIndex(id, ds, 0, NULL), ACL_ERROR_INVALID_PARAM);
    EXPECT_CODE(aclmdlDestroyAIPP(aipp), ACL_SUCCESS);
    EXPECT_CODE(aclmdlDestroyAIPP(NULL), ACL_ERROR_INVALID_PARAM);
  }
  EXPECT_CODE(aclmdlSetDynamicBatchSize(12345, ds, 0, 1), ACL_ERROR_INVALID_MODEL_ID);

  /* Execution with wrong datasets. */
  EXPECT_CODE(aclmdlExecute(id, NULL, ds), ACL_ERROR_INVALID_PARAM);
  EXPECT_CODE(aclmdlExecute(id, ds, NULL), ACL_ERROR_INVALID_PARAM);
  EXPECT_CODE(aclmdlExecute(12345, ds, ds), ACL_ERROR_INVALID_MODEL_ID);
  aclmdlDataset* empty = aclmdlCreateDataset();
  EXPECT_CODE(aclmdlExecute(id, empty, empty), ACL_ERROR_INVALID_PARAM); /* buffer count */
  EXPECT_CODE(aclmdlExecuteAsync(id, empty, empty, (aclrtStream)&count), ACL_ERROR_INVALID_PARAM);
  EXPECT_CODE(aclmdlExecuteAsync(12345, ds, ds, stream), ACL_ERROR_INVALID_MODEL_ID);
  {
    /* A queued execution that fails (a 4-byte input) reaches the exception callback; its
     * tensors come back from aclmdlCreateAndGetOpDesc with their addresses. */
    void* small = NULL;
    EXPECT_CODE(aclrtMalloc(&small, 4, ACL_MEM_MALLOC_HUGE_FIRST), ACL_SUCCESS);
    aclmdlDataset *bad_in = aclmdlCreateDataset(), *bad_out = aclmdlCreateDataset();
    aclDataBuffer* sb = aclCreateDataBuffer(small, 4);
    aclmdlAddDatasetBuffer(bad_in, sb);
    EXPECT_CODE(aclrtSetExceptionInfoCallback(OnException), ACL_SUCCESS);
    EXPECT_CODE(aclmdlExecuteAsync(id, bad_in, bad_out, stream), ACL_SUCCESS);
    EXPECT_TRUE(aclrtSynchronizeStream(stream) != ACL_SUCCESS);
    EXPECT_TRUE(g_exc_calls == 1 && g_exc_stream > 0 && g_exc_task > 0 &&
                g_exc_error == ACL_ERROR_INVALID_PARAM);
    char op[64];
    aclTensorDesc *ins = NULL, *outs = NULL;
    size_t nin = 0, nout = 0;
    EXPECT_CODE(aclmdlCreateAndGetOpDesc(0, g_exc_stream, g_exc_task, op, sizeof(op), &ins, &nin,
                                         &outs, &nout),
                ACL_SUCCESS);
    EXPECT_TRUE(nin == 1 && nout == 0 && ins != NULL && outs == NULL);
    EXPECT_TRUE(aclGetTensorDescAddress(aclGetTensorDescByIndex(ins, 0)) == small);
    EXPECT_TRUE(aclGetTensorDescByIndex(ins, 1) == NULL);
    aclDestroyTensorDesc(ins);
    EXPECT_TRUE(aclGetTensorDescAddress(ins) == NULL); /* the array is gone */
    EXPECT_CODE(aclrtSetExceptionInfoCallback(NULL), ACL_SUCCESS);
    aclDestroyDataBuffer(sb);
    aclmdlDestroyDataset(bad_in);
    aclmdlDestroyDataset(bad_out);
    EXPECT_CODE(aclrtFree(small), ACL_SUCCESS);
  }
  {
    /* Host memory where device memory is required; then buffers too small. */
    size_t n_in = aclmdlGetNumInputs(desc), n_out = aclmdlGetNumOutputs(desc), i;
    aclmdlDataset *in = aclmdlCreateDataset(), *out = aclmdlCreateDataset();
    static char host_big[1 << 16];
    for (i = 0; i < n_in; ++i)
      aclmdlAddDatasetBuffer(in, aclCreateDataBuffer(host_big, aclmdlGetInputSizeByIndex(desc, i)));
    for (i = 0; i < n_out; ++i)
      aclmdlAddDatasetBuffer(out,
                             aclCreateDataBuffer(host_big, aclmdlGetOutputSizeByIndex(desc, i)));
    EXPECT_CODE(aclmdlExecute(id, in, out), ACL_ERROR_INVALID_PARAM);
    void* tiny = NULL;
    aclrtMalloc(&tiny, 4, ACL_MEM_MALLOC_HUGE_FIRST);
    for (i = 0; i < n_in; ++i) aclUpdateDataBuffer(aclmdlGetDatasetBuffer(in, i), tiny, 4);
    for (i = 0; i < n_out; ++i) aclUpdateDataBuffer(aclmdlGetDatasetBuffer(out, i), tiny, 4);
    EXPECT_CODE(aclmdlExecute(id, in, out), ACL_ERROR_INVALID_PARAM);
    for (i = 0; i < n_in; ++i) aclDestroyDataBuffer(aclmdlGetDatasetBuffer(in, i));
    for (i = 0; i < n_out; ++i) aclDestroyDataBuffer(aclmdlGetDatasetBuffer(out, i));
    aclmdlDestroyDataset(in);
    aclmdlDestroyDataset(out);
    aclrtFree(tiny);
  }
  EXPECT_CODE(aclmdlUnload(id), ACL_SUCCESS);
  EXPECT_CODE(aclmdlUnload(id), ACL_ERROR_INVALID_MODEL_ID);          /* twice */
  EXPECT_CODE(aclmdlExecute(id, ds, ds), ACL_ERROR_INVALID_MODEL_ID); /* after unload */

  /* A model with batch gears: wrong index, gear, setter and buffer. */
  uint32_t gid = 0;
  EXPECT_CODE(aclmdlLoadFromFile(gears_om, &gid), ACL_SUCCESS);
  EXPECT_CODE(aclmdlGetDesc(desc, gid), ACL_SUCCESS);
  EXPECT_CODE(aclmdlGetInputIndexByName(desc, ACL_DYNAMIC_TENSOR_NAME, &idx), ACL_SUCCESS);
  EXPECT_CODE(aclmdlGetDynamicBatch(desc, NULL), ACL_ERROR_INVALID_PARAM);
  EXPECT_CODE(aclmdlGetDynamicBatch(desc, &batch), ACL_SUCCESS);
  EXPECT_TRUE(batch.batchCount >= 2);
  {
    aclmdlDataset* in = aclmdlCreateDataset();
    void *small = NULL, *ok = NULL;
    size_t i;
    aclrtMalloc(&small, 4, ACL_MEM_MALLOC_HUGE_FIRST);
    aclrtMalloc(&ok, 8, ACL_MEM_MALLOC_HUGE_FIRST);
    EXPECT_CODE(aclmdlSetDynamicBatchSize(gid, in, idx, batch.batch[0]),
                ACL_ERROR_GE_DYNAMIC_INPUT_ADDR_INVALID); /* no buffer at idx */
    for (i = 0; i <= idx; ++i) aclmdlAddDatasetBuffer(in, aclCreateDataBuffer(small, 4));
    EXPECT_CODE(aclmdlSetDynamicBatchSize(gid, in, idx, batch.batch[0]),
                ACL_ERROR_GE_DYNAMIC_INPUT_LENGTH_INVALID);
    aclUpdateDataBuffer(aclmdlGetDatasetBuffer(in, idx), ok, 8);
    EXPECT_CODE(aclmdlSetDynamicBatchSize(gid, in, idx + 1, batch.batch[0]),
                ACL_ERROR_INVALID_PARAM);
    EXPECT_CODE(aclmdlSetDynamicBatchSize(gid, NULL, idx, batch.batch[0]), ACL_ERROR_INVALID_PARAM);
    EXPECT_CODE(aclmdlSetDynamicBatchSize(gid, in, idx, 1000),
                ACL_ERROR_GE_DYNAMIC_BATCH_SIZE_INVALID);
    EXPECT_CODE(aclmdlSetDynamicHWSize(gid, in, idx, 8, 8), ACL_ERROR_MODEL_NOT_DYNAMIC);
    EXPECT_CODE(aclmdlSetDynamicBatchSize(gid, in, idx, batch.batch[0]), ACL_SUCCESS);
    for (i = 0; i <= idx; ++i) aclDestroyDataBuffer(aclmdlGetDatasetBuffer(in, i));
    aclmdlDestroyDataset(in);
    aclrtFree(small);
    aclrtFree(ok);
  }
  EXPECT_CODE(aclmdlUnload(gid), ACL_SUCCESS);
  EXPECT_CODE(aclmdlDestroyDesc(NULL), ACL_ERROR_INVALID_PARAM);
  EXPECT_CODE(aclmdlDestroyDesc(desc), ACL_SUCCESS);

  /* ---- the tables: bad handles, sizes and memory; descriptions; blocking callbacks ---- */
  RunTables(om);

  /* ---- teardown, then wrong order again ---- */
  EXPECT_CODE(aclmdlDestroyDataset(empty), ACL_SUCCESS);
  EXPECT_CODE(aclmdlDestroyDataset(ds), ACL_SUCCESS);
  EXPECT_CODE(aclDestroyDataBuffer(buf), ACL_SUCCESS);
  EXPECT_CODE(aclrtDestroyStream(stream), ACL_SUCCESS);
  EXPECT_CODE(aclrtDestroyStream(stream), ACL_ERROR_INVALID_PARAM); /* twice */
  EXPECT_CODE(aclrtFree(dev_mem), ACL_SUCCESS);
  EXPECT_CODE(aclrtDestroyContext(ctx), ACL_SUCCESS);
  EXPECT_CODE(aclrtResetDevice(0), ACL_SUCCESS);
  EXPECT_CODE(aclrtSetDevice(0), ACL_SUCCESS); /* a context current when aclFinalize comes */
  EXPECT_CODE(aclFinalize(), ACL_SUCCESS);
  EXPECT_CODE(aclFinalize(), ACL_ERROR_REPEAT_FINALIZE);
  EXPECT_CODE(aclrtSetDevice(0), ACL_ERROR_UNINITIALIZE);
  /* aclFinalize took the contexts with it: initialised again, the thread has none. */
  if (aclInit(NULL) == ACL_SUCCESS) {
    void* after = NULL;
    EXPECT_CODE(aclrtMalloc(&after, 64, ACL_MEM_MALLOC_HUGE_FIRST), ACL_ERROR_RT_CONTEXT_NULL);
    EXPECT_CODE(aclrtSetDevice(0), ACL_SUCCESS);
    EXPECT_CODE(aclrtMalloc(&after, 64, ACL_MEM_MALLOC_HUGE_FIRST), ACL_SUCCESS);
    EXPECT_CODE(aclrtFree(after), ACL_SUCCESS);
    EXPECT_CODE(aclrtResetDevice(0), ACL_SUCCESS);
    EXPECT_CODE(aclFinalize(), ACL_SUCCESS);
  }

  printf("%d checks, %d failures\n", checks, failures);
  return failures ? 1 : 0;
}
