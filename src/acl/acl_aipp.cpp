// AIPP through AscendCL: what a model's inputs have (aclmdlGetAippType, the static
// parameters with aclmdlGetFirstAippInfo) and dynamic AIPP: an aclmdlAIPP parameter set
// built with the aclmdlSetAIPP* setters and written into the model's parameter input by
// aclmdlSetInputAIPP / aclmdlSetAIPPByInputIndex (layout: ops/aipp_params.h).
#include <cstdio>
#include <cstring>

#include "acl/acl_state.h"
#include "base/half.h"
#include "ops/aipp_params.h"

using oc::acl::Fail;
using oc::acl::State;

struct aclmdlAIPP {
  oc::AippDynamicParams params;
};

namespace {

// The oc.Aipp node fed by model input `index` (as image or as dynamic parameters), or null.
const oc::Node* AippNodeOf(const oc::Model& m, size_t index, bool* is_params = nullptr) {
  const std::string& name = m.inputs()[index].name;
  for (const oc::Graph* g : m.Graphs())
    for (const auto& n : g->nodes)
      if (n.domain == oc::kOcDomain && n.op_type == "Aipp" && !n.inputs.empty()) {
        if (n.inputs[0] == name) {
          if (is_params) *is_params = false;
          return &n;
        }
        if (n.inputs.size() > 1 && n.inputs[1] == name) {
          if (is_params) *is_params = true;
          return &n;
        }
      }
  return nullptr;
}

bool IsDynamic(const oc::Node& n) { return n.attrs.GetInt("dynamic", 0) != 0; }

}  // namespace

namespace oc::acl {

bool StaticYuv420SpAippInput(const oc::Model& m, size_t index) {
  if (index >= m.inputs().size()) return false;
  bool is_params = false;
  const oc::Node* n = AippNodeOf(m, index, &is_params);
  return n && !is_params && !IsDynamic(*n) && n->attrs.GetInt("input_format", 0) == 1;
}

}  // namespace oc::acl

