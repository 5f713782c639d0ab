// VENC channels of the media API: what a channel keeps (attributes, parameters, the encoder,
// the streams waiting for get_stream and those handed out), shared by mpi_venc.cpp (frames
// and streams) and mpi_venc_params.cpp (parameters).
#pragma once

#include <condition_variable>
#include <deque>
#include <map>
#include <memory>

#include "dvpp/video_decoder.h"
#include "dvpp_mpi/mpi_core.h"

namespace oc::dvpp_mpi {

struct VencStream {
  uint8_t* buffer = nullptr;  // DVPP memory
  uint32_t len = 0;
  bool owned = true;  // false: the caller's buffer (send_jpege_frame)
  uint64_t input_addr = 0, pts = 0;
  int32_t data_type = 0;
  uint32_t seq = 0;
};

struct VencChannel {
  std::mutex work;  // one encode at a time
  std::mutex m;     // the fields below
  std::condition_variable cv;
  hi_venc_chn_attr attr{};
  hi_venc_jpeg_param jpeg{};
  hi_venc_rc_param rc{};
  hi_venc_chn_param param{};
  int32_t type = 0, scene = 0;
  bool started = false, destroyed = false, force_idr = false;
  int64_t recv_left = -1;  // pictures the channel still takes (-1: no limit)
  uint32_t seq = 0, sent = 0;
  std::unique_ptr<dvpp::VideoEncoder> encoder;
  std::deque<VencStream> ready;
  std::map<const uint8_t*, VencStream> taken;
  int event_fd = -1;
};

// The channel with the system and the id checked; null after a recorded error.
std::shared_ptr<VencChannel> VencChannelOf(const char* fn, hi_venc_chn chn, hi_s32* error);
// The quantisation tables JPEGE uses for a quality (libjpeg's scaling of the JPEG standard's
// example tables, row by row).
void JpegTables(uint32_t qfactor, hi_venc_jpeg_param* param);
int32_t EnumInt(const void* enum_value);

}  // namespace oc::dvpp_mpi
