// DVPP's VPC and JPEGD calls. An *Async call waits for the work queued on its stream before it
// (an input may come from a queued copy), checks everything the hardware checks, and does
// the work before it returns: the result is there when the application synchronizes the
// stream, as on the NPU, and the order with the stream's other work is kept.
#include <cstring>

#include "acl/acl_dvpp_objects.h"
#include "dvpp/jpeg.h"
#include "dvpp/png.h"

using oc::Status;
using oc::acl_dvpp::Fail;
using oc::acl_dvpp::FailStatus;
using oc::acl_dvpp::Kind;
namespace dvpp = oc::dvpp;
using oc::dvpp::Picture;
using oc::dvpp::Roi;

namespace {

// The regions and configuration of a VPC call, copied out of live handles.
struct VpcConfig {
  Roi crop, paste;
  bool has_crop = false, has_paste = false;
  uint32_t interpolation = 0;
};

aclError GatherConfig(const char* fn, const acldvppRoiConfig* crop, const acldvppRoiConfig* paste,
                      const acldvppResizeConfig* resize, VpcConfig* config) {
  std::lock_guard<std::mutex> lock(oc::acl_dvpp::Mutex());
  using oc::acl_dvpp::Live;
  if ((crop && !Live(crop, Kind::kRoi)) || (paste && !Live(paste, Kind::kRoi)))
    return Fail(ACL_ERROR_INVALID_PARAM, std::string(fn) + ": a region is not a live handle");
  if (resize && !Live(resize, Kind::kResize))
    return Fail(ACL_ERROR_INVALID_PARAM, std::string(fn) + ": resizeConfig is not a live handle");
  if (crop) config->crop = crop->roi, config->has_crop = true;
  if (paste) config->paste = paste->roi, config->has_paste = true;
  if (resize) config->interpolation = resize->interpolation;
  return ACL_SUCCESS;
}

}  // namespace

aclError oc::acl_dvpp::BeginVpc(const char* fn, const acldvppChannelDesc* ch,
                                const acldvppPicDesc* in, const acldvppPicDesc* out,
                                aclrtStream stream, Picture* in_pic, Picture* out_pic) {
  if (aclError e = aclrtSynchronizeStream(stream)) return e;
  {
    std::lock_guard<std::mutex> lock(Mutex());
    if (!ch || !Live(ch, Kind::kChannelDesc))
      return Fail(ACL_ERROR_INVALID_PARAM, std::string(fn) + ": channelDesc is not a live handle");
    if (!ch->created)
      return Fail(ACL_ERROR_INVALID_PARAM,
                  std::string(fn) + ": the channel was not created (acldvppCreateChannel)");
    if (!(ch->mode & DVPP_CHNMODE_VPC))
      return Fail(ACL_ERROR_INVALID_PARAM,
                  std::string(fn) + ": the channel's mode has no DVPP_CHNMODE_VPC");
    if (!in || !Live(in, Kind::kPicDesc) || (out_pic && (!out || !Live(out, Kind::kPicDesc))))
      return Fail(ACL_ERROR_INVALID_PARAM,
                  std::string(fn) + ": a picture description is not a live handle");
    *in_pic = in->picture;
    if (out_pic) *out_pic = out->picture;
  }
  const dvpp::Chip chip = CurrentChip();
  Status s = dvpp::CheckVpcPicture(*in_pic, chip, dvpp::Role::kVpcInput, "the input picture");
  if (s.ok() && out_pic)
    s = dvpp::CheckVpcPicture(*out_pic, chip, dvpp::Role::kVpcOutput, "the output picture");
  if (!s.ok()) return FailStatus(s, fn);
  if (aclError e = CheckBuffer(in_pic->data, in_pic->size, fn, "the input picture's data"))
    return e;
  return out_pic ? CheckBuffer(out_pic->data, out_pic->size, fn, "the output picture's data")
                 : ACL_SUCCESS;
}

void oc::acl_dvpp::SetPicRetCode(acldvppPicDesc* p, uint32_t code) {
  std::lock_guard<std::mutex> lock(Mutex());
  if (Live(p, Kind::kPicDesc)) p->ret_code = code;
}

