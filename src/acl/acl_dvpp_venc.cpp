// VENC: a channel encodes each sent YUV420SP picture with FFmpeg (dvpp/video_decoder.h's
// VideoEncoder) and hands every encoded frame to the application's callback through
// AscendCL's report mechanism, as VDEC does: a stream of its own subscribed to the
// application's report thread. The encoded bytes sit in DVPP memory owned by the channel,
// valid while the callback runs, as CANN documents. A send with eos (and destroying the
// channel) drains the encoder.
#include <atomic>
#include <cstring>
#include <deque>
#include <memory>
#include <new>

#include "acl/acl_dvpp_objects.h"
#include "dvpp/video_decoder.h"

using oc::acl_dvpp::Fail;
using oc::acl_dvpp::FailStatus;
using oc::acl_dvpp::Kind;

struct aclvencFrameConfig {
  uint8_t force_i_frame = 0, eos = 0;
};

struct aclvencChannelDesc {
  uint32_t channel_id = 0;
  uint64_t thread_id = 0;
  aclvencCallback callback = nullptr;
  int32_t en_type = H264_MAIN_LEVEL;
  int32_t pic_format = PIXEL_FORMAT_YUV_SEMIPLANAR_420;
  uint32_t width = 0, height = 0, key_frame_interval = 30, buf_size = 0, rc_mode = 0;
  uint32_t src_rate = 30, max_bit_rate = 0;
  void* buf_addr = nullptr;
  uint32_t ring_offset = 0;  // where the next access unit goes in buf_addr's buffer
  oc::acl_dvpp::ChannelGate gate;
  bool created = false;
  aclrtStream stream = nullptr;
  std::unique_ptr<oc::dvpp::VideoEncoder> encoder;
  struct Pending {
    acldvppPicDesc* input;
    void* user;
  };
  std::deque<Pending> pending;
};

namespace {

std::atomic<uint32_t> g_next_venc{0};

struct EncodedTask {
  aclvencCallback fn;
  acldvppPicDesc* input;
  void* user;
  void* data;  // DVPP memory with the access unit
  bool owned;  // data is the channel's allocation (not the application's BufAddr buffer)
  acldvppStreamDesc* output;
};

void RunEncoded(void* p) {
  std::unique_ptr<EncodedTask> t(static_cast<EncodedTask*>(p));
  if (t->fn) t->fn(t->input, t->output, t->user);
  acldvppDestroyStreamDesc(t->output);
  if (t->owned) acldvppFree(t->data);
}

// Where an access unit goes: the application's stream buffer (BufAddr/BufSize), used as a
// ring, or DVPP memory of the channel's own.
aclError Place(aclvencChannelDesc* d, size_t bytes, void** data, bool* owned) {
  if (!d->buf_addr) {
    *owned = true;
    return acldvppMalloc(data, bytes);
  }
  *owned = false;
  if (bytes > d->buf_size)
    return Fail(ACL_ERROR_INVALID_PARAM,
                "aclvencSendFrame: an encoded frame of " + std::to_string(bytes) +
                    " bytes does not fit the stream buffer (aclvencSetChannelDescBufSize " +
                    std::to_string(d->buf_size) + ")");
  if (d->ring_offset + bytes > d->buf_size) d->ring_offset = 0;
  *data = static_cast<uint8_t*>(d->buf_addr) + d->ring_offset;
  d->ring_offset += static_cast<uint32_t>(bytes);
  return ACL_SUCCESS;
}

aclError Deliver(aclvencChannelDesc* d, const std::vector<std::vector<uint8_t>>& units) {
  for (const auto& unit : units) {
    aclvencChannelDesc::Pending p{nullptr, nullptr};
    if (!d->pending.empty()) {
      p = d->pending.front();
      d->pending.pop_front();
    }
    void* data = nullptr;
    bool owned = true;
    if (aclError e = Place(d, unit.size(), &data, &owned)) return e;
    auto release = [&] {
      if (owned) acldvppFree(data);
    };
    if (aclError e =
            aclrtMemcpy(data, unit.size(), unit.data(), unit.size(), ACL_MEMCPY_HOST_TO_DEVICE)) {
      release();
      return e;
    }
    acldvppStreamDesc* out = acldvppCreateStreamDesc();
    if (!out) {
      release();
      return Fail(ACL_ERROR_BAD_ALLOC, "aclvencSendFrame: no memory for the output description");
    }
    acldvppSetStreamDescData(out, data);
    acldvppSetStreamDescSize(out, static_cast<uint32_t>(unit.size()));
    acldvppSetStreamDescFormat(out, static_cast<acldvppStreamFormat>(d->en_type));
    auto* task = new (std::nothrow) EncodedTask{d->callback, p.input, p.user, data, owned, out};
    if (!task) {
      acldvppDestroyStreamDesc(out);
      release();
      return Fail(ACL_ERROR_BAD_ALLOC, "aclvencSendFrame: no memory for the callback");
    }
    if (aclError e = aclrtLaunchCallback(RunEncoded, task, ACL_CALLBACK_BLOCK, d->stream)) {
      acldvppDestroyStreamDesc(out);
      release();
      delete task;
      return e;
    }
  }
  return ACL_SUCCESS;
}

template <typename F>
aclError SetVenc(aclvencChannelDesc* d, const char* fn, F set) {
  return oc::acl_dvpp::SetUncreated(d, Kind::kVencChannel, fn, set);
}
template <typename R, typename F>
R GetVenc(const aclvencChannelDesc* d, R fallback, F get) {
  return oc::acl_dvpp::GetLive<R>(d, Kind::kVencChannel, fallback, get);
}
template <typename F>
aclError SetFrame(aclvencFrameConfig* c, const char* fn, F set) {
  return oc::acl_dvpp::SetLive(c, Kind::kVencFrameConfig, fn, set);
}

}  // namespace