namespace {

size_t InputIndexOf(const oc::Model& m, const std::string& name) {
  for (size_t i = 0; i < m.inputs().size(); ++i)
    if (m.inputs()[i].name == name) return i;
  return ACL_INVALID_NODE_INDEX;
}

// The loaded model `modelId` if it has input `index`.
aclError FindModelInput(uint32_t modelId, size_t index, const char* fn,
                        std::shared_ptr<oc::Model>* model) {
  *model = State::Get().FindModel(modelId);
  if (!*model)
    return Fail(ACL_ERROR_INVALID_MODEL_ID,
                std::string(fn) + ": model id " + std::to_string(modelId) + " is not loaded");
  if (index >= (*model)->inputs().size())
    return Fail(ACL_ERROR_INVALID_PARAM,
                std::string(fn) + ": input index " + std::to_string(index) + " is out of range");
  return ACL_SUCCESS;
}

void FillDims(aclmdlIODims* d, const std::string& name, const oc::Shape& shape) {
  std::memset(d, 0, sizeof(*d));
  std::snprintf(d->name, sizeof(d->name), "%s", name.c_str());
  d->dimCount = std::min<size_t>(shape.size(), ACL_MAX_DIM_CNT);
  for (size_t i = 0; i < d->dimCount; ++i) d->dims[i] = shape[i];
}

// The batch entry `batchIndex` of a parameter set, or an error naming the call.
aclError BatchOf(aclmdlAIPP* set, uint64_t batchIndex, const char* fn, oc::AippBatchParams** out) {
  if (aclError e = oc::acl::CheckLive(static_cast<const aclmdlAIPP*>(set), "aippParmsSet", fn))
    return e;
  if (batchIndex >= set->params.batches.size())
    return Fail(ACL_ERROR_INVALID_PARAM,
                std::string(fn) + ": batchIndex " + std::to_string(batchIndex) +
                    " is outside the parameter set's " +
                    std::to_string(set->params.batches.size()) + " images");
  *out = &set->params.batches[batchIndex];
  return ACL_SUCCESS;
}

aclError CheckSwitch(int8_t v, const char* what, const char* fn) {
  if (v == 0 || v == 1) return ACL_SUCCESS;
  return Fail(ACL_ERROR_INVALID_PARAM,
              std::string(fn) + ": " + what + " must be 0 or 1, not " + std::to_string(v));
}

// Writes the parameters into the dataset's buffer for the parameter input `params_index`
// after checking them against the model, as the NPU would reject them at execution.
aclError WriteParams(const oc::Model& m, const oc::Node& node, aclmdlDataset* dataset,
                     size_t params_index, const aclmdlAIPP* set, const char* fn) {
  const auto chw = node.attrs.GetInts("out_chw");
  // Under dynamic batch the parameters are for the largest gear (aclmdlCreateAIPP's batch).
  const int64_t batch = node.attrs.GetInt("params_batch", node.attrs.GetInt("batch", 0));
  if (chw.size() != 3)
    return Fail(ACL_ERROR_PARSE_MODEL, std::string(fn) + ": the model's AIPP is malformed");
  if (static_cast<int64_t>(set->params.batches.size()) != batch)
    return Fail(ACL_ERROR_INVALID_PARAM, std::string(fn) + ": the parameter set is for " +
                                             std::to_string(set->params.batches.size()) +
                                             " images (aclmdlCreateAIPP), " + "the model takes " +
                                             std::to_string(batch));
  for (size_t b = 0; b < set->params.batches.size(); ++b) {
    auto plan = oc::PlanDynamicImage(set->params, b, chw[0], chw[1], chw[2]);
    if (!plan.ok())
      return Fail(ACL_ERROR_INVALID_PARAM, std::string(fn) + ": " + plan.status().message());
  }
  const int64_t bytes =
      batch * oc::AippImageBytes(set->params.input_format, set->params.src_w, set->params.src_h);
  const size_t image_index = InputIndexOf(m, node.inputs[0]);
  if (image_index != ACL_INVALID_NODE_INDEX &&
      static_cast<size_t>(bytes) > m.inputs()[image_index].bytes)
    return Fail(ACL_ERROR_INVALID_PARAM,
                std::string(fn) + ": " + std::to_string(batch) + " images of " +
                    std::to_string(set->params.src_w) + "x" + std::to_string(set->params.src_h) +
                    " take " + std::to_string(bytes) + " bytes, more than the model's " +
                    "max_src_image_size " + std::to_string(m.inputs()[image_index].bytes));
  if (params_index >= dataset->buffers.size() || !dataset->buffers[params_index])
    return Fail(
        ACL_ERROR_INVALID_PARAM,
        std::string(fn) + ": the dataset has no buffer for input " + std::to_string(params_index) +
            " (" ACL_DYNAMIC_AIPP_NAME "): add one of aclmdlGetInputSizeByIndex bytes first");
  aclDataBuffer* buf = dataset->buffers[params_index];
  if (!oc::acl::HandleKindOf(buf))
    return Fail(ACL_ERROR_INVALID_PARAM, std::string(fn) + ": the buffer for input " +
                                             std::to_string(params_index) +
                                             " is destroyed already");
  const size_t need = oc::AippDynamicDataSize(batch);
  if (!buf->data || buf->size < need)
    return Fail(ACL_ERROR_INVALID_PARAM, std::string(fn) + ": the buffer for input " +
                                             std::to_string(params_index) + " holds " +
                                             std::to_string(buf->size) + " bytes, " +
                                             std::to_string(need) + " are needed");
  // Written in place: the memory stays allocated meanwhile, and memory that is not ours must
  // take the write.
  const oc::acl::PinnedAllocation pin(buf->data);
  if (!(pin && pin.Holds(buf->data, need)) && !oc::HostRangeWritable(buf->data, need))
    return Fail(ACL_ERROR_INVALID_PARAM,
                std::string(fn) + ": the buffer for input " + std::to_string(params_index) +
                    " is not writable memory of " + std::to_string(need) + " bytes");
  oc::EncodeAippParams(set->params, static_cast<uint8_t*>(buf->data));
  return ACL_SUCCESS;
}

}  // namespace

