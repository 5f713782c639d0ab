// hi_mpi_venc_*: VENC channels encoding H.264/H.265 (libx264/libx265 through FFmpeg,
// dvpp/video_decoder.h) and JPEG (libjpeg-turbo, dvpp/jpeg.h). A frame is encoded when it is
// sent (the encoders run without lookahead, one stream per frame); the stream waits in the
// channel, in DVPP memory, until get_stream takes it and release_stream frees it.
#include <sys/eventfd.h>
#include <unistd.h>

#include <array>
#include <cstring>
#include <vector>

#include "acl/ops/acl_dvpp.h"
#include "dvpp/jpeg.h"
#include "dvpp_mpi/mpi_venc_chn.h"

namespace oc::dvpp_mpi {
namespace {

constexpr int32_t kMaxChannels = 256;
// Streams a channel holds before send_frame gets BUF_FULL (the hardware's buffer is bounded
// too; this depth is OpenCANN's).
constexpr size_t kMaxReady = 64;

std::mutex g_table_mutex;
std::array<std::shared_ptr<VencChannel>, kMaxChannels>& Table() {
  static auto* table = new std::array<std::shared_ptr<VencChannel>, kMaxChannels>();
  return *table;
}

hi_s32 CheckId(const char* fn, hi_venc_chn chn) {
  if (hi_s32 e = RequireSystem(Module::kVenc, fn)) return e;
  if (chn < 0 || chn >= kMaxChannels)
    return Fail(Module::kVenc, HI_ERR_INVALID_CHN_ID,
                std::string(fn) + ": channel " + std::to_string(chn) + " is not 0 to " +
                    std::to_string(kMaxChannels - 1));
  return HI_SUCCESS;
}

hi_s32 Bad(const char* fn, const std::string& what) {
  return Fail(Module::kVenc, HI_ERR_ILLEGAL_PARAM, std::string(fn) + ": " + what);
}
hi_s32 Unsupported(const char* fn, const std::string& what) {
  return Fail(Module::kVenc, HI_ERR_NOT_SUPPORT, std::string(fn) + ": " + what);
}

// The attributes a channel can be created with (the rate control and GOP of video only).
hi_s32 CheckAttr(const char* fn, const hi_venc_chn_attr& a) {
  const hi_venc_attr& v = a.venc_attr;
  const int32_t type = EnumInt(&v.type);
  if (type != HI_PT_JPEG && type != HI_PT_H264 && type != HI_PT_H265)
    return Unsupported(fn, "payload type " + std::to_string(type) +
                               " is not HI_PT_JPEG (26), HI_PT_H264 (96) or HI_PT_H265 (265)");
  const bool jpeg = type == HI_PT_JPEG;
  const uint32_t lo = jpeg ? 32 : 128, hi = jpeg ? 8192 : 4096;
  if (v.pic_width < lo || v.pic_height < lo || v.pic_width > hi || v.pic_height > hi ||
      v.pic_width > v.max_pic_width || v.pic_height > v.max_pic_height)
    return Bad(fn, "the picture " + std::to_string(v.pic_width) + "x" +
                       std::to_string(v.pic_height) + " (largest " +
                       std::to_string(v.max_pic_width) + "x" + std::to_string(v.max_pic_height) +
                       ") is not " + std::to_string(lo) + "x" + std::to_string(lo) + " to " +
                       std::to_string(hi) + "x" + std::to_string(hi) + " within the largest");
  if (!jpeg && (v.pic_width % 2 || v.pic_height % 2))
    return Bad(fn, "video pictures have even sizes");
  if (jpeg) return HI_SUCCESS;  // rc_attr and gop_attr are not read for JPEG
  if (v.profile > (type == HI_PT_H264 ? 2u : 0u))
    return Bad(fn, "profile " + std::to_string(v.profile) +
                       (type == HI_PT_H264 ? " is not 0 (baseline), 1 (main) or 2 (high)"
                                           : " is not 0 (main)"));
  const int32_t rc = EnumInt(&a.rc_attr.rc_mode);
  const bool cbr = rc == HI_VENC_RC_MODE_H264_CBR || rc == HI_VENC_RC_MODE_H265_CBR;
  const bool vbr = rc == HI_VENC_RC_MODE_H264_VBR || rc == HI_VENC_RC_MODE_H265_VBR;
  const bool h265_mode = rc >= HI_VENC_RC_MODE_H265_CBR && rc <= HI_VENC_RC_MODE_H265_QPMAP;
  if (!cbr && !vbr)
    return Unsupported(fn, "rate control " + std::to_string(rc) +
                               ": OpenCANN encodes with CBR or VBR (H264_/H265_CBR, _VBR)");
  if (h265_mode != (type == HI_PT_H265))
    return Bad(fn, "rate control " + std::to_string(rc) + " is not for this payload type");
  const hi_venc_h264_vbr& r = a.rc_attr.h264_vbr;  // CBR has the same layout
  if (r.gop < 1 || r.gop > 65536 || r.src_frame_rate < 1 || r.src_frame_rate > 240 ||
      r.dst_frame_rate < 1 || r.dst_frame_rate > r.src_frame_rate || r.max_bit_rate < 2 ||
      r.max_bit_rate > 614400)
    return Bad(fn, "rate control: gop " + std::to_string(r.gop) + ", frame rates " +
                       std::to_string(r.src_frame_rate) + "/" + std::to_string(r.dst_frame_rate) +
                       ", bit rate " + std::to_string(r.max_bit_rate) +
                       " kbps: gop 1-65536, rates 1-240 (destination at most the source), "
                       "bit rate 2-614400");
  if (r.dst_frame_rate != r.src_frame_rate)
    return Unsupported(fn, "frame rate conversion (" + std::to_string(r.src_frame_rate) + " to " +
                               std::to_string(r.dst_frame_rate) +
                               " fps) drops pictures on the NPU; OpenCANN does not");
  const int32_t gop = EnumInt(&a.gop_attr.gop_mode);
  if (gop != HI_VENC_GOP_MODE_NORMAL_P)
    return Unsupported(fn, "GOP mode " + std::to_string(gop) +
                               ": OpenCANN encodes HI_VENC_GOP_MODE_NORMAL_P (I and P pictures)");
  return HI_SUCCESS;
}

void Signal(VencChannel& c) {
  if (c.event_fd >= 0) {
    const uint64_t one = 1;
    (void)!write(c.event_fd, &one, sizeof one);
  }
  c.cv.notify_all();
}

// The sent picture as a packed 4:2:0 picture on the host (strides 16-aligned, height h).
hi_s32 ReadFrame(const char* fn, const hi_video_frame& f, std::vector<uint8_t>* pixels,
                 dvpp::Picture* pic) {
  const int32_t format = EnumInt(&f.pixel_format);
  if (format != dvpp::kNv12 && format != dvpp::kNv21)
    return Unsupported(fn, std::string("the picture is ") + dvpp::PixelFormatName(format) +
                               "; OpenCANN's VENC encodes YUV_SEMIPLANAR_420 and "
                               "YVU_SEMIPLANAR_420");
  const uint32_t w = f.width, h = f.height;
  const uint32_t ws = f.width_stride[0], cws = f.width_stride[1] ? f.width_stride[1] : ws;
  if (w < 32 || h < 32 || w > 8192 || h > 8192 || w % 2 || h % 2)
    return Bad(fn, "the picture is " + std::to_string(w) + "x" + std::to_string(h) +
                       "; VENC takes even sizes of 32x32 to 8192x8192");
  if (ws < w || ws % 16 || cws < w)
    return Bad(fn, "width stride " + std::to_string(ws) + " is not a multiple of 16 at least " +
                       std::to_string(w));
  const auto* luma = static_cast<const uint8_t*>(f.virt_addr[0]);
  const uint32_t hs = f.height_stride[0] ? f.height_stride[0] : dvpp::AlignUp(h, 2);
  const auto* chroma = f.virt_addr[1] ? static_cast<const uint8_t*>(f.virt_addr[1])
                                      : luma + static_cast<size_t>(ws) * hs;
  if (hi_s32 e = CheckBuffer(Module::kVenc, luma, uint64_t{ws} * h, fn, "the picture's luma"))
    return e;
  if (hi_s32 e =
          CheckBuffer(Module::kVenc, chroma, uint64_t{cws} * (h / 2), fn, "the picture's chroma"))
    return e;
  const uint32_t pws = dvpp::AlignUp(w, 16);
  pixels->assign(static_cast<size_t>(pws) * h * 3 / 2, 0);
  for (uint32_t r = 0; r < h; ++r)
    std::memcpy(pixels->data() + static_cast<size_t>(r) * pws, luma + static_cast<size_t>(r) * ws,
                w);
  for (uint32_t r = 0; r < h / 2; ++r)
    std::memcpy(pixels->data() + static_cast<size_t>(pws) * h + static_cast<size_t>(r) * pws,
                chroma + static_cast<size_t>(r) * cws, w);
  *pic = {pixels->data(), static_cast<uint32_t>(pixels->size()), format, w, h, pws, h};
  return HI_SUCCESS;
}

int32_t VideoDataType(const std::vector<uint8_t>& unit, bool h265) {
  for (size_t i = 0; i + 3 < unit.size(); ++i) {
    if (unit[i] || unit[i + 1] || unit[i + 2] != 1) continue;
    const int t = h265 ? (unit[i + 3] >> 1) & 0x3f : unit[i + 3] & 0x1f;
    if (!h265 && t == 5) return HI_VENC_H264_NALU_IDR_SLICE;
    if (h265 && (t == 19 || t == 20)) return HI_VENC_H265_NALU_IDR_SLICE;
  }
  return h265 ? int32_t{HI_VENC_H265_NALU_P_SLICE} : int32_t{HI_VENC_H264_NALU_P_SLICE};
}

// A stream into DVPP memory; false (recorded) when none is left.
hi_s32 Store(const char* fn, const uint8_t* data, size_t len, VencStream* s) {
  void* p = nullptr;
  if (acldvppMalloc(&p, len ? len : 1) != ACL_SUCCESS)
    return Fail(Module::kVenc, HI_ERR_NO_MEM,
                std::string(fn) + ": no DVPP memory for a " + std::to_string(len) + "-byte stream");
  std::memcpy(p, data, len);
  s->buffer = static_cast<uint8_t*>(p);
  s->len = static_cast<uint32_t>(len);
  return HI_SUCCESS;
}

hi_s32 Encode(VencChannel& c, const char* fn, const hi_video_frame_info& frame,
              const hi_img_stream* into) {
  std::vector<uint8_t> pixels;
  dvpp::Picture pic;
  if (hi_s32 e = ReadFrame(fn, frame.v_frame, &pixels, &pic)) return e;
  const hi_venc_attr& a = c.attr.venc_attr;
  if (pic.width > a.max_pic_width || pic.height > a.max_pic_height)
    return Bad(fn, "the picture " + std::to_string(pic.width) + "x" + std::to_string(pic.height) +
                       " is larger than the channel's " + std::to_string(a.max_pic_width) + "x" +
                       std::to_string(a.max_pic_height));
  VencStream s;
  s.input_addr = reinterpret_cast<uintptr_t>(frame.v_frame.virt_addr[0]);
  s.pts = frame.v_frame.pts;
  if (c.type == HI_PT_JPEG) {
    s.data_type = HI_VENC_JPEG_PACK_PIC;
    std::vector<uint8_t> out(dvpp::JpegeOutputBound(pic));
    uint32_t size = static_cast<uint32_t>(out.size());
    const uint32_t quality = c.jpeg.qfactor;
    if (Status st = dvpp::EncodeJpeg(pic, quality, out.data(), &size); !st.ok())
      return FailStatus(Module::kVenc, st, fn);
    if (into) {
      if (size > into->len)
        return Fail(Module::kVenc, HI_ERR_NO_BUF,
                    std::string(fn) + ": the JPEG takes " + std::to_string(size) +
                        " bytes; the buffer holds " + std::to_string(into->len) +
                        " (hi_mpi_venc_get_jpege_predicted_size)");
      std::memcpy(into->addr, out.data(), size);
      s.buffer = into->addr;
      s.len = size;
      s.owned = false;
    } else if (hi_s32 e = Store(fn, out.data(), size, &s)) {
      return e;
    }
  } else {
    if (pic.width != a.pic_width || pic.height != a.pic_height)
      return Bad(fn, "the picture is " + std::to_string(pic.width) + "x" +
                         std::to_string(pic.height) + "; the channel encodes " +
                         std::to_string(a.pic_width) + "x" + std::to_string(a.pic_height));
    const bool h265 = c.type == HI_PT_H265;
    if (!c.encoder) {
      dvpp::EncoderOptions o;
      o.stream_format = h265 ? 0 : static_cast<int32_t>(a.profile) + 1;
      o.width = a.pic_width;
      o.height = a.pic_height;
      const hi_venc_h264_vbr& r = c.attr.rc_attr.h264_vbr;
      o.key_frame_interval = r.gop;
      o.src_rate = r.src_frame_rate;
      o.max_bit_rate_kbps = r.max_bit_rate;
      const int32_t rc = EnumInt(&c.attr.rc_attr.rc_mode);
      o.rc_mode = rc == HI_VENC_RC_MODE_H264_CBR || rc == HI_VENC_RC_MODE_H265_CBR ? 2 : 1;
      auto e = dvpp::CreateVideoEncoder(o);
      if (!e.ok()) return FailStatus(Module::kVenc, e.status(), fn);
      c.encoder = std::move(*e);
    }
    dvpp::DecodedFrame f;
    f.width = pic.width;
    f.height = pic.height;
    const size_t plane = static_cast<size_t>(pic.width_stride) * pic.height;
    f.y.resize(static_cast<size_t>(pic.width) * pic.height);
    f.uv.resize(static_cast<size_t>(pic.width) * pic.height / 2);
    const bool swap = pic.format == dvpp::kNv21;
    for (uint32_t r = 0; r < pic.height; ++r)
      std::memcpy(&f.y[static_cast<size_t>(r) * pic.width], pic.data + r * pic.width_stride,
                  pic.width);
    for (uint32_t r = 0; r < pic.height / 2; ++r)
      for (uint32_t x = 0; x < pic.width; x += 2) {
        const uint8_t* q = pic.data + plane + r * pic.width_stride + x;
        f.uv[static_cast<size_t>(r) * pic.width + x] = q[swap ? 1 : 0];
        f.uv[static_cast<size_t>(r) * pic.width + x + 1] = q[swap ? 0 : 1];
      }
    std::vector<std::vector<uint8_t>> units;
    bool idr = false;
    {
      std::lock_guard<std::mutex> lock(c.m);
      idr = c.force_idr;
      c.force_idr = false;
    }
    if (Status st = c.encoder->Send(&f, idr, &units); !st.ok())
      return FailStatus(Module::kVenc, st, fn);
    if (units.size() != 1)
      return Fail(Module::kVenc, HI_ERR_SYS_ERROR,
                  std::string(fn) + ": the encoder gave " + std::to_string(units.size()) +
                      " streams for one picture");
    s.data_type = VideoDataType(units[0], h265);
    if (hi_s32 e = Store(fn, units[0].data(), units[0].size(), &s)) return e;
  }
  std::lock_guard<std::mutex> lock(c.m);
  s.seq = c.seq++;
  c.ready.push_back(s);
  ++c.sent;
  if (c.recv_left > 0) --c.recv_left;
  Signal(c);
  return HI_SUCCESS;
}

hi_s32 Send(const char* fn, hi_venc_chn chn, const hi_video_frame_info* frame,
            const hi_img_stream* into) {
  hi_s32 e = 0;
  auto c = VencChannelOf(fn, chn, &e);
  if (!c) return e;
  if (!frame) return Fail(Module::kVenc, HI_ERR_NULL_PTR, std::string(fn) + ": frame is null");
  std::lock_guard<std::mutex> work(c->work);
  {
    std::lock_guard<std::mutex> lock(c->m);
    if (c->destroyed)
      return Fail(Module::kVenc, HI_ERR_UNEXIST, std::string(fn) + ": the channel is destroyed");
    if (!c->started)
      return Fail(Module::kVenc, HI_ERR_NOT_PERM,
                  std::string(fn) + ": channel " + std::to_string(chn) +
                      " is not started (hi_mpi_venc_start_chn)");
    if (c->recv_left == 0)
      return Fail(Module::kVenc, HI_ERR_NOT_PERM,
                  std::string(fn) + ": the channel has taken the pictures start_chn asked for");
    const size_t limit = c->param.max_stream_cnt ? c->param.max_stream_cnt : kMaxReady;
    if (c->ready.size() >= limit)
      return Fail(Module::kVenc, HI_ERR_BUF_FULL,
                  std::string(fn) + ": " + std::to_string(c->ready.size()) +
                      " streams wait for hi_mpi_venc_get_stream");
  }
  return Encode(*c, fn, *frame, into);
}

}  // namespace

int32_t EnumInt(const void* enum_value) {
  int32_t v = 0;
  std::memcpy(&v, enum_value, sizeof v);
  return v;
}

std::shared_ptr<VencChannel> VencChannelOf(const char* fn, hi_venc_chn chn, hi_s32* error) {
  *error = CheckId(fn, chn);
  if (*error) return nullptr;
  std::lock_guard<std::mutex> lock(g_table_mutex);
  auto c = Table()[static_cast<size_t>(chn)];
  if (!c)
    *error = Fail(Module::kVenc, HI_ERR_UNEXIST,
                  std::string(fn) + ": channel " + std::to_string(chn) + " is not created");
  return c;
}

}  // namespace oc::dvpp_mpi

