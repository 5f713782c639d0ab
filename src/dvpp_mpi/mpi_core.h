// What libacl_dvpp_mpi's modules share: error codes as the media API builds them, the
// system state (hi_mpi_sys_init), the chip whose rules apply, the DVPP memory rule, and the
// channel table every module keeps. Errors are recorded for aclGetRecentErrMsg and the plog
// with a message naming the rule and the values, as libacl_dvpp's are.
#pragma once

#include <chrono>
#include <cstdint>
#include <mutex>
#include <string>

#include "base/status.h"
#include "dvpp/picture.h"
#include "hi_dvpp.h"

namespace oc::dvpp_mpi {

// The module numbers in the codes (0xA0000000 | module << 16 | 4 << 13 | errno).
enum class Module : uint32_t { kSys = 2, kVdec = 5, kVpc = 7, kVenc = 8, kPngd = 64 };

inline hi_s32 Code(Module m, hi_errno e) {
  return static_cast<hi_s32>(0xA0000000u | (static_cast<uint32_t>(m) << 16) | (4u << 13) |
                             static_cast<uint32_t>(e));
}

// Records the message and returns Code(m, e).
hi_s32 Fail(Module m, hi_errno e, const std::string& message);
// A Status from the DVPP engines: unsupported -> NOT_SUPPORT, out of memory -> NO_MEM,
// internal -> SYS_ERROR, anything else -> ILLEGAL_PARAM.
hi_s32 FailStatus(Module m, const Status& s, const char* fn);

// Every call but memory needs hi_mpi_sys_init first (and the chip's media API): NOT_READY
// (NOT_SUPPORT on 310/910, which have only acl_dvpp.h) naming the call otherwise.
hi_s32 RequireSystem(Module m, const char* fn);
// Whether hi_mpi_sys_init has run (and hi_mpi_sys_exit not since) in this process.
bool SystemReady();
// The chip whose rules apply (aclrtGetSocName).
dvpp::Chip CurrentChip();

// The memory rule: on 310P the engines reach only DVPP memory (hi_mpi_dvpp_malloc,
// acldvppMalloc); 910B and 310B take any device memory (aclrtMalloc), and so does VDEC's
// video input everywhere (any_device).
hi_s32 CheckBuffer(Module m, const void* p, uint64_t bytes, const char* fn, const char* what,
                   bool any_device = false);

// A picture as the engines see it.
dvpp::Picture ToPicture(const hi_vpc_pic_info& p);

// A PNG's hi_img_info (hi_mpi_png_get_image_info, hi_mpi_dvpp_get_image_info with HI_PT_PNG).
hi_s32 PngInfo(const char* fn, const uint8_t* data, uint32_t len, hi_img_info* info);

// hi_mpi_*'s milli_sec: -1 blocks, 0 polls, > 0 waits so long. Waits on `cv` under `lock`
// until ready() holds; false on timeout.
template <typename Lock, typename Cv, typename Ready>
bool WaitFor(Lock& lock, Cv& cv, hi_s32 milli_sec, Ready ready) {
  if (milli_sec < 0) {
    cv.wait(lock, ready);
    return true;
  }
  return cv.wait_for(lock, std::chrono::milliseconds(milli_sec), ready);
}

}  // namespace oc::dvpp_mpi
