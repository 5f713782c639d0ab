// hi_mpi_vdec_*: VDEC channels decoding H.264/H.265 (FFmpeg, dvpp/video_decoder.h) and JPEG
// (libjpeg-turbo, dvpp/jpeg.h). A send decodes at once into the buffer it gives; frames
// wait in the channel until get_frame takes them (a video decoder may hold a few for
// reordering: each frame fills the oldest waiting buffer). A stream the decoder rejects still
// returns its buffer through get_frame, with frame_flag 1, and the reason in the log.
#include <sys/eventfd.h>
#include <unistd.h>

#include <array>
#include <condition_variable>
#include <cstdio>
#include <cstring>
#include <deque>
#include <memory>
#include <set>

#include "dvpp/jpeg.h"
#include "dvpp/video_decoder.h"
#include "dvpp_mpi/mpi_core.h"

namespace oc::dvpp_mpi {
namespace {

// frame_flag of a frame that did not decode (bit meanings beyond 0 are not public).
constexpr hi_u32 kFrameFailed = 1;

struct Ready {
  hi_video_frame_info frame;
  hi_vdec_stream stream;
  hi_vdec_supplement_info supplement;
};

struct VdecChannel {
  std::mutex work;  // one send (decode) at a time
  std::mutex m;     // the fields below
  std::condition_variable cv;
  hi_vdec_chn_attr attr{};
  hi_vdec_chn_param param{};
  hi_vdec_protocol_param protocol{};
  int32_t type = 0;
  bool started = false, destroyed = false;
  std::unique_ptr<dvpp::VideoDecoder> decoder;
  struct Pending {
    hi_vdec_pic_info out;
    hi_vdec_stream stream;
  };
  std::deque<Pending> pending;  // video sends waiting for a frame
  std::deque<Ready> ready;      // frames get_frame has not taken
  std::set<uint64_t> taken;     // buffers handed out and not released
  hi_vdec_chn_status status{};
  int event_fd = -1;
};

std::mutex g_table_mutex;
std::array<std::shared_ptr<VdecChannel>, VDEC_MAX_CHN_NUM>& Table() {
  static auto* table = new std::array<std::shared_ptr<VdecChannel>, VDEC_MAX_CHN_NUM>();
  return *table;
}

int32_t Int(const void* enum_value) {
  int32_t v = 0;
  std::memcpy(&v, enum_value, sizeof v);
  return v;
}

// The channel, with the system and the id checked; null after a recorded error.
std::shared_ptr<VdecChannel> Channel(const char* fn, hi_vdec_chn chn, hi_s32* error) {
  *error = RequireSystem(Module::kVdec, fn);
  if (*error) return nullptr;
  if (chn < 0 || chn >= VDEC_MAX_CHN_NUM) {
    *error = Fail(Module::kVdec, HI_ERR_INVALID_CHN_ID,
                  std::string(fn) + ": channel " + std::to_string(chn) + " is not 0 to " +
                      std::to_string(VDEC_MAX_CHN_NUM - 1));
    return nullptr;
  }
  std::lock_guard<std::mutex> lock(g_table_mutex);
  auto c = Table()[static_cast<size_t>(chn)];
  if (!c)
    *error = Fail(Module::kVdec, HI_ERR_UNEXIST,
                  std::string(fn) + ": channel " + std::to_string(chn) + " is not created");
  return c;
}

hi_s32 CheckAttr(const char* fn, const hi_vdec_chn_attr* attr) {
  if (!attr) return Fail(Module::kVdec, HI_ERR_NULL_PTR, std::string(fn) + ": attr is null");
  const int32_t type = Int(&attr->type);
  if (type != HI_PT_H264 && type != HI_PT_H265 && type != HI_PT_JPEG)
    return Fail(Module::kVdec, HI_ERR_NOT_SUPPORT,
                std::string(fn) + ": payload type " + std::to_string(type) +
                    " is not HI_PT_H264 (96), HI_PT_H265 (265) or HI_PT_JPEG (26)");
  const int32_t mode = Int(&attr->mode);
  if (mode < HI_VDEC_SEND_MODE_STREAM || mode > HI_VDEC_SEND_MODE_COMPAT)
    return Fail(Module::kVdec, HI_ERR_ILLEGAL_PARAM,
                std::string(fn) + ": send mode " + std::to_string(mode) + " is not 0 to 2");
  if (mode != HI_VDEC_SEND_MODE_FRAME)
    return Fail(Module::kVdec, HI_ERR_NOT_SUPPORT,
                std::string(fn) +
                    ": OpenCANN's VDEC takes whole frames (HI_VDEC_SEND_MODE_FRAME), one per send");
  const uint32_t lo = type == HI_PT_JPEG ? 32 : 128, hi = type == HI_PT_JPEG ? 8192 : 4096;
  const uint32_t top = CurrentChip() == dvpp::Chip::k310B ? 8192 : hi;
  if (attr->pic_width < lo || attr->pic_height < lo || attr->pic_width > top ||
      attr->pic_height > top)
    return Fail(Module::kVdec, HI_ERR_ILLEGAL_PARAM,
                std::string(fn) + ": the channel's largest picture " +
                    std::to_string(attr->pic_width) + "x" + std::to_string(attr->pic_height) +
                    " is not " + std::to_string(lo) + "x" + std::to_string(lo) + " to " +
                    std::to_string(top) + "x" + std::to_string(top) + " (" +
                    dvpp::ChipName(CurrentChip()) + " VDEC rule)");
  return HI_SUCCESS;
}

void Signal(VdecChannel& c) {
  if (c.event_fd >= 0) {
    const uint64_t one = 1;
    (void)!write(c.event_fd, &one, sizeof one);
  }
  c.cv.notify_all();
}

// A frame for get_frame: the picture as written (or not, when flag is set).
void Deliver(VdecChannel& c, const hi_vdec_pic_info& out, const hi_vdec_stream& stream,
             const dvpp::Picture& pic, hi_u32 flag) {
  Ready r{};
  hi_video_frame& f = r.frame.v_frame;
  f.width = pic.width;
  f.height = pic.height;
  f.field = HI_VIDEO_FIELD_FRAME;
  std::memcpy(&f.pixel_format, &pic.format, sizeof pic.format);
  f.video_format = HI_VIDEO_FORMAT_LINEAR;
  f.compress_mode = HI_COMPRESS_MODE_NONE;
  f.dynamic_range = HI_DYNAMIC_RANGE_SDR8;
  f.color_gamut = HI_COLOR_GAMUT_BT601;
  auto* base = reinterpret_cast<uint8_t*>(static_cast<uintptr_t>(out.vir_addr));
  const size_t luma = static_cast<size_t>(pic.width_stride) * pic.height_stride;
  for (int p = 0; p < 2; ++p) {
    f.width_stride[p] = pic.width_stride;
    f.height_stride[p] = pic.height_stride;
    f.virt_addr[p] = base ? base + (p ? luma : 0) : nullptr;
    f.phys_addr[p] = reinterpret_cast<uintptr_t>(f.virt_addr[p]);
  }
  f.pts = stream.pts;
  f.frame_flag = flag;
  r.frame.mod_id = HI_ID_VDEC;
  r.stream = stream;
  r.supplement.type = c.attr.type;
  std::lock_guard<std::mutex> lock(c.m);
  c.ready.push_back(r);
  if (flag == 0) {
    ++c.status.dec_stream_frames;
    c.status.width = pic.width;
    c.status.height = pic.height;
    c.status.latest_frame_pts = stream.pts;
  }
  Signal(c);
}

dvpp::Picture OutPicture(const hi_vdec_pic_info& out) {
  dvpp::Picture p;
  p.data = reinterpret_cast<uint8_t*>(static_cast<uintptr_t>(out.vir_addr));
  p.size = out.buffer_size;
  p.format = Int(&out.pixel_format);
  p.width = out.width;
  p.height = out.height;
  p.width_stride = out.width_stride;
  p.height_stride = out.height_stride;
  return p;
}

// Fills the oldest waiting buffers with decoded frames.
void HandFrames(VdecChannel& c, const std::vector<dvpp::DecodedFrame>& frames) {
  const dvpp::Chip chip = CurrentChip();
  for (const auto& frame : frames) {
    VdecChannel::Pending p;
    {
      std::lock_guard<std::mutex> lock(c.m);
      if (c.pending.empty()) return;  // a frame no send asked for
      p = c.pending.front();
      c.pending.pop_front();
    }
    dvpp::Picture pic = OutPicture(p.out);
    if (pic.width == 0 || pic.height == 0) {
      pic.width = frame.width;
      pic.height = frame.height;
    }
    hi_u32 flag = 0;
    if (frame.width > c.attr.pic_width || frame.height > c.attr.pic_height) {
      Fail(Module::kVdec, HI_ERR_ILLEGAL_PARAM,
           "hi_mpi_vdec_send_stream: a " + std::to_string(frame.width) + "x" +
               std::to_string(frame.height) + " frame is larger than the channel's " +
               std::to_string(c.attr.pic_width) + "x" + std::to_string(c.attr.pic_height));
      std::lock_guard<std::mutex> lock(c.m);
      ++c.status.dec_err.set_pic_size_err;
      flag = kFrameFailed;
    } else if (Status s =
                   dvpp::CheckVpcPicture(pic, chip, dvpp::Role::kVpcOutput, "the VDEC output");
               !s.ok()) {
      FailStatus(Module::kVdec, s, "hi_mpi_vdec_send_stream");
      flag = kFrameFailed;
    } else if (Status w = dvpp::WriteFrame(frame, pic, chip); !w.ok()) {
      FailStatus(Module::kVdec, w, "hi_mpi_vdec_send_stream");
      flag = kFrameFailed;
    }
    Deliver(c, p.out, p.stream, pic, flag);
  }
}

// End of stream: the decoder drained; sends that got no frame return their buffers failed.
void Drain(VdecChannel& c) {
  std::vector<dvpp::DecodedFrame> frames;
  if (c.decoder) (void)c.decoder->Send(nullptr, 0, &frames);
  HandFrames(c, frames);
  for (;;) {
    VdecChannel::Pending p;
    {
      std::lock_guard<std::mutex> lock(c.m);
      if (c.pending.empty()) break;
      p = c.pending.front();
      c.pending.pop_front();
    }
    Deliver(c, p.out, p.stream, OutPicture(p.out), kFrameFailed);
  }
  c.decoder.reset();  // the next stream starts afresh
}

hi_s32 SendJpeg(VdecChannel& c, const char* fn, const hi_vdec_stream& stream,
                hi_vdec_pic_info* out) {
  const dvpp::Chip chip = CurrentChip();
  auto header = dvpp::ReadJpegInfo(stream.addr, stream.len);
  if (!header.ok()) return FailStatus(Module::kVdec, header.status(), fn);
  if (Status s = dvpp::CheckJpegd(*header); !s.ok()) return FailStatus(Module::kVdec, s, fn);
  if (header->width > c.attr.pic_width || header->height > c.attr.pic_height)
    return Fail(Module::kVdec, HI_ERR_ILLEGAL_PARAM,
                std::string(fn) + ": a " + std::to_string(header->width) + "x" +
                    std::to_string(header->height) + " JPEG is larger than the channel's " +
                    std::to_string(c.attr.pic_width) + "x" + std::to_string(c.attr.pic_height));
  dvpp::Picture pic = OutPicture(*out);
  if (pic.format == dvpp::kUnknownFormat) pic.format = Int(&c.param.pic_param.pixel_format);
  // JPEGD writes with its own alignment: strides left 0 are the smallest it uses.
  if (pic.width_stride == 0)
    pic.width_stride = dvpp::AlignUp(header->width, dvpp::JpegdWidthAlign(chip));
  if (pic.height_stride == 0) pic.height_stride = dvpp::AlignUp(header->height, 16);
  Status s = dvpp::DecodeJpeg(stream.addr, stream.len, &pic, chip);
  // A format, stride or buffer the call got wrong is its error; a stream that does not
  // decode returns its buffer through get_frame, failed, as the hardware's does.
  const bool content = !s.ok() && s.message().find("cannot be decoded") != std::string::npos;
  if (!s.ok()) {
    const hi_s32 code = FailStatus(Module::kVdec, s, fn);
    if (!content) return code;
  }
  {
    std::lock_guard<std::mutex> lock(c.m);
    ++c.status.recv_stream_frames;
  }
  Deliver(c, *out, stream, pic, s.ok() ? 0 : kFrameFailed);
  return HI_SUCCESS;
}

hi_s32 SendVideo(VdecChannel& c, const char* fn, const hi_vdec_stream& stream,
                 const hi_vdec_pic_info* out) {
  if (!c.decoder) {
    auto d = dvpp::CreateVideoDecoder(c.type == HI_PT_H265 ? 0 : 2);
    if (!d.ok()) return FailStatus(Module::kVdec, d.status(), fn);
    c.decoder = std::move(*d);
  }
  if (stream.len > 0) {
    if (out) {
      const int32_t format = Int(&out->pixel_format);
      const dvpp::Chip chip = CurrentChip();
      const bool rgb = (format == dvpp::kRgb888 || format == dvpp::kBgr888) &&
                       (chip == dvpp::Chip::k310P || chip == dvpp::Chip::k310B);
      if (format != dvpp::kNv12 && format != dvpp::kNv21 && !rgb)
        return Fail(Module::kVdec, HI_ERR_NOT_SUPPORT,
                    std::string(fn) + ": output format " + std::to_string(format) + ": " +
                        dvpp::ChipName(chip) +
                        "'s VDEC writes YUV_SEMIPLANAR_420 or YVU_SEMIPLANAR_420 (310P and 310B "
                        "also RGB_888 and BGR_888)");
    }
    {
      std::lock_guard<std::mutex> lock(c.m);
      c.pending.push_back({out ? *out : hi_vdec_pic_info{}, stream});
      ++c.status.recv_stream_frames;
    }
    std::vector<dvpp::DecodedFrame> frames;
    Status s = c.decoder->Send(stream.addr, stream.len, &frames);
    HandFrames(c, frames);
    if (!s.ok()) {
      FailStatus(Module::kVdec, s, fn);
      std::lock_guard<std::mutex> lock(c.m);
      ++c.status.dec_err.pack_err;
    }
  }
  if (stream.end_of_stream) Drain(c);
  return HI_SUCCESS;
}

}  // namespace
}  // namespace oc::dvpp_mpi