aclError oc::acl_dvpp::RunVpc(const char* fn, acldvppChannelDesc* ch, acldvppPicDesc* in,
                              acldvppPicDesc* out, const acldvppRoiConfig* crop,
                              const acldvppRoiConfig* paste, const acldvppResizeConfig* resize,
                              aclrtStream stream, bool same_size) {
  Picture pin, pout;
  if (aclError e = BeginVpc(fn, ch, in, out, stream, &pin, &pout)) return e;
  VpcConfig c;
  if (aclError e = GatherConfig(fn, crop, paste, resize, &c)) return e;
  const dvpp::Chip chip = CurrentChip();
  if (same_size && (pin.width != pout.width || pin.height != pout.height))
    return Fail(ACL_ERROR_INVALID_PARAM,
                std::string(fn) + ": the output picture must have the input's size (" +
                    std::to_string(pin.width) + "x" + std::to_string(pin.height) + ")");
  Status s;
  if (c.has_crop) s = dvpp::CheckRoi(c.crop, pin, chip, false, "the crop region");
  if (s.ok() && c.has_paste) s = dvpp::CheckRoi(c.paste, pout, chip, true, "the paste region");
  if (s.ok()) s = dvpp::CheckInterpolation(c.interpolation, chip);
  if (!s.ok()) return FailStatus(s, fn);
  const Roi crop_roi = c.has_crop ? c.crop : Roi{0, pin.width - 1, 0, pin.height - 1};
  const Roi paste_roi = c.has_paste ? c.paste : Roi{0, pout.width - 1, 0, pout.height - 1};
  s = dvpp::CropResizePaste(pin, crop_roi, pout, paste_roi, c.interpolation, chip);
  if (!s.ok()) return FailStatus(s, fn);
  SetPicRetCode(out, 0);
  return ACL_SUCCESS;
}

namespace {

aclError JpegInfo(const void* data, uint32_t size, oc::dvpp::JpegInfo* info, const char* fn) {
  if (!data || size == 0)
    return Fail(ACL_ERROR_INVALID_PARAM, std::string(fn) + ": data is null or size is 0");
  auto r = oc::dvpp::ReadJpegInfo(static_cast<const uint8_t*>(data), size);
  if (!r.ok())
    return Fail(ACL_ERROR_UNSUPPORTED_JPEG, std::string(fn) + ": " + r.status().message());
  *info = r.value();
  return ACL_SUCCESS;
}

aclError JpegImageInfo(const char* fn, const void* data, uint32_t size, uint32_t* width,
                       uint32_t* height, int32_t* components, acldvppJpegFormat* format) {
  oc::dvpp::JpegInfo info;
  if (aclError e = JpegInfo(data, size, &info, fn)) return e;
  if (width) *width = info.width;
  if (height) *height = info.height;
  if (components) *components = info.components;
  if (format) *format = static_cast<acldvppJpegFormat>(info.sampling);
  return ACL_SUCCESS;
}

// A PNG's header; palette PNGs are refused as CANN refuses them (ACL_ERROR_FORMAT_NOT_MATCH).
aclError PngInfo(const char* fn, const void* data, uint32_t size, oc::dvpp::PngInfo* info) {
  if (!data || size == 0)
    return Fail(ACL_ERROR_INVALID_PARAM, std::string(fn) + ": data is null or size is 0");
  auto r = oc::dvpp::ReadPngInfo(static_cast<const uint8_t*>(data), size);
  if (!r.ok()) return FailStatus(r.status(), fn);
  if (r->palette)
    return Fail(ACL_ERROR_FORMAT_NOT_MATCH,
                std::string(fn) + ": palette PNGs are not decoded by DVPP's PNGD");
  *info = r.value();
  return ACL_SUCCESS;
}

// JPEGD and PNGD: the file (DVPP memory) decoded into the output picture by `decode` (which
// returns the call's error code), and the picture written (size, format, ret code 0) reported.
template <typename Decode>
aclError DecodeInto(const char* fn, acldvppChannelDesc* ch, uint32_t mode, const void* data,
                    uint32_t size, acldvppPicDesc* out, aclrtStream stream, Decode decode) {
  if (aclError e = aclrtSynchronizeStream(stream)) return e;
  Picture picture;
  {
    std::lock_guard<std::mutex> lock(oc::acl_dvpp::Mutex());
    using oc::acl_dvpp::Live;
    if (!ch || !Live(ch, Kind::kChannelDesc) || !ch->created)
      return Fail(ACL_ERROR_INVALID_PARAM,
                  std::string(fn) + ": channelDesc is not a live, created channel");
    if (mode && !(ch->mode & mode))
      return Fail(ACL_ERROR_INVALID_PARAM,
                  std::string(fn) + ": the channel's mode has no DVPP_CHNMODE_JPEGD");
    if (!out || !Live(out, Kind::kPicDesc))
      return Fail(ACL_ERROR_INVALID_PARAM,
                  std::string(fn) + ": outputDesc is not a live picture description");
    picture = out->picture;
  }
  if (aclError e = oc::acl_dvpp::CheckBuffer(data, size, fn, "the input file")) return e;
  if (aclError e =
          oc::acl_dvpp::CheckBuffer(picture.data, picture.size, fn, "the output picture's data"))
    return e;
  if (aclError e = decode(static_cast<const uint8_t*>(data), size, &picture)) return e;
  std::lock_guard<std::mutex> lock(oc::acl_dvpp::Mutex());
  if (oc::acl_dvpp::Live(out, Kind::kPicDesc)) {
    out->picture.width = picture.width;
    out->picture.height = picture.height;
    out->picture.format = picture.format;
    out->picture.width_stride = picture.width_stride;  // JPEGD's own where left 0
    out->picture.height_stride = picture.height_stride;
    out->ret_code = 0;
  }
  return ACL_SUCCESS;
}

}  // namespace

