// Decoded frames into pictures, and loading the decoder library (video_decoder.h).
#include <dlfcn.h>

#include <cstring>
#include <string>

#include "dvpp/video_decoder.h"
#include "dvpp/vpc.h"

namespace oc::dvpp {

namespace {

// libacl_dvpp_video: beside this library (libacl_dvpp), else by the loader's search.
void* VideoLibrary() {
  static void* lib = [] {
    std::string path = "libacl_dvpp_video.so.0";
    Dl_info info{};
    if (dladdr(reinterpret_cast<void*>(&VideoLibrary), &info) && info.dli_fname) {
      std::string self = info.dli_fname;
      const size_t slash = self.rfind('/');
      if (slash != std::string::npos) path = self.substr(0, slash + 1) + path;
    }
    void* handle = dlopen(path.c_str(), RTLD_NOW | RTLD_LOCAL);
    if (!handle) handle = dlopen("libacl_dvpp_video.so.0", RTLD_NOW | RTLD_LOCAL);
    return handle;
  }();
  return lib;
}

const Status kNoLibrary(StatusCode::kInternal,
                        "libacl_dvpp_video (OpenCANN's FFmpeg codecs) cannot be loaded: install it "
                        "beside libacl_dvpp");

}  // namespace

Result<std::unique_ptr<VideoDecoder>> CreateVideoDecoder(int32_t stream_format) {
  void* lib = VideoLibrary();
  auto factory =
      lib ? reinterpret_cast<VideoDecoderFactory>(dlsym(lib, kVideoDecoderFactory)) : nullptr;
  if (!factory) return kNoLibrary;
  Result<std::unique_ptr<VideoDecoder>> out = Status(StatusCode::kInternal, "VDEC: no decoder");
  factory(stream_format, &out);
  return out;
}

Result<std::unique_ptr<VideoEncoder>> CreateVideoEncoder(const EncoderOptions& options) {
  void* lib = VideoLibrary();
  auto factory =
      lib ? reinterpret_cast<VideoEncoderFactory>(dlsym(lib, kVideoEncoderFactory)) : nullptr;
  if (!factory) return kNoLibrary;
  Result<std::unique_ptr<VideoEncoder>> out = Status(StatusCode::kInternal, "VENC: no encoder");
  factory(options, &out);
  return out;
}

Status WriteFrame(const DecodedFrame& frame, const Picture& out, Chip chip) {
  // 310P and 310B also write packed RGB (the 910B's VDEC is documented with 4:2:0 only).
  const bool rgb_chip = chip == Chip::k310P || chip == Chip::k310B;
  if (out.format != kNv12 && out.format != kNv21 &&
      !(rgb_chip && (out.format == kRgb888 || out.format == kBgr888)))
    return Unsupported(std::string("VDEC output ") + PixelFormatName(out.format) + ": " +
                       ChipName(chip) + "'s VDEC writes YUV_SEMIPLANAR_420 or YVU_SEMIPLANAR_420" +
                       (rgb_chip ? ", RGB_888 or BGR_888" : ""));
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
