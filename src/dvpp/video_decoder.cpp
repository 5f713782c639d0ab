#include "dvpp/video_decoder.h"

#include <cstring>
#include <string>

#include "dvpp/vpc.h"

extern "C" {
#include <libavcodec/avcodec.h>
#include <libavutil/error.h>
#include <libavutil/frame.h>
#include <libavutil/log.h>
#include <libavutil/pixdesc.h>
}

namespace oc::dvpp {

struct VideoDecoder::Impl {
  AVCodecContext* ctx = nullptr;
  AVPacket* packet = nullptr;
  AVFrame* frame = nullptr;
  bool drained = false;
};

namespace {

std::string AvError(int err) {
  char text[AV_ERROR_MAX_STRING_SIZE] = {0};
  av_strerror(err, text, sizeof text);
  return text;
}

Status Collect(VideoDecoder* self, AVCodecContext* ctx, AVFrame* frame,
               std::vector<DecodedFrame>* frames) {
  (void)self;
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

Result<std::unique_ptr<VideoDecoder>> VideoDecoder::Create(int32_t stream_format) {
  if (stream_format < 0 || stream_format > 3)
    return InvalidArgument("VDEC: stream format " + std::to_string(stream_format) +
                           " is not one of H265_MAIN_LEVEL (0) or H264_*_LEVEL (1-3)");
  av_log_set_level(AV_LOG_QUIET);  // errors come back as Status values
  const AVCodec* codec =
      avcodec_find_decoder(stream_format == 0 ? AV_CODEC_ID_HEVC : AV_CODEC_ID_H264);
  if (!codec) return Unsupported("VDEC: this FFmpeg build has no H.264/H.265 decoder");
  std::unique_ptr<VideoDecoder> d(new VideoDecoder());
  d->impl_ = new Impl();
  d->impl_->ctx = avcodec_alloc_context3(codec);
  d->impl_->packet = av_packet_alloc();
  d->impl_->frame = av_frame_alloc();
  if (!d->impl_->ctx || !d->impl_->packet || !d->impl_->frame)
    return Status(StatusCode::kInternal, "VDEC: out of memory");
  d->impl_->ctx->thread_count = 1;  // decoding runs on the caller's thread, in order
  const int r = avcodec_open2(d->impl_->ctx, codec, nullptr);
  if (r < 0) return Status(StatusCode::kInternal, "VDEC: the decoder does not open: " + AvError(r));
  return d;
}

VideoDecoder::~VideoDecoder() {
  if (!impl_) return;
  av_frame_free(&impl_->frame);
  av_packet_free(&impl_->packet);
  avcodec_free_context(&impl_->ctx);
  delete impl_;
}

Status VideoDecoder::Send(const uint8_t* data, size_t size, std::vector<DecodedFrame>* frames) {
  if (impl_->drained) return InvalidArgument("VDEC: the stream has ended (EOS was sent)");
  if (size > static_cast<size_t>(INT32_MAX)) return InvalidArgument("VDEC: the frame is too large");
  int r = 0;
  if (size == 0) {
    impl_->drained = true;
    r = avcodec_send_packet(impl_->ctx, nullptr);
  } else {
    // libavcodec reads up to AV_INPUT_BUFFER_PADDING_SIZE bytes past the data: a padded copy.
    if (av_new_packet(impl_->packet, static_cast<int>(size)) < 0)
      return Status(StatusCode::kInternal, "VDEC: out of memory");
    std::memcpy(impl_->packet->data, data, size);
    r = avcodec_send_packet(impl_->ctx, impl_->packet);
    av_packet_unref(impl_->packet);
  }
  Status collected = Collect(this, impl_->ctx, impl_->frame, frames);
  if (r < 0 && r != AVERROR_EOF)
    return InvalidArgument("VDEC: the frame cannot be decoded: " + AvError(r));
  return collected;
}

Status WriteFrame(const DecodedFrame& frame, const Picture& out, Chip chip) {
  if (out.format != kNv12 && out.format != kNv21)
    return Unsupported(std::string("VDEC output ") + PixelFormatName(out.format) +
                       ": OpenCANN writes YUV_SEMIPLANAR_420 or YVU_SEMIPLANAR_420");
  // The frame as an NV12 picture, then VPC's geometry writes it (resizing if asked).
  const uint32_t ws = AlignUp(frame.width, 2), hs = AlignUp(frame.height, 2);
  std::vector<uint8_t> nv12(static_cast<size_t>(ws) * hs * 3 / 2);
  for (uint32_t r = 0; r < frame.height; ++r)
    std::memcpy(&nv12[static_cast<size_t>(r) * ws], &frame.y[static_cast<size_t>(r) * frame.width],
                frame.width);
  const uint32_t cw = (frame.width + 1) / 2, ch = (frame.height + 1) / 2;
  for (uint32_t r = 0; r < ch; ++r)
    std::memcpy(&nv12[static_cast<size_t>(ws) * hs + static_cast<size_t>(r) * ws],
                &frame.uv[static_cast<size_t>(r) * cw * 2], cw * 2);
  Picture in{nv12.data(), static_cast<uint32_t>(nv12.size()), kNv12, frame.width, frame.height, ws,
             hs};
  const Roi all_in{0, frame.width - 1, 0, frame.height - 1};
  const Roi all_out{0, out.width - 1, 0, out.height - 1};
  return CropResizePaste(in, all_in, out, all_out, kBilinear, chip);
}

}  // namespace oc::dvpp
