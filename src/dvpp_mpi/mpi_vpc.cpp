// hi_mpi_vpc_* operations on the DVPP engines (dvpp/vpc.h, dvpp/vpc_filters.h): each call's
// pictures and regions are checked against the chip's VPC rules and the memory rule, then
// computed; the messages name the call, the region and the rule.
#include <cmath>
#include <cstring>
#include <string>
#include <vector>

#include "dvpp/vpc.h"
#include "dvpp/vpc_filters.h"
#include "dvpp_mpi/mpi_vpc_chn.h"
#include "dvpp_mpi/mpi_vpc_ops.h"

namespace oc::dvpp_mpi {

constexpr uint32_t kMaxRegions = 256;

hi_s32 CheckPicture(const char* fn, const dvpp::Picture& p, dvpp::Role role, const char* what) {
  if (Status s = dvpp::CheckVpcPicture(p, CurrentChip(), role, what); !s.ok())
    return FailStatus(Module::kVpc, s, fn);
  return CheckBuffer(Module::kVpc, p.data, p.size, fn, what);
}

hi_s32 Source(const char* fn, const hi_vpc_pic_info* source, dvpp::Picture* in) {
  if (!source) return Fail(Module::kVpc, HI_ERR_NULL_PTR, std::string(fn) + ": source_pic is null");
  *in = ToPicture(*source);
  return CheckPicture(fn, *in, dvpp::Role::kVpcInput, "the source picture");
}

hi_s32 Dest(const char* fn, const hi_vpc_pic_info& dest, dvpp::Picture* out,
            const std::string& what) {
  *out = ToPicture(dest);
  return CheckPicture(fn, *out, dvpp::Role::kVpcOutput, what.c_str());
}

// hi_vpc_resize_info's interpolation: 0 bilinear, 1 nearest neighbour (OpenCV's both).
hi_s32 Interpolation(const char* fn, uint32_t hi, uint32_t* engine) {
  if (hi > 1)
    return Fail(Module::kVpc, HI_ERR_ILLEGAL_PARAM,
                std::string(fn) + ": interpolation " + std::to_string(hi) +
                    " is not 0 (bilinear) or 1 (nearest neighbour)");
  *engine = hi == 0 ? dvpp::kBilinear : dvpp::kNearest;
  return HI_SUCCESS;
}

hi_s32 CropRoi(const char* fn, const hi_vpc_crop_region& r, const dvpp::Picture& in,
               const std::string& what, dvpp::Roi* roi) {
  if (r.crop_width == 0 || r.crop_height == 0 || r.left_offset > UINT32_MAX - r.crop_width ||
      r.top_offset > UINT32_MAX - r.crop_height)
    return Fail(Module::kVpc, HI_ERR_ILLEGAL_PARAM,
                std::string(fn) + ": " + what + " is empty or out of range");
  *roi = {r.left_offset, r.left_offset + r.crop_width - 1, r.top_offset,
          r.top_offset + r.crop_height - 1};
  if (Status s = dvpp::CheckRoi(*roi, in, CurrentChip(), false, what.c_str()); !s.ok())
    return FailStatus(Module::kVpc, s, fn);
  return HI_SUCCESS;
}

hi_s32 PasteRoi(const char* fn, uint32_t left, uint32_t top, uint32_t w, uint32_t h,
                const dvpp::Picture& out, const std::string& what, dvpp::Roi* roi) {
  if (w == 0 || h == 0 || left > UINT32_MAX - w || top > UINT32_MAX - h)
    return Fail(Module::kVpc, HI_ERR_ILLEGAL_PARAM,
                std::string(fn) + ": " + what + " is empty or out of range");
  *roi = {left, left + w - 1, top, top + h - 1};
  if (Status s = dvpp::CheckRoi(*roi, out, CurrentChip(), left || top, what.c_str()); !s.ok())
    return FailStatus(Module::kVpc, s, fn);
  return HI_SUCCESS;
}

hi_s32 Count(const char* fn, uint32_t count, const void* regions) {
  if (!regions)
    return Fail(Module::kVpc, HI_ERR_NULL_PTR, std::string(fn) + ": the regions are null");
  if (count == 0 || count > kMaxRegions)
    return Fail(Module::kVpc, HI_ERR_ILLEGAL_PARAM,
                std::string(fn) + ": count " + std::to_string(count) + " is not 1 to " +
                    std::to_string(kMaxRegions));
  return HI_SUCCESS;
}

std::string Region(uint32_t i) { return "region " + std::to_string(i); }

hi_s32 Run(const char* fn, const Status& s) {
  return s.ok() ? HI_SUCCESS : FailStatus(Module::kVpc, s, fn);
}

int32_t BorderType(hi_vpc_bord_type t) {
  int32_t v = 0;
  std::memcpy(&v, &t, sizeof v);
  return v;
}

hi_s32 CheckBorderType(const char* fn, int32_t type, bool crop_resize) {
  if (crop_resize ? (type == HI_BORDER_CONSTANT || type == HI_BORDER_REPLICATE)
                  : (type >= HI_BORDER_CONSTANT && type <= HI_BORDER_REFLECT_101))
    return HI_SUCCESS;
  if (type == HI_BORDER_WRAP || (crop_resize && type >= 0 && type <= HI_BORDER_REFLECT_101))
    return Fail(Module::kVpc, HI_ERR_NOT_SUPPORT,
                std::string(fn) + ": border type " + std::to_string(type) + " is not supported (" +
                    (crop_resize ? "CONSTANT or REPLICATE"
                                 : "CONSTANT, REPLICATE, REFLECT or "
                                   "REFLECT_101") +
                    ")");
  return Fail(Module::kVpc, HI_ERR_ILLEGAL_PARAM,
              std::string(fn) + ": border type " + std::to_string(type) + " is not one of DVPP's");
}

namespace {

// One crop-resize(-paste) region: the crop of `in` resized to w x h at (left, top) of dest.
hi_s32 CropResizeInto(const char* fn, const dvpp::Picture& in, const hi_vpc_crop_region& crop,
                      const hi_vpc_pic_info& dest, const hi_vpc_resize_info& resize, uint32_t left,
                      uint32_t top, const std::string& what) {
  dvpp::Picture out;
  dvpp::Roi c, p;
  uint32_t interpolation = 0;
  if (hi_s32 e = Dest(fn, dest, &out, what + "'s destination")) return e;
  if (hi_s32 e = CropRoi(fn, crop, in, what + "'s crop", &c)) return e;
  if (hi_s32 e = PasteRoi(fn, left, top, resize.resize_width, resize.resize_height, out,
                          what + "'s resized area", &p))
    return e;
  if (hi_s32 e = Interpolation(fn, resize.interpolation, &interpolation)) return e;
  return Run(fn, dvpp::CropResizePaste(in, c, out, p, interpolation, CurrentChip()));
}

// One crop-resize-make-border region: the crop resized to w x h at the offsets, the rest of
// the destination the border.
hi_s32 CropResizeBorder(const char* fn, const dvpp::Picture& in,
                        const hi_vpc_crop_resize_border_region& r, const std::string& what) {
  dvpp::Picture out;
  dvpp::Roi c, p;
  uint32_t interpolation = 0;
  if (hi_s32 e = Dest(fn, r.dest_pic_info, &out, what + "'s destination")) return e;
  if (hi_s32 e = CropRoi(fn, r.crop_region, in, what + "'s crop", &c)) return e;
  if (hi_s32 e = PasteRoi(fn, r.dest_left_offset, r.dest_top_offset, r.resize_info.resize_width,
                          r.resize_info.resize_height, out, what + "'s resized area", &p))
    return e;
  if (hi_s32 e = Interpolation(fn, r.resize_info.interpolation, &interpolation)) return e;
  const int32_t type = BorderType(r.border_type);
  if (hi_s32 e = CheckBorderType(fn, type, true)) return e;
  const uint32_t bottom = out.height - 1 - p.bottom, right = out.width - 1 - p.right;
  return Run(fn, dvpp::CropResizeMakeBorder(in, c, out, p.top, bottom, p.left, right, type,
                                            r.scalar_value.val, interpolation, CurrentChip()));
}

// The batch calls: pic_num sources, count[i] regions of source i, in order.
template <typename R, typename One>
hi_s32 Batch(const char* fn, const hi_vpc_pic_info* source_pic[], hi_u32 pic_num, R regions[],
             hi_u32 count[], One one) {
  if (!source_pic || !count || !regions)
    return Fail(Module::kVpc, HI_ERR_NULL_PTR, std::string(fn) + ": an array is null");
  if (pic_num == 0 || pic_num > kMaxRegions)
    return Fail(Module::kVpc, HI_ERR_ILLEGAL_PARAM,
                std::string(fn) + ": pic_num " + std::to_string(pic_num) + " is not 1 to " +
                    std::to_string(kMaxRegions));
  uint64_t total = 0;
  for (hi_u32 i = 0; i < pic_num; ++i) {
    if (count[i] == 0)
      return Fail(Module::kVpc, HI_ERR_ILLEGAL_PARAM,
                  std::string(fn) + ": picture " + std::to_string(i) + " has count 0");
    total += count[i];
  }
  if (total > kMaxRegions)
    return Fail(Module::kVpc, HI_ERR_ILLEGAL_PARAM,
                std::string(fn) + ": " + std::to_string(total) + " regions in all; at most " +
                    std::to_string(kMaxRegions));
  std::vector<dvpp::Picture> ins(pic_num);
  for (hi_u32 i = 0; i < pic_num; ++i)
    if (hi_s32 e = Source(fn, source_pic[i], &ins[i])) return e;
  uint32_t k = 0;
  for (hi_u32 i = 0; i < pic_num; ++i)
    for (hi_u32 j = 0; j < count[i]; ++j, ++k)
      if (hi_s32 e = one(ins[i], regions[k], "picture " + std::to_string(i) + " " + Region(k)))
        return e;
  return HI_SUCCESS;
}

}  // namespace
}  // namespace oc::dvpp_mpi

