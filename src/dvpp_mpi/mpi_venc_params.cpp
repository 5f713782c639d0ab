// VENC's parameters: JPEG quality and tables, rate-control tuning, scene mode, channel
// parameters, IDR requests and JPEGE's size prediction. What OpenCANN's encoders do not
// emulate is recorded and reported back, with one warning line when it would change the
// NPU's stream.
#include <cstdio>
#include <cstring>
#include <mutex>

#include "dvpp/jpeg.h"
#include "dvpp_mpi/mpi_venc_chn.h"

namespace oc::dvpp_mpi {
namespace {

// The JPEG standard's example tables (ITU-T T.81 Annex K), row by row.
constexpr uint8_t kLuma[64] = {16,  11,  10,  16,  24, 40, 51,  61,  12,  12,  14,  19,  26,
                               58,  60,  55,  14,  13, 16, 24,  40,  57,  69,  56,  14,  17,
                               22,  29,  51,  87,  80, 62, 18,  22,  37,  56,  68,  109, 103,
                               77,  24,  35,  55,  64, 81, 104, 113, 92,  49,  64,  78,  87,
                               103, 121, 120, 101, 72, 92, 95,  98,  112, 100, 103, 99};
constexpr uint8_t kChroma[64] = {17, 18, 24, 47, 99, 99, 99, 99, 18, 21, 26, 66, 99, 99, 99, 99,
                                 24, 26, 56, 99, 99, 99, 99, 99, 47, 66, 99, 99, 99, 99, 99, 99,
                                 99, 99, 99, 99, 99, 99, 99, 99, 99, 99, 99, 99, 99, 99, 99, 99,
                                 99, 99, 99, 99, 99, 99, 99, 99, 99, 99, 99, 99, 99, 99, 99, 99};

void Warn(std::once_flag& once, const char* what) {
  std::call_once(once, [what] { std::fprintf(stderr, "[WARNING] OpenCANN: VENC %s\n", what); });
}

}  // namespace

void JpegTables(uint32_t qfactor, hi_venc_jpeg_param* param) {
  // libjpeg's quality scaling: 50 keeps the tables, lower scales up, higher down.
  const uint32_t q = qfactor < 1 ? 1 : qfactor > 100 ? 100 : qfactor;
  const uint32_t scale = q < 50 ? 5000 / q : 200 - 2 * q;
  for (int i = 0; i < 64; ++i) {
    auto scaled = [&](uint8_t base) {
      const uint32_t v = (base * scale + 50) / 100;
      return static_cast<hi_u8>(v < 1 ? 1 : v > 255 ? 255 : v);
    };
    param->y_qt[i] = scaled(kLuma[i]);
    param->cb_qt[i] = scaled(kChroma[i]);
    param->cr_qt[i] = scaled(kChroma[i]);
  }
  param->qfactor = qfactor;
}

}  // namespace oc::dvpp_mpi

using namespace oc::dvpp_mpi;  // NOLINT: the C entry points below are thin

