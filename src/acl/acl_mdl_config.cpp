// Loading through a configuration handle (aclmdlLoadWithConfig): the options name one of the
// load calls and its arguments, and the load is that call's.
#include <cstring>
#include <map>
#include <string>

#include "acl/acl.h"
#include "acl/acl_state.h"

using oc::acl::Fail;

struct aclmdlConfigHandle {
  std::map<int, std::string> values;  // option -> its bytes, as given
  std::map<std::string, std::pair<void*, size_t>> external_weights;
};

namespace {

enum class OptionKind { kInt32, kSize, kPointer };

struct Option {
  aclmdlConfigAttr attr;
  const char* name;
  OptionKind kind;
};

// The options this runtime acts on. The others (queues, precompiled tasks and kernels, FIFO
// and graph-less models) belong to loads OpenCANN does not have: refused by name.
const Option kOptions[] = {
    {ACL_MDL_PRIORITY_INT32, "ACL_MDL_PRIORITY_INT32", OptionKind::kInt32},
    {ACL_MDL_LOAD_TYPE_SIZET, "ACL_MDL_LOAD_TYPE_SIZET", OptionKind::kSize},
    {ACL_MDL_PATH_PTR, "ACL_MDL_PATH_PTR", OptionKind::kPointer},
    {ACL_MDL_MEM_ADDR_PTR, "ACL_MDL_MEM_ADDR_PTR", OptionKind::kPointer},
    {ACL_MDL_MEM_SIZET, "ACL_MDL_MEM_SIZET", OptionKind::kSize},
    {ACL_MDL_WEIGHT_ADDR_PTR, "ACL_MDL_WEIGHT_ADDR_PTR", OptionKind::kPointer},
    {ACL_MDL_WEIGHT_SIZET, "ACL_MDL_WEIGHT_SIZET", OptionKind::kSize},
    {ACL_MDL_WORKSPACE_ADDR_PTR, "ACL_MDL_WORKSPACE_ADDR_PTR", OptionKind::kPointer},
    {ACL_MDL_WORKSPACE_SIZET, "ACL_MDL_WORKSPACE_SIZET", OptionKind::kSize},
    {ACL_MDL_WEIGHT_PATH_PTR, "ACL_MDL_WEIGHT_PATH_PTR", OptionKind::kPointer},
};

const Option* FindOption(int attr) {
  for (const auto& o : kOptions)
    if (o.attr == attr) return &o;
  return nullptr;
}

size_t SizeOf(OptionKind k) {
  return k == OptionKind::kInt32  ? sizeof(int32_t)
         : k == OptionKind::kSize ? sizeof(size_t)
                                  : sizeof(void*);
}

template <typename T>
bool Get(const aclmdlConfigHandle* h, aclmdlConfigAttr attr, T* out) {
  auto it = h->values.find(attr);
  if (it == h->values.end() || it->second.size() != sizeof(T)) return false;
  std::memcpy(out, it->second.data(), sizeof(T));
  return true;
}

}  // namespace