extern "C" {

aclvencChannelDesc* aclvencCreateChannelDesc(void) {
  auto* d = new (std::nothrow) aclvencChannelDesc();
  if (!d) return nullptr;
  d->channel_id = g_next_venc++;
  std::lock_guard<std::mutex> lock(oc::acl_dvpp::Mutex());
  oc::acl_dvpp::Add(d, Kind::kVencChannel);
  return d;
}
aclError aclvencDestroyChannelDesc(aclvencChannelDesc* d) {
  {
    std::lock_guard<std::mutex> lock(oc::acl_dvpp::Mutex());
    if (!d || !oc::acl_dvpp::Live(d, Kind::kVencChannel))
      return Fail(ACL_ERROR_INVALID_PARAM, "aclvencDestroyChannelDesc: not a live handle");
    if (d->created || d->gate.calls)
      return Fail(ACL_ERROR_INVALID_PARAM,
                  "aclvencDestroyChannelDesc: the channel is in use; destroy it first "
                  "(aclvencDestroyChannel) and let its calls return");
    oc::acl_dvpp::Remove(d, Kind::kVencChannel);
  }
  delete d;
  return ACL_SUCCESS;
}

#define OC_VENC_SETTER(Name, Type, field)                               \
  aclError aclvencSetChannelDesc##Name(aclvencChannelDesc* d, Type v) { \
    return SetVenc(d, __func__, [&](auto& c) { c.field = v; });         \
  }
OC_VENC_SETTER(ThreadId, uint64_t, thread_id)
OC_VENC_SETTER(Callback, aclvencCallback, callback)
OC_VENC_SETTER(PicWidth, uint32_t, width)
OC_VENC_SETTER(PicHeight, uint32_t, height)
OC_VENC_SETTER(KeyFrameInterval, uint32_t, key_frame_interval)
OC_VENC_SETTER(BufAddr, void*, buf_addr)
OC_VENC_SETTER(BufSize, uint32_t, buf_size)
OC_VENC_SETTER(SrcRate, uint32_t, src_rate)
OC_VENC_SETTER(MaxBitRate, uint32_t, max_bit_rate)
#undef OC_VENC_SETTER

