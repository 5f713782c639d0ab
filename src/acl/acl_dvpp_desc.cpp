// DVPP's descriptions: channels, pictures, regions and resize configurations. A stale or
// foreign handle is refused with ACL_ERROR_INVALID_PARAM (getters return their CANN default).
#include <atomic>
#include <new>

#include "acl/acl_dvpp_objects.h"

using oc::acl_dvpp::Fail;
using oc::acl_dvpp::Kind;

namespace {

template <typename T>
T* Create(Kind kind) {
  T* t = new (std::nothrow) T();
  if (!t) return nullptr;
  std::lock_guard<std::mutex> lock(oc::acl_dvpp::Mutex());
  oc::acl_dvpp::Add(t, kind);
  return t;
}

template <typename T>
aclError Destroy(T* t, Kind kind, const char* fn) {
  {
    std::lock_guard<std::mutex> lock(oc::acl_dvpp::Mutex());
    if (!t || !oc::acl_dvpp::Remove(t, kind))
      return Fail(ACL_ERROR_INVALID_PARAM, std::string(fn) + ": not a live handle");
  }
  delete t;
  return ACL_SUCCESS;
}

template <typename T, typename F>
aclError Set(T* t, Kind kind, const char* fn, F set) {
  return oc::acl_dvpp::SetLive(t, kind, fn, set);
}
template <typename R, typename T, typename F>
R Get(const T* t, Kind kind, R fallback, F get) {
  return oc::acl_dvpp::GetLive<R>(t, kind, fallback, get);
}

std::atomic<uint64_t> g_next_channel{0};

}  // namespace

extern "C" {

acldvppChannelDesc* acldvppCreateChannelDesc(void) {
  return Create<acldvppChannelDesc>(Kind::kChannelDesc);
}
aclError acldvppDestroyChannelDesc(acldvppChannelDesc* d) {
  return Destroy(d, Kind::kChannelDesc, __func__);
}
uint64_t acldvppGetChannelDescChannelId(const acldvppChannelDesc* d) {
  return Get<uint64_t>(d, Kind::kChannelDesc, 0, [](const auto& c) { return c.channel_id; });
}
aclError acldvppSetChannelDescMode(acldvppChannelDesc* d, uint32_t mode) {
  if (mode == 0 || mode > 15)
    return Fail(ACL_ERROR_INVALID_PARAM,
                "acldvppSetChannelDescMode: mode " + std::to_string(mode) +
                    " is not a combination of DVPP_CHNMODE_VPC, _JPEGD, _JPEGE and _PNGD");
  return Set(d, Kind::kChannelDesc, __func__, [&](auto& c) { c.mode = mode; });
}
aclError acldvppCreateChannel(acldvppChannelDesc* d) {
  bool twice = false;
  aclError e = Set(d, Kind::kChannelDesc, __func__, [&](auto& c) {
    twice = c.created;
    if (!twice) {
      c.created = true;
      c.channel_id = g_next_channel++;
    }
  });
  if (e == ACL_SUCCESS && twice)
    return Fail(ACL_ERROR_INVALID_PARAM, "acldvppCreateChannel: the channel exists already");
  return e;
}
aclError acldvppDestroyChannel(acldvppChannelDesc* d) {
  bool absent = false;
  aclError e = Set(d, Kind::kChannelDesc, __func__, [&](auto& c) {
    absent = !c.created;
    c.created = false;
  });
  if (e == ACL_SUCCESS && absent)
    return Fail(ACL_ERROR_INVALID_PARAM, "acldvppDestroyChannel: the channel was not created");
  return e;
}

acldvppPicDesc* acldvppCreatePicDesc(void) { return Create<acldvppPicDesc>(Kind::kPicDesc); }
aclError acldvppDestroyPicDesc(acldvppPicDesc* p) { return Destroy(p, Kind::kPicDesc, __func__); }

#define OC_PIC_SETTER(Name, Type, field)                                  \
  aclError acldvppSetPicDesc##Name(acldvppPicDesc* p, Type v) {           \
    return Set(p, Kind::kPicDesc, __func__, [&](auto& d) { field = v; }); \
  }
OC_PIC_SETTER(Size, uint32_t, d.picture.size)
OC_PIC_SETTER(Width, uint32_t, d.picture.width)
OC_PIC_SETTER(Height, uint32_t, d.picture.height)
OC_PIC_SETTER(WidthStride, uint32_t, d.picture.width_stride)
OC_PIC_SETTER(HeightStride, uint32_t, d.picture.height_stride)
OC_PIC_SETTER(RetCode, uint32_t, d.ret_code)
#undef OC_PIC_SETTER

