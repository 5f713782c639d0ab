// DVPP's batch pictures and batch crops: each region is one VPC operation (acl_dvpp_ops.cpp's
// RunVpc) from its source picture into the next destination picture, after the batch rules.
#include <new>
#include <vector>

#include "acl/acl_dvpp_objects.h"
#include "acl/acl_internal_abi.h"

using oc::acl_dvpp::Fail;
using oc::acl_dvpp::Kind;

struct acldvppBatchPicDesc {
  std::vector<acldvppPicDesc*> pictures;
};

namespace {

// The batch rules, then run(source picture, destination picture, region index) per region.
template <typename Run>
aclError ForEachRegion(const char* fn, acldvppBatchPicDesc* src, const uint32_t* roi_nums,
                       uint32_t size, acldvppBatchPicDesc* dst, acldvppRoiConfig* const crops[],
                       bool has_second, const void* second, Run run) {
  std::vector<acldvppPicDesc*> in, out;
  {
    std::lock_guard<std::mutex> lock(oc::acl_dvpp::Mutex());
    if (!src || !oc::acl_dvpp::Live(src, Kind::kBatchPicDesc) || !dst ||
        !oc::acl_dvpp::Live(dst, Kind::kBatchPicDesc))
      return Fail(ACL_ERROR_INVALID_PARAM,
                  std::string(fn) + ": the source or destination batch is not a live handle");
    in = src->pictures;
    out = dst->pictures;
  }
  if (size < 1 || size > in.size())
    return Fail(ACL_ERROR_INVALID_PARAM, std::string(fn) + ": size " + std::to_string(size) +
                                             " must be 1 to the source batch's " +
                                             std::to_string(in.size()));
  if (!roi_nums || !oc_internal_host_range_mapped(roi_nums, size * sizeof(uint32_t)))
    return Fail(ACL_ERROR_INVALID_PARAM,
                std::string(fn) + ": roiNums is not an array of " + std::to_string(size));
  uint64_t total = 0;
  for (uint32_t i = 0; i < size; ++i) {
    if (roi_nums[i] < 1 || roi_nums[i] > 65535)
      return Fail(ACL_ERROR_INVALID_PARAM,
                  std::string(fn) + ": roiNums[" + std::to_string(i) + "] must be 1 to 65535");
    total += roi_nums[i];
  }
  if (total > 256 || total > out.size())
    return Fail(ACL_ERROR_INVALID_PARAM,
                std::string(fn) + ": " + std::to_string(total) +
                    " regions; a call takes at most 256 and the destination batch holds " +
                    std::to_string(out.size()));
  // second: the paste or border array that goes with the crops, if the call takes one.
  if (!crops || !oc_internal_host_range_mapped(crops, total * sizeof(void*)) ||
      (has_second && (!second || !oc_internal_host_range_mapped(second, total * sizeof(void*)))))
    return Fail(ACL_ERROR_INVALID_PARAM, std::string(fn) + ": the region arrays do not hold " +
                                             std::to_string(total) + " regions");
  // A null region would read as "the whole picture" in a single-picture call: refused here.
  const auto* seconds = static_cast<const void* const*>(second);
  for (uint64_t k = 0; k < total; ++k)
    if (!crops[k] || (has_second && !seconds[k]))
      return Fail(ACL_ERROR_INVALID_PARAM,
                  std::string(fn) + ": region " + std::to_string(k) + " of the arrays is null");
  uint32_t k = 0;
  for (uint32_t i = 0; i < size; ++i)
    for (uint32_t j = 0; j < roi_nums[i]; ++j, ++k)
      if (aclError e = run(in[i], out[k], k)) return e;
  return ACL_SUCCESS;
}

aclError Batch(const char* fn, acldvppChannelDesc* ch, acldvppBatchPicDesc* src,
               const uint32_t* roi_nums, uint32_t size, acldvppBatchPicDesc* dst,
               acldvppRoiConfig* const crops[], acldvppRoiConfig* const pastes[],
               acldvppResizeConfig* resize, aclrtStream stream, bool need_pastes) {
  return ForEachRegion(fn, src, roi_nums, size, dst, crops, need_pastes, pastes,
                       [&](acldvppPicDesc* in, acldvppPicDesc* out, uint32_t k) {
                         return oc::acl_dvpp::RunVpc(fn, ch, in, out, crops[k],
                                                     need_pastes ? pastes[k] : nullptr, resize,
                                                     stream, false);
                       });
}

}  // namespace

