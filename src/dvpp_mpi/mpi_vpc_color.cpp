// hi_mpi_vpc_* calls on whole pictures: colour conversion, borders, the Gaussian pyramid,
// histograms and their remapping (dvpp/vpc.h, dvpp/vpc_filters.h).
#include <cstring>
#include <string>

#include "dvpp/vpc_filters.h"
#include "dvpp_mpi/mpi_vpc_chn.h"
#include "dvpp_mpi/mpi_vpc_ops.h"

namespace oc::dvpp_mpi {
namespace {

// The source in dest's format at the same size (a size of 0 takes the source's).
hi_s32 Convert(const char* fn, const hi_vpc_pic_info* source_pic, hi_vpc_pic_info* dest_pic,
               bool yuv420_only, uint8_t alpha = 255) {
  dvpp::Picture in, out;
  if (hi_s32 e = Source(fn, source_pic, &in)) return e;
  if (!dest_pic) return Fail(Module::kVpc, HI_ERR_NULL_PTR, std::string(fn) + ": dest_pic is null");
  hi_vpc_pic_info dest = *dest_pic;
  if (dest.picture_width == 0 && dest.picture_height == 0) {
    dest.picture_width = in.width;
    dest.picture_height = in.height;
  }
  if (dest.picture_width != in.width || dest.picture_height != in.height)
    return Fail(Module::kVpc, HI_ERR_ILLEGAL_PARAM,
                std::string(fn) + ": the destination is " + std::to_string(dest.picture_width) +
                    "x" + std::to_string(dest.picture_height) + ", the source " +
                    std::to_string(in.width) + "x" + std::to_string(in.height) +
                    " (colour conversion keeps the size)");
  if (hi_s32 e = Dest(fn, dest, &out, "the destination picture")) return e;
  if (yuv420_only && out.format != dvpp::kNv12 && out.format != dvpp::kNv21)
    return Fail(Module::kVpc, HI_ERR_ILLEGAL_PARAM,
                std::string(fn) + ": the destination is " + dvpp::PixelFormatName(out.format) +
                    ", not YUV_SEMIPLANAR_420 or YVU_SEMIPLANAR_420");
  const dvpp::Roi all{0, in.width - 1, 0, in.height - 1};
  if (hi_s32 e =
          Run(fn, dvpp::CropResizePaste(in, all, out, all, dvpp::kBilinear, CurrentChip(), alpha)))
    return e;
  dest_pic->picture_width = dest.picture_width;
  dest_pic->picture_height = dest.picture_height;
  return HI_SUCCESS;
}

uint8_t Level(double v) { return static_cast<uint8_t>(v < 0 ? 0 : v > 255 ? 255 : v + 0.5); }

}  // namespace
}  // namespace oc::dvpp_mpi

using namespace oc::dvpp_mpi;  // NOLINT: the C entry points below are thin

