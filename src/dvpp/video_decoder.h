// VDEC's decoder: H.264 and H.265 Annex-B streams on FFmpeg's libavcodec, one access unit
// per send, frames out as 8-bit 4:2:0 planes in decoding's output order.
#pragma once

#include <cstdint>
#include <memory>
#include <vector>

#include "base/status.h"
#include "dvpp/picture.h"

namespace oc::dvpp {

struct DecodedFrame {
  uint32_t width = 0, height = 0;
  std::vector<uint8_t> y, uv;  // y: width*height; uv: interleaved U,V at half resolution
};

// The decoder lives in libacl_dvpp_video, which links FFmpeg and is loaded on first use:
// libavcodec brings libgomp along, and a process must not initialize libgomp before
// OpenCANN's wait policy is in place (base/omp_wait_policy.cpp), nor load FFmpeg to run no
// video.
class VideoDecoder {
 public:
  virtual ~VideoDecoder() = default;
  // Decodes one access unit (empty: the end of the stream, which drains the decoder);
  // frames that became ready are appended. A damaged unit is an error; the decoder carries on.
  virtual Status Send(const uint8_t* data, size_t size, std::vector<DecodedFrame>* frames) = 0;
};

// stream_format: CANN's acldvppStreamFormat (0 H.265 main, 1-3 H.264 profiles).
Result<std::unique_ptr<VideoDecoder>> CreateVideoDecoder(int32_t stream_format);

// What libacl_dvpp_video exports (dlsym'd by CreateVideoDecoder).
using VideoDecoderFactory = void (*)(int32_t stream_format,
                                     Result<std::unique_ptr<VideoDecoder>>* out);
inline constexpr const char* kVideoDecoderFactory = "oc_dvpp_create_video_decoder";

// VENC's encoder (also in libacl_dvpp_video): 4:2:0 frames to an H.264 (libx264) or H.265
// (libx265) Annex-B stream, one access unit per frame (no B-frames: the NPU's encoder makes
// none), in send order.
struct EncoderOptions {
  int32_t stream_format = 2;  // acldvppStreamFormat
  uint32_t width = 0, height = 0;
  uint32_t key_frame_interval = 30, src_rate = 30, max_bit_rate_kbps = 0, rc_mode = 0;
};
class VideoEncoder {
 public:
  virtual ~VideoEncoder() = default;
  // frame null: the end of the stream (drains). force_key: this frame is an IDR.
  virtual Status Send(const DecodedFrame* frame, bool force_key,
                      std::vector<std::vector<uint8_t>>* units) = 0;
};
Result<std::unique_ptr<VideoEncoder>> CreateVideoEncoder(const EncoderOptions& options);
using VideoEncoderFactory = void (*)(const EncoderOptions& options,
                                     Result<std::unique_ptr<VideoEncoder>>* out);
inline constexpr const char* kVideoEncoderFactory = "oc_dvpp_create_video_encoder";

// Writes a decoded frame into a YUV420SP picture (NV12 or NV21), resizing when the picture's
// size differs from the frame's.
Status WriteFrame(const DecodedFrame& frame, const Picture& out, Chip chip);

}  // namespace oc::dvpp