extern "C" {

acldvppBatchPicDesc* acldvppCreateBatchPicDesc(uint32_t batchSize) {
  if (batchSize == 0 || batchSize > 1024) return nullptr;
  auto* b = new (std::nothrow) acldvppBatchPicDesc();
  if (!b) return nullptr;
  for (uint32_t i = 0; i < batchSize; ++i) {
    acldvppPicDesc* p = acldvppCreatePicDesc();
    if (!p) {
      for (auto* q : b->pictures) acldvppDestroyPicDesc(q);
      delete b;
      return nullptr;
    }
    b->pictures.push_back(p);
  }
  std::lock_guard<std::mutex> lock(oc::acl_dvpp::Mutex());
  oc::acl_dvpp::Add(b, Kind::kBatchPicDesc);
  return b;
}

acldvppPicDesc* acldvppGetPicDesc(acldvppBatchPicDesc* b, uint32_t index) {
  std::lock_guard<std::mutex> lock(oc::acl_dvpp::Mutex());
  if (!b || !oc::acl_dvpp::Live(b, Kind::kBatchPicDesc) || index >= b->pictures.size())
    return nullptr;
  return b->pictures[index];
}

aclError acldvppDestroyBatchPicDesc(acldvppBatchPicDesc* b) {
  {
    std::lock_guard<std::mutex> lock(oc::acl_dvpp::Mutex());
    if (!b || !oc::acl_dvpp::Remove(b, Kind::kBatchPicDesc))
      return Fail(ACL_ERROR_INVALID_PARAM, "acldvppDestroyBatchPicDesc: not a live handle");
  }
  for (auto* p : b->pictures) acldvppDestroyPicDesc(p);
  delete b;
  return ACL_SUCCESS;
}

aclError acldvppVpcBatchCropAsync(acldvppChannelDesc* ch, acldvppBatchPicDesc* src,
                                  uint32_t* roiNums, uint32_t size, acldvppBatchPicDesc* dst,
                                  acldvppRoiConfig* cropAreas[], aclrtStream stream) {
  return Batch(__func__, ch, src, roiNums, size, dst, cropAreas, nullptr, nullptr, stream, false);
}

aclError acldvppVpcBatchCropResizeAsync(acldvppChannelDesc* ch, acldvppBatchPicDesc* src,
                                        uint32_t* roiNums, uint32_t size, acldvppBatchPicDesc* dst,
                                        acldvppRoiConfig* cropAreas[], acldvppResizeConfig* resize,
                                        aclrtStream stream) {
  if (!resize)
    return Fail(ACL_ERROR_INVALID_PARAM, "acldvppVpcBatchCropResizeAsync: no resizeConfig");
  return Batch(__func__, ch, src, roiNums, size, dst, cropAreas, nullptr, resize, stream, false);
}

aclError acldvppVpcBatchCropAndPasteAsync(acldvppChannelDesc* ch, acldvppBatchPicDesc* src,
                                          uint32_t* roiNums, uint32_t size,
                                          acldvppBatchPicDesc* dst, acldvppRoiConfig* cropAreas[],
                                          acldvppRoiConfig* pasteAreas[], aclrtStream stream) {
  return Batch(__func__, ch, src, roiNums, size, dst, cropAreas, pasteAreas, nullptr, stream, true);
}

aclError acldvppVpcBatchCropResizePasteAsync(acldvppChannelDesc* ch, acldvppBatchPicDesc* src,
                                             uint32_t* roiNums, uint32_t size,
                                             acldvppBatchPicDesc* dst,
                                             acldvppRoiConfig* cropAreas[],
                                             acldvppRoiConfig* pasteAreas[],
                                             acldvppResizeConfig* resize, aclrtStream stream) {
  if (!resize)
    return Fail(ACL_ERROR_INVALID_PARAM, "acldvppVpcBatchCropResizePasteAsync: no resizeConfig");
  return Batch(__func__, ch, src, roiNums, size, dst, cropAreas, pasteAreas, resize, stream, true);
}

aclError acldvppVpcBatchCropResizeMakeBorderAsync(acldvppChannelDesc* ch, acldvppBatchPicDesc* src,
                                                  uint32_t* roiNums, uint32_t size,
                                                  acldvppBatchPicDesc* dst,
                                                  acldvppRoiConfig* cropAreas[],
                                                  acldvppBorderConfig* borderCfgs[],
                                                  acldvppResizeConfig* resize, aclrtStream stream) {
  const char* fn = __func__;
  const oc::dvpp::Chip chip = oc::acl_dvpp::CurrentChip();
  if (chip == oc::dvpp::Chip::k310 || chip == oc::dvpp::Chip::k910)
    return oc::acl_dvpp::Unavailable(fn, chip);
  if (!resize) return Fail(ACL_ERROR_INVALID_PARAM, std::string(fn) + ": no resizeConfig");
  return ForEachRegion(
      fn, src, roiNums, size, dst, cropAreas, true, borderCfgs,
      [&](acldvppPicDesc* in, acldvppPicDesc* out, uint32_t k) -> aclError {
        oc::dvpp::Picture pin, pout;
        if (aclError e = oc::acl_dvpp::BeginVpc(fn, ch, in, out, stream, &pin, &pout)) return e;
        oc::dvpp::Roi crop;
        acldvppBorderConfig border;
        uint32_t interpolation = 0;
        {
          std::lock_guard<std::mutex> lock(oc::acl_dvpp::Mutex());
          using oc::acl_dvpp::Live;
          if (!cropAreas[k] || !Live(cropAreas[k], Kind::kRoi) || !borderCfgs[k] ||
              !Live(borderCfgs[k], Kind::kBorderConfig) || !Live(resize, Kind::kResize))
            return Fail(ACL_ERROR_INVALID_PARAM,
                        std::string(fn) + ": region " + std::to_string(k) +
                            "'s crop, border configuration or the resizeConfig is not a live "
                            "handle");
          crop = cropAreas[k]->roi;
          border = *borderCfgs[k];
          interpolation = resize->interpolation;
        }
        oc::Status s = oc::dvpp::CheckRoi(crop, pin, chip, false, "the crop region");
        if (s.ok()) s = oc::dvpp::CheckInterpolation(interpolation, chip);
        if (s.ok())
          s = oc::dvpp::CropResizeMakeBorder(pin, crop, pout, border.top, border.bottom,
                                             border.left, border.right, border.type, border.value,
                                             interpolation, chip);
        if (!s.ok()) return oc::acl_dvpp::FailStatus(s, fn);
        oc::acl_dvpp::SetPicRetCode(out, 0);
        return ACL_SUCCESS;
      });
}

}  // extern "C"
