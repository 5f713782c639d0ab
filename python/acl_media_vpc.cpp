// pyACL's `acl.media`, VPC beyond single-picture crop and resize: borders, batches,
// histograms, colour remapping and the pyramid step (acl_media.cpp has the rest).
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <cstdint>
#include <initializer_list>
#include <string>
#include <vector>

#include "acl/acl_internal_abi.h"
#include "acl/ops/acl_dvpp.h"
#include "acl_media_handles.h"

namespace py = pybind11;

namespace {

using oc_media::H;
using oc_media::I;

template <typename T = acldvppRoiConfig>
std::vector<T*> Handles(const std::vector<uintptr_t>& handles) {
  std::vector<T*> out;
  for (uintptr_t h : handles) out.push_back(H<T>(h));
  return out;
}

// The C calls read sum(roi_nums[:size]) handles from each list: a shorter list is refused
// here, before C reads past it.
aclError CheckLists(const char* fn, const std::vector<uint32_t>& nums, size_t size,
                    std::initializer_list<size_t> list_sizes) {
  uint64_t total = 0;
  for (size_t i = 0; i < size && i < nums.size(); ++i) total += nums[i];
  bool ok = nums.size() >= size;
  for (size_t n : list_sizes) ok = ok && n >= total;
  if (ok) return ACL_SUCCESS;
  const std::string message = std::string("acl.media.") + fn +
                              ": roi_nums has fewer than size entries, or a region list holds "
                              "fewer handles than the " +
                              std::to_string(total) + " regions roi_nums counts";
  oc_internal_acl_fail(ACL_ERROR_INVALID_PARAM, message.c_str());
  return ACL_ERROR_INVALID_PARAM;
}

void BindBorder(py::module_& media) {
  media.def("dvpp_create_border_config", [] { return I(acldvppCreateBorderConfig()); });
  media.def(
      "dvpp_destroy_border_config",
      [](uintptr_t c) { return acldvppDestroyBorderConfig(H<acldvppBorderConfig>(c)); },
      py::arg("border_config"));
  media.def(
      "dvpp_set_border_config_value",
      [](uintptr_t c, uint32_t i, double v) {
        return acldvppSetBorderConfigValue(H<acldvppBorderConfig>(c), i, v);
      },
      py::arg("border_config"), py::arg("index"), py::arg("value"));
  media.def(
      "dvpp_set_border_config_border_type",
      [](uintptr_t c, int t) {
        return acldvppSetBorderConfigBorderType(H<acldvppBorderConfig>(c),
                                                static_cast<acldvppBorderType>(t));
      },
      py::arg("border_config"), py::arg("border_type"));
#define OC_BORDER_SET(py_name, c_fn)                                                       \
  media.def(                                                                               \
      py_name, [](uintptr_t c, uint32_t v) { return c_fn(H<acldvppBorderConfig>(c), v); }, \
      py::arg("border_config"), py::arg("value"));
  OC_BORDER_SET("dvpp_set_border_config_top", acldvppSetBorderConfigTop)
  OC_BORDER_SET("dvpp_set_border_config_bottom", acldvppSetBorderConfigBottom)
  OC_BORDER_SET("dvpp_set_border_config_left", acldvppSetBorderConfigLeft)
  OC_BORDER_SET("dvpp_set_border_config_right", acldvppSetBorderConfigRight)
#undef OC_BORDER_SET
  media.def(
      "dvpp_vpc_make_border_async",
      [](uintptr_t d, uintptr_t in, uintptr_t out, uintptr_t c, uintptr_t s) {
        py::gil_scoped_release release;
        return acldvppVpcMakeBorderAsync(H<acldvppChannelDesc>(d), H<acldvppPicDesc>(in),
                                         H<acldvppPicDesc>(out), H<acldvppBorderConfig>(c),
                                         H<void>(s));
      },
      py::arg("channel_desc"), py::arg("input_desc"), py::arg("output_desc"),
      py::arg("border_config"), py::arg("stream"));
}

void BindBatch(py::module_& media) {
  media.def(
      "dvpp_create_batch_pic_desc", [](uint32_t n) { return I(acldvppCreateBatchPicDesc(n)); },
      py::arg("batch_size"));
  media.def(
      "dvpp_get_pic_desc",
      [](uintptr_t b, uint32_t i) { return I(acldvppGetPicDesc(H<acldvppBatchPicDesc>(b), i)); },
      py::arg("batch_pic_desc"), py::arg("index"));
  media.def(
      "dvpp_destroy_batch_pic_desc",
      [](uintptr_t b) { return acldvppDestroyBatchPicDesc(H<acldvppBatchPicDesc>(b)); },
      py::arg("batch_pic_desc"));
  // roi_nums and the region lists are Python lists (of counts and of handles), as pyACL's.
  media.def(
      "dvpp_vpc_batch_crop_async",
      [](uintptr_t d, uintptr_t src, std::vector<uint32_t> nums, uint32_t size, uintptr_t dst,
         std::vector<uintptr_t> crops, uintptr_t s) {
        if (aclError e = CheckLists("dvpp_vpc_batch_crop_async", nums, size, {crops.size()}))
          return e;
        auto c = Handles(crops);
        py::gil_scoped_release release;
        return acldvppVpcBatchCropAsync(H<acldvppChannelDesc>(d), H<acldvppBatchPicDesc>(src),
                                        nums.data(), size, H<acldvppBatchPicDesc>(dst), c.data(),
                                        H<void>(s));
      },
      py::arg("channel_desc"), py::arg("src_batch_desc"), py::arg("roi_nums"), py::arg("size"),
      py::arg("dst_batch_desc"), py::arg("crop_area"), py::arg("stream"));
  media.def(
      "dvpp_vpc_batch_crop_resize_async",
      [](uintptr_t d, uintptr_t src, std::vector<uint32_t> nums, uint32_t size, uintptr_t dst,
         std::vector<uintptr_t> crops, uintptr_t rc, uintptr_t s) {
        if (aclError e = CheckLists("dvpp_vpc_batch_crop_resize_async", nums, size, {crops.size()}))
          return e;
        auto c = Handles(crops);
        py::gil_scoped_release release;
        return acldvppVpcBatchCropResizeAsync(H<acldvppChannelDesc>(d), H<acldvppBatchPicDesc>(src),
                                              nums.data(), size, H<acldvppBatchPicDesc>(dst),
                                              c.data(), H<acldvppResizeConfig>(rc), H<void>(s));
      },
      py::arg("channel_desc"), py::arg("src_batch_desc"), py::arg("roi_nums"), py::arg("size"),
      py::arg("dst_batch_desc"), py::arg("crop_area"), py::arg("resize_config"), py::arg("stream"));
  media.def(
      "dvpp_vpc_batch_crop_and_paste_async",
      [](uintptr_t d, uintptr_t src, std::vector<uint32_t> nums, uint32_t size, uintptr_t dst,
         std::vector<uintptr_t> crops, std::vector<uintptr_t> pastes, uintptr_t s) {
        if (aclError e = CheckLists("dvpp_vpc_batch_crop_and_paste_async", nums, size,
                                    {crops.size(), pastes.size()}))
          return e;
        auto c = Handles(crops), p = Handles(pastes);
        py::gil_scoped_release release;
        return acldvppVpcBatchCropAndPasteAsync(
            H<acldvppChannelDesc>(d), H<acldvppBatchPicDesc>(src), nums.data(), size,
            H<acldvppBatchPicDesc>(dst), c.data(), p.data(), H<void>(s));
      },
      py::arg("channel_desc"), py::arg("src_batch_desc"), py::arg("roi_nums"), py::arg("size"),
      py::arg("dst_batch_desc"), py::arg("crop_area"), py::arg("paste_area"), py::arg("stream"));
  // CANN's Python form takes no size: it is len(roi_nums).
  media.def(
      "dvpp_vpc_batch_crop_resize_make_border_async",
      [](uintptr_t d, uintptr_t src, std::vector<uint32_t> nums, uintptr_t dst,
         std::vector<uintptr_t> crops, std::vector<uintptr_t> borders, uintptr_t rc, uintptr_t s) {
        if (aclError e = CheckLists("dvpp_vpc_batch_crop_resize_make_border_async", nums,
                                    nums.size(), {crops.size(), borders.size()}))
          return e;
        auto c = Handles(crops);
        auto b = Handles<acldvppBorderConfig>(borders);
        py::gil_scoped_release release;
        return acldvppVpcBatchCropResizeMakeBorderAsync(
            H<acldvppChannelDesc>(d), H<acldvppBatchPicDesc>(src), nums.data(),
            static_cast<uint32_t>(nums.size()), H<acldvppBatchPicDesc>(dst), c.data(), b.data(),
            H<acldvppResizeConfig>(rc), H<void>(s));
      },
      py::arg("channel_desc"), py::arg("src_batch_pic_descs"), py::arg("roi_nums"),
      py::arg("dst_batch_pic_descs"), py::arg("crop_area"), py::arg("border_cfgs"),
      py::arg("resize_config"), py::arg("stream"));
}

void BindHistograms(py::module_& media) {
  media.def("dvpp_create_lut_map", [] { return I(acldvppCreateLutMap()); });
  media.def(
      "dvpp_destroy_lut_map", [](uintptr_t m) { return acldvppDestroyLutMap(H<acldvppLutMap>(m)); },
      py::arg("lut_map"));
  media.def(
      "dvpp_get_lut_map_dims",
      [](uintptr_t m) { return acldvppGetLutMapDims(H<acldvppLutMap>(m)); }, py::arg("lut_map"));
  // (address of the table, its length, ret): the application writes the table there.
  media.def(
      "dvpp_get_lut_map_data",
      [](uintptr_t m, uint32_t dim) {
        uint8_t* data = nullptr;
        uint32_t len = 0;
        const aclError ret = acldvppGetLutMapData(H<acldvppLutMap>(m), dim, &data, &len);
        return py::make_tuple(I(data), len, ret);
      },
      py::arg("lut_map"), py::arg("dim"));
  media.def("dvpp_create_hist", [] { return I(acldvppCreateHist()); });
  media.def(
      "dvpp_destroy_hist", [](uintptr_t h) { return acldvppDestroyHist(H<acldvppHist>(h)); },
      py::arg("hist"));
  media.def(
      "dvpp_get_hist_dims", [](uintptr_t h) { return acldvppGetHistDims(H<acldvppHist>(h)); },
      py::arg("hist"));
  media.def(
      "dvpp_get_hist_data",
      [](uintptr_t h, uint32_t dim) {
        uint32_t* data = nullptr;
        uint16_t len = 0;
        const aclError ret = acldvppGetHistData(H<acldvppHist>(h), dim, &data, &len);
        return py::make_tuple(I(data), static_cast<uint32_t>(len), ret);
      },
      py::arg("hist"), py::arg("dim"));
  media.def(
      "dvpp_get_hist_ret_code",
      [](uintptr_t h) { return acldvppGetHistRetCode(H<acldvppHist>(h)); }, py::arg("hist"));
  media.def(
      "dvpp_clear_hist", [](uintptr_t h) { return acldvppClearHist(H<acldvppHist>(h)); },
      py::arg("hist"));
  media.def(
      "dvpp_vpc_calc_hist_async",
      [](uintptr_t d, uintptr_t in, uintptr_t h, uintptr_t reserve, uintptr_t s) {
        py::gil_scoped_release release;
        return acldvppVpcCalcHistAsync(H<acldvppChannelDesc>(d), H<acldvppPicDesc>(in),
                                       H<acldvppHist>(h), H<void>(reserve), H<void>(s));
      },
      py::arg("channel_desc"), py::arg("src_pic_desc"), py::arg("hist"), py::arg("reserve"),
      py::arg("stream"));
  media.def(
      "dvpp_vpc_equalize_hist_async",
      [](uintptr_t d, uintptr_t in, uintptr_t out, uintptr_t m, uintptr_t s) {
        py::gil_scoped_release release;
        return acldvppVpcEqualizeHistAsync(H<acldvppChannelDesc>(d), H<acldvppPicDesc>(in),
                                           H<acldvppPicDesc>(out), H<acldvppLutMap>(m), H<void>(s));
      },
      py::arg("channel_desc"), py::arg("input_desc"), py::arg("output_desc"), py::arg("lut_map"),
      py::arg("stream"));
  media.def(
      "dvpp_vpc_pyr_down_async",
      [](uintptr_t d, uintptr_t in, uintptr_t out, uintptr_t reserve, uintptr_t s) {
        py::gil_scoped_release release;
        return acldvppVpcPyrDownAsync(H<acldvppChannelDesc>(d), H<acldvppPicDesc>(in),
                                      H<acldvppPicDesc>(out), H<void>(reserve), H<void>(s));
      },
      py::arg("channel_desc"), py::arg("input_desc"), py::arg("output_desc"), py::arg("reserve"),
      py::arg("stream"));
}

}  // namespace

void BindMediaVpc(py::module_& media) {
  BindBorder(media);
  BindBatch(media);
  BindHistograms(media);
}
