// pyACL's `acl.media`: DVPP as CANN's Python API names it (handles and pointers are ints, 0
// for a failed create; calls return the error code, getters the value, and calls that
// produce values a tuple ending in the code).
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <cstdint>
#include <map>
#include <memory>
#include <mutex>
#include <vector>

#include "acl/acl_internal_abi.h"
#include "acl/ops/acl_dvpp.h"
#include "acl_media_handles.h"

namespace py = pybind11;

namespace {

using oc_media::H;
using oc_media::I;

void BindPicDesc(py::module_& media) {
  media.def("dvpp_create_pic_desc", [] { return I(acldvppCreatePicDesc()); });
  media.def(
      "dvpp_destroy_pic_desc",
      [](uintptr_t p) { return acldvppDestroyPicDesc(H<acldvppPicDesc>(p)); }, py::arg("pic_desc"));
  media.def(
      "dvpp_set_pic_desc_data",
      [](uintptr_t p, uintptr_t data) {
        return acldvppSetPicDescData(H<acldvppPicDesc>(p), H<void>(data));
      },
      py::arg("pic_desc"), py::arg("data_dev"));
  media.def(
      "dvpp_set_pic_desc_format",
      [](uintptr_t p, int format) {
        return acldvppSetPicDescFormat(H<acldvppPicDesc>(p),
                                       static_cast<acldvppPixelFormat>(format));
      },
      py::arg("pic_desc"), py::arg("format"));
#define OC_SETTER(py_name, c_fn)                                                      \
  media.def(                                                                          \
      py_name, [](uintptr_t p, uint32_t v) { return c_fn(H<acldvppPicDesc>(p), v); }, \
      py::arg("pic_desc"), py::arg("value"));
  OC_SETTER("dvpp_set_pic_desc_size", acldvppSetPicDescSize)
  OC_SETTER("dvpp_set_pic_desc_width", acldvppSetPicDescWidth)
  OC_SETTER("dvpp_set_pic_desc_height", acldvppSetPicDescHeight)
  OC_SETTER("dvpp_set_pic_desc_width_stride", acldvppSetPicDescWidthStride)
  OC_SETTER("dvpp_set_pic_desc_height_stride", acldvppSetPicDescHeightStride)
  OC_SETTER("dvpp_set_pic_desc_ret_code", acldvppSetPicDescRetCode)
#undef OC_SETTER
  media.def(
      "dvpp_get_pic_desc_data",
      [](uintptr_t p) { return I(acldvppGetPicDescData(H<acldvppPicDesc>(p))); },
      py::arg("pic_desc"));
  media.def(
      "dvpp_get_pic_desc_format",
      [](uintptr_t p) { return static_cast<int>(acldvppGetPicDescFormat(H<acldvppPicDesc>(p))); },
      py::arg("pic_desc"));
#define OC_GETTER(py_name, c_fn) \
  media.def(                     \
      py_name, [](uintptr_t p) { return c_fn(H<acldvppPicDesc>(p)); }, py::arg("pic_desc"));
  OC_GETTER("dvpp_get_pic_desc_size", acldvppGetPicDescSize)
  OC_GETTER("dvpp_get_pic_desc_width", acldvppGetPicDescWidth)
  OC_GETTER("dvpp_get_pic_desc_height", acldvppGetPicDescHeight)
  OC_GETTER("dvpp_get_pic_desc_width_stride", acldvppGetPicDescWidthStride)
  OC_GETTER("dvpp_get_pic_desc_height_stride", acldvppGetPicDescHeightStride)
  OC_GETTER("dvpp_get_pic_desc_ret_code", acldvppGetPicDescRetCode)
#undef OC_GETTER
}

void BindConfigs(py::module_& media) {
  media.def("dvpp_create_channel_desc", [] { return I(acldvppCreateChannelDesc()); });
  media.def(
      "dvpp_destroy_channel_desc",
      [](uintptr_t d) { return acldvppDestroyChannelDesc(H<acldvppChannelDesc>(d)); },
      py::arg("channel_desc"));
  media.def(
      "dvpp_create_channel",
      [](uintptr_t d) { return acldvppCreateChannel(H<acldvppChannelDesc>(d)); },
      py::arg("channel_desc"));
  media.def(
      "dvpp_destroy_channel",
      [](uintptr_t d) { return acldvppDestroyChannel(H<acldvppChannelDesc>(d)); },
      py::arg("channel_desc"));
  media.def(
      "dvpp_set_channel_desc_mode",
      [](uintptr_t d, uint32_t mode) {
        return acldvppSetChannelDescMode(H<acldvppChannelDesc>(d), mode);
      },
      py::arg("channel_desc"), py::arg("mode"));
  media.def(
      "dvpp_get_channel_desc_channel_id",
      [](uintptr_t d) { return acldvppGetChannelDescChannelId(H<acldvppChannelDesc>(d)); },
      py::arg("channel_desc"));
  media.def(
      "dvpp_create_roi_config",
      [](uint32_t l, uint32_t r, uint32_t t, uint32_t b) {
        return I(acldvppCreateRoiConfig(l, r, t, b));
      },
      py::arg("left"), py::arg("right"), py::arg("top"), py::arg("bottom"));
  media.def(
      "dvpp_destroy_roi_config",
      [](uintptr_t c) { return acldvppDestroyRoiConfig(H<acldvppRoiConfig>(c)); },
      py::arg("roi_config"));
  media.def(
      "dvpp_set_roi_config",
      [](uintptr_t c, uint32_t l, uint32_t r, uint32_t t, uint32_t b) {
        return acldvppSetRoiConfig(H<acldvppRoiConfig>(c), l, r, t, b);
      },
      py::arg("roi_config"), py::arg("left"), py::arg("right"), py::arg("top"), py::arg("bottom"));
  media.def("dvpp_create_resize_config", [] { return I(acldvppCreateResizeConfig()); });
  media.def(
      "dvpp_destroy_resize_config",
      [](uintptr_t c) { return acldvppDestroyResizeConfig(H<acldvppResizeConfig>(c)); },
      py::arg("resize_config"));
  media.def(
      "dvpp_set_resize_config_interpolation",
      [](uintptr_t c, uint32_t v) {
        return acldvppSetResizeConfigInterpolation(H<acldvppResizeConfig>(c), v);
      },
      py::arg("resize_config"), py::arg("interpolation"));
  media.def(
      "dvpp_get_resize_config_interpolation",
      [](uintptr_t c) { return acldvppGetResizeConfigInterpolation(H<acldvppResizeConfig>(c)); },
      py::arg("resize_config"));
}

void BindWork(py::module_& media) {
  media.def(
      "dvpp_malloc",
      [](size_t size) {
        void* p = nullptr;
        aclError ret = acldvppMalloc(&p, size);
        return py::make_tuple(I(p), ret);
      },
      py::arg("size"));
  media.def(
      "dvpp_free", [](uintptr_t p) { return acldvppFree(H<void>(p)); }, py::arg("dev_ptr"));
  media.def(
      "dvpp_vpc_resize_async",
      [](uintptr_t d, uintptr_t in, uintptr_t out, uintptr_t rc, uintptr_t s) {
        py::gil_scoped_release release;
        return acldvppVpcResizeAsync(H<acldvppChannelDesc>(d), H<acldvppPicDesc>(in),
                                     H<acldvppPicDesc>(out), H<acldvppResizeConfig>(rc),
                                     H<void>(s));
      },
      py::arg("channel_desc"), py::arg("input_desc"), py::arg("output_desc"),
      py::arg("resize_config"), py::arg("stream"));
  media.def(
      "dvpp_vpc_crop_async",
      [](uintptr_t d, uintptr_t in, uintptr_t out, uintptr_t crop, uintptr_t s) {
        py::gil_scoped_release release;
        return acldvppVpcCropAsync(H<acldvppChannelDesc>(d), H<acldvppPicDesc>(in),
                                   H<acldvppPicDesc>(out), H<acldvppRoiConfig>(crop), H<void>(s));
      },
      py::arg("channel_desc"), py::arg("input_desc"), py::arg("output_desc"), py::arg("crop_area"),
      py::arg("stream"));
  media.def(
      "dvpp_vpc_crop_and_paste_async",
      [](uintptr_t d, uintptr_t in, uintptr_t out, uintptr_t crop, uintptr_t paste, uintptr_t s) {
        py::gil_scoped_release release;
        return acldvppVpcCropAndPasteAsync(H<acldvppChannelDesc>(d), H<acldvppPicDesc>(in),
                                           H<acldvppPicDesc>(out), H<acldvppRoiConfig>(crop),
                                           H<acldvppRoiConfig>(paste), H<void>(s));
      },
      py::arg("channel_desc"), py::arg("input_desc"), py::arg("output_desc"), py::arg("crop_area"),
      py::arg("paste_area"), py::arg("stream"));
  media.def(
      "dvpp_vpc_crop_resize_paste_async",
      [](uintptr_t d, uintptr_t in, uintptr_t out, uintptr_t crop, uintptr_t paste, uintptr_t rc,
         uintptr_t s) {
        py::gil_scoped_release release;
        return acldvppVpcCropResizePasteAsync(H<acldvppChannelDesc>(d), H<acldvppPicDesc>(in),
                                              H<acldvppPicDesc>(out), H<acldvppRoiConfig>(crop),
                                              H<acldvppRoiConfig>(paste),
                                              H<acldvppResizeConfig>(rc), H<void>(s));
      },
      py::arg("channel_desc"), py::arg("input_desc"), py::arg("output_desc"), py::arg("crop_area"),
      py::arg("paste_area"), py::arg("resize_config"), py::arg("stream"));
  media.def(
      "dvpp_vpc_convert_color_async",
      [](uintptr_t d, uintptr_t in, uintptr_t out, uintptr_t s) {
        py::gil_scoped_release release;
        return acldvppVpcConvertColorAsync(H<acldvppChannelDesc>(d), H<acldvppPicDesc>(in),
                                           H<acldvppPicDesc>(out), H<void>(s));
      },
      py::arg("channel_desc"), py::arg("input_desc"), py::arg("output_desc"), py::arg("stream"));
  media.def(
      "dvpp_jpeg_get_image_info",
      [](uintptr_t data, uint32_t size) {
        uint32_t w = 0, h = 0;
        int32_t c = 0;
        aclError ret = acldvppJpegGetImageInfo(H<void>(data), size, &w, &h, &c);
        return py::make_tuple(w, h, c, ret);
      },
      py::arg("data"), py::arg("size"));
  media.def(
      "dvpp_jpeg_get_image_info_v2",
      [](uintptr_t data, uint32_t size) {
        uint32_t w = 0, h = 0;
        int32_t c = 0;
        acldvppJpegFormat f = ACL_JPEG_CSS_UNKNOWN;
        aclError ret = acldvppJpegGetImageInfoV2(H<void>(data), size, &w, &h, &c, &f);
        return py::make_tuple(w, h, c, static_cast<int>(f), ret);
      },
      py::arg("data"), py::arg("size"));
  media.def(
      "dvpp_jpeg_predict_dec_size",
      [](uintptr_t data, uint32_t size, int format) {
        uint32_t out = 0;
        aclError ret = acldvppJpegPredictDecSize(H<void>(data), size,
                                                 static_cast<acldvppPixelFormat>(format), &out);
        return py::make_tuple(out, ret);
      },
      py::arg("data"), py::arg("data_size"), py::arg("output_pixel_format"));
  media.def(
      "dvpp_png_get_image_info",
      [](uintptr_t data, uint32_t size) {
        uint32_t w = 0, h = 0;
        int32_t c = 0;
        aclError ret = acldvppPngGetImageInfo(H<void>(data), size, &w, &h, &c);
        return py::make_tuple(w, h, c, ret);
      },
      py::arg("data"), py::arg("size"));
  media.def(
      "dvpp_png_predict_dec_size",
      [](uintptr_t data, uint32_t size, int format) {
        uint32_t out = 0;
        aclError ret = acldvppPngPredictDecSize(H<void>(data), size,
                                                static_cast<acldvppPixelFormat>(format), &out);
        return py::make_tuple(out, ret);
      },
      py::arg("data"), py::arg("data_size"), py::arg("output_pixel_format"));
  media.def(
      "dvpp_png_decode_async",
      [](uintptr_t d, uintptr_t data, uint32_t size, uintptr_t out, uintptr_t s) {
        py::gil_scoped_release release;
        return acldvppPngDecodeAsync(H<acldvppChannelDesc>(d), H<void>(data), size,
                                     H<acldvppPicDesc>(out), H<void>(s));
      },
      py::arg("channel_desc"), py::arg("data"), py::arg("size"), py::arg("output_desc"),
      py::arg("stream"));
  media.def("dvpp_create_jpege_config", [] { return I(acldvppCreateJpegeConfig()); });
  media.def(
      "dvpp_destroy_jpege_config",
      [](uintptr_t c) { return acldvppDestroyJpegeConfig(H<acldvppJpegeConfig>(c)); },
      py::arg("jpege_config"));
  media.def(
      "dvpp_set_jpege_config_level",
      [](uintptr_t c, uint32_t level) {
        return acldvppSetJpegeConfigLevel(H<acldvppJpegeConfig>(c), level);
      },
      py::arg("jpege_config"), py::arg("level"));
  media.def(
      "dvpp_get_jpege_config_level",
      [](uintptr_t c) { return acldvppGetJpegeConfigLevel(H<acldvppJpegeConfig>(c)); },
      py::arg("jpege_config"));
  media.def(
      "dvpp_jpeg_predict_enc_size",
      [](uintptr_t in, uintptr_t c) {
        uint32_t size = 0;
        aclError ret =
            acldvppJpegPredictEncSize(H<acldvppPicDesc>(in), H<acldvppJpegeConfig>(c), &size);
        return py::make_tuple(size, ret);
      },
      py::arg("input_desc"), py::arg("config"));
  // size_ptr: a host uint32 holding the buffer's capacity, overwritten with the file's
  // length (CANN's samples pass acl.util.bytes_to_ptr or numpy_to_ptr of one).
  media.def(
      "dvpp_jpeg_encode_async",
      [](uintptr_t d, uintptr_t in, uintptr_t data, uintptr_t size_ptr, uintptr_t c, uintptr_t s) {
        if (!size_ptr || !oc_internal_host_range_writable(H<void>(size_ptr), 4))
          return static_cast<aclError>(ACL_ERROR_INVALID_PARAM);
        py::gil_scoped_release release;
        return acldvppJpegEncodeAsync(H<acldvppChannelDesc>(d), H<acldvppPicDesc>(in),
                                      H<void>(data), H<uint32_t>(size_ptr),
                                      H<acldvppJpegeConfig>(c), H<void>(s));
      },
      py::arg("channel_desc"), py::arg("input_desc"), py::arg("data"), py::arg("size"),
      py::arg("config"), py::arg("stream"));
  media.def(
      "dvpp_jpeg_decode_async",
      [](uintptr_t d, uintptr_t data, uint32_t size, uintptr_t out, uintptr_t s) {
        py::gil_scoped_release release;
        return acldvppJpegDecodeAsync(H<acldvppChannelDesc>(d), H<void>(data), size,
                                      H<acldvppPicDesc>(out), H<void>(s));
      },
      py::arg("channel_desc"), py::arg("data"), py::arg("size"), py::arg("output_desc"),
      py::arg("stream"));
}

// VDEC's callbacks: the Python callable set on a channel description, called on the report
// thread (which holds no GIL in acl.rt.process_report) with the send's handles and data.
std::mutex g_vdec_mutex;
std::map<uintptr_t, py::object>& VdecCallables() {
  static auto* m = new std::map<uintptr_t, py::object>();  // never destroyed: no decref at exit
  return *m;
}
struct VdecSend {
  py::object fn, user;
};
void VdecTrampoline(acldvppStreamDesc* in, acldvppPicDesc* out, void* data) {
  py::gil_scoped_acquire gil;
  std::unique_ptr<VdecSend> send(static_cast<VdecSend*>(data));
  try {
    send->fn(I(in), I(out), send->user);
  } catch (py::error_already_set& e) {
    e.discard_as_unraisable("acl.media VDEC callback");
  }
}

void BindVideo(py::module_& media) {
  media.def("dvpp_create_stream_desc", [] { return I(acldvppCreateStreamDesc()); });
  media.def(
      "dvpp_destroy_stream_desc",
      [](uintptr_t s) { return acldvppDestroyStreamDesc(H<acldvppStreamDesc>(s)); },
      py::arg("stream_desc"));
  media.def(
      "dvpp_set_stream_desc_data",
      [](uintptr_t s, uintptr_t d) {
        return acldvppSetStreamDescData(H<acldvppStreamDesc>(s), H<void>(d));
      },
      py::arg("stream_desc"), py::arg("data_dev"));
  media.def(
      "dvpp_set_stream_desc_size",
      [](uintptr_t s, uint32_t v) { return acldvppSetStreamDescSize(H<acldvppStreamDesc>(s), v); },
      py::arg("stream_desc"), py::arg("size"));
  media.def(
      "dvpp_set_stream_desc_format",
      [](uintptr_t s, int v) {
        return acldvppSetStreamDescFormat(H<acldvppStreamDesc>(s),
                                          static_cast<acldvppStreamFormat>(v));
      },
      py::arg("stream_desc"), py::arg("format"));
  media.def(
      "dvpp_set_stream_desc_timestamp",
      [](uintptr_t s, uint64_t v) {
        return acldvppSetStreamDescTimestamp(H<acldvppStreamDesc>(s), v);
      },
      py::arg("stream_desc"), py::arg("timestamp"));
  media.def(
      "dvpp_set_stream_desc_eos",
      [](uintptr_t s, int v) {
        return acldvppSetStreamDescEos(H<acldvppStreamDesc>(s), static_cast<uint8_t>(v));
      },
      py::arg("stream_desc"), py::arg("eos"));
  media.def(
      "dvpp_get_stream_desc_data",
      [](uintptr_t s) { return I(acldvppGetStreamDescData(H<acldvppStreamDesc>(s))); },
      py::arg("stream_desc"));
  media.def(
      "dvpp_get_stream_desc_size",
      [](uintptr_t s) { return acldvppGetStreamDescSize(H<acldvppStreamDesc>(s)); },
      py::arg("stream_desc"));
  media.def(
      "dvpp_get_stream_desc_ret_code",
      [](uintptr_t s) { return acldvppGetStreamDescRetCode(H<acldvppStreamDesc>(s)); },
      py::arg("stream_desc"));
  media.def("vdec_create_channel_desc", [] { return I(aclvdecCreateChannelDesc()); });
  media.def(
      "vdec_destroy_channel_desc",
      [](uintptr_t v) {
        aclError ret = aclvdecDestroyChannelDesc(H<aclvdecChannelDesc>(v));
        if (ret == ACL_SUCCESS) {
          std::lock_guard<std::mutex> lock(g_vdec_mutex);
          VdecCallables().erase(v);
        }
        return ret;
      },
      py::arg("channel_desc"));
#define OC_VDEC_SET(py_name, c_fn, T, cast)                                              \
  media.def(                                                                             \
      py_name, [](uintptr_t v, T x) { return c_fn(H<aclvdecChannelDesc>(v), cast(x)); }, \
      py::arg("channel_desc"), py::arg("value"));
  OC_VDEC_SET("vdec_set_channel_desc_channel_id", aclvdecSetChannelDescChannelId, uint32_t, )
  OC_VDEC_SET("vdec_set_channel_desc_thread_id", aclvdecSetChannelDescThreadId, uint64_t, )
  OC_VDEC_SET("vdec_set_channel_desc_entype", aclvdecSetChannelDescEnType, int,
              static_cast<acldvppStreamFormat>)
  OC_VDEC_SET("vdec_set_channel_desc_out_pic_format", aclvdecSetChannelDescOutPicFormat, int,
              static_cast<acldvppPixelFormat>)
  OC_VDEC_SET("vdec_set_channel_desc_out_pic_width", aclvdecSetChannelDescOutPicWidth, uint32_t, )
  OC_VDEC_SET("vdec_set_channel_desc_out_pic_height", aclvdecSetChannelDescOutPicHeight, uint32_t, )
  OC_VDEC_SET("vdec_set_channel_desc_ref_frame_num", aclvdecSetChannelDescRefFrameNum, uint32_t, )
  OC_VDEC_SET("vdec_set_channel_desc_out_mode", aclvdecSetChannelDescOutMode, uint32_t, )
#undef OC_VDEC_SET
  media.def(
      "vdec_get_channel_desc_out_mode",
      [](uintptr_t v) { return aclvdecGetChannelDescOutMode(H<aclvdecChannelDesc>(v)); },
      py::arg("channel_desc"));
  media.def(
      "vdec_set_channel_desc_callback",
      [](uintptr_t v, py::object fn) {
        aclError ret = aclvdecSetChannelDescCallback(H<aclvdecChannelDesc>(v), VdecTrampoline);
        if (ret == ACL_SUCCESS) {
          std::lock_guard<std::mutex> lock(g_vdec_mutex);
          VdecCallables()[v] = fn;
        }
        return ret;
      },
      py::arg("channel_desc"), py::arg("callback"));
  media.def(
      "vdec_create_channel",
      [](uintptr_t v) { return aclvdecCreateChannel(H<aclvdecChannelDesc>(v)); },
      py::arg("channel_desc"));
  media.def(
      "vdec_destroy_channel",
      [](uintptr_t v) {
        py::gil_scoped_release release;  // waits for the report thread's callbacks
        return aclvdecDestroyChannel(H<aclvdecChannelDesc>(v));
      },
      py::arg("channel_desc"));
  media.def("vdec_create_frame_config", [] { return I(aclvdecCreateFrameConfig()); });
  media.def(
      "vdec_destroy_frame_config",
      [](uintptr_t c) { return aclvdecDestroyFrameConfig(H<aclvdecFrameConfig>(c)); },
      py::arg("frame_config"));
  media.def(
      "vdec_send_frame",
      [](uintptr_t v, uintptr_t in, uintptr_t out, uintptr_t cfg, py::object user) {
        py::object fn;
        {
          std::lock_guard<std::mutex> lock(g_vdec_mutex);
          auto it = VdecCallables().find(v);
          if (it != VdecCallables().end()) fn = it->second;
        }
        auto* send = new VdecSend{fn, user};
        aclError ret = aclvdecSendFrame(H<aclvdecChannelDesc>(v), H<acldvppStreamDesc>(in),
                                        H<acldvppPicDesc>(out), H<aclvdecFrameConfig>(cfg), send);
        // On an error no callback comes for this send (nor for an end-of-stream send).
        if (ret != ACL_SUCCESS || acldvppGetStreamDescEos(H<acldvppStreamDesc>(in))) delete send;
        return ret;
      },
      py::arg("channel_desc"), py::arg("input"), py::arg("output"), py::arg("config"),
      py::arg("user_data"));
}

// VENC's callbacks, as VDEC's: the channel's Python callable travels with each send.
std::map<uintptr_t, py::object>& VencCallables() {
  static auto* m = new std::map<uintptr_t, py::object>();  // never destroyed: no decref at exit
  return *m;
}
void VencTrampoline(acldvppPicDesc* in, acldvppStreamDesc* out, void* data) {
  if (!data) return;  // a unit the encoder gave at the end with no send left to own it
  py::gil_scoped_acquire gil;
  std::unique_ptr<VdecSend> send(static_cast<VdecSend*>(data));
  try {
    send->fn(I(in), I(out), send->user);
  } catch (py::error_already_set& e) {
    e.discard_as_unraisable("acl.media VENC callback");
  }
}

void BindVenc(py::module_& media) {
  media.def("venc_create_channel_desc", [] { return I(aclvencCreateChannelDesc()); });
  media.def(
      "venc_destroy_channel_desc",
      [](uintptr_t v) {
        aclError ret = aclvencDestroyChannelDesc(H<aclvencChannelDesc>(v));
        if (ret == ACL_SUCCESS) {
          std::lock_guard<std::mutex> lock(g_vdec_mutex);
          VencCallables().erase(v);
        }
        return ret;
      },
      py::arg("channel_desc"));
#define OC_VENC_SET(py_name, c_fn, T, cast)                                              \
  media.def(                                                                             \
      py_name, [](uintptr_t v, T x) { return c_fn(H<aclvencChannelDesc>(v), cast(x)); }, \
      py::arg("channel_desc"), py::arg("value"));
  OC_VENC_SET("venc_set_channel_desc_thread_id", aclvencSetChannelDescThreadId, uint64_t, )
  OC_VENC_SET("venc_set_channel_desc_entype", aclvencSetChannelDescEnType, int,
              static_cast<acldvppStreamFormat>)
  OC_VENC_SET("venc_set_channel_desc_pic_format", aclvencSetChannelDescPicFormat, int,
              static_cast<acldvppPixelFormat>)
  OC_VENC_SET("venc_set_channel_desc_pic_width", aclvencSetChannelDescPicWidth, uint32_t, )
  OC_VENC_SET("venc_set_channel_desc_pic_height", aclvencSetChannelDescPicHeight, uint32_t, )
  OC_VENC_SET("venc_set_channel_desc_key_frame_interval", aclvencSetChannelDescKeyFrameInterval,
              uint32_t, )
  OC_VENC_SET("venc_set_channel_desc_buf_size", aclvencSetChannelDescBufSize, uint32_t, )
  OC_VENC_SET("venc_set_channel_desc_rc_mode", aclvencSetChannelDescRcMode, uint32_t, )
  OC_VENC_SET("venc_set_channel_desc_src_rate", aclvencSetChannelDescSrcRate, uint32_t, )
  OC_VENC_SET("venc_set_channel_desc_max_bit_rate", aclvencSetChannelDescMaxBitRate, uint32_t, )
  OC_VENC_SET("venc_set_channel_desc_buf_addr", aclvencSetChannelDescBufAddr, uintptr_t, H<void>)
#undef OC_VENC_SET
  media.def(
      "venc_set_channel_desc_callback",
      [](uintptr_t v, py::object fn) {
        aclError ret = aclvencSetChannelDescCallback(H<aclvencChannelDesc>(v), VencTrampoline);
        if (ret == ACL_SUCCESS) {
          std::lock_guard<std::mutex> lock(g_vdec_mutex);
          VencCallables()[v] = fn;
        }
        return ret;
      },
      py::arg("channel_desc"), py::arg("callback"));
  media.def(
      "venc_get_channel_desc_channel_id",
      [](uintptr_t v) { return aclvencGetChannelDescChannelId(H<aclvencChannelDesc>(v)); },
      py::arg("channel_desc"));
  media.def("venc_create_frame_config", [] { return I(aclvencCreateFrameConfig()); });
  media.def(
      "venc_destroy_frame_config",
      [](uintptr_t c) { return aclvencDestroyFrameConfig(H<aclvencFrameConfig>(c)); },
      py::arg("frame_config"));
  media.def(
      "venc_set_frame_config_force_i_frame",
      [](uintptr_t c, int v) {
        return aclvencSetFrameConfigForceIFrame(H<aclvencFrameConfig>(c), static_cast<uint8_t>(v));
      },
      py::arg("frame_config"), py::arg("force_i_frame"));
  media.def(
      "venc_set_frame_config_eos",
      [](uintptr_t c, int v) {
        return aclvencSetFrameConfigEos(H<aclvencFrameConfig>(c), static_cast<uint8_t>(v));
      },
      py::arg("frame_config"), py::arg("eos"));
  media.def(
      "venc_create_channel",
      [](uintptr_t v) { return aclvencCreateChannel(H<aclvencChannelDesc>(v)); },
      py::arg("channel_desc"));
  media.def(
      "venc_destroy_channel",
      [](uintptr_t v) {
        py::gil_scoped_release release;  // waits for the report thread's callbacks
        return aclvencDestroyChannel(H<aclvencChannelDesc>(v));
      },
      py::arg("channel_desc"));
  media.def(
      "venc_send_frame",
      [](uintptr_t v, uintptr_t in, uintptr_t reserve, uintptr_t cfg, py::object user) {
        py::object fn;
        {
          std::lock_guard<std::mutex> lock(g_vdec_mutex);
          auto it = VencCallables().find(v);
          if (it != VencCallables().end()) fn = it->second;
        }
        const bool eos = cfg && aclvencGetFrameConfigEos(H<aclvencFrameConfig>(cfg));
        auto* send = eos ? nullptr : new VdecSend{fn, user};
        aclError ret = aclvencSendFrame(H<aclvencChannelDesc>(v), H<acldvppPicDesc>(in),
                                        H<void>(reserve), H<aclvencFrameConfig>(cfg), send);
        if (ret != ACL_SUCCESS) delete send;
        return ret;
      },
      py::arg("channel_desc"), py::arg("input"), py::arg("reserve"), py::arg("config"),
      py::arg("user_data"));
}

}  // namespace

void BindMediaVpc(py::module_& media);  // acl_media_vpc.cpp

void BindMedia(py::module_& m) {
  py::module_ media = m.def_submodule("media", "DVPP: VPC and JPEGD (acl/ops/acl_dvpp.h)");
  BindPicDesc(media);
  BindConfigs(media);
  BindWork(media);
  BindVideo(media);
  BindVenc(media);
  BindMediaVpc(media);
}
