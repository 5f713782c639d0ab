// Exceptions of asynchronous work: a failed execution on a stream is handed to the callback
// aclrtSetExceptionInfoCallback registered, and its tensors stay available to
// aclmdlCreateAndGetOpDesc, as msame uses them to dump the failing task's data.
#include <algorithm>
#include <cstring>
#include <deque>
#include <mutex>

#include "acl/acl_state.h"

struct rtExceptionInfo {
  uint32_t task_id, stream_id, thread_id, device_id, error;
};

using oc::acl::Fail;

namespace {
std::mutex g_mutex;
aclrtExceptionInfoCallback g_callback = nullptr;
std::deque<oc::acl::FailedTask> g_failed;  // the latest failures, newest last
constexpr size_t kKept = 64;
constexpr const char* kExceptionInfo = "aclrtExceptionInfo";

aclTensorDesc* MakeArray(const std::vector<aclTensorDesc>& descs) {
  if (descs.empty()) return nullptr;
  auto* a = new aclTensorDesc[descs.size()];
  for (size_t i = 0; i < descs.size(); ++i) {
    a[i] = descs[i];
    a[i].array_size = i == 0 ? descs.size() : 0;
    oc::acl::AddHandle(&a[i],
                       i == 0 ? oc::acl::kTensorDescArray : oc::acl::kTensorDescArrayElement);
  }
  return a;
}
}  // namespace

namespace oc::acl {

void ReportFailedTask(FailedTask task) {
  aclrtExceptionInfoCallback cb;
  rtExceptionInfo info{task.task_id, task.stream_id, task.thread_id, 0, task.error};
  {
    std::lock_guard<std::mutex> lock(g_mutex);
    cb = g_callback;
    g_failed.push_back(std::move(task));
    if (g_failed.size() > kKept) g_failed.pop_front();
  }
  if (!cb) return;
  // Live for the callback's duration: the getters refuse anything else (a made-up pointer,
  // one kept past the callback).
  AddHandle(&info, kExceptionInfo);
  cb(&info);
  DropHandle(&info, kExceptionInfo);
}

// aclDestroyTensorDesc's part for arrays: frees the array that `head` starts (the caller
// holds WriteHandles()).
bool DestroyTensorDescArray(const aclTensorDesc* head) {
  if (!DropHandle(head, kTensorDescArray)) return false;
  for (size_t i = 1; i < head->array_size; ++i) DropHandle(&head[i], kTensorDescArrayElement);
  delete[] head;
  return true;
}

}  // namespace oc::acl

extern "C" {

aclError aclrtSetExceptionInfoCallback(aclrtExceptionInfoCallback callback) {
  std::lock_guard<std::mutex> lock(g_mutex);
  g_callback = callback;
  return ACL_SUCCESS;
}

#define OC_EXCEPTION_FIELD(fn, field)                     \
  uint32_t fn(const aclrtExceptionInfo* info) {           \
    if (!oc::acl::IsHandleKind(info, kExceptionInfo)) {   \
      Fail(ACL_ERROR_INVALID_PARAM, #fn                   \
           ": info is null or not the one the exception " \
           "callback received");                          \
      return 0xFFFFFFFFu;                                 \
    }                                                     \
    return info->field;                                   \
  }
OC_EXCEPTION_FIELD(aclrtGetTaskIdFromExceptionInfo, task_id)
OC_EXCEPTION_FIELD(aclrtGetStreamIdFromExceptionInfo, stream_id)
OC_EXCEPTION_FIELD(aclrtGetThreadIdFromExceptionInfo, thread_id)
OC_EXCEPTION_FIELD(aclrtGetDeviceIdFromExceptionInfo, device_id)
OC_EXCEPTION_FIELD(aclrtGetErrorCodeFromExceptionInfo, error)
#undef OC_EXCEPTION_FIELD

aclError aclmdlCreateAndGetOpDesc(uint32_t deviceId, uint32_t streamId, uint32_t taskId,
                                  char* opName, size_t opNameLen, aclTensorDesc** inputDesc,
                                  size_t* numInputs, aclTensorDesc** outputDesc,
                                  size_t* numOutputs) {
  OC_ACL_CHECK_NULL(opName);
  OC_ACL_CHECK_NULL(inputDesc);
  OC_ACL_CHECK_NULL(numInputs);
  OC_ACL_CHECK_NULL(outputDesc);
  OC_ACL_CHECK_NULL(numOutputs);
  if (deviceId != 0)
    return Fail(ACL_ERROR_RT_INVALID_DEVICEID, "aclmdlCreateAndGetOpDesc: device " +
                                                   std::to_string(deviceId) +
                                                   " is invalid; the emulation has device 0");
  if (opNameLen == 0)
    return Fail(ACL_ERROR_INVALID_PARAM, "aclmdlCreateAndGetOpDesc: opNameLen is 0");
  std::lock_guard<std::mutex> lock(g_mutex);
  for (auto it = g_failed.rbegin(); it != g_failed.rend(); ++it) {
    if (it->stream_id != streamId || it->task_id != taskId) continue;
    // The name and its terminator, cut to opNameLen: only those bytes are written.
    const size_t n = std::min(it->op_name.size(), opNameLen - 1);
    OC_ACL_CHECK_OUT(opName, n + 1);
    std::memcpy(opName, it->op_name.data(), n);
    opName[n] = '\0';
    *inputDesc = MakeArray(it->inputs);
    *numInputs = it->inputs.size();
    *outputDesc = MakeArray(it->outputs);
    *numOutputs = it->outputs.size();
    return ACL_SUCCESS;
  }
  return Fail(ACL_ERROR_INVALID_PARAM, "aclmdlCreateAndGetOpDesc: no failed task " +
                                           std::to_string(taskId) + " on stream " +
                                           std::to_string(streamId) + " is known");
}

aclTensorDesc* aclGetTensorDescByIndex(aclTensorDesc* desc, size_t index) {
  auto read = oc::acl::ReadHandles();
  if (!oc::acl::IsHandleKind(desc, oc::acl::kTensorDescArray)) {
    Fail(ACL_ERROR_INVALID_PARAM,
         "aclGetTensorDescByIndex: desc is not an array made by aclmdlCreateAndGetOpDesc");
    return nullptr;
  }
  if (index >= desc->array_size) {
    Fail(ACL_ERROR_INVALID_PARAM, "aclGetTensorDescByIndex: index " + std::to_string(index) +
                                      " is past the " + std::to_string(desc->array_size) +
                                      " descriptions");
    return nullptr;
  }
  return desc + index;
}

void* aclGetTensorDescAddress(const aclTensorDesc* desc) {
  auto read = oc::acl::ReadHandles();
  if (oc::acl::CheckLive(desc, "desc", __func__)) return nullptr;
  return desc->address;
}

}  // extern "C"
