// The checks every hi_mpi_vpc_* call makes of its pictures and regions (mpi_vpc.cpp), shared
// with the whole-picture calls (mpi_vpc_color.cpp).
#pragma once

#include <string>

#include "dvpp/vpc.h"
#include "dvpp_mpi/mpi_core.h"

namespace oc::dvpp_mpi {

// A picture against the chip's VPC rules and the memory rule.
hi_s32 CheckPicture(const char* fn, const dvpp::Picture& p, dvpp::Role role, const char* what);
// The call's source picture (null: NULL_PTR) read and checked.
hi_s32 Source(const char* fn, const hi_vpc_pic_info* source, dvpp::Picture* in);
// A destination picture read and checked.
hi_s32 Dest(const char* fn, const hi_vpc_pic_info& dest, dvpp::Picture* out,
            const std::string& what);
// hi_vpc_resize_info's interpolation (0 bilinear, 1 nearest) as the engine's number.
hi_s32 Interpolation(const char* fn, uint32_t hi, uint32_t* engine);
// A crop region inside `in`, and a paste area inside `out`, as the engine's inclusive ROIs.
hi_s32 CropRoi(const char* fn, const hi_vpc_crop_region& r, const dvpp::Picture& in,
               const std::string& what, dvpp::Roi* roi);
hi_s32 PasteRoi(const char* fn, uint32_t left, uint32_t top, uint32_t w, uint32_t h,
                const dvpp::Picture& out, const std::string& what, dvpp::Roi* roi);
// A region array's length: 1 to 256.
hi_s32 Count(const char* fn, uint32_t count, const void* regions);
std::string Region(uint32_t i);
// The border types a call computes: copy_make_border 0-3, the crop-resize calls 0-1; WRAP and
// the others a call lacks are NOT_SUPPORT, numbers outside DVPP's ILLEGAL_PARAM.
hi_s32 CheckBorderType(const char* fn, int32_t type, bool crop_resize);
int32_t BorderType(hi_vpc_bord_type t);
// An engine's Status as the call's result (recorded when it failed).
hi_s32 Run(const char* fn, const Status& s);

}  // namespace oc::dvpp_mpi
