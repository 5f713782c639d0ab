// DVPP's stream descriptions and VDEC. A channel decodes each sent access unit with FFmpeg
// (dvpp/video_decoder.h) and delivers every send's callback through AscendCL's report
// mechanism: a stream of its own subscribed to the application's report thread, on which a
// callback is launched per send as its frame is ready (in decoding order; a send whose frame
// never comes, or fails, reports its output picture's ret code as 1). End of stream (a send
// with eos set, or destroying the channel) drains the decoder.
#include <cstring>
#include <deque>
#include <memory>
#include <set>

#include "acl/acl_dvpp_objects.h"
#include "acl/acl_internal_abi.h"
#include "dvpp/video_decoder.h"

using oc::acl_dvpp::Fail;
using oc::acl_dvpp::FailStatus;
using oc::acl_dvpp::Kind;

struct aclvdecChannelDesc {
  uint32_t channel_id = 0;
  uint64_t thread_id = 0;
  aclvdecCallback callback = nullptr;
  int32_t en_type = H264_MAIN_LEVEL;
  int32_t out_format = PIXEL_FORMAT_YUV_SEMIPLANAR_420;
  uint32_t out_width = 0, out_height = 0, ref_frames = 0, out_mode = 0;
  // While the channel exists:
  oc::acl_dvpp::ChannelGate gate;
  bool created = false;
  aclrtStream stream = nullptr;
  std::unique_ptr<oc::dvpp::VideoDecoder> decoder;
  struct Pending {
    acldvppStreamDesc* input;
    acldvppPicDesc* output;
    void* user;
  };
  std::deque<Pending> pending;  // sends waiting for their frame
};

namespace {

// The channel ids of the live VDEC channels (under oc::acl_dvpp::Mutex()).
std::set<uint32_t>& ChannelIds() {
  static auto* ids = new std::set<uint32_t>();
  return *ids;
}

struct CallbackTask {
  aclvdecCallback fn;
  acldvppStreamDesc* input;
  acldvppPicDesc* output;
  void* user;
};

void RunCallback(void* data) {
  std::unique_ptr<CallbackTask> t(static_cast<CallbackTask*>(data));
  if (t->fn) t->fn(t->input, t->output, t->user);
}

aclError Deliver(aclvdecChannelDesc* d, const aclvdecChannelDesc::Pending& p, uint32_t ret_code) {
  {
    std::lock_guard<std::mutex> lock(oc::acl_dvpp::Mutex());
    if (oc::acl_dvpp::Live(p.output, Kind::kPicDesc)) p.output->ret_code = ret_code;
  }
  auto* task = new CallbackTask{d->callback, p.input, p.output, p.user};
  const aclError e = aclrtLaunchCallback(RunCallback, task, ACL_CALLBACK_BLOCK, d->stream);
  if (e != ACL_SUCCESS) delete task;
  return e;
}

// Writes the frames into the oldest pending sends' pictures and reports them.
aclError Hand(aclvdecChannelDesc* d, const std::vector<oc::dvpp::DecodedFrame>& frames) {
  const oc::dvpp::Chip chip = oc::acl_dvpp::CurrentChip();
  for (const auto& f : frames) {
    if (d->pending.empty()) break;  // a frame no send asked for (a skipped send's)
    const auto p = d->pending.front();
    d->pending.pop_front();
    oc::dvpp::Picture out;
    {
      // CANN's applications often give the output picture only its data, size and format:
      // VDEC fills in the size (the channel's OutPicWidth/Height, else the frame's) and the
      // strides it writes with (16 and 2 aligned), as the hardware reports them.
      std::lock_guard<std::mutex> lock(oc::acl_dvpp::Mutex());
      if (p.output && oc::acl_dvpp::Live(p.output, Kind::kPicDesc)) {
        oc::dvpp::Picture& pic = p.output->picture;
        if (pic.width == 0 || pic.height == 0) {
          pic.width = d->out_width ? d->out_width : f.width;
          pic.height = d->out_height ? d->out_height : f.height;
        }
        if (pic.width_stride == 0)
          pic.width_stride = std::max(32u, oc::dvpp::AlignUp(pic.width, 16));
        if (pic.height_stride == 0) pic.height_stride = oc::dvpp::AlignUp(pic.height, 2);
        out = pic;
      }
    }
    uint32_t code = p.output ? 1 : 0;  // a skipped send's frame is dropped
    if (p.output && out.data &&
        oc::acl_dvpp::CheckBuffer(out.data, out.size, "aclvdecSendFrame", "the output picture") ==
            ACL_SUCCESS &&
        oc::dvpp::CheckVpcPicture(out, chip, oc::dvpp::Role::kVpcOutput, "the VDEC output").ok() &&
        oc::dvpp::WriteFrame(f, out, chip).ok())
      code = 0;
    if (aclError e = Deliver(d, p, code)) return e;
  }
  return ACL_SUCCESS;
}

// End of stream: the decoder drained, every send still waiting reported.
aclError Drain(aclvdecChannelDesc* d) {
  std::vector<oc::dvpp::DecodedFrame> frames;
  if (d->decoder) (void)d->decoder->Send(nullptr, 0, &frames);
  if (aclError e = Hand(d, frames)) return e;
  while (!d->pending.empty()) {
    const auto p = d->pending.front();
    d->pending.pop_front();
    if (aclError e = Deliver(d, p, 1)) return e;
  }
  return ACL_SUCCESS;
}

template <typename F>
aclError SetVdec(aclvdecChannelDesc* d, const char* fn, F set) {
  return oc::acl_dvpp::SetUncreated(d, Kind::kVdecChannel, fn, set);
}
template <typename R, typename F>
R GetVdec(const aclvdecChannelDesc* d, R fallback, F get) {
  return oc::acl_dvpp::GetLive<R>(d, Kind::kVdecChannel, fallback, get);
}
template <typename F>
aclError SetStream(acldvppStreamDesc* s, const char* fn, F set) {
  return oc::acl_dvpp::SetLive(s, Kind::kStreamDesc, fn, set);
}
template <typename R, typename F>
R GetStream(const acldvppStreamDesc* s, R fallback, F get) {
  return oc::acl_dvpp::GetLive<R>(s, Kind::kStreamDesc, fallback, get);
}

}  // namespace