aclError aclvencSetChannelDescEnType(aclvencChannelDesc* d, acldvppStreamFormat type) {
  const int32_t value = oc::acl_dvpp::EnumBits(type);
  if (value < H265_MAIN_LEVEL || value > H264_HIGH_LEVEL)
    return Fail(ACL_ERROR_INVALID_PARAM, "aclvencSetChannelDescEnType: " + std::to_string(value) +
                                             " is not an acldvppStreamFormat");
  return SetVenc(d, __func__, [&](auto& c) { c.en_type = value; });
}
aclError aclvencSetChannelDescPicFormat(aclvencChannelDesc* d, acldvppPixelFormat format) {
  const int32_t value = oc::acl_dvpp::EnumBits(format);
  if (value != PIXEL_FORMAT_YUV_SEMIPLANAR_420 && value != PIXEL_FORMAT_YVU_SEMIPLANAR_420)
    return Fail(ACL_ERROR_INVALID_PARAM,
                "aclvencSetChannelDescPicFormat: VENC encodes "
                "YUV_SEMIPLANAR_420 or YVU_SEMIPLANAR_420 pictures");
  return SetVenc(d, __func__, [&](auto& c) { c.pic_format = value; });
}
aclError aclvencSetChannelDescRcMode(aclvencChannelDesc* d, uint32_t mode) {
  if (mode > 2)
    return Fail(
        ACL_ERROR_INVALID_PARAM,
        "aclvencSetChannelDescRcMode: 0 or 1 (VBR) or 2 (CBR), not " + std::to_string(mode));
  return SetVenc(d, __func__, [&](auto& c) { c.rc_mode = mode; });
}

uint32_t aclvencGetChannelDescChannelId(const aclvencChannelDesc* d) {
  return GetVenc<uint32_t>(d, 0, [](const auto& c) { return c.channel_id; });
}
uint64_t aclvencGetChannelDescThreadId(const aclvencChannelDesc* d) {
  return GetVenc<uint64_t>(d, 0, [](const auto& c) { return c.thread_id; });
}
aclvencCallback aclvencGetChannelDescCallback(const aclvencChannelDesc* d) {
  return GetVenc<aclvencCallback>(d, nullptr, [](const auto& c) { return c.callback; });
}
acldvppStreamFormat aclvencGetChannelDescEnType(const aclvencChannelDesc* d) {
  return GetVenc<acldvppStreamFormat>(d, H265_MAIN_LEVEL, [](const auto& c) {
    return static_cast<acldvppStreamFormat>(c.en_type);
  });
}
acldvppPixelFormat aclvencGetChannelDescPicFormat(const aclvencChannelDesc* d) {
  return GetVenc<acldvppPixelFormat>(d, PIXEL_FORMAT_YUV_400, [](const auto& c) {
    return static_cast<acldvppPixelFormat>(c.pic_format);
  });
}
uint32_t aclvencGetChannelDescPicWidth(const aclvencChannelDesc* d) {
  return GetVenc<uint32_t>(d, 0, [](const auto& c) { return c.width; });
}
uint32_t aclvencGetChannelDescPicHeight(const aclvencChannelDesc* d) {
  return GetVenc<uint32_t>(d, 0, [](const auto& c) { return c.height; });
}
uint32_t aclvencGetChannelDescKeyFrameInterval(const aclvencChannelDesc* d) {
  return GetVenc<uint32_t>(d, 0, [](const auto& c) { return c.key_frame_interval; });
}
uint32_t aclvencGetChannelDescRcMode(const aclvencChannelDesc* d) {
  return GetVenc<uint32_t>(d, 0, [](const auto& c) { return c.rc_mode; });
}
uint32_t aclvencGetChannelDescSrcRate(const aclvencChannelDesc* d) {
  return GetVenc<uint32_t>(d, 0, [](const auto& c) { return c.src_rate; });
}
uint32_t aclvencGetChannelDescMaxBitRate(const aclvencChannelDesc* d) {
  return GetVenc<uint32_t>(d, 0, [](const auto& c) { return c.max_bit_rate; });
}

