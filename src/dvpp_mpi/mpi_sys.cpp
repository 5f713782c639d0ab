// hi_mpi_sys_* and hi_mpi_dvpp_*: the system state, DVPP memory, the alignment rules per
// module, colour matrices and epoll over channel descriptors (Linux epoll: the descriptors
// are eventfds the channels signal when they hold output).
#include <sys/epoll.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cerrno>
#include <cstring>
#include <vector>

#include "acl/acl.h"
#include "acl/ops/acl_dvpp.h"
#include "dvpp/jpeg.h"
#include "dvpp_mpi/mpi_core.h"
#include "dvpp_mpi/mpi_vpc_chn.h"

namespace oc::dvpp_mpi {
namespace {

std::mutex g_sys_mutex;
int g_sys_refs = 0;  // hi_mpi_sys_init calls not yet matched by hi_mpi_sys_exit

struct Alignment {
  uint32_t width = 1, height = 1;
};

// The strides each module reads and writes with on the current chip (docs/dvpp.md).
Alignment ModuleAlignment(int32_t module, dvpp::Chip chip, bool* known) {
  *known = true;
  switch (module) {
    case HI_MOD_VPC:
      return {16, 2};
    case HI_MOD_VDEC:
    case HI_MOD_VENC:
      return {16, 2};
    case HI_MOD_JPEGD:
      return {dvpp::JpegdWidthAlign(chip), 16};
    case HI_MOD_JPEGE:
      return {16, 16};
    case HI_MOD_PNGD:
      return {128, 16};
    default:
      *known = false;
      return {};
  }
}

}  // namespace

bool SystemReady() {
  std::lock_guard<std::mutex> lock(g_sys_mutex);
  return g_sys_refs > 0;
}

}  // namespace oc::dvpp_mpi

using oc::dvpp_mpi::Fail;
using oc::dvpp_mpi::Module;