using namespace oc::dvpp_mpi;  // NOLINT: the C entry points below are thin

extern "C" {

hi_s32 hi_mpi_vdec_create_chn(hi_vdec_chn chn, const hi_vdec_chn_attr* attr) {
  const char* fn = "hi_mpi_vdec_create_chn";
  if (hi_s32 e = RequireSystem(Module::kVdec, fn)) return e;
  if (chn < 0 || chn >= VDEC_MAX_CHN_NUM)
    return Fail(Module::kVdec, HI_ERR_INVALID_CHN_ID,
                std::string(fn) + ": channel " + std::to_string(chn) + " is not 0 to " +
                    std::to_string(VDEC_MAX_CHN_NUM - 1));
  if (hi_s32 e = CheckAttr(fn, attr)) return e;
  auto c = std::make_shared<VdecChannel>();
  c->attr = *attr;
  c->type = Int(&attr->type);
  c->param.type = attr->type;
  c->param.display_frame_num = 2;
  if (c->type == HI_PT_JPEG) c->param.pic_param.pixel_format = HI_PIXEL_FORMAT_UNKNOWN;
  c->status.type = attr->type;
  std::lock_guard<std::mutex> lock(g_table_mutex);
  if (Table()[static_cast<size_t>(chn)])
    return Fail(Module::kVdec, HI_ERR_EXIST,
                std::string(fn) + ": channel " + std::to_string(chn) + " exists already");
  Table()[static_cast<size_t>(chn)] = c;
  return HI_SUCCESS;
}

hi_s32 hi_mpi_vdec_destroy_chn(hi_vdec_chn chn) {
  hi_s32 e = 0;
  auto c = Channel("hi_mpi_vdec_destroy_chn", chn, &e);
  if (!c) return e;
  {
    std::lock_guard<std::mutex> lock(g_table_mutex);
    Table()[static_cast<size_t>(chn)].reset();
  }
  std::lock_guard<std::mutex> work(c->work);  // a send in progress finishes first
  std::lock_guard<std::mutex> lock(c->m);
  c->destroyed = true;
  if (c->event_fd >= 0) close(c->event_fd);
  c->event_fd = -1;
  c->cv.notify_all();
  return HI_SUCCESS;
}

hi_s32 hi_mpi_vdec_set_chn_attr(hi_vdec_chn chn, const hi_vdec_chn_attr* attr) {
  const char* fn = "hi_mpi_vdec_set_chn_attr";
  hi_s32 e = 0;
  auto c = Channel(fn, chn, &e);
  if (!c) return e;
  if (hi_s32 bad = CheckAttr(fn, attr)) return bad;
  std::lock_guard<std::mutex> lock(c->m);
  if (c->started || Int(&attr->type) != c->type)
    return Fail(Module::kVdec, HI_ERR_NOT_PERM,
                std::string(fn) + ": stop the channel first; its payload type stays");
  c->attr = *attr;
  return HI_SUCCESS;
}

hi_s32 hi_mpi_vdec_get_chn_attr(hi_vdec_chn chn, hi_vdec_chn_attr* attr) {
  const char* fn = "hi_mpi_vdec_get_chn_attr";
  hi_s32 e = 0;
  auto c = Channel(fn, chn, &e);
  if (!c) return e;
  if (!attr) return Fail(Module::kVdec, HI_ERR_NULL_PTR, std::string(fn) + ": attr is null");
  std::lock_guard<std::mutex> lock(c->m);
  *attr = c->attr;
  return HI_SUCCESS;
}

hi_s32 hi_mpi_vdec_set_protocol_param(hi_vdec_chn chn, const hi_vdec_protocol_param* param) {
  const char* fn = "hi_mpi_vdec_set_protocol_param";
  hi_s32 e = 0;
  auto c = Channel(fn, chn, &e);
  if (!c) return e;
  if (!param) return Fail(Module::kVdec, HI_ERR_NULL_PTR, std::string(fn) + ": param is null");
  std::lock_guard<std::mutex> lock(c->m);
  c->protocol = *param;  // limits of the hardware's parser; FFmpeg's are larger
  return HI_SUCCESS;
}

hi_s32 hi_mpi_vdec_get_protocol_param(hi_vdec_chn chn, hi_vdec_protocol_param* param) {
  const char* fn = "hi_mpi_vdec_get_protocol_param";
  hi_s32 e = 0;
  auto c = Channel(fn, chn, &e);
  if (!c) return e;
  if (!param) return Fail(Module::kVdec, HI_ERR_NULL_PTR, std::string(fn) + ": param is null");
  std::lock_guard<std::mutex> lock(c->m);
  *param = c->protocol;
  return HI_SUCCESS;
}

hi_s32 hi_mpi_vdec_set_chn_param(hi_vdec_chn chn, const hi_vdec_chn_param* chn_param) {
  const char* fn = "hi_mpi_vdec_set_chn_param";
  hi_s32 e = 0;
  auto c = Channel(fn, chn, &e);
  if (!c) return e;
  if (!chn_param)
    return Fail(Module::kVdec, HI_ERR_NULL_PTR, std::string(fn) + ": chn_param is null");
  if (Int(&chn_param->type) != c->type)
    return Fail(Module::kVdec, HI_ERR_ILLEGAL_PARAM,
                std::string(fn) + ": the parameter's payload type " +
                    std::to_string(Int(&chn_param->type)) + " is not the channel's " +
                    std::to_string(c->type));
  if (chn_param->display_frame_num > 16)
    return Fail(Module::kVdec, HI_ERR_ILLEGAL_PARAM,
                std::string(fn) + ": display_frame_num " +
                    std::to_string(chn_param->display_frame_num) + " is over 16");
  if (c->type != HI_PT_JPEG) {
    const auto& v = chn_param->video_param;
    // Compression and tiling describe how the decoder keeps its reference frames (310P's
    // documentation allows only HFBC and 64x16 tiles); the frames it writes stay linear.
    const int32_t compress = Int(&v.compress_mode), tiling = Int(&v.video_format);
    if (compress < HI_COMPRESS_MODE_NONE || compress >= HI_COMPRESS_MODE_BUTT ||
        tiling < HI_VIDEO_FORMAT_LINEAR || tiling >= HI_VIDEO_FORMAT_BUTT)
      return Fail(Module::kVdec, HI_ERR_ILLEGAL_PARAM,
                  std::string(fn) + ": compress_mode " + std::to_string(compress) +
                      " or video_format " + std::to_string(tiling) + " is not one of DVPP's");
    const int32_t order = Int(&v.out_order);
    if (order != HI_VIDEO_OUT_ORDER_DISPLAY && order != HI_VIDEO_OUT_ORDER_DEC)
      return Fail(Module::kVdec, HI_ERR_ILLEGAL_PARAM,
                  std::string(fn) + ": out_order " + std::to_string(order) + " is not 0 or 1");
    if (order == HI_VIDEO_OUT_ORDER_DEC) {
      static std::once_flag warned;
      std::call_once(warned, [] {
        std::fprintf(stderr,
                     "[WARNING] OpenCANN: VDEC out_order HI_VIDEO_OUT_ORDER_DEC is recorded; "
                     "frames come in display order (the same unless the stream has B-frames)\n");
      });
    }
    if (Int(&v.dec_mode) != HI_VIDEO_DEC_MODE_IPB)
      return Fail(Module::kVdec, HI_ERR_NOT_SUPPORT,
                  std::string(fn) + ": decode mode " + std::to_string(Int(&v.dec_mode)) +
                      ": OpenCANN decodes every frame (HI_VIDEO_DEC_MODE_IPB)");
  }
  std::lock_guard<std::mutex> lock(c->m);
  c->param = *chn_param;
  return HI_SUCCESS;
}

hi_s32 hi_mpi_vdec_get_chn_param(hi_vdec_chn chn, hi_vdec_chn_param* chn_param) {
  const char* fn = "hi_mpi_vdec_get_chn_param";
  hi_s32 e = 0;
  auto c = Channel(fn, chn, &e);
  if (!c) return e;
  if (!chn_param)
    return Fail(Module::kVdec, HI_ERR_NULL_PTR, std::string(fn) + ": chn_param is null");
  std::lock_guard<std::mutex> lock(c->m);
  *chn_param = c->param;
  return HI_SUCCESS;
}

hi_s32 hi_mpi_vdec_start_recv_stream(hi_vdec_chn chn) {
  hi_s32 e = 0;
  auto c = Channel("hi_mpi_vdec_start_recv_stream", chn, &e);
  if (!c) return e;
  std::lock_guard<std::mutex> lock(c->m);
  c->started = true;
  c->status.is_started = HI_TRUE;
  return HI_SUCCESS;
}

hi_s32 hi_mpi_vdec_stop_recv_stream(hi_vdec_chn chn) {
  hi_s32 e = 0;
  auto c = Channel("hi_mpi_vdec_stop_recv_stream", chn, &e);
  if (!c) return e;
  std::lock_guard<std::mutex> lock(c->m);
  c->started = false;
  c->status.is_started = HI_FALSE;
  return HI_SUCCESS;
}

hi_s32 hi_mpi_vdec_query_status(hi_vdec_chn chn, hi_vdec_chn_status* status) {
  const char* fn = "hi_mpi_vdec_query_status";
  hi_s32 e = 0;
  auto c = Channel(fn, chn, &e);
  if (!c) return e;
  if (!status) return Fail(Module::kVdec, HI_ERR_NULL_PTR, std::string(fn) + ": status is null");
  std::lock_guard<std::mutex> lock(c->m);
  *status = c->status;
  status->left_stream_bytes = 0;  // a send decodes before it returns
  status->left_stream_frames = static_cast<hi_u32>(c->pending.size());
  status->left_decoded_frames = static_cast<hi_u32>(c->ready.size());
  return HI_SUCCESS;
}

hi_s32 hi_mpi_vdec_reset_chn(hi_vdec_chn chn) {
  const char* fn = "hi_mpi_vdec_reset_chn";
  hi_s32 e = 0;
  auto c = Channel(fn, chn, &e);
  if (!c) return e;
  std::lock_guard<std::mutex> work(c->work);
  std::lock_guard<std::mutex> lock(c->m);
  if (c->started)
    return Fail(Module::kVdec, HI_ERR_NOT_PERM,
                std::string(fn) + ": stop the channel first (hi_mpi_vdec_stop_recv_stream)");
  c->decoder.reset();
  c->pending.clear();
  c->ready.clear();
  if (c->event_fd >= 0) {
    uint64_t drop = 0;
    while (read(c->event_fd, &drop, sizeof drop) > 0) {
    }
  }
  const hi_bool started = c->status.is_started;
  c->status = {};
  c->status.type = c->attr.type;
  c->status.is_started = started;
  return HI_SUCCESS;
}

hi_s32 hi_mpi_vdec_send_stream(hi_vdec_chn chn, const hi_vdec_stream* stream,
                               hi_vdec_pic_info* vdec_pic_info, hi_s32 milli_sec) {
  const char* fn = "hi_mpi_vdec_send_stream";
  (void)milli_sec;  // the send decodes at once: never BUF_FULL
  hi_s32 e = 0;
  auto c = Channel(fn, chn, &e);
  if (!c) return e;
  if (!stream) return Fail(Module::kVdec, HI_ERR_NULL_PTR, std::string(fn) + ": stream is null");
  std::lock_guard<std::mutex> work(c->work);
  {
    std::lock_guard<std::mutex> lock(c->m);
    if (c->destroyed)
      return Fail(Module::kVdec, HI_ERR_UNEXIST, std::string(fn) + ": the channel is destroyed");
    if (!c->started)
      return Fail(Module::kVdec, HI_ERR_NOT_PERM,
                  std::string(fn) + ": channel " + std::to_string(chn) +
                      " is not receiving (hi_mpi_vdec_start_recv_stream)");
  }
  const bool data = stream->len > 0;
  if (data) {
    if (!stream->end_of_frame)
      return Fail(Module::kVdec, HI_ERR_NOT_SUPPORT,
                  std::string(fn) +
                      ": end_of_frame is not set; OpenCANN's VDEC takes one whole "
                      "frame per send");
    // Video streams may sit in any device memory (aclrtMalloc); JPEG follows the chip's rule.
    if (hi_s32 bad = CheckBuffer(Module::kVdec, stream->addr, stream->len, fn, "the stream",
                                 c->type != HI_PT_JPEG))
      return bad;
    if (!vdec_pic_info)
      return Fail(Module::kVdec, HI_ERR_NULL_PTR, std::string(fn) + ": vdec_pic_info is null");
    if (hi_s32 bad = CheckBuffer(
            Module::kVdec,
            reinterpret_cast<const void*>(static_cast<uintptr_t>(vdec_pic_info->vir_addr)),
            vdec_pic_info->buffer_size, fn, "the output buffer"))
      return bad;
  } else if (!stream->end_of_stream) {
    return Fail(Module::kVdec, HI_ERR_ILLEGAL_PARAM,
                std::string(fn) + ": the stream is empty and end_of_stream is not set");
  }
  if (c->type == HI_PT_JPEG) return data ? SendJpeg(*c, fn, *stream, vdec_pic_info) : HI_SUCCESS;
  return SendVideo(*c, fn, *stream, data ? vdec_pic_info : nullptr);
}

hi_s32 hi_mpi_vdec_get_frame(hi_vdec_chn chn, hi_video_frame_info* frame_info,
                             hi_vdec_supplement_info* supplement, hi_vdec_stream* stream,
                             hi_s32 milli_sec) {
  const char* fn = "hi_mpi_vdec_get_frame";
  hi_s32 e = 0;
  auto c = Channel(fn, chn, &e);
  if (!c) return e;
  if (!frame_info)
    return Fail(Module::kVdec, HI_ERR_NULL_PTR, std::string(fn) + ": frame_info is null");
  std::unique_lock<std::mutex> lock(c->m);
  if (!WaitFor(lock, c->cv, milli_sec, [&] { return !c->ready.empty() || c->destroyed; }) ||
      c->ready.empty()) {
    if (c->destroyed)
      return Fail(Module::kVdec, HI_ERR_UNEXIST, std::string(fn) + ": the channel was destroyed");
    return Code(Module::kVdec, HI_ERR_BUF_EMPTY);  // nothing yet: the usual answer to a poll
  }
  Ready r = c->ready.front();
  c->ready.pop_front();
  if (c->event_fd >= 0) {
    uint64_t one = 0;
    (void)!read(c->event_fd, &one, sizeof one);
  }
  c->taken.insert(reinterpret_cast<uintptr_t>(r.frame.v_frame.virt_addr[0]));
  *frame_info = r.frame;
  if (supplement) *supplement = r.supplement;
  if (stream) *stream = r.stream;
  return HI_SUCCESS;
}

hi_s32 hi_mpi_vdec_release_frame(hi_vdec_chn chn, const hi_video_frame_info* frame_info) {
  const char* fn = "hi_mpi_vdec_release_frame";
  hi_s32 e = 0;
  auto c = Channel(fn, chn, &e);
  if (!c) return e;
  if (!frame_info)
    return Fail(Module::kVdec, HI_ERR_NULL_PTR, std::string(fn) + ": frame_info is null");
  std::lock_guard<std::mutex> lock(c->m);
  if (c->taken.erase(reinterpret_cast<uintptr_t>(frame_info->v_frame.virt_addr[0])) == 0)
    return Fail(Module::kVdec, HI_ERR_ILLEGAL_PARAM,
                std::string(fn) +
                    ": the frame was not taken with hi_mpi_vdec_get_frame on "
                    "this channel, or was released already");
  return HI_SUCCESS;
}

hi_s32 hi_mpi_vdec_get_fd(hi_vdec_chn chn) {
  hi_s32 e = 0;
  auto c = Channel("hi_mpi_vdec_get_fd", chn, &e);
  if (!c) return e;
  std::lock_guard<std::mutex> lock(c->m);
  if (c->event_fd < 0) {
    c->event_fd =
        eventfd(static_cast<unsigned>(c->ready.size()), EFD_CLOEXEC | EFD_NONBLOCK | EFD_SEMAPHORE);
    if (c->event_fd < 0)
      return Fail(Module::kVdec, HI_ERR_SYS_ERROR, "hi_mpi_vdec_get_fd: no descriptor left");
  }
  return c->event_fd;
}

hi_s32 hi_mpi_vdec_close_fd(hi_vdec_chn chn) {
  hi_s32 e = 0;
  auto c = Channel("hi_mpi_vdec_close_fd", chn, &e);
  if (!c) return e;
  std::lock_guard<std::mutex> lock(c->m);
  if (c->event_fd >= 0) close(c->event_fd);
  c->event_fd = -1;
  return HI_SUCCESS;
}

hi_s32 hi_mpi_vdec_set_jpegd_precision_mode(hi_vdec_chn chn, const hi_jpegd_precision_mode mode) {
  const char* fn = "hi_mpi_vdec_set_jpegd_precision_mode";
  hi_s32 e = 0;
  auto c = Channel(fn, chn, &e);
  if (!c) return e;
  const int32_t m = Int(&mode);
  if (m < YUVOUT_ALIGN_DOWN || m > YUVOUT_ALIGN_DOWN_COMPAT)
    return Fail(Module::kVdec, HI_ERR_ILLEGAL_PARAM,
                std::string(fn) + ": mode " + std::to_string(m) + " is not 0 to 2");
  if (m == YUVOUT_ALIGN_UP)
    return Fail(Module::kVdec, HI_ERR_NOT_SUPPORT,
                std::string(fn) +
                    ": OpenCANN's JPEGD writes odd-sized pictures rounded down "
                    "(YUVOUT_ALIGN_DOWN); YUVOUT_ALIGN_UP is not supported");
  return HI_SUCCESS;
}

}  // extern "C"