using namespace oc::dvpp_mpi;  // NOLINT: the C entry points below are thin

extern "C" {

hi_s32 hi_mpi_venc_create_chn(hi_venc_chn chn, const hi_venc_chn_attr* attr) {
  const char* fn = "hi_mpi_venc_create_chn";
  if (hi_s32 e = CheckId(fn, chn)) return e;
  if (!attr) return Fail(Module::kVenc, HI_ERR_NULL_PTR, std::string(fn) + ": attr is null");
  if (hi_s32 e = CheckAttr(fn, *attr)) return e;
  auto c = std::make_shared<VencChannel>();
  c->attr = *attr;
  c->type = EnumInt(&attr->venc_attr.type);
  JpegTables(100, &c->jpeg);
  c->param.max_stream_cnt = 0;
  std::lock_guard<std::mutex> lock(g_table_mutex);
  if (Table()[static_cast<size_t>(chn)])
    return Fail(Module::kVenc, HI_ERR_EXIST,
                std::string(fn) + ": channel " + std::to_string(chn) + " exists already");
  Table()[static_cast<size_t>(chn)] = c;
  return HI_SUCCESS;
}

hi_s32 hi_mpi_venc_destroy_chn(hi_venc_chn chn) {
  hi_s32 e = 0;
  auto c = VencChannelOf("hi_mpi_venc_destroy_chn", chn, &e);
  if (!c) return e;
  {
    std::lock_guard<std::mutex> lock(g_table_mutex);
    Table()[static_cast<size_t>(chn)].reset();
  }
  std::lock_guard<std::mutex> work(c->work);
  std::lock_guard<std::mutex> lock(c->m);
  c->destroyed = true;
  // Streams never taken are freed; those taken stay the application's until it frees them
  // (release_stream after destroy finds no channel).
  for (auto& s : c->ready)
    if (s.owned) acldvppFree(s.buffer);
  c->ready.clear();
  for (auto& [p, s] : c->taken)
    if (s.owned) acldvppFree(s.buffer);
  c->taken.clear();
  if (c->event_fd >= 0) close(c->event_fd);
  c->event_fd = -1;
  c->cv.notify_all();
  return HI_SUCCESS;
}

hi_s32 hi_mpi_venc_start_chn(hi_venc_chn chn, const hi_venc_start_param* recv_param) {
  const char* fn = "hi_mpi_venc_start_chn";
  hi_s32 e = 0;
  auto c = VencChannelOf(fn, chn, &e);
  if (!c) return e;
  if (!recv_param)
    return Fail(Module::kVenc, HI_ERR_NULL_PTR, std::string(fn) + ": recv_param is null");
  if (recv_param->recv_pic_num == 0 || recv_param->recv_pic_num < -1)
    return Fail(Module::kVenc, HI_ERR_ILLEGAL_PARAM,
                std::string(fn) + ": recv_pic_num " + std::to_string(recv_param->recv_pic_num) +
                    " is not -1 (no limit) or positive");
  std::lock_guard<std::mutex> lock(c->m);
  c->started = true;
  c->recv_left = recv_param->recv_pic_num;
  return HI_SUCCESS;
}

hi_s32 hi_mpi_venc_stop_chn(hi_venc_chn chn) {
  hi_s32 e = 0;
  auto c = VencChannelOf("hi_mpi_venc_stop_chn", chn, &e);
  if (!c) return e;
  std::lock_guard<std::mutex> lock(c->m);
  c->started = false;
  return HI_SUCCESS;
}

hi_s32 hi_mpi_venc_query_status(hi_venc_chn chn, hi_venc_chn_status* status) {
  const char* fn = "hi_mpi_venc_query_status";
  hi_s32 e = 0;
  auto c = VencChannelOf(fn, chn, &e);
  if (!c) return e;
  if (!status) return Fail(Module::kVenc, HI_ERR_NULL_PTR, std::string(fn) + ": status is null");
  std::lock_guard<std::mutex> lock(c->m);
  *status = {};
  status->left_stream_frames = static_cast<hi_u32>(c->ready.size());
  status->cur_packs = c->ready.empty() ? 0 : 1;
  for (const auto& s : c->ready) status->left_stream_bytes += s.len;
  status->left_recv_pics = c->recv_left < 0 ? 0 : static_cast<hi_u32>(c->recv_left);
  status->is_jpeg_snap_end = c->type == HI_PT_JPEG && c->ready.empty() ? HI_TRUE : HI_FALSE;
  status->stream_info.pic_cnt = c->sent;
  return HI_SUCCESS;
}

hi_s32 hi_mpi_venc_send_frame(hi_venc_chn chn, const hi_video_frame_info* frame, hi_s32 milli_sec) {
  (void)milli_sec;  // a frame is encoded when it is sent
  return Send("hi_mpi_venc_send_frame", chn, frame, nullptr);
}

hi_s32 hi_mpi_venc_send_jpege_frame(hi_venc_chn chn, const hi_video_frame_info* frame,
                                    const hi_img_stream* jpege_stream, hi_s32 milli_sec) {
  const char* fn = "hi_mpi_venc_send_jpege_frame";
  (void)milli_sec;
  if (!jpege_stream)
    return Fail(Module::kVenc, HI_ERR_NULL_PTR, std::string(fn) + ": jpege_stream is null");
  if (hi_s32 e = CheckBuffer(Module::kVenc, jpege_stream->addr, jpege_stream->len, fn,
                             "the output buffer"))
    return e;
  {
    hi_s32 e = 0;
    auto c = VencChannelOf(fn, chn, &e);
    if (!c) return e;
    if (c->type != HI_PT_JPEG)
      return Fail(Module::kVenc, HI_ERR_NOT_PERM, std::string(fn) + ": the channel is not JPEG");
  }
  return Send(fn, chn, frame, jpege_stream);
}

hi_s32 hi_mpi_venc_get_stream(hi_venc_chn chn, hi_venc_stream* stream, hi_s32 milli_sec) {
  const char* fn = "hi_mpi_venc_get_stream";
  hi_s32 e = 0;
  auto c = VencChannelOf(fn, chn, &e);
  if (!c) return e;
  if (!stream || !stream->pack)
    return Fail(Module::kVenc, HI_ERR_NULL_PTR, std::string(fn) + ": stream or its pack is null");
  if (stream->pack_cnt < 1)
    return Fail(Module::kVenc, HI_ERR_ILLEGAL_PARAM,
                std::string(fn) + ": pack_cnt is 0 (hi_mpi_venc_query_status's cur_packs)");
  std::unique_lock<std::mutex> lock(c->m);
  if (!WaitFor(lock, c->cv, milli_sec, [&] { return !c->ready.empty() || c->destroyed; }) ||
      c->ready.empty()) {
    if (c->destroyed)
      return Fail(Module::kVenc, HI_ERR_UNEXIST, std::string(fn) + ": the channel was destroyed");
    return Code(Module::kVenc, HI_ERR_BUF_EMPTY);
  }
  VencStream s = c->ready.front();
  c->ready.pop_front();
  if (c->event_fd >= 0) {
    uint64_t one = 0;
    (void)!read(c->event_fd, &one, sizeof one);
  }
  c->taken[s.buffer] = s;
  hi_venc_pack& p = stream->pack[0];
  std::memset(&p, 0, sizeof p);
  p.input_addr = s.input_addr;
  p.addr = s.buffer;
  p.len = s.len;
  p.pts = s.pts;
  p.is_frame_end = HI_TRUE;
  std::memcpy(&p.data_type, &s.data_type, sizeof s.data_type);
  stream->pack_cnt = 1;
  stream->seq = s.seq;
  std::memset(&stream->h264_info, 0, sizeof stream->h264_info);
  if (c->type == HI_PT_JPEG) {
    stream->jpeg_info.pic_bytes = s.len;
    stream->jpeg_info.qfactor = c->jpeg.qfactor;
  } else {
    stream->h264_info.pic_bytes = s.len;  // the first field of the H.265 info too
  }
  return HI_SUCCESS;
}

hi_s32 hi_mpi_venc_release_stream(hi_venc_chn chn, hi_venc_stream* stream) {
  const char* fn = "hi_mpi_venc_release_stream";
  hi_s32 e = 0;
  auto c = VencChannelOf(fn, chn, &e);
  if (!c) return e;
  if (!stream || !stream->pack)
    return Fail(Module::kVenc, HI_ERR_NULL_PTR, std::string(fn) + ": stream or its pack is null");
  std::lock_guard<std::mutex> lock(c->m);
  auto it = c->taken.find(stream->pack[0].addr);
  if (it == c->taken.end())
    return Fail(Module::kVenc, HI_ERR_ILLEGAL_PARAM,
                std::string(fn) +
                    ": the stream was not taken with hi_mpi_venc_get_stream on "
                    "this channel, or was released already");
  if (it->second.owned) acldvppFree(it->second.buffer);
  c->taken.erase(it);
  return HI_SUCCESS;
}

hi_s32 hi_mpi_venc_get_fd(hi_venc_chn chn) {
  hi_s32 e = 0;
  auto c = VencChannelOf("hi_mpi_venc_get_fd", chn, &e);
  if (!c) return e;
  std::lock_guard<std::mutex> lock(c->m);
  if (c->event_fd < 0) {
    c->event_fd =
        eventfd(static_cast<unsigned>(c->ready.size()), EFD_CLOEXEC | EFD_NONBLOCK | EFD_SEMAPHORE);
    if (c->event_fd < 0)
      return Fail(Module::kVenc, HI_ERR_SYS_ERROR, "hi_mpi_venc_get_fd: no descriptor left");
  }
  return c->event_fd;
}

hi_s32 hi_mpi_venc_close_fd(hi_venc_chn chn) {
  hi_s32 e = 0;
  auto c = VencChannelOf("hi_mpi_venc_close_fd", chn, &e);
  if (!c) return e;
  std::lock_guard<std::mutex> lock(c->m);
  if (c->event_fd >= 0) close(c->event_fd);
  c->event_fd = -1;
  return HI_SUCCESS;
}

}  // extern "C"