aclvencFrameConfig* aclvencCreateFrameConfig(void) {
  auto* c = new (std::nothrow) aclvencFrameConfig();
  if (!c) return nullptr;
  std::lock_guard<std::mutex> lock(oc::acl_dvpp::Mutex());
  oc::acl_dvpp::Add(c, Kind::kVencFrameConfig);
  return c;
}
aclError aclvencDestroyFrameConfig(aclvencFrameConfig* c) {
  {
    std::lock_guard<std::mutex> lock(oc::acl_dvpp::Mutex());
    if (!c || !oc::acl_dvpp::Remove(c, Kind::kVencFrameConfig))
      return Fail(ACL_ERROR_INVALID_PARAM, "aclvencDestroyFrameConfig: not a live handle");
  }
  delete c;
  return ACL_SUCCESS;
}
aclError aclvencSetFrameConfigForceIFrame(aclvencFrameConfig* c, uint8_t v) {
  return SetFrame(c, __func__, [&](auto& f) { f.force_i_frame = v; });
}
aclError aclvencSetFrameConfigEos(aclvencFrameConfig* c, uint8_t v) {
  return SetFrame(c, __func__, [&](auto& f) { f.eos = v; });
}
uint8_t aclvencGetFrameConfigForceIFrame(const aclvencFrameConfig* c) {
  std::lock_guard<std::mutex> lock(oc::acl_dvpp::Mutex());
  return c && oc::acl_dvpp::Live(c, Kind::kVencFrameConfig) ? c->force_i_frame : 0;
}
uint8_t aclvencGetFrameConfigEos(const aclvencFrameConfig* c) {
  std::lock_guard<std::mutex> lock(oc::acl_dvpp::Mutex());
  return c && oc::acl_dvpp::Live(c, Kind::kVencFrameConfig) ? c->eos : 0;
}

aclError aclvencCreateChannel(aclvencChannelDesc* d) {
  const char* fn = __func__;
  oc::dvpp::EncoderOptions o;
  oc::acl_dvpp::ChannelCall<aclvencChannelDesc> call(d);
  if (aclError e = call.Enter(Kind::kVencChannel, fn, false)) return e;
  uint64_t thread = 0;
  {
    std::lock_guard<std::mutex> lock(oc::acl_dvpp::Mutex());
    thread = d->thread_id;
    if (!d->callback)
      return Fail(ACL_ERROR_INVALID_PARAM,
                  std::string(fn) + ": no callback (aclvencSetChannelDescCallback)");
    o.stream_format = d->en_type;
    o.width = d->width;
    o.height = d->height;
    o.key_frame_interval = d->key_frame_interval;
    o.src_rate = d->src_rate;
    o.max_bit_rate_kbps = d->max_bit_rate;
    o.rc_mode = d->rc_mode;
    d->ring_offset = 0;
  }
  if (d->buf_addr) {  // the application's stream buffer: DVPP memory of BufSize bytes
    if (d->buf_size == 0)
      return Fail(
          ACL_ERROR_INVALID_PARAM,
          std::string(fn) + ": BufAddr is set without its size (aclvencSetChannelDescBufSize)");
    if (aclError e = oc::acl_dvpp::CheckBuffer(d->buf_addr, d->buf_size, fn, "the stream buffer"))
      return e;
  }
  const oc::dvpp::Chip chip = oc::acl_dvpp::CurrentChip();
  if (chip == oc::dvpp::Chip::k910 || chip == oc::dvpp::Chip::k910B)
    return Fail(ACL_ERROR_FEATURE_UNSUPPORTED,
                std::string(fn) + ": " + oc::dvpp::ChipName(chip) +
                    " has no video encoder (VENC is on Ascend 310, 310P and 310B)");
  const uint32_t max_side = chip == oc::dvpp::Chip::k310 ? 1920 : 4096;
  if (o.width < 128 || o.height < 128 || o.width > max_side || o.height > max_side || o.width % 2 ||
      o.height % 2)
    return Fail(ACL_ERROR_INVALID_PARAM,
                std::string(fn) + ": VENC encodes even sizes of 128 to " +
                    std::to_string(max_side) + " per side on " + oc::dvpp::ChipName(chip) +
                    ", not " + std::to_string(o.width) + "x" + std::to_string(o.height));
  auto encoder = oc::dvpp::CreateVideoEncoder(o);
  if (!encoder.ok()) return FailStatus(encoder.status(), fn);
  aclrtStream stream = nullptr;
  if (aclError e = oc::acl_dvpp::OpenReportStream(thread, fn, &stream)) return e;
  d->encoder = std::move(encoder).value();
  d->stream = stream;
  std::lock_guard<std::mutex> lock(oc::acl_dvpp::Mutex());
  d->created = true;
  return ACL_SUCCESS;
}

static aclError Drain(aclvencChannelDesc* d) {
  std::vector<std::vector<uint8_t>> units;
  (void)d->encoder->Send(nullptr, false, &units);
  return Deliver(d, units);
}

