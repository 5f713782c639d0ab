// Dynamic gears and dims: the values written into a model's ascend_mbatch_shape_data input
// (aclmdlSetDynamicBatchSize, ...) and the gears a model description reports.

#include <algorithm>
#include <atomic>
#include <cctype>
#include <cstdio>
#include <cstring>

#include "acl/acl_state.h"
#include "base/dtype.h"
#include "base/file.h"
#include "base/memory_probe.h"

using oc::acl::Fail;
using oc::acl::FailStatus;
using oc::acl::State;

namespace {

// Writes a gear's values into the ascend_mbatch_shape_data buffer of `dataset`.
aclError SetGear(uint32_t modelId, aclmdlDataset* dataset, size_t index, const std::string& mode,
                 const std::vector<int64_t>& values, const char* fn) {
  OC_ACL_REQUIRE_INIT();
  auto read = oc::acl::ReadHandles();
  OC_ACL_CHECK_LIVE(dataset);
  auto m = State::Get().FindModel(modelId);
  if (!m)
    return Fail(ACL_ERROR_INVALID_MODEL_ID,
                std::string(fn) + ": model id " + std::to_string(modelId) + " is not loaded");
  const std::string names = mode == "batch"        ? "--dynamic_batch_size"
                            : mode == "image_size" ? "--dynamic_image_size"
                                                   : "--dynamic_dims";
  if (m->gear_mode() != mode)
    return Fail(ACL_ERROR_MODEL_NOT_DYNAMIC,
                std::string(fn) + ": the model was not compiled with " + names +
                    (m->gear_mode().empty() ? "" : " (its gears are " + m->gear_mode() + ")"));
  if (static_cast<int>(index) != m->gear_input())
    return Fail(ACL_ERROR_INVALID_PARAM, std::string(fn) + ": index " + std::to_string(index) +
                                             " is not the model's " + ACL_DYNAMIC_TENSOR_NAME +
                                             " input (index " + std::to_string(m->gear_input()) +
                                             ")");
  bool found = false;
  std::string list;
  for (const auto& g : m->gears()) {
    found |= g == values;
    list += (list.empty() ? "" : ", ") + oc::ShapeToString(g);
  }
  if (!found)
    return Fail(ACL_ERROR_GE_DYNAMIC_BATCH_SIZE_INVALID,
                std::string(fn) + ": gear " + oc::ShapeToString(values) +
                    " is not compiled into the model; its gears are " + list);
  if (index >= dataset->buffers.size() || !dataset->buffers[index])
    return Fail(ACL_ERROR_GE_DYNAMIC_INPUT_ADDR_INVALID,
                std::string(fn) + ": the dataset has no buffer at index " + std::to_string(index));
  aclDataBuffer* b = dataset->buffers[index];
  if (!oc::acl::HandleKindOf(b))
    return Fail(ACL_ERROR_GE_DYNAMIC_INPUT_ADDR_INVALID,
                std::string(fn) + ": the buffer at index " + std::to_string(index) +
                    " is destroyed already");
  if (!b->data)
    return Fail(ACL_ERROR_GE_DYNAMIC_INPUT_ADDR_INVALID,
                std::string(fn) + ": the buffer at index " + std::to_string(index) + " is null");
  if (b->size < values.size() * sizeof(int64_t))
    return Fail(ACL_ERROR_GE_DYNAMIC_INPUT_LENGTH_INVALID,
                std::string(fn) + ": the buffer at index " + std::to_string(index) + " has " +
                    std::to_string(b->size) + " bytes, the gear needs " +
                    std::to_string(values.size() * sizeof(int64_t)));
  // Device memory is written through the device's backend (and stays allocated meanwhile);
  // other memory only when it takes the write.
  const size_t bytes = values.size() * sizeof(int64_t);
  const oc::acl::PinnedAllocation pin(b->data);
  if (!(pin && pin.Holds(b->data, bytes)) && !oc::HostRangeWritable(b->data, bytes))
    return Fail(ACL_ERROR_GE_DYNAMIC_INPUT_ADDR_INVALID,
                std::string(fn) + ": the buffer at index " + std::to_string(index) +
                    " is not writable memory of " + std::to_string(bytes) + " bytes");
  oc::Status s = pin.device() && pin.Holds(b->data, bytes)
                     ? State::Get().device_backend().Copy(b->data, values.data(), bytes,
                                                          oc::Backend::CopyKind::kHostToDevice)
                     : (std::memcpy(b->data, values.data(), bytes), oc::Status::Ok());
  if (!s.ok())
    return Fail(ACL_ERROR_GE_DYNAMIC_INPUT_ADDR_INVALID, std::string(fn) + ": " + s.message());
  // aclmdlGetCurOutputDims reports this gear's output shapes from now on.
  State::Get().SetCurrentGear(modelId, values);
  return ACL_SUCCESS;
}

}  // namespace