aclError acldvppSetPicDescData(acldvppPicDesc* p, void* data) {
  return Set(p, Kind::kPicDesc, __func__,
             [&](auto& d) { d.picture.data = static_cast<uint8_t*>(data); });
}
aclError acldvppSetPicDescFormat(acldvppPicDesc* p, acldvppPixelFormat format) {
  const int32_t value = oc::acl_dvpp::EnumBits(format);
  return Set(p, Kind::kPicDesc, __func__, [&](auto& d) { d.picture.format = value; });
}

void* acldvppGetPicDescData(const acldvppPicDesc* p) {
  return Get<void*>(p, Kind::kPicDesc, nullptr, [](const auto& d) { return d.picture.data; });
}
acldvppPixelFormat acldvppGetPicDescFormat(const acldvppPicDesc* p) {
  return Get<acldvppPixelFormat>(p, Kind::kPicDesc, PIXEL_FORMAT_YUV_400, [](const auto& d) {
    return static_cast<acldvppPixelFormat>(d.picture.format);
  });
}
#define OC_PIC_GETTER(Name, field)                                                   \
  uint32_t acldvppGetPicDesc##Name(const acldvppPicDesc* p) {                        \
    return Get<uint32_t>(p, Kind::kPicDesc, 0, [](const auto& d) { return field; }); \
  }
OC_PIC_GETTER(Size, d.picture.size)
OC_PIC_GETTER(Width, d.picture.width)
OC_PIC_GETTER(Height, d.picture.height)
OC_PIC_GETTER(WidthStride, d.picture.width_stride)
OC_PIC_GETTER(HeightStride, d.picture.height_stride)
OC_PIC_GETTER(RetCode, d.ret_code)
#undef OC_PIC_GETTER

acldvppRoiConfig* acldvppCreateRoiConfig(uint32_t left, uint32_t right, uint32_t top,
                                         uint32_t bottom) {
  acldvppRoiConfig* r = Create<acldvppRoiConfig>(Kind::kRoi);
  if (r) r->roi = {left, right, top, bottom};
  return r;
}
aclError acldvppDestroyRoiConfig(acldvppRoiConfig* r) { return Destroy(r, Kind::kRoi, __func__); }
aclError acldvppSetRoiConfigLeft(acldvppRoiConfig* r, uint32_t v) {
  return Set(r, Kind::kRoi, __func__, [&](auto& c) { c.roi.left = v; });
}
aclError acldvppSetRoiConfigRight(acldvppRoiConfig* r, uint32_t v) {
  return Set(r, Kind::kRoi, __func__, [&](auto& c) { c.roi.right = v; });
}
aclError acldvppSetRoiConfigTop(acldvppRoiConfig* r, uint32_t v) {
  return Set(r, Kind::kRoi, __func__, [&](auto& c) { c.roi.top = v; });
}
aclError acldvppSetRoiConfigBottom(acldvppRoiConfig* r, uint32_t v) {
  return Set(r, Kind::kRoi, __func__, [&](auto& c) { c.roi.bottom = v; });
}
aclError acldvppSetRoiConfig(acldvppRoiConfig* r, uint32_t left, uint32_t right, uint32_t top,
                             uint32_t bottom) {
  return Set(r, Kind::kRoi, __func__, [&](auto& c) { c.roi = {left, right, top, bottom}; });
}

acldvppResizeConfig* acldvppCreateResizeConfig(void) {
  return Create<acldvppResizeConfig>(Kind::kResize);
}
aclError acldvppDestroyResizeConfig(acldvppResizeConfig* r) {
  return Destroy(r, Kind::kResize, __func__);
}
aclError acldvppSetResizeConfigInterpolation(acldvppResizeConfig* r, uint32_t interpolation) {
  const oc::Status s = oc::dvpp::CheckInterpolation(interpolation, oc::acl_dvpp::CurrentChip());
  if (!s.ok()) return oc::acl_dvpp::FailStatus(s, __func__);
  return Set(r, Kind::kResize, __func__, [&](auto& c) { c.interpolation = interpolation; });
}
uint32_t acldvppGetResizeConfigInterpolation(const acldvppResizeConfig* r) {
  return Get<uint32_t>(r, Kind::kResize, 0, [](const auto& c) { return c.interpolation; });
}

