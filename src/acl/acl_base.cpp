// Data buffers, tensor descriptors, fp16 helpers.
#include <cstring>

#include "acl/acl_state.h"
#include "base/dtype.h"
#include "base/half.h"

using oc::acl::Fail;

namespace {

// The element count of a live description (the caller holds ReadHandles()).
size_t ElementCount(const aclTensorDesc* d) {
  size_t n = 1;
  for (int64_t v : d->dims) {
    if (v < 0) return 0;
    n *= static_cast<size_t>(v);
  }
  return n;
}

}  // namespace

extern "C" {

aclDataBuffer* aclCreateDataBuffer(void* data, size_t size) {
  // CANN allows a null address with size 0 (filled in later by aclUpdateDataBuffer).
  auto* b = new (std::nothrow) aclDataBuffer();
  if (!b) return nullptr;
  b->data = data;
  b->size = size;
  oc::acl::AddHandle(b, oc::acl::HandleKind(b));
  return b;
}

aclError aclDestroyDataBuffer(const aclDataBuffer* dataBuffer) {
  {
    auto read = oc::acl::ReadHandles();
    OC_ACL_CHECK_LIVE(dataBuffer);
  }
  oc::acl::WaitUnpinned(dataBuffer);  // queued executions using it finish first
  auto write = oc::acl::WriteHandles();
  // Checked again: another thread may have destroyed it while this one waited.
  OC_ACL_CHECK_LIVE(dataBuffer);
  oc::acl::DropHandle(dataBuffer, oc::acl::HandleKind(dataBuffer));
  delete dataBuffer;
  return ACL_SUCCESS;
}

aclError aclUpdateDataBuffer(aclDataBuffer* dataBuffer, void* data, size_t size) {
  auto write = oc::acl::WriteHandles();
  OC_ACL_CHECK_LIVE(dataBuffer);
  dataBuffer->data = data;
  dataBuffer->size = size;
  return ACL_SUCCESS;
}

void* aclGetDataBufferAddr(const aclDataBuffer* dataBuffer) {
  auto read = oc::acl::ReadHandles();
  if (oc::acl::CheckLive(dataBuffer, "dataBuffer", __func__)) return nullptr;
  return dataBuffer->data;
}

uint32_t aclGetDataBufferSize(const aclDataBuffer* dataBuffer) {
  auto read = oc::acl::ReadHandles();
  if (oc::acl::CheckLive(dataBuffer, "dataBuffer", __func__)) return 0;
  return static_cast<uint32_t>(dataBuffer->size);
}

size_t aclGetDataBufferSizeV2(const aclDataBuffer* dataBuffer) {
  auto read = oc::acl::ReadHandles();
  if (oc::acl::CheckLive(dataBuffer, "dataBuffer", __func__)) return 0;
  return dataBuffer->size;
}

size_t aclDataTypeSize(aclDataType dataType) {
  if (dataType == ACL_STRING || dataType == ACL_DT_UNDEFINED) return 0;
  if (dataType == ACL_COMPLEX64) return 8;
  if (dataType == ACL_COMPLEX128) return 16;
  return oc::DataTypeSize(oc::FromAclDataType(dataType));
}

float aclFloat16ToFloat(aclFloat16 value) { return oc::HalfToFloat(value); }
aclFloat16 aclFloatToFloat16(float value) { return oc::FloatToHalf(value); }

aclTensorDesc* aclCreateTensorDesc(aclDataType dataType, int numDims, const int64_t* dims,
                                   aclFormat format) {
  if (numDims < 0 || (numDims > 0 && dims == nullptr)) {
    Fail(ACL_ERROR_INVALID_PARAM, "aclCreateTensorDesc: invalid dims");
    return nullptr;
  }
  auto* d = new (std::nothrow) aclTensorDesc();
  if (!d) return nullptr;
  d->dtype = dataType;
  d->format = format;
  d->dims.assign(dims, dims + numDims);
  oc::acl::AddHandle(d, oc::acl::HandleKind(d));
  return d;
}

void aclDestroyTensorDesc(const aclTensorDesc* desc) {
  auto write = oc::acl::WriteHandles();
  // void in CANN: a stale or dataset-owned description is reported, not freed.
  if (oc::acl::IsHandleKind(desc, oc::acl::kDatasetTensorDesc)) {
    Fail(ACL_ERROR_INVALID_PARAM,
         "aclDestroyTensorDesc: the description belongs to a dataset (aclmdlGetDatasetTensorDesc) "
         "and is destroyed with it");
    return;
  }
  if (oc::acl::DestroyTensorDescArray(desc)) return;  // an aclmdlCreateAndGetOpDesc array
  if (oc::acl::IsHandleKind(desc, oc::acl::kTensorDescArrayElement)) {
    Fail(ACL_ERROR_INVALID_PARAM,
         "aclDestroyTensorDesc: the description is inside an array; destroy the array's first one");
    return;
  }
  if (oc::acl::CheckLive(desc, "desc", __func__)) return;
  oc::acl::DropHandle(desc, oc::acl::HandleKind(desc));
  delete desc;
}

aclDataType aclGetTensorDescType(const aclTensorDesc* desc) {
  auto read = oc::acl::ReadHandles();
  if (oc::acl::CheckLive(desc, "desc", __func__)) return ACL_DT_UNDEFINED;
  return desc->dtype;
}

aclFormat aclGetTensorDescFormat(const aclTensorDesc* desc) {
  auto read = oc::acl::ReadHandles();
  if (oc::acl::CheckLive(desc, "desc", __func__)) return ACL_FORMAT_UNDEFINED;
  return desc->format;
}

size_t aclGetTensorDescElementCount(const aclTensorDesc* desc) {
  auto read = oc::acl::ReadHandles();
  if (oc::acl::CheckLive(desc, "desc", __func__)) return 0;
  return ElementCount(desc);
}

size_t aclGetTensorDescSize(const aclTensorDesc* desc) {
  auto read = oc::acl::ReadHandles();
  if (oc::acl::CheckLive(desc, "desc", __func__)) return 0;
  return ElementCount(desc) * aclDataTypeSize(desc->dtype);
}

size_t aclGetTensorDescNumDims(const aclTensorDesc* desc) {
  auto read = oc::acl::ReadHandles();
  if (oc::acl::CheckLive(desc, "desc", __func__)) return 0;
  return desc->dims.size();
}

aclError aclGetTensorDescDimV2(const aclTensorDesc* desc, size_t index, int64_t* dimSize) {
  auto read = oc::acl::ReadHandles();
  OC_ACL_CHECK_LIVE(desc);
  OC_ACL_CHECK_NULL(dimSize);
  if (index >= desc->dims.size())
    return Fail(ACL_ERROR_INVALID_PARAM, "aclGetTensorDescDimV2: index " + std::to_string(index) +
                                             " is out of range (" +
                                             std::to_string(desc->dims.size()) + " dims)");
  *dimSize = desc->dims[index];
  return ACL_SUCCESS;
}

}  // extern "C"