extern "C" {

aclError aclmdlSetDynamicBatchSize(uint32_t modelId, aclmdlDataset* dataset, size_t index,
                                   uint64_t batchSize) {
  return SetGear(modelId, dataset, index, "batch", {static_cast<int64_t>(batchSize)}, __func__);
}

aclError aclmdlSetDynamicHWSize(uint32_t modelId, aclmdlDataset* dataset, size_t index,
                                uint64_t height, uint64_t width) {
  return SetGear(modelId, dataset, index, "image_size",
                 {static_cast<int64_t>(height), static_cast<int64_t>(width)}, __func__);
}

aclError aclmdlSetInputDynamicDims(uint32_t modelId, aclmdlDataset* dataset, size_t index,
                                   const aclmdlIODims* dims) {
  OC_ACL_REQUIRE_INIT();
  OC_ACL_CHECK_NULL(dims);
  auto m = State::Get().FindModel(modelId);
  if (!m)
    return Fail(ACL_ERROR_INVALID_MODEL_ID,
                std::string(__func__) + ": model id " + std::to_string(modelId) + " is not loaded");
  if (m->gear_mode() != "dims")
    return SetGear(modelId, dataset, index, "dims", {}, __func__);  // reports the mismatch
  if (dims->dimCount > ACL_MAX_DIM_CNT)
    return Fail(ACL_ERROR_INVALID_PARAM, std::string(__func__) + ": dimCount is over 128");
  // CANN's form: all inputs' dims concatenated (as aclmdlGetInputDynamicDims gives them);
  // the values at the -1 positions select the gear. The bare gear values are accepted too.
  std::vector<int64_t> given(dims->dims, dims->dims + dims->dimCount), values;
  size_t total = 0;
  for (size_t i = 0; i < m->inputs().size(); ++i)
    if (static_cast<int>(i) != m->gear_input()) total += m->inputs()[i].shape.size();
  if (given.size() == total) {
    size_t k = 0;
    for (size_t i = 0; i < m->inputs().size(); ++i) {
      if (static_cast<int>(i) == m->gear_input()) continue;
      for (int64_t d : m->inputs()[i].shape) {
        if (d < 0) values.push_back(given[k]);
        ++k;
      }
    }
  } else {
    values = given;
  }
  return SetGear(modelId, dataset, index, "dims", values, __func__);
}

aclError aclmdlGetDynamicBatch(const aclmdlDesc* modelDesc, aclmdlBatch* batch) {
  auto read = oc::acl::ReadHandles();
  OC_ACL_CHECK_LIVE(modelDesc);
  OC_ACL_CHECK_OUT(batch, sizeof(aclmdlBatch));
  if (!modelDesc->filled)
    return Fail(ACL_ERROR_INVALID_PARAM,
                "aclmdlGetDynamicBatch: the description is empty: call aclmdlGetDesc first");
  batch->batchCount = 0;  // no batch gears
  if (modelDesc->gear_mode != "batch") return ACL_SUCCESS;
  for (const auto& g : modelDesc->gears)
    if (batch->batchCount < ACL_MAX_BATCH_NUM && !g.empty())
      batch->batch[batch->batchCount++] = static_cast<uint64_t>(g[0]);
  return ACL_SUCCESS;
}

aclError aclmdlGetDynamicHW(const aclmdlDesc* modelDesc, size_t index, aclmdlHW* hw) {
  auto read = oc::acl::ReadHandles();
  OC_ACL_CHECK_LIVE(modelDesc);
  OC_ACL_CHECK_OUT(hw, sizeof(aclmdlHW));
  if (!modelDesc->filled)
    return Fail(ACL_ERROR_INVALID_PARAM,
                "aclmdlGetDynamicHW: the description is empty: call aclmdlGetDesc first");
  hw->hwCount = 0;
  if (modelDesc->gear_mode != "image_size") return ACL_SUCCESS;
  for (const auto& g : modelDesc->gears)
    if (hw->hwCount < ACL_MAX_HW_NUM && g.size() >= 2) {
      hw->hw[hw->hwCount][0] = static_cast<uint64_t>(g[0]);
      hw->hw[hw->hwCount][1] = static_cast<uint64_t>(g[1]);
      ++hw->hwCount;
    }
  return ACL_SUCCESS;
}

aclError aclmdlGetInputDynamicGearCount(const aclmdlDesc* modelDesc, size_t index,
                                        size_t* gearCount) {
  auto read = oc::acl::ReadHandles();
  OC_ACL_CHECK_LIVE(modelDesc);
  OC_ACL_CHECK_OUT(gearCount, sizeof(size_t));
  if (!modelDesc->filled)
    return Fail(
        ACL_ERROR_INVALID_PARAM,
        "aclmdlGetInputDynamicGearCount: the description is empty: call aclmdlGetDesc first");
  *gearCount = modelDesc->gear_mode == "dims" ? modelDesc->gears.size() : 0;
  return ACL_SUCCESS;
}

aclError aclmdlGetInputDynamicDims(const aclmdlDesc* modelDesc, size_t index, aclmdlIODims* dims,
                                   size_t gearCount) {
  auto read = oc::acl::ReadHandles();
  OC_ACL_CHECK_LIVE(modelDesc);
  OC_ACL_CHECK_NULL(dims);
  if (!modelDesc->filled)
    return Fail(ACL_ERROR_INVALID_PARAM,
                "aclmdlGetInputDynamicDims: the description is empty: call aclmdlGetDesc first");
  // As CANN: a model without --dynamic_dims gears has none to give (its gear count is 0),
  // which is a success; callers ask every model.
  if (modelDesc->gear_mode != "dims") return ACL_SUCCESS;
  if (gearCount < modelDesc->gears.size())
    return Fail(ACL_ERROR_INVALID_PARAM, "aclmdlGetInputDynamicDims: gearCount " +
                                             std::to_string(gearCount) +
                                             " is less than the model's " +
                                             std::to_string(modelDesc->gears.size()) + " gears");
  // The entries written: one per gear (gearCount only bounds them).
  OC_ACL_CHECK_OUT(dims, modelDesc->gears.size() * sizeof(aclmdlIODims));
  // Each gear as the dims of all inputs concatenated, the -1s set to the gear's values.
  for (size_t g = 0; g < modelDesc->gears.size(); ++g) {
    aclmdlIODims& out = dims[g];
    std::memset(out.name, 0, sizeof(out.name));
    out.dimCount = 0;
    size_t k = 0;
    for (size_t i = 0; i < modelDesc->inputs.size(); ++i) {
      if (static_cast<int>(i) == modelDesc->gear_input) continue;
      for (int64_t d : modelDesc->inputs[i].shape) {
        if (out.dimCount >= ACL_MAX_DIM_CNT) return Fail(ACL_ERROR_INVALID_PARAM, "too many dims");
        if (d < 0 && k >= modelDesc->gears[g].size())
          return Fail(ACL_ERROR_INVALID_PARAM, "aclmdlGetInputDynamicDims: gear " +
                                                   std::to_string(g) +
                                                   " has fewer values than "
                                                   "the inputs have dynamic dims");
        out.dims[out.dimCount++] = d < 0 ? modelDesc->gears[g][k++] : d;
      }
    }
  }
  return ACL_SUCCESS;
}

}  // extern "C"
