// aclCreateIntArray / aclCreateFloatArray and their destroy calls: the list attributes of
// aclnn<Op> calls, checked as handles (a destroyed or forged array is refused where used).
#include "acl/acl_nn_arrays.h"

#include <new>
#include <string>

#include "acl/acl_state.h"
#include "aclnn/acl_meta.h"

using oc::acl::Fail;

namespace {

// More elements than any attribute list needs: a size like this is a caller's mistake.
constexpr uint64_t kMaxArrayElements = uint64_t{1} << 24;

template <typename Array, typename T>
Array* Create(const T* value, uint64_t size, const char* fn, const char* kind) {
  if ((size && !value) || size > kMaxArrayElements) {
    Fail(size > kMaxArrayElements ? ACLNN_ERR_PARAM_INVALID : ACLNN_ERR_PARAM_NULLPTR,
         std::string(fn) + ": " +
             (size > kMaxArrayElements
                  ? "size " + std::to_string(size) + " is over " + std::to_string(kMaxArrayElements)
                  : std::string("value is null with a size of ") + std::to_string(size)));
    return nullptr;
  }
  auto* a = new (std::nothrow) Array();
  if (!a) return nullptr;
  a->values.assign(value, value + size);
  oc::acl::AddHandle(a, kind);
  return a;
}

template <typename Array>
aclnnStatus Destroy(const Array* array, const char* fn, const char* kind) {
  if (!array) return Fail(ACLNN_ERR_PARAM_NULLPTR, std::string(fn) + ": array is null");
  auto write = oc::acl::WriteHandles();
  if (!oc::acl::DropHandle(array, kind))
    return Fail(ACLNN_ERR_PARAM_INVALID,
                std::string(fn) + ": not a live " + kind + " (destroyed already?)");
  delete array;
  return ACLNN_SUCCESS;
}

}  // namespace

aclIntArray* aclCreateIntArray(const int64_t* value, uint64_t size) {
  return Create<aclIntArray>(value, size, "aclCreateIntArray", oc::acl::kIntArrayKind);
}
aclnnStatus aclDestroyIntArray(const aclIntArray* array) {
  return Destroy(array, "aclDestroyIntArray", oc::acl::kIntArrayKind);
}
aclFloatArray* aclCreateFloatArray(const float* value, uint64_t size) {
  return Create<aclFloatArray>(value, size, "aclCreateFloatArray", oc::acl::kFloatArrayKind);
}
aclnnStatus aclDestroyFloatArray(const aclFloatArray* array) {
  return Destroy(array, "aclDestroyFloatArray", oc::acl::kFloatArrayKind);
}