acldvppBorderConfig* acldvppCreateBorderConfig(void) {
  return Create<acldvppBorderConfig>(Kind::kBorderConfig);
}
aclError acldvppDestroyBorderConfig(acldvppBorderConfig* c) {
  return Destroy(c, Kind::kBorderConfig, __func__);
}
aclError acldvppSetBorderConfigValue(acldvppBorderConfig* c, uint32_t index, double value) {
  if (index > 3)
    return Fail(ACL_ERROR_INVALID_PARAM,
                "acldvppSetBorderConfigValue: index " + std::to_string(index) + " is not 0 to 3");
  return Set(c, Kind::kBorderConfig, __func__, [&](auto& b) { b.value[index] = value; });
}
aclError acldvppSetBorderConfigBorderType(acldvppBorderConfig* c, acldvppBorderType type) {
  const int32_t value = oc::acl_dvpp::EnumBits(type);
  if (value < BORDER_CONSTANT || value > BORDER_REFLECT_101)
    return Fail(ACL_ERROR_INVALID_PARAM,
                "acldvppSetBorderConfigBorderType: " + std::to_string(value) +
                    " is not an acldvppBorderType");
  return Set(c, Kind::kBorderConfig, __func__, [&](auto& b) { b.type = value; });
}
aclError acldvppSetBorderConfigTop(acldvppBorderConfig* c, uint32_t v) {
  return Set(c, Kind::kBorderConfig, __func__, [&](auto& b) { b.top = v; });
}
aclError acldvppSetBorderConfigBottom(acldvppBorderConfig* c, uint32_t v) {
  return Set(c, Kind::kBorderConfig, __func__, [&](auto& b) { b.bottom = v; });
}
aclError acldvppSetBorderConfigLeft(acldvppBorderConfig* c, uint32_t v) {
  return Set(c, Kind::kBorderConfig, __func__, [&](auto& b) { b.left = v; });
}
aclError acldvppSetBorderConfigRight(acldvppBorderConfig* c, uint32_t v) {
  return Set(c, Kind::kBorderConfig, __func__, [&](auto& b) { b.right = v; });
}
double acldvppGetBorderConfigValue(const acldvppBorderConfig* c, uint32_t index) {
  if (index > 3) return 0;
  return Get<double>(c, Kind::kBorderConfig, 0.0, [&](const auto& b) { return b.value[index]; });
}
acldvppBorderType acldvppGetBorderConfigBorderType(const acldvppBorderConfig* c) {
  return Get<acldvppBorderType>(c, Kind::kBorderConfig, BORDER_CONSTANT, [](const auto& b) {
    return static_cast<acldvppBorderType>(b.type);
  });
}
uint32_t acldvppGetBorderConfigTop(const acldvppBorderConfig* c) {
  return Get<uint32_t>(c, Kind::kBorderConfig, 0, [](const auto& b) { return b.top; });
}
uint32_t acldvppGetBorderConfigBottom(const acldvppBorderConfig* c) {
  return Get<uint32_t>(c, Kind::kBorderConfig, 0, [](const auto& b) { return b.bottom; });
}
uint32_t acldvppGetBorderConfigLeft(const acldvppBorderConfig* c) {
  return Get<uint32_t>(c, Kind::kBorderConfig, 0, [](const auto& b) { return b.left; });
}
uint32_t acldvppGetBorderConfigRight(const acldvppBorderConfig* c) {
  return Get<uint32_t>(c, Kind::kBorderConfig, 0, [](const auto& b) { return b.right; });
}

acldvppJpegeConfig* acldvppCreateJpegeConfig(void) {
  return Create<acldvppJpegeConfig>(Kind::kJpegeConfig);
}
aclError acldvppDestroyJpegeConfig(acldvppJpegeConfig* c) {
  return Destroy(c, Kind::kJpegeConfig, __func__);
}
aclError acldvppSetJpegeConfigLevel(acldvppJpegeConfig* c, uint32_t level) {
  if (level > 100)
    return Fail(ACL_ERROR_INVALID_PARAM,
                "acldvppSetJpegeConfigLevel: level " + std::to_string(level) + " is not 0 to 100");
  return Set(c, Kind::kJpegeConfig, __func__, [&](auto& j) { j.level = level; });
}
uint32_t acldvppGetJpegeConfigLevel(const acldvppJpegeConfig* c) {
  return Get<uint32_t>(c, Kind::kJpegeConfig, 0, [](const auto& j) { return j.level; });
}

}  // extern "C"