extern "C" {

hi_s32 hi_mpi_vpc_convert_color(hi_vpc_chn chn, const hi_vpc_pic_info* source_pic,
                                hi_vpc_pic_info* dest_pic, hi_u32* task_id, hi_s32 milli_sec) {
  const char* fn = "hi_mpi_vpc_convert_color";
  (void)milli_sec;
  return RunVpcTask(fn, chn, task_id, [&] { return Convert(fn, source_pic, dest_pic, false); });
}

hi_s32 hi_mpi_vpc_convert_color_to_yuv420(hi_vpc_chn chn, const hi_vpc_pic_info* source_pic,
                                          hi_vpc_pic_info* dest_pic, hi_u32* task_id,
                                          hi_s32 milli_sec) {
  const char* fn = "hi_mpi_vpc_convert_color_to_yuv420";
  (void)milli_sec;
  return RunVpcTask(fn, chn, task_id, [&] { return Convert(fn, source_pic, dest_pic, true); });
}

hi_s32 hi_mpi_vpc_convert_color_v2(hi_vpc_chn chn, const hi_vpc_pic_info* source_pic,
                                   hi_vpc_pic_info* dest_pic, hi_csc_conf* conf, hi_u32* task_id,
                                   hi_s32 milli_sec) {
  const char* fn = "hi_mpi_vpc_convert_color_v2";
  (void)milli_sec;
  return RunVpcTask(fn, chn, task_id, [&]() -> hi_s32 {
    if (!conf) return Fail(Module::kVpc, HI_ERR_NULL_PTR, std::string(fn) + ": conf is null");
    if (conf->alpha > 255)
      return Fail(Module::kVpc, HI_ERR_ILLEGAL_PARAM,
                  std::string(fn) + ": alpha " + std::to_string(conf->alpha) + " is not 0 to 255");
    return Convert(fn, source_pic, dest_pic, false, static_cast<uint8_t>(conf->alpha));
  });
}

hi_s32 hi_mpi_vpc_copy_make_border(hi_vpc_chn chn, const hi_vpc_pic_info* source_pic,
                                   hi_vpc_pic_info* dest_pic,
                                   hi_vpc_make_border_info make_border_info, hi_u32* task_id,
                                   hi_s32 milli_sec) {
  const char* fn = "hi_mpi_vpc_copy_make_border";
  (void)milli_sec;
  return RunVpcTask(fn, chn, task_id, [&]() -> hi_s32 {
    oc::dvpp::Picture in, out;
    if (hi_s32 e = Source(fn, source_pic, &in)) return e;
    if (!dest_pic)
      return Fail(Module::kVpc, HI_ERR_NULL_PTR, std::string(fn) + ": dest_pic is null");
    if (hi_s32 e = Dest(fn, *dest_pic, &out, "the destination picture")) return e;
    const int32_t type = BorderType(make_border_info.border_type);
    if (hi_s32 e = CheckBorderType(fn, type, false)) return e;
    const auto& b = make_border_info;
    return Run(fn, oc::dvpp::MakeBorder(in, out, b.top, b.bottom, b.left, b.right, type,
                                        b.scalar_value.val));
  });
}

hi_s32 hi_mpi_vpc_pyrdown(hi_vpc_chn chn, const hi_vpc_pic_info* source_pic,
                          hi_vpc_pic_info dest_pic[], hi_u32 filter_level,
                          hi_s8 gaussian_filter[][5], hi_u16 divisor,
                          hi_vpc_make_border_info make_border_info, hi_u32* task_id,
                          hi_s32 milli_sec) {
  const char* fn = "hi_mpi_vpc_pyrdown";
  (void)milli_sec;
  return RunVpcTask(fn, chn, task_id, [&]() -> hi_s32 {
    oc::dvpp::Picture in;
    if (hi_s32 e = Source(fn, source_pic, &in)) return e;
    if (!dest_pic || !gaussian_filter)
      return Fail(Module::kVpc, HI_ERR_NULL_PTR,
                  std::string(fn) + ": dest_pic or the kernel is null");
    if (filter_level < 1 || filter_level > 4)
      return Fail(
          Module::kVpc, HI_ERR_ILLEGAL_PARAM,
          std::string(fn) + ": filter_level " + std::to_string(filter_level) + " is not 1 to 4");
    oc::dvpp::PyrKernel kernel{};
    std::memcpy(kernel.taps, gaussian_filter, sizeof kernel.taps);
    kernel.divisor = divisor;
    kernel.border_type = BorderType(make_border_info.border_type);
    kernel.constant = Level(make_border_info.scalar_value.val[0]);
    if (hi_s32 e = CheckBorderType(fn, kernel.border_type, false)) return e;
    // Each level reads the one before: the first the source.
    oc::dvpp::Picture level = in;
    for (hi_u32 i = 0; i < filter_level; ++i) {
      oc::dvpp::Picture out;
      const std::string what = "level " + std::to_string(i + 1) + "'s picture";
      if (hi_s32 e = Dest(fn, dest_pic[i], &out, what)) return e;
      if (hi_s32 e = Run(fn, oc::dvpp::PyrDown(level, out, kernel))) return e;
      level = out;
    }
    return HI_SUCCESS;
  });
}

hi_s32 hi_mpi_vpc_calc_hist(hi_vpc_chn chn, const hi_vpc_pic_info* source_pic,
                            hi_vpc_histogram_config* hist_config, hi_u32* task_id,
                            hi_s32 milli_sec) {
  const char* fn = "hi_mpi_vpc_calc_hist";
  (void)milli_sec;
  return RunVpcTask(fn, chn, task_id, [&]() -> hi_s32 {
    oc::dvpp::Picture in;
    if (hi_s32 e = Source(fn, source_pic, &in)) return e;
    if (!hist_config)
      return Fail(Module::kVpc, HI_ERR_NULL_PTR, std::string(fn) + ": hist_config is null");
    uint32_t hist[oc::dvpp::kComponents][oc::dvpp::kLevels] = {};
    if (hi_s32 e = Run(fn, oc::dvpp::CalcHist(in, hist))) return e;
    std::memcpy(hist_config->histogram_y_or_r, hist[0], sizeof hist[0]);
    std::memcpy(hist_config->histogram_u_or_g, hist[1], sizeof hist[1]);
    std::memcpy(hist_config->histogram_v_or_b, hist[2], sizeof hist[2]);
    return HI_SUCCESS;
  });
}

hi_s32 hi_mpi_vpc_equalize_hist(hi_vpc_chn chn, const hi_vpc_pic_info* source_pic,
                                hi_vpc_pic_info* dest_pic, const hi_vpc_lut_remap* lut_remap,
                                hi_u32* task_id, hi_s32 milli_sec) {
  const char* fn = "hi_mpi_vpc_equalize_hist";
  (void)milli_sec;
  return RunVpcTask(fn, chn, task_id, [&]() -> hi_s32 {
    oc::dvpp::Picture in, out;
    if (hi_s32 e = Source(fn, source_pic, &in)) return e;
    if (!dest_pic || !lut_remap)
      return Fail(Module::kVpc, HI_ERR_NULL_PTR,
                  std::string(fn) + ": dest_pic or lut_remap is null");
    if (hi_s32 e = Dest(fn, *dest_pic, &out, "the destination picture")) return e;
    uint8_t map[oc::dvpp::kComponents][oc::dvpp::kLevels];
    std::memcpy(map[0], lut_remap->map_value_y_or_r, sizeof map[0]);
    std::memcpy(map[1], lut_remap->map_value_u_or_g, sizeof map[1]);
    std::memcpy(map[2], lut_remap->map_value_v_or_b, sizeof map[2]);
    return Run(fn, oc::dvpp::RemapColors(in, out, map));
  });
}

}  // extern "C"