aclError aclvencDestroyChannel(aclvencChannelDesc* d) {
  oc::acl_dvpp::ChannelCall<aclvencChannelDesc> call(d);
  if (aclError e = call.Enter(Kind::kVencChannel, __func__, true)) return e;
  aclError e = Drain(d);
  const aclError s = oc::acl_dvpp::CloseReportStream(d->thread_id, d->stream);
  d->stream = nullptr;
  d->encoder.reset();
  d->pending.clear();
  std::lock_guard<std::mutex> lock(oc::acl_dvpp::Mutex());
  d->created = false;
  return e != ACL_SUCCESS ? e : s;
}

aclError aclvencSendFrame(aclvencChannelDesc* d, acldvppPicDesc* in, void*,
                          aclvencFrameConfig* config, void* user) {
  const char* fn = __func__;
  oc::acl_dvpp::ChannelCall<aclvencChannelDesc> call(d);
  if (aclError e = call.Enter(Kind::kVencChannel, fn, true)) return e;
  oc::dvpp::Picture picture;
  bool eos = false, force = false;
  {
    std::lock_guard<std::mutex> lock(oc::acl_dvpp::Mutex());
    using oc::acl_dvpp::Live;
    if (config && !Live(config, Kind::kVencFrameConfig))
      return Fail(ACL_ERROR_INVALID_PARAM, std::string(fn) + ": config is not a live handle");
    eos = config && config->eos;
    force = config && config->force_i_frame;
    if (!eos && (!in || !Live(in, Kind::kPicDesc)))
      return Fail(ACL_ERROR_INVALID_PARAM,
                  std::string(fn) + ": input is not a live picture description");
    if (!eos) picture = in->picture;
  }
  if (eos) return Drain(d);
  if ((picture.format != oc::dvpp::kNv12 && picture.format != oc::dvpp::kNv21) ||
      picture.width != d->width || picture.height != d->height || !picture.data ||
      picture.width_stride < oc::dvpp::AlignUp(picture.width, 16) || picture.width_stride % 16 ||
      picture.height_stride < picture.height ||
      picture.size <
          oc::dvpp::PictureBytes(picture.format, picture.width_stride, picture.height_stride))
    return Fail(ACL_ERROR_INVALID_PARAM,
                std::string(fn) + ": the input must be a " + std::to_string(d->width) + "x" +
                    std::to_string(d->height) +
                    " YUV420SP picture with a width stride that is a "
                    "multiple of 16 and its bytes (stride x height stride x 3/2)");
  if (aclError e = oc::acl_dvpp::CheckBuffer(picture.data, picture.size, fn, "the input picture"))
    return e;
  // The picture as planes for the encoder.
  oc::dvpp::DecodedFrame frame;
  frame.width = picture.width;
  frame.height = picture.height;
  const size_t ws = picture.width_stride;
  frame.y.resize(static_cast<size_t>(picture.width) * picture.height);
  for (uint32_t r = 0; r < picture.height; ++r)
    std::memcpy(&frame.y[r * static_cast<size_t>(picture.width)], picture.data + r * ws,
                picture.width);
  const uint32_t cw = picture.width / 2, ch = picture.height / 2;
  frame.uv.resize(static_cast<size_t>(cw) * ch * 2);
  const uint8_t* uv = picture.data + ws * picture.height_stride;
  const bool swap = picture.format == oc::dvpp::kNv21;
  for (uint32_t r = 0; r < ch; ++r)
    for (uint32_t c = 0; c < cw; ++c) {
      frame.uv[(r * cw + c) * 2] = uv[r * ws + c * 2 + (swap ? 1 : 0)];
      frame.uv[(r * cw + c) * 2 + 1] = uv[r * ws + c * 2 + (swap ? 0 : 1)];
    }
  d->pending.push_back({in, user});
  std::vector<std::vector<uint8_t>> units;
  const oc::Status s = d->encoder->Send(&frame, force, &units);
  if (!s.ok()) {
    d->pending.pop_back();
    return FailStatus(s, fn);
  }
  const aclError e = Deliver(d, units);
  if (e != ACL_SUCCESS)  // a failed call keeps no send of its own: its callback will not come
    for (auto it = d->pending.begin(); it != d->pending.end(); ++it)
      if (it->input == in && it->user == user) {
        d->pending.erase(it);
        break;
      }
  return e;
}

}  // extern "C"
