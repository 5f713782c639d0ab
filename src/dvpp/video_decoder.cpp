#include "dvpp/video_decoder.h"

#include <cstring>
#include <string>

extern "C" {
#include <libavcodec/avcodec.h>
#include <libavutil/error.h>
#include <libavutil/frame.h>
#include <libavutil/log.h>
#include <libavutil/pixdesc.h>
}

namespace oc::dvpp {

namespace {

class FfmpegDecoder final : public VideoDecoder {
 public:
  ~FfmpegDecoder() override {
    av_frame_free(&frame_);
    av_packet_free(&packet_);
    avcodec_free_context(&ctx_);
  }
  Status Open(int32_t stream_format);
  Status Send(const uint8_t* data, size_t size, std::vector<DecodedFrame>* frames) override;

 private:
  AVCodecContext* ctx_ = nullptr;
  AVPacket* packet_ = nullptr;
  AVFrame* frame_ = nullptr;
};

std::string AvError(int err) {
  char text[AV_ERROR_MAX_STRING_SIZE] = {0};
  av_strerror(err, text, sizeof text);
  return text;
}

Status Collect(AVCodecContext* ctx, AVFrame* frame, std::vector<DecodedFrame>* frames) {
  while (true) {
    const int r = avcodec_receive_frame(ctx, frame);
    if (r == AVERROR(EAGAIN) || r == AVERROR_EOF) return Status::Ok();
    if (r < 0) return InvalidArgument("VDEC: the stream cannot be decoded: " + AvError(r));
    const auto fmt = static_cast<AVPixelFormat>(frame->format);
    if (fmt != AV_PIX_FMT_YUV420P && fmt != AV_PIX_FMT_YUVJ420P) {
      av_frame_unref(frame);
      return Unsupported("VDEC: OpenCANN decodes 8-bit 4:2:0 streams; this one is " +
                         std::string(av_get_pix_fmt_name(fmt) ? av_get_pix_fmt_name(fmt) : "?"));
    }
    DecodedFrame out;
    out.width = static_cast<uint32_t>(frame->width);
    out.height = static_cast<uint32_t>(frame->height);
    const uint32_t cw = (out.width + 1) / 2, ch = (out.height + 1) / 2;
    out.y.resize(static_cast<size_t>(out.width) * out.height);
    out.uv.resize(static_cast<size_t>(cw) * ch * 2);
    for (uint32_t r2 = 0; r2 < out.height; ++r2)
      std::memcpy(&out.y[static_cast<size_t>(r2) * out.width],
                  frame->data[0] + static_cast<ptrdiff_t>(r2) * frame->linesize[0], out.width);
    for (uint32_t r2 = 0; r2 < ch; ++r2)
      for (uint32_t c = 0; c < cw; ++c) {
        out.uv[(static_cast<size_t>(r2) * cw + c) * 2] =
            frame->data[1][static_cast<ptrdiff_t>(r2) * frame->linesize[1] + c];
        out.uv[(static_cast<size_t>(r2) * cw + c) * 2 + 1] =
            frame->data[2][static_cast<ptrdiff_t>(r2) * frame->linesize[2] + c];
      }
    av_frame_unref(frame);
    frames->push_back(std::move(out));
  }
}

}  // namespace

Status FfmpegDecoder::Open(int32_t stream_format) {
  if (stream_format < 0 || stream_format > 3)
    return InvalidArgument("VDEC: stream format " + std::to_string(stream_format) +
                           " is not one of H265_MAIN_LEVEL (0) or H264_*_LEVEL (1-3)");
  av_log_set_level(AV_LOG_QUIET);  // errors come back as Status values
  const AVCodec* codec =
      avcodec_find_decoder(stream_format == 0 ? AV_CODEC_ID_HEVC : AV_CODEC_ID_H264);
  if (!codec) return Unsupported("VDEC: this FFmpeg build has no H.264/H.265 decoder");
  ctx_ = avcodec_alloc_context3(codec);
  packet_ = av_packet_alloc();
  frame_ = av_frame_alloc();
  if (!ctx_ || !packet_ || !frame_) return Status(StatusCode::kInternal, "VDEC: out of memory");
  ctx_->thread_count = 1;  // decoding runs on the caller's thread, in order
  const int r = avcodec_open2(ctx_, codec, nullptr);
  if (r < 0) return Status(StatusCode::kInternal, "VDEC: the decoder does not open: " + AvError(r));
  return Status::Ok();
}

Status FfmpegDecoder::Send(const uint8_t* data, size_t size, std::vector<DecodedFrame>* frames) {
  if (size > static_cast<size_t>(INT32_MAX)) return InvalidArgument("VDEC: the frame is too large");
  int r = 0;
  if (size == 0) {
    // End of stream: the frames held back come out, then the decoder starts afresh (an
    // application may go on sending a new stream on the same channel, as after a reconnect).
    r = avcodec_send_packet(ctx_, nullptr);
    Status collected = Collect(ctx_, frame_, frames);
    avcodec_flush_buffers(ctx_);
    return collected;
  } else {
    // libavcodec reads up to AV_INPUT_BUFFER_PADDING_SIZE bytes past the data: a padded copy.
    if (av_new_packet(packet_, static_cast<int>(size)) < 0)
      return Status(StatusCode::kInternal, "VDEC: out of memory");
    std::memcpy(packet_->data, data, size);
    r = avcodec_send_packet(ctx_, packet_);
    av_packet_unref(packet_);
  }
  Status collected = Collect(ctx_, frame_, frames);
  if (r < 0 && r != AVERROR_EOF)
    return InvalidArgument("VDEC: the frame cannot be decoded: " + AvError(r));
  return collected;
}

}  // namespace oc::dvpp

extern "C" __attribute__((visibility("default"))) void oc_dvpp_create_video_decoder(
    int32_t stream_format, oc::Result<std::unique_ptr<oc::dvpp::VideoDecoder>>* out) {
  auto decoder = std::make_unique<oc::dvpp::FfmpegDecoder>();
  oc::Status s = decoder->Open(stream_format);
  if (!s.ok())
    *out = s;
  else
    *out = std::unique_ptr<oc::dvpp::VideoDecoder>(std::move(decoder));
}