extern "C" {

aclError aclmdlGetAippType(uint32_t modelId, size_t index, aclmdlInputAippType* type,
                           size_t* dynamicAttachedDataIndex) {
  OC_ACL_REQUIRE_INIT();
  OC_ACL_CHECK_NULL(type);
  OC_ACL_CHECK_NULL(dynamicAttachedDataIndex);
  std::shared_ptr<oc::Model> m;
  if (aclError e = FindModelInput(modelId, index, __func__, &m)) return e;
  bool is_params = false;
  const oc::Node* n = AippNodeOf(*m, index, &is_params);
  *dynamicAttachedDataIndex = ACL_INVALID_NODE_INDEX;
  if (!n) {
    *type = ACL_DATA_WITHOUT_AIPP;
  } else if (!IsDynamic(*n)) {
    *type = ACL_DATA_WITH_STATIC_AIPP;
  } else if (is_params) {
    *type = ACL_DYNAMIC_AIPP_NODE;
  } else {
    *type = ACL_DATA_WITH_DYNAMIC_AIPP;
    *dynamicAttachedDataIndex = InputIndexOf(*m, n->inputs[1]);
  }
  return ACL_SUCCESS;
}

aclError aclmdlGetFirstAippInfo(uint32_t modelId, size_t index, aclAippInfo* info) {
  OC_ACL_REQUIRE_INIT();
  OC_ACL_CHECK_OUT(info, sizeof(aclAippInfo));
  std::shared_ptr<oc::Model> m;
  if (aclError e = FindModelInput(modelId, index, __func__, &m)) return e;
  const oc::Node* n = AippNodeOf(*m, index);
  if (!n || IsDynamic(*n))
    return Fail(ACL_ERROR_NOT_STATIC_AIPP,
                std::string(__func__) + ": input " + std::to_string(index) + " has no static AIPP");
  const auto& a = n->attrs;
  std::memset(info, 0, sizeof(*info));
  const auto src = a.GetInts("src"), crop = a.GetInts("crop"), pads = a.GetInts("pads");
  const auto chw = a.GetInts("out_chw"), mat = a.GetInts("matrix");
  const auto ib = a.GetInts("input_bias"), ob = a.GetInts("output_bias"), mean = a.GetInts("mean");
  const auto mn = a.GetFloats("min"), vr = a.GetFloats("var_reci");
  if (src.size() != 2 || crop.size() != 4 || pads.size() != 2 || chw.size() != 3 ||
      mat.size() != 9 || ib.size() != 3 || ob.size() != 3 || mean.size() != 4 || mn.size() != 4 ||
      vr.size() != 4)
    return Fail(ACL_ERROR_PARSE_MODEL, std::string(__func__) + ": the AIPP of input " +
                                           std::to_string(index) + " is malformed");
  info->inputFormat = static_cast<aclAippInputFormat>(a.GetInt("input_format", 0));
  info->srcImageSizeW = static_cast<int32_t>(src[1]);
  info->srcImageSizeH = static_cast<int32_t>(src[0]);
  info->cropSwitch = crop[0] || crop[1] || crop[2] != src[0] || crop[3] != src[1];
  info->loadStartPosH = static_cast<int32_t>(crop[0]);
  info->loadStartPosW = static_cast<int32_t>(crop[1]);
  info->cropSizeH = static_cast<int32_t>(crop[2]);
  info->cropSizeW = static_cast<int32_t>(crop[3]);
  info->topPaddingSize = static_cast<int32_t>(pads[0]);
  info->leftPaddingSize = static_cast<int32_t>(pads[1]);
  info->bottomPaddingSize = static_cast<int32_t>(chw[1] - crop[2] - pads[0]);
  info->rightPaddingSize = static_cast<int32_t>(chw[2] - crop[3] - pads[1]);
  info->paddingSwitch = info->topPaddingSize || info->leftPaddingSize || info->bottomPaddingSize ||
                        info->rightPaddingSize;
  info->cscSwitch = static_cast<int8_t>(a.GetInt("csc", 0));
  info->rbuvSwapSwitch = static_cast<int8_t>(a.GetInt("rbuv_swap", 0));
  info->axSwapSwitch = static_cast<int8_t>(a.GetInt("ax_swap", 0));
  int32_t* matrix[9] = {&info->matrixR0C0, &info->matrixR0C1, &info->matrixR0C2,
                        &info->matrixR1C0, &info->matrixR1C1, &info->matrixR1C2,
                        &info->matrixR2C0, &info->matrixR2C1, &info->matrixR2C2};
  for (int i = 0; i < 9; ++i) *matrix[i] = static_cast<int32_t>(mat[i]);
  int32_t* out_bias[3] = {&info->outputBias0, &info->outputBias1, &info->outputBias2};
  int32_t* in_bias[3] = {&info->inputBias0, &info->inputBias1, &info->inputBias2};
  for (int i = 0; i < 3; ++i) {
    *out_bias[i] = static_cast<int32_t>(ob[i]);
    *in_bias[i] = static_cast<int32_t>(ib[i]);
  }
  int32_t* means[4] = {&info->meanChn0, &info->meanChn1, &info->meanChn2, &info->meanChn3};
  float* mins[4] = {&info->minChn0, &info->minChn1, &info->minChn2, &info->minChn3};
  float* vars[4] = {&info->varReciChn0, &info->varReciChn1, &info->varReciChn2, &info->varReciChn3};
  for (int i = 0; i < 4; ++i) {
    *means[i] = static_cast<int32_t>(mean[i]);
    *mins[i] = mn[i];
    *vars[i] = vr[i];
  }
  const oc::IoDesc& in = m->inputs()[index];
  info->srcFormat = ACL_FORMAT_NHWC;
  info->srcDatatype = ACL_UINT8;
  info->srcDimNum = in.shape.size();
  info->shapeCount = 1;
  FillDims(&info->outDims[0].srcDims, in.name, in.shape);
  info->outDims[0].srcSize = in.bytes;
  const oc::Shape out = {in.shape[0], chw[0], chw[1], chw[2]};
  FillDims(&info->outDims[0].aippOutdims, in.name, out);
  // The NPU's AIPP writes fp16.
  info->outDims[0].aippOutSize = static_cast<size_t>(oc::NumElements(out)) * 2;
  return ACL_SUCCESS;
}

aclmdlAIPP* aclmdlCreateAIPP(uint64_t batchSize) {
  if (oc::AippDynamicDataSize(batchSize) == 0) {
    Fail(ACL_ERROR_INVALID_PARAM, "aclmdlCreateAIPP: batchSize " + std::to_string(batchSize) +
                                      " must be 1.." + std::to_string(oc::kAippMaxBatch));
    return nullptr;
  }
  auto* set = new (std::nothrow) aclmdlAIPP();
  if (set) set->params.batches.resize(batchSize);
  oc::acl::AddHandle(set, oc::acl::HandleKind(set));
  return set;
}

aclError aclmdlDestroyAIPP(const aclmdlAIPP* aippParmsSet) {
  auto write = oc::acl::WriteHandles();
  OC_ACL_CHECK_LIVE(aippParmsSet);
  oc::acl::DropHandle(aippParmsSet, oc::acl::HandleKind(aippParmsSet));
  delete aippParmsSet;
  return ACL_SUCCESS;
}

aclError aclmdlGetAippDataSize(uint64_t batchSize, size_t* size) {
  OC_ACL_CHECK_NULL(size);
  *size = oc::AippDynamicDataSize(batchSize);
  if (*size == 0)
    return Fail(ACL_ERROR_INVALID_PARAM, std::string(__func__) + ": batchSize " +
                                             std::to_string(batchSize) + " must be 1.." +
                                             std::to_string(oc::kAippMaxBatch));
  return ACL_SUCCESS;
}

aclError aclmdlSetAIPPInputFormat(aclmdlAIPP* aippParmsSet, aclAippInputFormat inputFormat) {
  auto write = oc::acl::WriteHandles();
  OC_ACL_CHECK_LIVE(aippParmsSet);
  if (!oc::AippFormatKnown(static_cast<int>(inputFormat)))
    return Fail(ACL_ERROR_INVALID_PARAM, std::string(__func__) + ": input format " +
                                             std::to_string(static_cast<int>(inputFormat)) +
                                             " is not an aclAippInputFormat OpenCANN supports");
  aippParmsSet->params.input_format = static_cast<uint8_t>(inputFormat);
  return ACL_SUCCESS;
}

aclError aclmdlSetAIPPCscParams(aclmdlAIPP* aippParmsSet, int8_t csc_switch, int16_t cscMatrixR0C0,
                                int16_t cscMatrixR0C1, int16_t cscMatrixR0C2, int16_t cscMatrixR1C0,
                                int16_t cscMatrixR1C1, int16_t cscMatrixR1C2, int16_t cscMatrixR2C0,
                                int16_t cscMatrixR2C1, int16_t cscMatrixR2C2,
                                uint8_t cscOutputBiasR0, uint8_t cscOutputBiasR1,
                                uint8_t cscOutputBiasR2, uint8_t cscInputBiasR0,
                                uint8_t cscInputBiasR1, uint8_t cscInputBiasR2) {
  auto write = oc::acl::WriteHandles();
  OC_ACL_CHECK_LIVE(aippParmsSet);
  if (aclError e = CheckSwitch(csc_switch, "csc_switch", __func__)) return e;
  auto& p = aippParmsSet->params;
  p.csc = csc_switch;
  const int16_t m[9] = {cscMatrixR0C0, cscMatrixR0C1, cscMatrixR0C2, cscMatrixR1C0, cscMatrixR1C1,
                        cscMatrixR1C2, cscMatrixR2C0, cscMatrixR2C1, cscMatrixR2C2};
  std::memcpy(p.matrix, m, sizeof(m));
  p.output_bias[0] = cscOutputBiasR0;
  p.output_bias[1] = cscOutputBiasR1;
  p.output_bias[2] = cscOutputBiasR2;
  p.input_bias[0] = cscInputBiasR0;
  p.input_bias[1] = cscInputBiasR1;
  p.input_bias[2] = cscInputBiasR2;
  return ACL_SUCCESS;
}

aclError aclmdlSetAIPPRbuvSwapSwitch(aclmdlAIPP* aippParmsSet, int8_t rbuvSwapSwitch) {
  auto write = oc::acl::WriteHandles();
  OC_ACL_CHECK_LIVE(aippParmsSet);
  if (aclError e = CheckSwitch(rbuvSwapSwitch, "rbuvSwapSwitch", __func__)) return e;
  aippParmsSet->params.rbuv_swap = rbuvSwapSwitch;
  return ACL_SUCCESS;
}

aclError aclmdlSetAIPPAxSwapSwitch(aclmdlAIPP* aippParmsSet, int8_t axSwapSwitch) {
  auto write = oc::acl::WriteHandles();
  OC_ACL_CHECK_LIVE(aippParmsSet);
  if (aclError e = CheckSwitch(axSwapSwitch, "axSwapSwitch", __func__)) return e;
  aippParmsSet->params.ax_swap = axSwapSwitch;
  return ACL_SUCCESS;
}

aclError aclmdlSetAIPPSrcImageSize(aclmdlAIPP* aippParmsSet, int32_t srcImageSizeW,
                                   int32_t srcImageSizeH) {
  auto write = oc::acl::WriteHandles();
  OC_ACL_CHECK_LIVE(aippParmsSet);
  if (srcImageSizeW <= 0 || srcImageSizeH <= 0 || srcImageSizeW > 4096 || srcImageSizeH > 4096)
    return Fail(ACL_ERROR_INVALID_PARAM,
                std::string(__func__) + ": image size " + std::to_string(srcImageSizeW) + "x" +
                    std::to_string(srcImageSizeH) + " is not within 1..4096");
  aippParmsSet->params.src_w = srcImageSizeW;
  aippParmsSet->params.src_h = srcImageSizeH;
  return ACL_SUCCESS;
}

aclError aclmdlSetAIPPScfParams(aclmdlAIPP* aippParmsSet, int8_t scfSwitch, int32_t scfInputSizeW,
                                int32_t scfInputSizeH, int32_t scfOutputSizeW,
                                int32_t scfOutputSizeH, uint64_t batchIndex) {
  auto write = oc::acl::WriteHandles();
  oc::AippBatchParams* b = nullptr;
  if (aclError e = BatchOf(aippParmsSet, batchIndex, __func__, &b)) return e;
  if (aclError e = CheckSwitch(scfSwitch, "scfSwitch", __func__)) return e;
  if (scfSwitch)
    return Fail(ACL_ERROR_FEATURE_UNSUPPORTED,
                std::string(__func__) +
                    ": resizing in dynamic AIPP is not supported by OpenCANN (nor by CANN's "
                    "current dynamic AIPP); resize before feeding the model");
  b->scf = 0;
  b->scf_in_w = scfInputSizeW;
  b->scf_in_h = scfInputSizeH;
  b->scf_out_w = scfOutputSizeW;
  b->scf_out_h = scfOutputSizeH;
  return ACL_SUCCESS;
}

aclError aclmdlSetAIPPCropParams(aclmdlAIPP* aippParmsSet, int8_t cropSwitch, int32_t cropStartPosW,
                                 int32_t cropStartPosH, int32_t cropSizeW, int32_t cropSizeH,
                                 uint64_t batchIndex) {
  auto write = oc::acl::WriteHandles();
  oc::AippBatchParams* b = nullptr;
  if (aclError e = BatchOf(aippParmsSet, batchIndex, __func__, &b)) return e;
  if (aclError e = CheckSwitch(cropSwitch, "cropSwitch", __func__)) return e;
  if (cropSwitch && (cropStartPosW < 0 || cropStartPosH < 0 || cropSizeW <= 0 || cropSizeH <= 0))
    return Fail(ACL_ERROR_INVALID_PARAM,
                std::string(__func__) + ": crop start must be >= 0 and crop size > 0");
  b->crop = cropSwitch;
  b->crop_x = cropStartPosW;
  b->crop_y = cropStartPosH;
  b->crop_w = cropSizeW;
  b->crop_h = cropSizeH;
  return ACL_SUCCESS;
}

aclError aclmdlSetAIPPPaddingParams(aclmdlAIPP* aippParmsSet, int8_t paddingSwitch,
                                    int32_t paddingSizeTop, int32_t paddingSizeBottom,
                                    int32_t paddingSizeLeft, int32_t paddingSizeRight,
                                    uint64_t batchIndex) {
  auto write = oc::acl::WriteHandles();
  oc::AippBatchParams* b = nullptr;
  if (aclError e = BatchOf(aippParmsSet, batchIndex, __func__, &b)) return e;
  if (aclError e = CheckSwitch(paddingSwitch, "paddingSwitch", __func__)) return e;
  for (int32_t v : {paddingSizeTop, paddingSizeBottom, paddingSizeLeft, paddingSizeRight})
    if (paddingSwitch && (v < 0 || v > 32))
      return Fail(
          ACL_ERROR_INVALID_PARAM,
          std::string(__func__) + ": padding sizes must be 0..32, not " + std::to_string(v));
  b->padding = paddingSwitch;
  b->pad_top = paddingSizeTop;
  b->pad_bottom = paddingSizeBottom;
  b->pad_left = paddingSizeLeft;
  b->pad_right = paddingSizeRight;
  return ACL_SUCCESS;
}

aclError aclmdlSetAIPPDtcPixelMean(aclmdlAIPP* aippParmsSet, int16_t dtcPixelMeanChn0,
                                   int16_t dtcPixelMeanChn1, int16_t dtcPixelMeanChn2,
                                   int16_t dtcPixelMeanChn3, uint64_t batchIndex) {
  auto write = oc::acl::WriteHandles();
  oc::AippBatchParams* b = nullptr;
  if (aclError e = BatchOf(aippParmsSet, batchIndex, __func__, &b)) return e;
  const int16_t v[4] = {dtcPixelMeanChn0, dtcPixelMeanChn1, dtcPixelMeanChn2, dtcPixelMeanChn3};
  std::memcpy(b->mean, v, sizeof(v));
  return ACL_SUCCESS;
}

// min and var_reci are held as fp16 by the NPU: stored so, rounded to nearest even.
aclError aclmdlSetAIPPDtcPixelMin(aclmdlAIPP* aippParmsSet, float dtcPixelMinChn0,
                                  float dtcPixelMinChn1, float dtcPixelMinChn2,
                                  float dtcPixelMinChn3, uint64_t batchIndex) {
  auto write = oc::acl::WriteHandles();
  oc::AippBatchParams* b = nullptr;
  if (aclError e = BatchOf(aippParmsSet, batchIndex, __func__, &b)) return e;
  const float v[4] = {dtcPixelMinChn0, dtcPixelMinChn1, dtcPixelMinChn2, dtcPixelMinChn3};
  for (int i = 0; i < 4; ++i) b->min[i] = oc::FloatToHalf(v[i]);
  return ACL_SUCCESS;
}

aclError aclmdlSetAIPPPixelVarReci(aclmdlAIPP* aippParmsSet, float dtcPixelVarReciChn0,
                                   float dtcPixelVarReciChn1, float dtcPixelVarReciChn2,
                                   float dtcPixelVarReciChn3, uint64_t batchIndex) {
  auto write = oc::acl::WriteHandles();
  oc::AippBatchParams* b = nullptr;
  if (aclError e = BatchOf(aippParmsSet, batchIndex, __func__, &b)) return e;
  const float v[4] = {dtcPixelVarReciChn0, dtcPixelVarReciChn1, dtcPixelVarReciChn2,
                      dtcPixelVarReciChn3};
  for (int i = 0; i < 4; ++i) b->var_reci[i] = oc::FloatToHalf(v[i]);
  return ACL_SUCCESS;
}

aclError aclmdlSetInputAIPP(uint32_t modelId, aclmdlDataset* dataset, size_t index,
                            const aclmdlAIPP* aippParmsSet) {
  OC_ACL_REQUIRE_INIT();
  auto read = oc::acl::ReadHandles();
  OC_ACL_CHECK_LIVE(dataset);
  OC_ACL_CHECK_LIVE(aippParmsSet);
  std::shared_ptr<oc::Model> m;
  if (aclError e = FindModelInput(modelId, index, __func__, &m)) return e;
  bool is_params = false;
  const oc::Node* n = AippNodeOf(*m, index, &is_params);
  if (!n || !IsDynamic(*n) || !is_params)
    return Fail(ACL_ERROR_INVALID_PARAM,
                std::string(__func__) + ": input " + std::to_string(index) +
                    " is not a dynamic AIPP parameter input (" ACL_DYNAMIC_AIPP_NAME
                    "); find it with aclmdlGetInputIndexByName or aclmdlGetAippType");
  return WriteParams(*m, *n, dataset, index, aippParmsSet, __func__);
}

aclError aclmdlSetAIPPByInputIndex(uint32_t modelId, aclmdlDataset* dataset, size_t index,
                                   const aclmdlAIPP* aippParmsSet) {
  OC_ACL_REQUIRE_INIT();
  auto read = oc::acl::ReadHandles();
  OC_ACL_CHECK_LIVE(dataset);
  OC_ACL_CHECK_LIVE(aippParmsSet);
  std::shared_ptr<oc::Model> m;
  if (aclError e = FindModelInput(modelId, index, __func__, &m)) return e;
  bool is_params = false;
  const oc::Node* n = AippNodeOf(*m, index, &is_params);
  if (!n || !IsDynamic(*n) || is_params)
    return Fail(ACL_ERROR_INVALID_PARAM, std::string(__func__) + ": input " +
                                             std::to_string(index) +
                                             " is not an image input with dynamic AIPP");
  return WriteParams(*m, *n, dataset, InputIndexOf(*m, n->inputs[1]), aippParmsSet, __func__);
}

}  // extern "C"