extern "C" {

aclError acldvppVpcResizeAsync(acldvppChannelDesc* ch, acldvppPicDesc* in, acldvppPicDesc* out,
                               acldvppResizeConfig* resize, aclrtStream stream) {
  if (!resize) return Fail(ACL_ERROR_INVALID_PARAM, "acldvppVpcResizeAsync: resizeConfig is null");
  return oc::acl_dvpp::RunVpc(__func__, ch, in, out, nullptr, nullptr, resize, stream, false);
}

aclError acldvppVpcCropAsync(acldvppChannelDesc* ch, acldvppPicDesc* in, acldvppPicDesc* out,
                             acldvppRoiConfig* crop, aclrtStream stream) {
  if (!crop) return Fail(ACL_ERROR_INVALID_PARAM, "acldvppVpcCropAsync: cropArea is null");
  return oc::acl_dvpp::RunVpc(__func__, ch, in, out, crop, nullptr, nullptr, stream, false);
}

aclError acldvppVpcCropResizeAsync(acldvppChannelDesc* ch, acldvppPicDesc* in, acldvppPicDesc* out,
                                   acldvppRoiConfig* crop, acldvppResizeConfig* resize,
                                   aclrtStream stream) {
  if (!crop || !resize)
    return Fail(ACL_ERROR_INVALID_PARAM,
                "acldvppVpcCropResizeAsync: cropArea or resizeConfig is null");
  return oc::acl_dvpp::RunVpc(__func__, ch, in, out, crop, nullptr, resize, stream, false);
}

aclError acldvppVpcCropAndPasteAsync(acldvppChannelDesc* ch, acldvppPicDesc* in,
                                     acldvppPicDesc* out, acldvppRoiConfig* crop,
                                     acldvppRoiConfig* paste, aclrtStream stream) {
  if (!crop || !paste)
    return Fail(ACL_ERROR_INVALID_PARAM,
                "acldvppVpcCropAndPasteAsync: cropArea or pasteArea is null");
  return oc::acl_dvpp::RunVpc(__func__, ch, in, out, crop, paste, nullptr, stream, false);
}

aclError acldvppVpcCropResizePasteAsync(acldvppChannelDesc* ch, acldvppPicDesc* in,
                                        acldvppPicDesc* out, acldvppRoiConfig* crop,
                                        acldvppRoiConfig* paste, acldvppResizeConfig* resize,
                                        aclrtStream stream) {
  if (!crop || !paste || !resize)
    return Fail(ACL_ERROR_INVALID_PARAM,
                "acldvppVpcCropResizePasteAsync: cropArea, pasteArea or resizeConfig is null");
  return oc::acl_dvpp::RunVpc(__func__, ch, in, out, crop, paste, resize, stream, false);
}

aclError acldvppVpcConvertColorAsync(acldvppChannelDesc* ch, acldvppPicDesc* in,
                                     acldvppPicDesc* out, aclrtStream stream) {
  return oc::acl_dvpp::RunVpc(__func__, ch, in, out, nullptr, nullptr, nullptr, stream, true);
}

aclError acldvppVpcMakeBorderAsync(acldvppChannelDesc* ch, acldvppPicDesc* in, acldvppPicDesc* out,
                                   const acldvppBorderConfig* border, aclrtStream stream) {
  const char* fn = __func__;
  Picture pin, pout;
  if (aclError e = oc::acl_dvpp::BeginVpc(fn, ch, in, out, stream, &pin, &pout)) return e;
  acldvppBorderConfig b;
  {
    std::lock_guard<std::mutex> lock(oc::acl_dvpp::Mutex());
    if (!border || !oc::acl_dvpp::Live(border, Kind::kBorderConfig))
      return Fail(ACL_ERROR_INVALID_PARAM, std::string(fn) + ": borderConfig is not a live handle");
    b = *border;
  }
  const oc::Status s =
      oc::dvpp::MakeBorder(pin, pout, b.top, b.bottom, b.left, b.right, b.type, b.value);
  if (!s.ok()) return FailStatus(s, fn);
  oc::acl_dvpp::SetPicRetCode(out, 0);
  return ACL_SUCCESS;
}

aclError acldvppJpegGetImageInfo(const void* data, uint32_t size, uint32_t* width, uint32_t* height,
                                 int32_t* components) {
  return JpegImageInfo(__func__, data, size, width, height, components, nullptr);
}

aclError acldvppJpegGetImageInfoV2(const void* data, uint32_t size, uint32_t* width,
                                   uint32_t* height, int32_t* components,
                                   acldvppJpegFormat* format) {
  return JpegImageInfo(__func__, data, size, width, height, components, format);
}

aclError acldvppJpegPredictDecSize(const void* data, uint32_t dataSize,
                                   acldvppPixelFormat outputPixelFormat, uint32_t* decSize) {
  if (!decSize) return Fail(ACL_ERROR_INVALID_PARAM, "acldvppJpegPredictDecSize: decSize is null");
  oc::dvpp::JpegInfo info;
  if (aclError e = JpegInfo(data, dataSize, &info, __func__)) return e;
  auto bytes = oc::dvpp::JpegdOutputBytes(info, oc::acl_dvpp::EnumBits(outputPixelFormat),
                                          oc::acl_dvpp::CurrentChip());
  if (!bytes.ok()) return FailStatus(bytes.status(), __func__);
  *decSize = bytes.value();
  return ACL_SUCCESS;
}

aclError acldvppJpegPredictEncSize(const acldvppPicDesc* in, const acldvppJpegeConfig* config,
                                   uint32_t* size) {
  if (!size) return Fail(ACL_ERROR_INVALID_PARAM, "acldvppJpegPredictEncSize: size is null");
  Picture picture;
  {
    std::lock_guard<std::mutex> lock(oc::acl_dvpp::Mutex());
    if (!in || !oc::acl_dvpp::Live(in, Kind::kPicDesc) || !config ||
        !oc::acl_dvpp::Live(config, Kind::kJpegeConfig))
      return Fail(ACL_ERROR_INVALID_PARAM,
                  "acldvppJpegPredictEncSize: inputDesc or config is not a live handle");
    picture = in->picture;
  }
  const oc::Status s = oc::dvpp::CheckJpegeInput(picture);
  if (!s.ok()) return FailStatus(s, __func__);
  *size = oc::dvpp::JpegeOutputBound(picture);
  return ACL_SUCCESS;
}

aclError acldvppJpegDecodeAsync(acldvppChannelDesc* ch, const void* data, uint32_t size,
                                acldvppPicDesc* out, aclrtStream stream) {
  const oc::dvpp::Chip chip = oc::acl_dvpp::CurrentChip();
  return DecodeInto(__func__, ch, DVPP_CHNMODE_JPEGD, data, size, out, stream,
                    [chip](const uint8_t* d, uint32_t n, Picture* p) {
                      const Status s = oc::dvpp::DecodeJpeg(d, n, p, chip);
                      return s.ok() ? ACL_SUCCESS : FailStatus(s, "acldvppJpegDecodeAsync");
                    });
}

aclError acldvppPngDecodeAsync(acldvppChannelDesc* ch, const void* data, uint32_t size,
                               acldvppPicDesc* out, aclrtStream stream) {
  // The channel mode is not checked for PNGD: CANN's default channel (VPC | JPEGD | JPEGE)
  // is the one samples decode PNGs on.
  const char* fn = __func__;
  return DecodeInto(fn, ch, 0, data, size, out, stream,
                    [fn](const uint8_t* d, uint32_t n, Picture* p) {
                      oc::dvpp::PngInfo info;
                      if (aclError e = PngInfo(fn, d, n, &info)) return e;
                      const Status s = oc::dvpp::DecodePng(d, n, p);
                      return s.ok() ? ACL_SUCCESS : FailStatus(s, fn);
                    });
}

aclError acldvppJpegEncodeAsync(acldvppChannelDesc* ch, acldvppPicDesc* in, const void* data,
                                uint32_t* size, acldvppJpegeConfig* config, aclrtStream stream) {
  const char* fn = __func__;
  if (aclError e = aclrtSynchronizeStream(stream)) return e;
  if (!size) return Fail(ACL_ERROR_INVALID_PARAM, std::string(fn) + ": size is null");
  Picture picture;
  uint32_t level = 0;
  {
    std::lock_guard<std::mutex> lock(oc::acl_dvpp::Mutex());
    using oc::acl_dvpp::Live;
    if (!ch || !Live(ch, Kind::kChannelDesc) || !ch->created)
      return Fail(ACL_ERROR_INVALID_PARAM,
                  std::string(fn) + ": channelDesc is not a live, created channel");
    if (!(ch->mode & DVPP_CHNMODE_JPEGE))
      return Fail(ACL_ERROR_INVALID_PARAM,
                  std::string(fn) + ": the channel's mode has no DVPP_CHNMODE_JPEGE");
    if (!in || !Live(in, Kind::kPicDesc) || !config || !Live(config, Kind::kJpegeConfig))
      return Fail(ACL_ERROR_INVALID_PARAM,
                  std::string(fn) + ": inputDesc or config is not a live handle");
    picture = in->picture;
    level = config->level;
  }
  uint32_t capacity = *size;
  if (aclError e =
          oc::acl_dvpp::CheckBuffer(picture.data, picture.size, fn, "the input picture's data"))
    return e;
  if (aclError e = oc::acl_dvpp::CheckBuffer(data, capacity, fn, "the output buffer")) return e;
  const oc::Status s = oc::dvpp::EncodeJpeg(
      picture, level, static_cast<uint8_t*>(const_cast<void*>(data)), &capacity);
  if (!s.ok()) return FailStatus(s, fn);
  *size = capacity;
  return ACL_SUCCESS;
}

aclError acldvppPngGetImageInfo(const void* data, uint32_t size, uint32_t* width, uint32_t* height,
                                int32_t* components) {
  oc::dvpp::PngInfo info;
  if (aclError e = PngInfo(__func__, data, size, &info)) return e;
  if (width) *width = info.width;
  if (height) *height = info.height;
  if (components) *components = info.components;
  return ACL_SUCCESS;
}

aclError acldvppPngPredictDecSize(const void* data, uint32_t size, acldvppPixelFormat format,
                                  uint32_t* decSize) {
  if (!decSize) return Fail(ACL_ERROR_INVALID_PARAM, "acldvppPngPredictDecSize: decSize is null");
  oc::dvpp::PngInfo info;
  if (aclError e = PngInfo(__func__, data, size, &info)) return e;
  auto bytes = oc::dvpp::PngdOutputBytes(info, oc::acl_dvpp::EnumBits(format));
  if (!bytes.ok()) return FailStatus(bytes.status(), __func__);
  *decSize = bytes.value();
  return ACL_SUCCESS;
}

}  // extern "C"
