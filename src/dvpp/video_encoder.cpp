// VENC's encoder on FFmpeg's libx264 / libx265 wrappers: zero-latency settings, so each
// frame comes back as its access unit on the same send.
#include <cstring>
#include <string>

#include "dvpp/video_decoder.h"

extern "C" {
#include <libavcodec/avcodec.h>
#include <libavutil/error.h>
#include <libavutil/frame.h>
#include <libavutil/log.h>
#include <libavutil/opt.h>
}

namespace oc::dvpp {
namespace {

std::string AvError(int err) {
  char text[AV_ERROR_MAX_STRING_SIZE] = {0};
  av_strerror(err, text, sizeof text);
  return text;
}

class FfmpegEncoder final : public VideoEncoder {
 public:
  ~FfmpegEncoder() override { Close(); }

  void Close() {
    av_frame_free(&frame_);
    av_packet_free(&packet_);
    avcodec_free_context(&ctx_);
    pts_ = 0;
  }

  Status Open(const EncoderOptions& o) {
    options_ = o;
    if (o.stream_format < 0 || o.stream_format > 3)
      return InvalidArgument("VENC: stream format " + std::to_string(o.stream_format) +
                             " is not an acldvppStreamFormat");
    av_log_set_level(AV_LOG_QUIET);
    const AVCodec* codec =
        avcodec_find_encoder_by_name(o.stream_format == 0 ? "libx265" : "libx264");
    if (!codec) return Unsupported("VENC: this FFmpeg build has no libx264/libx265 encoder");
    ctx_ = avcodec_alloc_context3(codec);
    packet_ = av_packet_alloc();
    frame_ = av_frame_alloc();
    if (!ctx_ || !packet_ || !frame_) return Status(StatusCode::kInternal, "VENC: out of memory");
    ctx_->width = static_cast<int>(o.width);
    ctx_->height = static_cast<int>(o.height);
    ctx_->pix_fmt = AV_PIX_FMT_YUV420P;
    const int rate = o.src_rate ? static_cast<int>(o.src_rate) : 30;
    ctx_->time_base = AVRational{1, rate};
    ctx_->framerate = AVRational{rate, 1};
    ctx_->gop_size = o.key_frame_interval ? static_cast<int>(o.key_frame_interval) : 30;
    ctx_->max_b_frames = 0;
    ctx_->thread_count = 1;
    if (o.max_bit_rate_kbps) {  // VBR (rc modes 0 and 1) up to the rate; CBR (2) at it
      ctx_->bit_rate = static_cast<int64_t>(o.max_bit_rate_kbps) * 1000;
      ctx_->rc_max_rate = ctx_->bit_rate;
      ctx_->rc_buffer_size = static_cast<int>(ctx_->bit_rate);
      if (o.rc_mode == 2) {
        ctx_->rc_min_rate = ctx_->bit_rate;
        if (o.stream_format != 0) av_opt_set(ctx_->priv_data, "nal-hrd", "cbr", 0);
      }
    }
    if (o.stream_format == 1) av_opt_set(ctx_->priv_data, "profile", "baseline", 0);
    if (o.stream_format == 2) av_opt_set(ctx_->priv_data, "profile", "main", 0);
    if (o.stream_format == 3) av_opt_set(ctx_->priv_data, "profile", "high", 0);
    av_opt_set(ctx_->priv_data, "preset", "ultrafast", 0);
    av_opt_set(ctx_->priv_data, "tune", "zerolatency", 0);
    // forced-idr: a forced I frame is an IDR in H.265 too (libx265 would make a plain I).
    if (o.stream_format == 0)
      av_opt_set(ctx_->priv_data, "x265-params", "log-level=none:forced-idr=1", 0);
    const int r = avcodec_open2(ctx_, codec, nullptr);
    if (r < 0) return InvalidArgument("VENC: the encoder does not open: " + AvError(r));
    frame_->format = AV_PIX_FMT_YUV420P;
    frame_->width = ctx_->width;
    frame_->height = ctx_->height;
    if (av_frame_get_buffer(frame_, 0) < 0)
      return Status(StatusCode::kInternal, "VENC: out of memory");
    return Status::Ok();
  }

  Status Send(const DecodedFrame* f, bool force_key,
              std::vector<std::vector<uint8_t>>* units) override {
    int r = 0;
    if (!f) {
      r = avcodec_send_frame(ctx_, nullptr);
    } else {
      if (f->width != static_cast<uint32_t>(ctx_->width) ||
          f->height != static_cast<uint32_t>(ctx_->height))
        return InvalidArgument("VENC: the picture is " + std::to_string(f->width) + "x" +
                               std::to_string(f->height) + ", the channel encodes " +
                               std::to_string(ctx_->width) + "x" + std::to_string(ctx_->height));
      if (av_frame_make_writable(frame_) < 0) return Status(StatusCode::kInternal, "VENC: memory");
      for (int y = 0; y < ctx_->height; ++y)
        std::memcpy(frame_->data[0] + static_cast<ptrdiff_t>(y) * frame_->linesize[0],
                    &f->y[static_cast<size_t>(y) * f->width], f->width);
      const int cw = (ctx_->width + 1) / 2, ch = (ctx_->height + 1) / 2;
      for (int y = 0; y < ch; ++y)
        for (int x = 0; x < cw; ++x) {
          frame_->data[1][static_cast<ptrdiff_t>(y) * frame_->linesize[1] + x] =
              f->uv[(static_cast<size_t>(y) * cw + x) * 2];
          frame_->data[2][static_cast<ptrdiff_t>(y) * frame_->linesize[2] + x] =
              f->uv[(static_cast<size_t>(y) * cw + x) * 2 + 1];
        }
      frame_->pts = pts_++;
      frame_->pict_type = force_key ? AV_PICTURE_TYPE_I : AV_PICTURE_TYPE_NONE;
      r = avcodec_send_frame(ctx_, frame_);
    }
    if (r < 0 && r != AVERROR_EOF) return InvalidArgument("VENC: " + AvError(r));
    while (true) {
      r = avcodec_receive_packet(ctx_, packet_);
      if (r == AVERROR(EAGAIN) || r == AVERROR_EOF) break;
      if (r < 0) return InvalidArgument("VENC: " + AvError(r));
      units->emplace_back(packet_->data, packet_->data + packet_->size);
      av_packet_unref(packet_);
    }
    // After the end of a stream the channel encodes a new one: the encoder starts afresh.
    if (!f) {
      Close();
      return Open(options_);
    }
    return Status::Ok();
  }

 private:
  AVCodecContext* ctx_ = nullptr;
  AVPacket* packet_ = nullptr;
  AVFrame* frame_ = nullptr;
  int64_t pts_ = 0;
  EncoderOptions options_;
};

}  // namespace
}  // namespace oc::dvpp

extern "C" __attribute__((visibility("default"))) void oc_dvpp_create_video_encoder(
    const oc::dvpp::EncoderOptions& options,
    oc::Result<std::unique_ptr<oc::dvpp::VideoEncoder>>* out) {
  auto encoder = std::make_unique<oc::dvpp::FfmpegEncoder>();
  oc::Status s = encoder->Open(options);
  if (!s.ok())
    *out = s;
  else
    *out = std::unique_ptr<oc::dvpp::VideoEncoder>(std::move(encoder));
}