extern "C" {

acldvppStreamDesc* acldvppCreateStreamDesc(void) {
  auto* s = new (std::nothrow) acldvppStreamDesc();
  if (!s) return nullptr;
  std::lock_guard<std::mutex> lock(oc::acl_dvpp::Mutex());
  oc::acl_dvpp::Add(s, Kind::kStreamDesc);
  return s;
}
aclError acldvppDestroyStreamDesc(acldvppStreamDesc* s) {
  {
    std::lock_guard<std::mutex> lock(oc::acl_dvpp::Mutex());
    if (!s || !oc::acl_dvpp::Remove(s, Kind::kStreamDesc))
      return Fail(ACL_ERROR_INVALID_PARAM, "acldvppDestroyStreamDesc: not a live handle");
  }
  delete s;
  return ACL_SUCCESS;
}
aclError acldvppSetStreamDescData(acldvppStreamDesc* s, void* data) {
  return SetStream(s, __func__, [&](auto& d) { d.data = data; });
}
aclError acldvppSetStreamDescSize(acldvppStreamDesc* s, uint32_t size) {
  return SetStream(s, __func__, [&](auto& d) { d.size = size; });
}
aclError acldvppSetStreamDescFormat(acldvppStreamDesc* s, acldvppStreamFormat format) {
  const int32_t value = oc::acl_dvpp::EnumBits(format);
  return SetStream(s, __func__, [&](auto& d) { d.format = value; });
}
aclError acldvppSetStreamDescTimestamp(acldvppStreamDesc* s, uint64_t timestamp) {
  return SetStream(s, __func__, [&](auto& d) { d.timestamp = timestamp; });
}
aclError acldvppSetStreamDescRetCode(acldvppStreamDesc* s, uint32_t code) {
  return SetStream(s, __func__, [&](auto& d) { d.ret_code = code; });
}
aclError acldvppSetStreamDescEos(acldvppStreamDesc* s, uint8_t eos) {
  return SetStream(s, __func__, [&](auto& d) { d.eos = eos; });
}
void* acldvppGetStreamDescData(const acldvppStreamDesc* s) {
  return GetStream<void*>(s, nullptr, [](const auto& d) { return d.data; });
}
uint32_t acldvppGetStreamDescSize(const acldvppStreamDesc* s) {
  return GetStream<uint32_t>(s, 0, [](const auto& d) { return d.size; });
}
acldvppStreamFormat acldvppGetStreamDescFormat(const acldvppStreamDesc* s) {
  return GetStream<acldvppStreamFormat>(
      s, H265_MAIN_LEVEL, [](const auto& d) { return static_cast<acldvppStreamFormat>(d.format); });
}
uint64_t acldvppGetStreamDescTimestamp(const acldvppStreamDesc* s) {
  return GetStream<uint64_t>(s, 0, [](const auto& d) { return d.timestamp; });
}
uint32_t acldvppGetStreamDescRetCode(const acldvppStreamDesc* s) {
  return GetStream<uint32_t>(s, 0, [](const auto& d) { return d.ret_code; });
}
uint8_t acldvppGetStreamDescEos(const acldvppStreamDesc* s) {
  return GetStream<uint8_t>(s, 0, [](const auto& d) { return d.eos; });
}

aclvdecChannelDesc* aclvdecCreateChannelDesc(void) {
  auto* d = new (std::nothrow) aclvdecChannelDesc();
  if (!d) return nullptr;
  std::lock_guard<std::mutex> lock(oc::acl_dvpp::Mutex());
  oc::acl_dvpp::Add(d, Kind::kVdecChannel);
  return d;
}
aclError aclvdecDestroyChannelDesc(aclvdecChannelDesc* d) {
  {
    std::lock_guard<std::mutex> lock(oc::acl_dvpp::Mutex());
    if (!d || !oc::acl_dvpp::Live(d, Kind::kVdecChannel))
      return Fail(ACL_ERROR_INVALID_PARAM, "aclvdecDestroyChannelDesc: not a live handle");
    if (d->created || d->gate.calls)
      return Fail(ACL_ERROR_INVALID_PARAM,
                  "aclvdecDestroyChannelDesc: the channel is in use; destroy it first "
                  "(aclvdecDestroyChannel) and let its calls return");
    oc::acl_dvpp::Remove(d, Kind::kVdecChannel);
  }
  delete d;
  return ACL_SUCCESS;
}
aclError aclvdecSetChannelDescChannelId(aclvdecChannelDesc* d, uint32_t id) {
  const oc::dvpp::Chip chip = oc::acl_dvpp::CurrentChip();
  const uint32_t limit = chip == oc::dvpp::Chip::k310 || chip == oc::dvpp::Chip::k910 ? 32 : 256;
  if (id >= limit)
    return Fail(ACL_ERROR_INVALID_PARAM,
                "aclvdecSetChannelDescChannelId: channel " + std::to_string(id) + " is not below " +
                    std::to_string(limit) + " (" + oc::dvpp::ChipName(chip) + " DVPP rule)");
  return SetVdec(d, __func__, [&](auto& c) { c.channel_id = id; });
}
aclError aclvdecSetChannelDescThreadId(aclvdecChannelDesc* d, uint64_t thread) {
  return SetVdec(d, __func__, [&](auto& c) { c.thread_id = thread; });
}
aclError aclvdecSetChannelDescCallback(aclvdecChannelDesc* d, aclvdecCallback cb) {
  return SetVdec(d, __func__, [&](auto& c) { c.callback = cb; });
}
aclError aclvdecSetChannelDescEnType(aclvdecChannelDesc* d, acldvppStreamFormat type) {
  const int32_t value = oc::acl_dvpp::EnumBits(type);  // C callers may pass any int
  if (value < H265_MAIN_LEVEL || value > H264_HIGH_LEVEL)
    return Fail(ACL_ERROR_INVALID_PARAM, "aclvdecSetChannelDescEnType: " + std::to_string(value) +
                                             " is not an acldvppStreamFormat");
  return SetVdec(d, __func__, [&](auto& c) { c.en_type = value; });
}
aclError aclvdecSetChannelDescOutPicFormat(aclvdecChannelDesc* d, acldvppPixelFormat pixel) {
  const int32_t format = oc::acl_dvpp::EnumBits(pixel);
  if (format != PIXEL_FORMAT_YUV_SEMIPLANAR_420 && format != PIXEL_FORMAT_YVU_SEMIPLANAR_420)
    return Fail(ACL_ERROR_FEATURE_UNSUPPORTED,
                "aclvdecSetChannelDescOutPicFormat: OpenCANN's VDEC writes YUV_SEMIPLANAR_420 or "
                "YVU_SEMIPLANAR_420");
  return SetVdec(d, __func__, [&](auto& c) { c.out_format = format; });
}
aclError aclvdecSetChannelDescOutPicWidth(aclvdecChannelDesc* d, uint32_t v) {
  return SetVdec(d, __func__, [&](auto& c) { c.out_width = v; });
}
aclError aclvdecSetChannelDescOutPicHeight(aclvdecChannelDesc* d, uint32_t v) {
  return SetVdec(d, __func__, [&](auto& c) { c.out_height = v; });
}
aclError aclvdecSetChannelDescRefFrameNum(aclvdecChannelDesc* d, uint32_t v) {
  return SetVdec(d, __func__, [&](auto& c) { c.ref_frames = v; });
}
aclError aclvdecSetChannelDescOutMode(aclvdecChannelDesc* d, uint32_t mode) {
  if (mode > 1)
    return Fail(
        ACL_ERROR_INVALID_PARAM,
        "aclvdecSetChannelDescOutMode: 0 (normal) or 1 (fast), not " + std::to_string(mode));
  return SetVdec(d, __func__, [&](auto& c) { c.out_mode = mode; });
}
uint32_t aclvdecGetChannelDescChannelId(const aclvdecChannelDesc* d) {
  return GetVdec<uint32_t>(d, 0, [](const auto& c) { return c.channel_id; });
}
uint64_t aclvdecGetChannelDescThreadId(const aclvdecChannelDesc* d) {
  return GetVdec<uint64_t>(d, 0, [](const auto& c) { return c.thread_id; });
}
aclvdecCallback aclvdecGetChannelDescCallback(const aclvdecChannelDesc* d) {
  return GetVdec<aclvdecCallback>(d, nullptr, [](const auto& c) { return c.callback; });
}
acldvppStreamFormat aclvdecGetChannelDescEnType(const aclvdecChannelDesc* d) {
  return GetVdec<acldvppStreamFormat>(d, H265_MAIN_LEVEL, [](const auto& c) {
    return static_cast<acldvppStreamFormat>(c.en_type);
  });
}
acldvppPixelFormat aclvdecGetChannelDescOutPicFormat(const aclvdecChannelDesc* d) {
  return GetVdec<acldvppPixelFormat>(d, PIXEL_FORMAT_YUV_400, [](const auto& c) {
    return static_cast<acldvppPixelFormat>(c.out_format);
  });
}
uint32_t aclvdecGetChannelDescOutMode(const aclvdecChannelDesc* d) {
  return GetVdec<uint32_t>(d, 0, [](const auto& c) { return c.out_mode; });
}

aclError aclvdecCreateChannel(aclvdecChannelDesc* d) {
  const char* fn = __func__;
  oc::acl_dvpp::ChannelCall<aclvdecChannelDesc> call(d);
  if (aclError e = call.Enter(Kind::kVdecChannel, fn, false)) return e;
  int32_t en_type = 0;
  uint64_t thread = 0;
  {
    std::lock_guard<std::mutex> lock(oc::acl_dvpp::Mutex());
    if (!d->callback)
      return Fail(ACL_ERROR_INVALID_PARAM,
                  std::string(fn) + ": no callback (aclvdecSetChannelDescCallback)");
    // A channel id names one of the decoder's hardware channels: two live channels cannot
    // share it.
    if (!ChannelIds().insert(d->channel_id).second)
      return Fail(ACL_ERROR_INVALID_PARAM,
                  std::string(fn) + ": channel id " + std::to_string(d->channel_id) +
                      " is in use by another VDEC channel (aclvdecSetChannelDescChannelId)");
    en_type = d->en_type;
    thread = d->thread_id;
  }
  auto release_id = [&] {
    std::lock_guard<std::mutex> lock(oc::acl_dvpp::Mutex());
    ChannelIds().erase(d->channel_id);
  };
  auto decoder = oc::dvpp::CreateVideoDecoder(en_type);
  if (!decoder.ok()) {
    release_id();
    return FailStatus(decoder.status(), fn);
  }
  aclrtStream stream = nullptr;
  if (aclError e = oc::acl_dvpp::OpenReportStream(thread, fn, &stream)) {
    release_id();
    return e;
  }
  d->decoder = std::move(decoder).value();
  d->stream = stream;
  std::lock_guard<std::mutex> lock(oc::acl_dvpp::Mutex());
  d->created = true;
  return ACL_SUCCESS;
}

aclError aclvdecDestroyChannel(aclvdecChannelDesc* d) {
  oc::acl_dvpp::ChannelCall<aclvdecChannelDesc> call(d);
  if (aclError e = call.Enter(Kind::kVdecChannel, __func__, true)) return e;
  aclError e = Drain(d);
  // Waits until the report thread has run every callback, as CANN's does.
  const aclError s = oc::acl_dvpp::CloseReportStream(d->thread_id, d->stream);
  d->stream = nullptr;
  d->decoder.reset();
  std::lock_guard<std::mutex> lock(oc::acl_dvpp::Mutex());
  d->created = false;
  ChannelIds().erase(d->channel_id);
  return e != ACL_SUCCESS ? e : s;
}

aclvdecFrameConfig* aclvdecCreateFrameConfig(void) {
  auto* c = new (std::nothrow) aclvdecFrameConfig();
  if (!c) return nullptr;
  std::lock_guard<std::mutex> lock(oc::acl_dvpp::Mutex());
  oc::acl_dvpp::Add(c, Kind::kVdecFrameConfig);
  return c;
}
aclError aclvdecDestroyFrameConfig(aclvdecFrameConfig* c) {
  {
    std::lock_guard<std::mutex> lock(oc::acl_dvpp::Mutex());
    if (!c || !oc::acl_dvpp::Remove(c, Kind::kVdecFrameConfig))
      return Fail(ACL_ERROR_INVALID_PARAM, "aclvdecDestroyFrameConfig: not a live handle");
  }
  delete c;
  return ACL_SUCCESS;
}

static aclError Send(const char* fn, aclvdecChannelDesc* d, acldvppStreamDesc* in,
                     acldvppPicDesc* out, bool skipped, void* user) {
  oc::acl_dvpp::ChannelCall<aclvdecChannelDesc> call(d);
  if (aclError e = call.Enter(Kind::kVdecChannel, fn, true)) return e;
  acldvppStreamDesc unit;
  {
    std::lock_guard<std::mutex> lock(oc::acl_dvpp::Mutex());
    using oc::acl_dvpp::Live;
    if (!in || !Live(in, Kind::kStreamDesc))
      return Fail(ACL_ERROR_INVALID_PARAM, std::string(fn) +
                                               ": input is not a live stream "
                                               "description");
    if (!skipped && !in->eos && (!out || !Live(out, Kind::kPicDesc)))
      return Fail(ACL_ERROR_INVALID_PARAM, std::string(fn) +
                                               ": output is not a live picture "
                                               "description");
    unit = *in;
  }
  if (unit.eos) return Drain(d);
  if (unit.size == 0)
    return Fail(ACL_ERROR_INVALID_PARAM, std::string(fn) + ": the stream description is empty");
  // VDEC reads device memory, DVPP's or aclrtMalloc's (both allowed for its input).
  if (!unit.data || !oc_internal_device_range(unit.data, unit.size))
    return Fail(ACL_ERROR_INVALID_PARAM, std::string(fn) + ": the stream data (" +
                                             std::to_string(unit.size) +
                                             " bytes) is not inside device memory (acldvppMalloc "
                                             "or aclrtMalloc)");
  // A skipped send waits for its frame too (its callback gets no picture).
  d->pending.push_back({in, skipped ? nullptr : out, user});
  std::vector<oc::dvpp::DecodedFrame> frames;
  const oc::Status s = d->decoder->Send(static_cast<const uint8_t*>(unit.data), unit.size, &frames);
  if (aclError e = Hand(d, frames)) {
    // A failed call keeps no send of its own: its callback will not come.
    for (auto it = d->pending.begin(); it != d->pending.end(); ++it)
      if (it->input == in && it->user == user) {
        d->pending.erase(it);
        break;
      }
    return e;
  }
  if (!s.ok()) {
    SetStream(in, fn, [](auto& x) { x.ret_code = 1; });
    // The send that produced nothing is reported as failed right away.
    if (!d->pending.empty() && d->pending.back().input == in) {
      const auto p = d->pending.back();
      d->pending.pop_back();
      if (aclError e = Deliver(d, p, 1)) return e;
    }
  }
  return ACL_SUCCESS;
}

aclError aclvdecSendFrame(aclvdecChannelDesc* d, acldvppStreamDesc* in, acldvppPicDesc* out,
                          aclvdecFrameConfig*, void* user) {
  return Send(__func__, d, in, out, false, user);
}

aclError aclvdecSendSkippedFrame(aclvdecChannelDesc* d, acldvppStreamDesc* in, aclvdecFrameConfig*,
                                 void* user) {
  return Send(__func__, d, in, nullptr, true, user);
}

}  // extern "C"