extern "C" {

aclmdlConfigHandle* aclmdlCreateConfigHandle(void) {
  auto* h = new (std::nothrow) aclmdlConfigHandle();
  if (!h) {
    Fail(ACL_ERROR_BAD_ALLOC, "aclmdlCreateConfigHandle: out of memory");
    return nullptr;
  }
  oc::acl::AddHandle(h, oc::acl::HandleKind(h));
  return h;
}

aclError aclmdlDestroyConfigHandle(aclmdlConfigHandle* handle) {
  auto write = oc::acl::WriteHandles();
  OC_ACL_CHECK_LIVE(handle);
  oc::acl::DropHandle(handle, oc::acl::HandleKind(handle));
  delete handle;
  return ACL_SUCCESS;
}

aclError aclmdlSetConfigOpt(aclmdlConfigHandle* handle, aclmdlConfigAttr attr,
                            const void* attrValue, size_t valueSize) {
  auto write = oc::acl::WriteHandles();
  OC_ACL_CHECK_LIVE(handle);
  OC_ACL_CHECK_NULL(attrValue);
  const Option* o = FindOption(attr);
  if (!o)
    return Fail(ACL_ERROR_API_NOT_SUPPORT,
                "aclmdlSetConfigOpt: option " + std::to_string(static_cast<int>(attr)) +
                    " is not supported by OpenCANN (it loads from files and memory, without "
                    "queues, precompiled tasks or FIFOs)");
  if (valueSize != SizeOf(o->kind))
    return Fail(ACL_ERROR_INVALID_PARAM, std::string("aclmdlSetConfigOpt: ") + o->name + " takes " +
                                             std::to_string(SizeOf(o->kind)) +
                                             " bytes, valueSize is " + std::to_string(valueSize));
  if (!oc::HostRangeReadable(attrValue, valueSize))
    return Fail(ACL_ERROR_INVALID_PARAM,
                std::string("aclmdlSetConfigOpt: ") + o->name + ": attrValue is not readable");
  std::string bytes(static_cast<const char*>(attrValue), valueSize);
  if (attr == ACL_MDL_PRIORITY_INT32) {
    int32_t p = 0;
    std::memcpy(&p, bytes.data(), sizeof p);
    if (p < 0 || p > 7)
      return Fail(ACL_ERROR_INVALID_PARAM,
                  "aclmdlSetConfigOpt: priority " + std::to_string(p) + " is not in [0, 7]");
    // Kept as given, with the one line the emulation owes: nothing schedules by it here.
    ACL_APP_LOG(ACL_WARNING,
                "ACL_MDL_PRIORITY_INT32 %d is accepted; OpenCANN does not schedule models by "
                "priority (the NPU's task scheduler does)",
                static_cast<int>(p));
  }
  if (attr == ACL_MDL_LOAD_TYPE_SIZET) {
    size_t t = 0;
    std::memcpy(&t, bytes.data(), sizeof t);
    if (t < ACL_MDL_LOAD_FROM_FILE || t > ACL_MDL_LOAD_FROM_MEM_WITH_Q)
      return Fail(ACL_ERROR_INVALID_PARAM,
                  "aclmdlSetConfigOpt: load type " + std::to_string(t) + " is not in [1, 6]");
  }
  handle->values[attr] = std::move(bytes);
  return ACL_SUCCESS;
}

aclError aclmdlSetExternalWeightAddress(aclmdlConfigHandle* handle, const char* weightFileName,
                                        void* devPtr, size_t size) {
  auto write = oc::acl::WriteHandles();
  OC_ACL_CHECK_LIVE(handle);
  OC_ACL_CHECK_NULL(weightFileName);
  OC_ACL_CHECK_NULL(devPtr);
  if (size == 0)
    return Fail(ACL_ERROR_INVALID_PARAM, "aclmdlSetExternalWeightAddress: size must be positive");
  handle->external_weights[weightFileName] = {devPtr, size};
  return ACL_SUCCESS;
}

aclError aclmdlLoadWithConfig(const aclmdlConfigHandle* handle, uint32_t* modelId) {
  OC_ACL_REQUIRE_CONTEXT();
  size_t type = 0;
  const char* path = nullptr;
  void *mem = nullptr, *weight = nullptr, *work = nullptr;
  size_t mem_size = 0, weight_size = 0, work_size = 0;
  std::string missing;
  {
    auto read = oc::acl::ReadHandles();
    OC_ACL_CHECK_LIVE(handle);
    OC_ACL_CHECK_NULL(modelId);
    if (!Get(handle, ACL_MDL_LOAD_TYPE_SIZET, &type))
      return Fail(ACL_ERROR_INVALID_PARAM,
                  "aclmdlLoadWithConfig: ACL_MDL_LOAD_TYPE_SIZET is not set");
    // An .om of OpenCANN keeps its weights inside: there is no external weight file to place.
    if (!handle->external_weights.empty())
      return Fail(ACL_ERROR_INVALID_PARAM,
                  "aclmdlLoadWithConfig: the model has no external weight file [" +
                      handle->external_weights.begin()->first +
                      "] (OpenCANN's atc keeps weights in the .om)");
    if (handle->values.count(ACL_MDL_WEIGHT_PATH_PTR))
      return Fail(ACL_ERROR_INVALID_PARAM,
                  "aclmdlLoadWithConfig: ACL_MDL_WEIGHT_PATH_PTR names external weights, which "
                  "OpenCANN's .om files do not have");
    const bool file = type == ACL_MDL_LOAD_FROM_FILE || type == ACL_MDL_LOAD_FROM_FILE_WITH_MEM;
    const bool with_mem =
        type == ACL_MDL_LOAD_FROM_FILE_WITH_MEM || type == ACL_MDL_LOAD_FROM_MEM_WITH_MEM;
    if (type == ACL_MDL_LOAD_FROM_FILE_WITH_Q || type == ACL_MDL_LOAD_FROM_MEM_WITH_Q)
      return Fail(ACL_ERROR_API_NOT_SUPPORT, "aclmdlLoadWithConfig: loads with queues (type " +
                                                 std::to_string(type) +
                                                 ") are not supported by OpenCANN");
    if (file && !Get(handle, ACL_MDL_PATH_PTR, &path)) missing += " ACL_MDL_PATH_PTR";
    if (!file && !Get(handle, ACL_MDL_MEM_ADDR_PTR, &mem)) missing += " ACL_MDL_MEM_ADDR_PTR";
    if (!file && !Get(handle, ACL_MDL_MEM_SIZET, &mem_size)) missing += " ACL_MDL_MEM_SIZET";
    if (with_mem) {
      // Each pair is optional as in aclmdlLoadFrom*WithMem, where null means "allocate it".
      Get(handle, ACL_MDL_WORKSPACE_ADDR_PTR, &work);
      Get(handle, ACL_MDL_WORKSPACE_SIZET, &work_size);
      Get(handle, ACL_MDL_WEIGHT_ADDR_PTR, &weight);
      Get(handle, ACL_MDL_WEIGHT_SIZET, &weight_size);
    }
    if (!missing.empty())
      return Fail(ACL_ERROR_INVALID_PARAM,
                  "aclmdlLoadWithConfig: load type " + std::to_string(type) + " needs" + missing);
  }
  // The handle's lock is released: the load calls take it themselves.
  switch (type) {
    case ACL_MDL_LOAD_FROM_FILE:
      return aclmdlLoadFromFile(path, modelId);
    case ACL_MDL_LOAD_FROM_FILE_WITH_MEM:
      return aclmdlLoadFromFileWithMem(path, modelId, work, work_size, weight, weight_size);
    case ACL_MDL_LOAD_FROM_MEM:
      return aclmdlLoadFromMem(mem, mem_size, modelId);
    default:
      return aclmdlLoadFromMemWithMem(mem, mem_size, modelId, work, work_size, weight, weight_size);
  }
}

}  // extern "C"