using namespace oc::dvpp_mpi;  // NOLINT: the C entry points below are thin

extern "C" {

hi_s32 hi_mpi_vpc_crop(hi_vpc_chn chn, const hi_vpc_pic_info* source_pic,
                       hi_vpc_crop_region_info crop_info[], hi_u32 count, hi_u32* task_id,
                       hi_s32 milli_sec) {
  const char* fn = "hi_mpi_vpc_crop";
  (void)milli_sec;
  return RunVpcTask(fn, chn, task_id, [&]() -> hi_s32 {
    oc::dvpp::Picture in;
    if (hi_s32 e = Source(fn, source_pic, &in)) return e;
    if (hi_s32 e = Count(fn, count, crop_info)) return e;
    for (hi_u32 i = 0; i < count; ++i) {
      const auto& r = crop_info[i];
      if (r.dest_pic_info.picture_width != r.crop_region.crop_width ||
          r.dest_pic_info.picture_height != r.crop_region.crop_height)
        return Fail(Module::kVpc, HI_ERR_ILLEGAL_PARAM,
                    std::string(fn) + ": " + Region(i) + ": the destination is " +
                        std::to_string(r.dest_pic_info.picture_width) + "x" +
                        std::to_string(r.dest_pic_info.picture_height) + ", the crop " +
                        std::to_string(r.crop_region.crop_width) + "x" +
                        std::to_string(r.crop_region.crop_height) +
                        " (crop writes the region at its own size; hi_mpi_vpc_crop_resize "
                        "resizes)");
      const hi_vpc_resize_info same{r.crop_region.crop_width, r.crop_region.crop_height, 0};
      if (hi_s32 e = CropResizeInto(fn, in, r.crop_region, r.dest_pic_info, same, 0, 0, Region(i)))
        return e;
    }
    return HI_SUCCESS;
  });
}

hi_s32 hi_mpi_vpc_resize(hi_vpc_chn chn, const hi_vpc_pic_info* source_pic,
                         hi_vpc_pic_info* dest_pic, hi_double fx, hi_double fy,
                         hi_u32 interpolation, hi_u32* task_id, hi_s32 milli_sec) {
  const char* fn = "hi_mpi_vpc_resize";
  (void)milli_sec;
  return RunVpcTask(fn, chn, task_id, [&]() -> hi_s32 {
    oc::dvpp::Picture in;
    if (hi_s32 e = Source(fn, source_pic, &in)) return e;
    if (!dest_pic)
      return Fail(Module::kVpc, HI_ERR_NULL_PTR, std::string(fn) + ": dest_pic is null");
    hi_vpc_pic_info dest = *dest_pic;
    if (dest.picture_width == 0 || dest.picture_height == 0) {
      // The size from the factors (CANN's rule: round(side * factor)).
      if (!(fx > 0) || !(fy > 0) || !std::isfinite(fx) || !std::isfinite(fy) ||
          in.width * fx > 16384 || in.height * fy > 16384)
        return Fail(Module::kVpc, HI_ERR_ILLEGAL_PARAM,
                    std::string(fn) + ": the destination is 0x0 and fx " + std::to_string(fx) +
                        ", fy " + std::to_string(fy) + " do not give its size");
      dest.picture_width = static_cast<uint32_t>(std::lround(in.width * fx));
      dest.picture_height = static_cast<uint32_t>(std::lround(in.height * fy));
    }
    const hi_vpc_crop_region all{0, 0, in.width, in.height};
    const hi_vpc_resize_info size{dest.picture_width, dest.picture_height, interpolation};
    if (hi_s32 e = CropResizeInto(fn, in, all, dest, size, 0, 0, "the resize")) return e;
    dest_pic->picture_width = dest.picture_width;
    dest_pic->picture_height = dest.picture_height;
    return HI_SUCCESS;
  });
}

hi_s32 hi_mpi_vpc_crop_resize(hi_vpc_chn chn, const hi_vpc_pic_info* source_pic,
                              hi_vpc_crop_resize_region crop_resize_info[], hi_u32 count,
                              hi_u32* task_id, hi_s32 milli_sec) {
  const char* fn = "hi_mpi_vpc_crop_resize";
  (void)milli_sec;
  return RunVpcTask(fn, chn, task_id, [&]() -> hi_s32 {
    oc::dvpp::Picture in;
    if (hi_s32 e = Source(fn, source_pic, &in)) return e;
    if (hi_s32 e = Count(fn, count, crop_resize_info)) return e;
    for (hi_u32 i = 0; i < count; ++i) {
      const auto& r = crop_resize_info[i];
      if (hi_s32 e = CropResizeInto(fn, in, r.crop_region, r.dest_pic_info, r.resize_info, 0, 0,
                                    Region(i)))
        return e;
    }
    return HI_SUCCESS;
  });
}

hi_s32 hi_mpi_vpc_crop_resize_paste(hi_vpc_chn chn, const hi_vpc_pic_info* source_pic,
                                    hi_vpc_crop_resize_paste_region crop_resize_paste_info[],
                                    hi_u32 count, hi_u32* task_id, hi_s32 milli_sec) {
  const char* fn = "hi_mpi_vpc_crop_resize_paste";
  (void)milli_sec;
  return RunVpcTask(fn, chn, task_id, [&]() -> hi_s32 {
    oc::dvpp::Picture in;
    if (hi_s32 e = Source(fn, source_pic, &in)) return e;
    if (hi_s32 e = Count(fn, count, crop_resize_paste_info)) return e;
    for (hi_u32 i = 0; i < count; ++i) {
      const auto& r = crop_resize_paste_info[i];
      if (hi_s32 e = CropResizeInto(fn, in, r.crop_region, r.dest_pic_info, r.resize_info,
                                    r.dest_left_offset, r.dest_top_offset, Region(i)))
        return e;
    }
    return HI_SUCCESS;
  });
}

hi_s32 hi_mpi_vpc_batch_crop_resize_paste(hi_vpc_chn chn, const hi_vpc_pic_info* source_pic[],
                                          hi_u32 pic_num,
                                          hi_vpc_crop_resize_paste_region crop_resize_paste_info[],
                                          hi_u32 count[], hi_u32* task_id, hi_s32 milli_sec) {
  const char* fn = "hi_mpi_vpc_batch_crop_resize_paste";
  (void)milli_sec;
  return RunVpcTask(fn, chn, task_id, [&]() -> hi_s32 {
    return Batch(fn, source_pic, pic_num, crop_resize_paste_info, count,
                 [&](const oc::dvpp::Picture& in, const hi_vpc_crop_resize_paste_region& r,
                     const std::string& what) {
                   return CropResizeInto(fn, in, r.crop_region, r.dest_pic_info, r.resize_info,
                                         r.dest_left_offset, r.dest_top_offset, what);
                 });
  });
}

hi_s32 hi_mpi_vpc_crop_resize_make_border(
    hi_vpc_chn chn, const hi_vpc_pic_info* source_pic,
    hi_vpc_crop_resize_border_region crop_resize_make_border_info[], hi_u32 count, hi_u32* task_id,
    hi_s32 milli_sec) {
  const char* fn = "hi_mpi_vpc_crop_resize_make_border";
  (void)milli_sec;
  return RunVpcTask(fn, chn, task_id, [&]() -> hi_s32 {
    oc::dvpp::Picture in;
    if (hi_s32 e = Source(fn, source_pic, &in)) return e;
    if (hi_s32 e = Count(fn, count, crop_resize_make_border_info)) return e;
    for (hi_u32 i = 0; i < count; ++i)
      if (hi_s32 e = CropResizeBorder(fn, in, crop_resize_make_border_info[i], Region(i))) return e;
    return HI_SUCCESS;
  });
}

hi_s32 hi_mpi_vpc_batch_crop_resize_make_border(
    hi_vpc_chn chn, const hi_vpc_pic_info* source_pic[], hi_u32 pic_num,
    hi_vpc_crop_resize_border_region crop_resize_make_border_info[], hi_u32 count[],
    hi_u32* task_id, hi_s32 milli_sec) {
  const char* fn = "hi_mpi_vpc_batch_crop_resize_make_border";
  (void)milli_sec;
  return RunVpcTask(fn, chn, task_id, [&]() -> hi_s32 {
    return Batch(fn, source_pic, pic_num, crop_resize_make_border_info, count,
                 [&](const oc::dvpp::Picture& in, const hi_vpc_crop_resize_border_region& r,
                     const std::string& what) { return CropResizeBorder(fn, in, r, what); });
  });
}

}  // extern "C"
