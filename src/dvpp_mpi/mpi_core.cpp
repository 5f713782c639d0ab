// libacl_dvpp_mpi's shared state: errors, the system state, the chip, the memory rule.
#include "dvpp_mpi/mpi_core.h"

#include <cstring>

#include "acl/acl.h"
#include "acl/acl_dvpp_abi.h"
#include "acl/acl_internal_abi.h"

namespace oc::dvpp_mpi {

hi_s32 Fail(Module m, hi_errno e, const std::string& message) {
  const hi_s32 code = Code(m, e);
  oc_internal_acl_fail(code, message.c_str());
  return code;
}

hi_s32 FailStatus(Module m, const Status& s, const char* fn) {
  hi_errno e = HI_ERR_ILLEGAL_PARAM;
  if (s.code() == StatusCode::kUnsupported) e = HI_ERR_NOT_SUPPORT;
  if (s.code() == StatusCode::kOutOfMemory) e = HI_ERR_NO_MEM;
  if (s.code() == StatusCode::kInternal) e = HI_ERR_SYS_ERROR;
  return Fail(m, e, std::string(fn) + ": " + s.message());
}

dvpp::Chip CurrentChip() {
  const char* soc = aclrtGetSocName();
  return dvpp::ChipOf(soc ? soc : "");
}

hi_s32 RequireSystem(Module m, const char* fn) {
  const dvpp::Chip chip = CurrentChip();
  if (chip == dvpp::Chip::k310 || chip == dvpp::Chip::k910)
    return Fail(m, HI_ERR_NOT_SUPPORT,
                std::string(fn) + ": " + dvpp::ChipName(chip) +
                    " has no hi_mpi media API (hi_dvpp.h is for 310P, 910B and 310B); use "
                    "acl/ops/acl_dvpp.h, or set OCANN_SOC to one of those chips");
  if (!SystemReady())
    return Fail(m, HI_ERR_NOT_READY,
                std::string(fn) +
                    ": the media system is not initialised (call hi_mpi_sys_init "
                    "after aclInit and aclrtSetDevice)");
  return HI_SUCCESS;
}

hi_s32 CheckBuffer(Module m, const void* p, uint64_t bytes, const char* fn, const char* what,
                   bool any_device_ok) {
  if (!p) return Fail(m, HI_ERR_NULL_PTR, std::string(fn) + ": " + what + " is null");
  if (bytes > SIZE_MAX)
    return Fail(m, HI_ERR_ILLEGAL_PARAM, std::string(fn) + ": " + what + " is too large");
  if (oc_internal_dvpp_range(p, static_cast<size_t>(bytes))) return HI_SUCCESS;
  const dvpp::Chip chip = CurrentChip();
  const bool any_device = any_device_ok || chip == dvpp::Chip::k910B || chip == dvpp::Chip::k310B;
  if (any_device && oc_internal_device_range(p, static_cast<size_t>(bytes))) return HI_SUCCESS;
  return Fail(m, HI_ERR_ILLEGAL_PARAM,
              std::string(fn) + ": " + what + " (" + std::to_string(bytes) + " bytes) is not " +
                  (any_device ? "inside device memory (hi_mpi_dvpp_malloc or aclrtMalloc): on "
                              : "inside memory from hi_mpi_dvpp_malloc: on ") +
                  dvpp::ChipName(chip) +
                  (any_device ? " DVPP reads and writes device memory, not host memory"
                              : " DVPP reads and writes only its reserved memory (910B and "
                                "310B take aclrtMalloc memory too)"));
}

dvpp::Picture ToPicture(const hi_vpc_pic_info& p) {
  dvpp::Picture q;
  q.data = static_cast<uint8_t*>(p.picture_address);
  q.size = p.picture_buffer_size;
  int32_t format = 0;
  static_assert(sizeof format == sizeof p.picture_format);
  std::memcpy(&format, &p.picture_format, sizeof format);  // any number a C caller passed
  q.format = format;
  q.width = p.picture_width;
  q.height = p.picture_height;
  q.width_stride = p.picture_width_stride;
  q.height_stride = p.picture_height_stride;
  return q;
}

}  // namespace oc::dvpp_mpi
