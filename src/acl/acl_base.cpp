// Data buffers, tensor descriptors, fp16 helpers.
#include <algorithm>
#include <cstdint>
#include <cstring>

#include "acl/acl_state.h"
#include "base/dtype.h"
#include "base/half.h"
#include "base/memory_probe.h"

using oc::acl::Fail;

namespace oc::acl {

bool KnownDataType(int v) {
  switch (v) {
    case ACL_DT_UNDEFINED:
    case ACL_FLOAT:
    case ACL_FLOAT16:
    case ACL_INT8:
    case ACL_INT32:
    case ACL_UINT8:
    case ACL_INT16:
    case ACL_UINT16:
    case ACL_UINT32:
    case ACL_INT64:
    case ACL_UINT64:
    case ACL_DOUBLE:
    case ACL_BOOL:
    case ACL_STRING:
    case ACL_COMPLEX64:
    case ACL_COMPLEX128:
    case ACL_BF16:
      return true;
    default:
      return false;
  }
}

bool KnownFormat(int v) {
  switch (v) {
    case ACL_FORMAT_UNDEFINED:
    case ACL_FORMAT_NCHW:
    case ACL_FORMAT_NHWC:
    case ACL_FORMAT_ND:
    case ACL_FORMAT_NC1HWC0:
    case ACL_FORMAT_FRACTAL_Z:
    case ACL_FORMAT_NC1HWC0_C04:
    case ACL_FORMAT_HWCN:
    case ACL_FORMAT_NDHWC:
    case ACL_FORMAT_FRACTAL_NZ:
    case ACL_FORMAT_NCDHW:
    case ACL_FORMAT_NDC1HWC0:
    case ACL_FRACTAL_Z_3D:
      return true;
    default:
      return false;
  }
}

std::string TensorDescProblem(int dtype, int format, int64_t num_dims, const int64_t* dims) {
  if (!KnownDataType(dtype)) return "dataType " + std::to_string(dtype) + " is not an aclDataType";
  if (!KnownFormat(format)) return "format " + std::to_string(format) + " is not an aclFormat";
  if (num_dims < 0 || num_dims > kMaxTensorDescDims)
    return "numDims " + std::to_string(num_dims) + " is outside 0.." +
           std::to_string(kMaxTensorDescDims);
  if (num_dims > 0 && dims == nullptr)
    return "dims is null for numDims " + std::to_string(num_dims);
  if (num_dims == 1 && dims[0] == kUnknownRankDim) return "";  // unknown rank: [-2] alone
  const size_t item = std::max<size_t>(aclDataTypeSize(static_cast<aclDataType>(dtype)), 1);
  uint64_t bytes = item;
  for (int64_t i = 0; i < num_dims; ++i) {
    if (dims[i] == kUnknownRankDim)
      return "dim " + std::to_string(i) +
             " is -2 (unknown rank), which only a shape of that "
             "one dim may be";
    if (dims[i] < kUnknownDim)
      return "dim " + std::to_string(i) + " is " + std::to_string(dims[i]) +
             "; dims are sizes, -1 (unknown) or a lone -2 (unknown rank)";
    if (dims[i] < 0) continue;
    // The byte size must be countable: aclGetTensorDescSize answers it.
    if (dims[i] > 0 && bytes > static_cast<uint64_t>(INT64_MAX) / static_cast<uint64_t>(dims[i]))
      return "the dims describe more than 2^63 bytes";
    bytes *= static_cast<uint64_t>(dims[i]);
  }
  return "";
}

}  // namespace oc::acl

namespace {

// Unlocked parts the public getters share (their caller holds ReadHandles()).
bool UnknownRank(const aclTensorDesc* d) {
  return d->dims.size() == 1 && d->dims[0] == oc::acl::kUnknownRankDim;
}

size_t ElementCount(const aclTensorDesc* d) {
  size_t n = 1;
  for (int64_t v : d->dims) {
    if (v < 0) return 0;
    n *= static_cast<size_t>(v);  // bounded at creation (TensorDescProblem)
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
  // As CANN: null on failure, the reason logged (and kept for aclGetRecentErrMsg).
  const std::string problem = oc::acl::TensorDescProblem(dataType, format, numDims, dims);
  if (!problem.empty()) {
    Fail(ACL_ERROR_INVALID_PARAM, "aclCreateTensorDesc: " + problem);
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

aclError aclSetTensorConst(aclTensorDesc* desc, void* dataBuffer, size_t length) {
  auto write = oc::acl::WriteHandles();
  if (aclError e = oc::acl::CheckLive(desc, "desc", __func__)) return e;
  if (!dataBuffer || length == 0)
    return Fail(ACL_ERROR_INVALID_PARAM, "aclSetTensorConst: dataBuffer is null or length is 0");
  const size_t want = ElementCount(desc) * aclDataTypeSize(desc->dtype);
  if (length != want)
    return Fail(ACL_ERROR_INVALID_PARAM, "aclSetTensorConst: length " + std::to_string(length) +
                                             " is not the description's size " +
                                             std::to_string(want) +
                                             " (its element count times its data type's size)");
  if (!oc::HostRangeReadable(dataBuffer, length))
    return Fail(ACL_ERROR_INVALID_PARAM, "aclSetTensorConst: dataBuffer is not readable for " +
                                             std::to_string(length) + " bytes");
  const auto* bytes = static_cast<const uint8_t*>(dataBuffer);
  desc->const_value = std::make_shared<const std::vector<uint8_t>>(bytes, bytes + length);
  return ACL_SUCCESS;
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
  // A shape of unknown rank (dims {-2}) has no dim count, as CANN reports it.
  return UnknownRank(desc) ? static_cast<size_t>(ACL_UNKNOWN_RANK) : desc->dims.size();
}

aclError aclGetTensorDescDimV2(const aclTensorDesc* desc, size_t index, int64_t* dimSize) {
  auto read = oc::acl::ReadHandles();
  OC_ACL_CHECK_LIVE(desc);
  OC_ACL_CHECK_NULL(dimSize);
  if (UnknownRank(desc))
    return Fail(ACL_ERROR_INVALID_PARAM,
                "aclGetTensorDescDimV2: the description's rank is unknown (dims {-2})");
  if (index >= desc->dims.size())
    return Fail(ACL_ERROR_INVALID_PARAM, "aclGetTensorDescDimV2: index " + std::to_string(index) +
                                             " is out of range (" +
                                             std::to_string(desc->dims.size()) + " dims)");
  *dimSize = desc->dims[index];
  return ACL_SUCCESS;
}

}  // extern "C"