extern "C" {

hi_s32 hi_mpi_sys_init(hi_void) {
  const oc::dvpp::Chip chip = oc::dvpp_mpi::CurrentChip();
  if (chip == oc::dvpp::Chip::k310 || chip == oc::dvpp::Chip::k910)
    return Fail(Module::kSys, HI_ERR_NOT_SUPPORT,
                std::string("hi_mpi_sys_init: ") + oc::dvpp::ChipName(chip) +
                    " has no hi_mpi media API (hi_dvpp.h is for 310P, 910B and 310B); use "
                    "acl/ops/acl_dvpp.h, or set OCANN_SOC to one of those chips");
  aclrtContext context = nullptr;
  if (aclrtGetCurrentContext(&context) != ACL_SUCCESS || !context)
    return Fail(Module::kSys, HI_ERR_NOT_READY,
                "hi_mpi_sys_init: this thread has no device context (call aclInit and "
                "aclrtSetDevice first)");
  std::lock_guard<std::mutex> lock(oc::dvpp_mpi::g_sys_mutex);
  ++oc::dvpp_mpi::g_sys_refs;
  return HI_SUCCESS;
}

hi_s32 hi_mpi_sys_full_init(hi_void) { return hi_mpi_sys_init(); }

hi_s32 hi_mpi_sys_exit(hi_void) {
  std::lock_guard<std::mutex> lock(oc::dvpp_mpi::g_sys_mutex);
  if (oc::dvpp_mpi::g_sys_refs == 0)
    return Fail(Module::kSys, HI_ERR_NOT_PERM,
                "hi_mpi_sys_exit: the media system is not initialised (hi_mpi_sys_init)");
  --oc::dvpp_mpi::g_sys_refs;
  return HI_SUCCESS;
}

hi_s32 hi_mpi_dvpp_malloc(hi_u32 dev_id, hi_void** dev_ptr, hi_u64 size) {
  if (!dev_ptr) return Fail(Module::kSys, HI_ERR_NULL_PTR, "hi_mpi_dvpp_malloc: dev_ptr is null");
  uint32_t count = 0;
  if (aclrtGetDeviceCount(&count) != ACL_SUCCESS || dev_id >= count)
    return Fail(Module::kSys, HI_ERR_ILLEGAL_PARAM,
                "hi_mpi_dvpp_malloc: device " + std::to_string(dev_id) + " does not exist (" +
                    std::to_string(count) + " emulated)");
  if (size == 0 || size > SIZE_MAX / 2)
    return Fail(Module::kSys, HI_ERR_ILLEGAL_PARAM,
                "hi_mpi_dvpp_malloc: size " + std::to_string(size) + " cannot be allocated");
  const aclError e = acldvppMalloc(dev_ptr, static_cast<size_t>(size));
  if (e == ACL_SUCCESS) return HI_SUCCESS;
  return Fail(Module::kSys, e == ACL_ERROR_BAD_ALLOC ? HI_ERR_NO_MEM : HI_ERR_ILLEGAL_PARAM,
              "hi_mpi_dvpp_malloc: " + std::to_string(size) + " bytes: " + aclGetRecentErrMsg());
}

hi_s32 hi_mpi_dvpp_free(hi_void* dev_ptr) {
  if (!dev_ptr) return Fail(Module::kSys, HI_ERR_NULL_PTR, "hi_mpi_dvpp_free: dev_ptr is null");
  if (acldvppFree(dev_ptr) != ACL_SUCCESS)
    return Fail(Module::kSys, HI_ERR_ILLEGAL_PARAM,
                "hi_mpi_dvpp_free: the pointer was not returned by hi_mpi_dvpp_malloc (or was "
                "freed already)");
  return HI_SUCCESS;
}

hi_s32 hi_mpi_dvpp_get_version(hi_s32* major_version, hi_s32* minor_version,
                               hi_s32* patch_version) {
  if (!major_version || !minor_version || !patch_version)
    return Fail(Module::kSys, HI_ERR_NULL_PTR, "hi_mpi_dvpp_get_version: a pointer is null");
  // The interface version OpenCANN's hi_dvpp.h follows (CANN 7/8's; unconfirmed numbering).
  *major_version = 1;
  *minor_version = 0;
  *patch_version = 0;
  return HI_SUCCESS;
}

hi_s32 hi_mpi_sys_get_image_align_info(const hi_module_type mod_type[], const hi_u32 mod_num,
                                       const hi_img_base_info* img_base_info,
                                       hi_img_align_info* img_align_info) {
  const char* fn = "hi_mpi_sys_get_image_align_info";
  if (!mod_type || !img_base_info || !img_align_info)
    return Fail(Module::kSys, HI_ERR_NULL_PTR, std::string(fn) + ": a pointer is null");
  if (mod_num == 0 || mod_num > 7)
    return Fail(Module::kSys, HI_ERR_ILLEGAL_PARAM,
                std::string(fn) + ": mod_num " + std::to_string(mod_num) + " is not 1 to 7");
  const oc::dvpp::Chip chip = oc::dvpp_mpi::CurrentChip();
  uint32_t wa = 1, ha = 1;
  for (hi_u32 i = 0; i < mod_num; ++i) {
    int32_t m = 0;
    std::memcpy(&m, &mod_type[i], sizeof m);
    std::vector<int32_t> mods = {m};
    if (m == HI_MOD_ALL) mods = {HI_MOD_VPC, HI_MOD_VENC, HI_MOD_VDEC, HI_MOD_JPEGE, HI_MOD_JPEGD};
    for (int32_t one : mods) {
      bool known = false;
      const auto a = oc::dvpp_mpi::ModuleAlignment(one, chip, &known);
      if (!known)
        return Fail(Module::kSys, HI_ERR_ILLEGAL_PARAM,
                    std::string(fn) + ": module " + std::to_string(one) + " is not one of DVPP's");
      wa = std::max(wa, a.width);
      ha = std::max(ha, a.height);
    }
  }
  int32_t format = 0;
  std::memcpy(&format, &img_base_info->pixel_format, sizeof format);
  const uint32_t bpp = oc::dvpp::BytesPerPixel(format);
  const uint32_t w = img_base_info->width, h = img_base_info->height;
  if (bpp == 0)
    return Fail(Module::kSys, HI_ERR_NOT_SUPPORT,
                std::string(fn) + ": pixel format " + std::to_string(format) +
                    " is not one OpenCANN lays out");
  if (w == 0 || h == 0 || w > 16384 || h > 16384)
    return Fail(Module::kSys, HI_ERR_ILLEGAL_PARAM,
                std::string(fn) + ": " + std::to_string(w) + "x" + std::to_string(h) +
                    " is not 1x1 to 16384x16384");
  img_align_info->width_stride = bpp * oc::dvpp::AlignUp(w, wa);
  img_align_info->height_stride = oc::dvpp::AlignUp(h, ha);
  img_align_info->img_buf_size =
      oc::dvpp::PictureBytes(format, img_align_info->width_stride, img_align_info->height_stride);
  return HI_SUCCESS;
}

hi_s32 hi_mpi_sys_set_chn_csc_matrix(hi_mod_id mode, hi_s32 chn, hi_csc_matrix csc_matrix,
                                     hi_csc_coefficient* csc_coefficient) {
  return oc::dvpp_mpi::SetVpcCscMatrix(mode, chn, csc_matrix, csc_coefficient);
}

hi_s32 hi_mpi_sys_get_chn_csc_matrix(hi_mod_id mode, hi_s32 chn, hi_csc_matrix* csc_matrix,
                                     hi_csc_coefficient* csc_coefficient) {
  return oc::dvpp_mpi::GetVpcCscMatrix(mode, chn, csc_matrix, csc_coefficient);
}

hi_s32 hi_mpi_sys_create_epoll(hi_s32 size, hi_s32* epoll_fd) {
  if (!epoll_fd)
    return Fail(Module::kSys, HI_ERR_NULL_PTR, "hi_mpi_sys_create_epoll: epoll_fd is null");
  if (size <= 0)
    return Fail(Module::kSys, HI_ERR_ILLEGAL_PARAM,
                "hi_mpi_sys_create_epoll: size " + std::to_string(size) + " is not positive");
  const int fd = epoll_create1(EPOLL_CLOEXEC);
  if (fd < 0)
    return Fail(Module::kSys, HI_ERR_SYS_ERROR,
                std::string("hi_mpi_sys_create_epoll: ") + std::strerror(errno));
  *epoll_fd = fd;
  return HI_SUCCESS;
}

hi_s32 hi_mpi_sys_ctl_epoll(hi_s32 epoll_fd, hi_s32 operation, hi_s32 fd,
                            hi_dvpp_epoll_event* event) {
  const char* fn = "hi_mpi_sys_ctl_epoll";
  int op = 0;
  if (operation == HI_DVPP_EPOLL_CTL_ADD)
    op = EPOLL_CTL_ADD;
  else if (operation == HI_DVPP_EPOLL_CTL_MOD)
    op = EPOLL_CTL_MOD;
  else if (operation == HI_DVPP_EPOLL_CTL_DEL)
    op = EPOLL_CTL_DEL;
  else
    return Fail(Module::kSys, HI_ERR_ILLEGAL_PARAM,
                std::string(fn) + ": operation " + std::to_string(operation) +
                    " is not ADD (1), MOD (2) or DEL (3)");
  if (!event && op != EPOLL_CTL_DEL)
    return Fail(Module::kSys, HI_ERR_NULL_PTR, std::string(fn) + ": event is null");
  epoll_event ev{};
  if (event) {
    if (event->events & HI_DVPP_EPOLL_IN) ev.events |= EPOLLIN;
    if (event->events & HI_DVPP_EPOLL_OUT) ev.events |= EPOLLOUT;
    if (event->events & HI_DVPP_EPOLL_ET) ev.events |= EPOLLET;
    ev.data.ptr = event->data;
  }
  if (epoll_ctl(epoll_fd, op, fd, &ev) != 0)
    return Fail(Module::kSys,
                errno == EBADF || errno == ENOENT || errno == EEXIST ? HI_ERR_ILLEGAL_PARAM
                                                                     : HI_ERR_SYS_ERROR,
                std::string(fn) + ": epoll " + std::to_string(epoll_fd) + ", descriptor " +
                    std::to_string(fd) + ": " + std::strerror(errno));
  return HI_SUCCESS;
}

hi_s32 hi_mpi_sys_wait_epoll(hi_s32 epoll_fd, hi_dvpp_epoll_event* events, hi_s32 max_events,
                             hi_s32 timeout, hi_s32* event_num) {
  const char* fn = "hi_mpi_sys_wait_epoll";
  if (!events || !event_num)
    return Fail(Module::kSys, HI_ERR_NULL_PTR, std::string(fn) + ": a pointer is null");
  if (max_events <= 0 || max_events > 1024)
    return Fail(
        Module::kSys, HI_ERR_ILLEGAL_PARAM,
        std::string(fn) + ": max_events " + std::to_string(max_events) + " is not 1 to 1024");
  std::vector<epoll_event> got(static_cast<size_t>(max_events));
  int n = 0;
  do {
    n = epoll_wait(epoll_fd, got.data(), max_events, timeout < 0 ? -1 : timeout);
  } while (n < 0 && errno == EINTR);
  if (n < 0)
    return Fail(Module::kSys,
                errno == EBADF || errno == EINVAL ? HI_ERR_ILLEGAL_PARAM : HI_ERR_SYS_ERROR,
                std::string(fn) + ": " + std::strerror(errno));
  for (int i = 0; i < n; ++i) {
    events[i].events = 0;
    if (got[i].events & EPOLLIN) events[i].events |= HI_DVPP_EPOLL_IN;
    if (got[i].events & EPOLLOUT) events[i].events |= HI_DVPP_EPOLL_OUT;
    events[i].data = got[i].data.ptr;
  }
  *event_num = n;
  return HI_SUCCESS;
}

hi_s32 hi_mpi_sys_close_epoll(hi_s32 epoll_fd) {
  if (epoll_fd < 0 || close(epoll_fd) != 0)
    return Fail(
        Module::kSys, HI_ERR_ILLEGAL_PARAM,
        "hi_mpi_sys_close_epoll: " + std::to_string(epoll_fd) + " is not an open epoll descriptor");
  return HI_SUCCESS;
}

}  // extern "C"