extern "C" {

hi_s32 hi_mpi_venc_get_jpeg_param(hi_venc_chn chn, hi_venc_jpeg_param* jpeg_param) {
  const char* fn = "hi_mpi_venc_get_jpeg_param";
  hi_s32 e = 0;
  auto c = VencChannelOf(fn, chn, &e);
  if (!c) return e;
  if (!jpeg_param)
    return Fail(Module::kVenc, HI_ERR_NULL_PTR, std::string(fn) + ": jpeg_param is null");
  if (c->type != HI_PT_JPEG)
    return Fail(Module::kVenc, HI_ERR_NOT_PERM, std::string(fn) + ": the channel is not JPEG");
  std::lock_guard<std::mutex> lock(c->m);
  *jpeg_param = c->jpeg;
  return HI_SUCCESS;
}

hi_s32 hi_mpi_venc_set_jpeg_param(hi_venc_chn chn, const hi_venc_jpeg_param* jpeg_param) {
  const char* fn = "hi_mpi_venc_set_jpeg_param";
  hi_s32 e = 0;
  auto c = VencChannelOf(fn, chn, &e);
  if (!c) return e;
  if (!jpeg_param)
    return Fail(Module::kVenc, HI_ERR_NULL_PTR, std::string(fn) + ": jpeg_param is null");
  if (c->type != HI_PT_JPEG)
    return Fail(Module::kVenc, HI_ERR_NOT_PERM, std::string(fn) + ": the channel is not JPEG");
  if (jpeg_param->qfactor < 1 || jpeg_param->qfactor > 100)
    return Fail(
        Module::kVenc, HI_ERR_ILLEGAL_PARAM,
        std::string(fn) + ": qfactor " + std::to_string(jpeg_param->qfactor) + " is not 1 to 100");
  if (jpeg_param->ecs_output_en != HI_FALSE)
    return Fail(Module::kVenc, HI_ERR_NOT_SUPPORT,
                std::string(fn) +
                    ": ECS output (ecs_output_en) is not supported: OpenCANN writes "
                    "whole JPEG files");
  hi_venc_jpeg_param standard{};
  JpegTables(jpeg_param->qfactor, &standard);
  // The tables the caller gave differ from the quality's own: the NPU would use them.
  const bool custom = std::memcmp(jpeg_param->y_qt, standard.y_qt, 64) ||
                      std::memcmp(jpeg_param->cb_qt, standard.cb_qt, 64) ||
                      std::memcmp(jpeg_param->cr_qt, standard.cr_qt, 64);
  if (custom) {
    static std::once_flag once;
    std::call_once(once, [] {
      std::fprintf(stderr,
                   "[WARNING] OpenCANN: VENC quantisation tables (y_qt/cb_qt/cr_qt) are "
                   "recorded; OpenCANN's JPEGE encodes with the qfactor's standard tables, so "
                   "file sizes and pixels differ from the NPU's\n");
    });
  }
  std::lock_guard<std::mutex> lock(c->m);
  c->jpeg = *jpeg_param;
  return HI_SUCCESS;
}

hi_s32 hi_mpi_venc_get_jpege_predicted_size(const hi_video_frame_info* frame,
                                            const hi_venc_jpeg_param* jpeg_param, hi_u32* size) {
  const char* fn = "hi_mpi_venc_get_jpege_predicted_size";
  if (!frame || !jpeg_param || !size)
    return Fail(Module::kVenc, HI_ERR_NULL_PTR, std::string(fn) + ": a pointer is null");
  const hi_video_frame& f = frame->v_frame;
  if (f.width < 32 || f.height < 32 || f.width > 8192 || f.height > 8192)
    return Fail(Module::kVenc, HI_ERR_ILLEGAL_PARAM,
                std::string(fn) + ": the picture is " + std::to_string(f.width) + "x" +
                    std::to_string(f.height) + "; JPEGE takes 32x32 to 8192x8192");
  oc::dvpp::Picture p;
  p.format = oc::dvpp::kNv12;
  p.width = f.width;
  p.height = f.height;
  p.width_stride = oc::dvpp::AlignUp(f.width, 16);
  p.height_stride = oc::dvpp::AlignUp(f.height, 16);
  *size = oc::dvpp::JpegeOutputBound(p);
  return HI_SUCCESS;
}

hi_s32 hi_mpi_venc_get_rc_param(hi_venc_chn chn, hi_venc_rc_param* rc_param) {
  const char* fn = "hi_mpi_venc_get_rc_param";
  hi_s32 e = 0;
  auto c = VencChannelOf(fn, chn, &e);
  if (!c) return e;
  if (!rc_param)
    return Fail(Module::kVenc, HI_ERR_NULL_PTR, std::string(fn) + ": rc_param is null");
  std::lock_guard<std::mutex> lock(c->m);
  *rc_param = c->rc;
  return HI_SUCCESS;
}

hi_s32 hi_mpi_venc_set_rc_param(hi_venc_chn chn, const hi_venc_rc_param* rc_param) {
  const char* fn = "hi_mpi_venc_set_rc_param";
  hi_s32 e = 0;
  auto c = VencChannelOf(fn, chn, &e);
  if (!c) return e;
  if (!rc_param)
    return Fail(Module::kVenc, HI_ERR_NULL_PTR, std::string(fn) + ": rc_param is null");
  std::lock_guard<std::mutex> lock(c->m);
  if (std::memcmp(rc_param, &c->rc, sizeof c->rc) != 0) {
    static std::once_flag once;
    Warn(once,
         "rate-control tuning (hi_venc_rc_param) is recorded; OpenCANN's encoders keep their "
         "own rate control, so stream sizes differ from the NPU's");
  }
  c->rc = *rc_param;
  return HI_SUCCESS;
}

hi_s32 hi_mpi_venc_set_scene_mode(hi_venc_chn chn, const hi_venc_scene_mode scene_mode) {
  const char* fn = "hi_mpi_venc_set_scene_mode";
  hi_s32 e = 0;
  auto c = VencChannelOf(fn, chn, &e);
  if (!c) return e;
  const int32_t mode = EnumInt(&scene_mode);
  if (mode < HI_VENC_SCENE_0 || mode > HI_VENC_SCENE_2)
    return Fail(Module::kVenc, HI_ERR_ILLEGAL_PARAM,
                std::string(fn) + ": scene mode " + std::to_string(mode) + " is not 0 to 2");
  if (mode != HI_VENC_SCENE_0) {
    static std::once_flag once;
    Warn(once, "scene modes 1 and 2 are recorded; OpenCANN encodes every scene as scene 0");
  }
  std::lock_guard<std::mutex> lock(c->m);
  c->scene = mode;
  return HI_SUCCESS;
}

hi_s32 hi_mpi_venc_get_chn_param(hi_venc_chn chn, hi_venc_chn_param* chn_param) {
  const char* fn = "hi_mpi_venc_get_chn_param";
  hi_s32 e = 0;
  auto c = VencChannelOf(fn, chn, &e);
  if (!c) return e;
  if (!chn_param)
    return Fail(Module::kVenc, HI_ERR_NULL_PTR, std::string(fn) + ": chn_param is null");
  std::lock_guard<std::mutex> lock(c->m);
  *chn_param = c->param;
  return HI_SUCCESS;
}

hi_s32 hi_mpi_venc_set_chn_param(hi_venc_chn chn, const hi_venc_chn_param* chn_param) {
  const char* fn = "hi_mpi_venc_set_chn_param";
  hi_s32 e = 0;
  auto c = VencChannelOf(fn, chn, &e);
  if (!c) return e;
  if (!chn_param)
    return Fail(Module::kVenc, HI_ERR_NULL_PTR, std::string(fn) + ": chn_param is null");
  const hi_venc_chn_param& p = *chn_param;
  if (p.color_to_grey_en != HI_FALSE || p.crop_info.enable != HI_FALSE)
    return Fail(Module::kVenc, HI_ERR_NOT_SUPPORT,
                std::string(fn) +
                    ": colour-to-grey and cropping before encoding are not "
                    "supported (crop with VPC first)");
  if (p.frame_rate.src_frame_rate != p.frame_rate.dst_frame_rate)
    return Fail(Module::kVenc, HI_ERR_NOT_SUPPORT,
                std::string(fn) + ": frame rate control (" +
                    std::to_string(p.frame_rate.src_frame_rate) + " to " +
                    std::to_string(p.frame_rate.dst_frame_rate) + ") is not supported");
  if (p.priority > 1 || p.max_stream_cnt > 1024)
    return Fail(Module::kVenc, HI_ERR_ILLEGAL_PARAM,
                std::string(fn) + ": priority " + std::to_string(p.priority) +
                    " or max_stream_cnt " + std::to_string(p.max_stream_cnt) + " out of range");
  std::lock_guard<std::mutex> lock(c->m);
  c->param = p;  // priority orders the NPU's channels; one CPU encoder runs them in turn
  return HI_SUCCESS;
}

hi_s32 hi_mpi_venc_request_idr(hi_venc_chn chn, hi_bool instant) {
  hi_s32 e = 0;
  auto c = VencChannelOf("hi_mpi_venc_request_idr", chn, &e);
  if (!c) return e;
  (void)instant;  // the next frame is an IDR either way: frames encode when they are sent
  std::lock_guard<std::mutex> lock(c->m);
  c->force_idr = true;
  return HI_SUCCESS;
}

}  // extern "C"
