// VPC channels: creation, destruction, tasks and colour matrices. A task runs when it is
// submitted (the CPU is the engine); its id stays until hi_mpi_vpc_get_process_result takes
// it, as the hardware's queue holds a task until its result is read.
#include "dvpp_mpi/mpi_vpc_chn.h"

#include <array>
#include <cstring>
#include <memory>
#include <unordered_set>

namespace oc::dvpp_mpi {
namespace {

// Uncollected tasks a channel holds before further calls get BUF_FULL (the hardware's queue
// is bounded too; its depth is not public).
constexpr size_t kMaxPendingTasks = 4096;

struct VpcChannel {
  std::unordered_set<uint32_t> tasks;  // done, not yet collected
  uint32_t next_task = 1;
  int32_t csc_matrix = HI_CSC_MATRIX_BT601_WIDE;
};

std::mutex g_mutex;
std::array<std::unique_ptr<VpcChannel>, VPC_MAX_CHN_NUM>& Channels() {
  static auto* table = new std::array<std::unique_ptr<VpcChannel>, VPC_MAX_CHN_NUM>();
  return *table;
}

int32_t ChannelLimit() { return CurrentChip() == dvpp::Chip::k310B ? 128 : 256; }

hi_s32 BadId(const char* fn, hi_vpc_chn chn) {
  return Fail(Module::kVpc, HI_ERR_INVALID_CHN_ID,
              std::string(fn) + ": channel " + std::to_string(chn) + " is not 0 to " +
                  std::to_string(ChannelLimit() - 1) + " (" + dvpp::ChipName(CurrentChip()) +
                  "'s VPC channels)");
}

hi_s32 Create(const char* fn, hi_vpc_chn chn, const hi_vpc_chn_attr* attr) {
  if (!attr) return Fail(Module::kVpc, HI_ERR_NULL_PTR, std::string(fn) + ": attr is null");
  if (attr->pic_width > 16384 || attr->pic_height > 16384)
    return Fail(Module::kVpc, HI_ERR_ILLEGAL_PARAM,
                std::string(fn) + ": the largest picture " + std::to_string(attr->pic_width) + "x" +
                    std::to_string(attr->pic_height) + " is over 16384x16384");
  Channels()[static_cast<size_t>(chn)] = std::make_unique<VpcChannel>();
  return HI_SUCCESS;
}

VpcChannel* Find(hi_vpc_chn chn) {
  if (chn < 0 || chn >= ChannelLimit()) return nullptr;
  return Channels()[static_cast<size_t>(chn)].get();
}

}  // namespace

hi_s32 CheckVpcChannel(const char* fn, hi_vpc_chn chn) {
  if (hi_s32 e = RequireSystem(Module::kVpc, fn)) return e;
  if (chn < 0 || chn >= ChannelLimit()) return BadId(fn, chn);
  std::lock_guard<std::mutex> lock(g_mutex);
  if (!Find(chn))
    return Fail(Module::kVpc, HI_ERR_UNEXIST,
                std::string(fn) + ": channel " + std::to_string(chn) + " is not created");
  return HI_SUCCESS;
}

hi_s32 RecordVpcTask(const char* fn, hi_vpc_chn chn, hi_u32* task_id) {
  std::lock_guard<std::mutex> lock(g_mutex);
  VpcChannel* c = Find(chn);
  if (!c)  // destroyed while the task ran
    return Fail(
        Module::kVpc, HI_ERR_UNEXIST,
        std::string(fn) + ": channel " + std::to_string(chn) + " was destroyed during the call");
  if (c->tasks.size() >= kMaxPendingTasks)
    return Fail(Module::kVpc, HI_ERR_BUF_FULL,
                std::string(fn) + ": channel " + std::to_string(chn) + " holds " +
                    std::to_string(kMaxPendingTasks) +
                    " tasks whose results were never read (hi_mpi_vpc_get_process_result)");
  const uint32_t id = c->next_task++;
  if (c->next_task == 0) c->next_task = 1;
  c->tasks.insert(id);
  *task_id = id;
  return HI_SUCCESS;
}

hi_s32 SetVpcCscMatrix(hi_mod_id mode, hi_s32 chn, hi_csc_matrix matrix,
                       const hi_csc_coefficient* coefficient) {
  const char* fn = "hi_mpi_sys_set_chn_csc_matrix";
  int32_t mod = 0, m = 0;
  std::memcpy(&mod, &mode, sizeof mod);
  std::memcpy(&m, &matrix, sizeof m);
  if (mod != HI_ID_VPC)
    return Fail(Module::kSys, HI_ERR_NOT_SUPPORT,
                std::string(fn) + ": module " + std::to_string(mod) +
                    ": OpenCANN sets colour matrices of VPC channels (HI_ID_VPC) only");
  if (hi_s32 e = CheckVpcChannel(fn, chn)) return e;
  if (m != HI_CSC_MATRIX_BT601_WIDE) {
    (void)coefficient;
    return Fail(Module::kSys, HI_ERR_NOT_SUPPORT,
                std::string(fn) + ": matrix " + std::to_string(m) +
                    ": OpenCANN's VPC converts with BT.601 full range (HI_CSC_MATRIX_BT601_WIDE) "
                    "only; other matrices are not supported");
  }
  std::lock_guard<std::mutex> lock(g_mutex);
  if (VpcChannel* c = Find(chn)) c->csc_matrix = m;
  return HI_SUCCESS;
}

hi_s32 GetVpcCscMatrix(hi_mod_id mode, hi_s32 chn, hi_csc_matrix* matrix,
                       hi_csc_coefficient* coefficient) {
  const char* fn = "hi_mpi_sys_get_chn_csc_matrix";
  int32_t mod = 0;
  std::memcpy(&mod, &mode, sizeof mod);
  if (!matrix || !coefficient)
    return Fail(Module::kSys, HI_ERR_NULL_PTR, std::string(fn) + ": a pointer is null");
  if (mod != HI_ID_VPC)
    return Fail(Module::kSys, HI_ERR_NOT_SUPPORT,
                std::string(fn) + ": module " + std::to_string(mod) +
                    ": OpenCANN keeps colour matrices of VPC channels (HI_ID_VPC) only");
  if (hi_s32 e = CheckVpcChannel(fn, chn)) return e;
  // BT.601 full range: R = Y + 1.402 Cr, G = Y - 0.344136 Cb - 0.714136 Cr, B = Y + 1.772 Cb
  // (Cb, Cr centred on 128) and its inverse.
  hi_coefficient& to_rgb = coefficient->yuv_to_rgb_coefficient;
  to_rgb = {1, 0, 1.402, 1, -0.344136, -0.714136, 1, 1.772, 0, 0, -128, -128};
  hi_coefficient& to_yuv = coefficient->rgb_to_yuv_coefficient;
  to_yuv = {0.299, 0.587, 0.114, -0.168736, -0.331264, 0.5, 0.5, -0.418688, -0.081312, 0, 128, 128};
  *matrix = HI_CSC_MATRIX_BT601_WIDE;
  return HI_SUCCESS;
}

}  // namespace oc::dvpp_mpi

using oc::dvpp_mpi::Fail;
using oc::dvpp_mpi::Module;

extern "C" {

hi_s32 hi_mpi_vpc_create_chn(hi_vpc_chn chn, const hi_vpc_chn_attr* attr) {
  const char* fn = "hi_mpi_vpc_create_chn";
  if (hi_s32 e = oc::dvpp_mpi::RequireSystem(Module::kVpc, fn)) return e;
  if (chn < 0 || chn >= oc::dvpp_mpi::ChannelLimit()) return oc::dvpp_mpi::BadId(fn, chn);
  std::lock_guard<std::mutex> lock(oc::dvpp_mpi::g_mutex);
  if (oc::dvpp_mpi::Find(chn))
    return Fail(Module::kVpc, HI_ERR_EXIST,
                std::string(fn) + ": channel " + std::to_string(chn) + " exists already");
  return oc::dvpp_mpi::Create(fn, chn, attr);
}

hi_s32 hi_mpi_vpc_sys_create_chn(hi_vpc_chn* chnl, const hi_vpc_chn_attr* attr) {
  const char* fn = "hi_mpi_vpc_sys_create_chn";
  if (hi_s32 e = oc::dvpp_mpi::RequireSystem(Module::kVpc, fn)) return e;
  if (!chnl) return Fail(Module::kVpc, HI_ERR_NULL_PTR, std::string(fn) + ": chnl is null");
  std::lock_guard<std::mutex> lock(oc::dvpp_mpi::g_mutex);
  // The system picks the id: the highest free one, away from ids applications choose.
  for (hi_vpc_chn c = oc::dvpp_mpi::ChannelLimit() - 1; c >= 0; --c) {
    if (oc::dvpp_mpi::Find(c)) continue;
    if (hi_s32 e = oc::dvpp_mpi::Create(fn, c, attr)) return e;
    *chnl = c;
    return HI_SUCCESS;
  }
  return Fail(Module::kVpc, HI_ERR_NO_BUF,
              std::string(fn) + ": all " + std::to_string(oc::dvpp_mpi::ChannelLimit()) +
                  " VPC channels are in use");
}

hi_s32 hi_mpi_vpc_destroy_chn(hi_vpc_chn chn) {
  const char* fn = "hi_mpi_vpc_destroy_chn";
  if (hi_s32 e = oc::dvpp_mpi::CheckVpcChannel(fn, chn)) return e;
  std::lock_guard<std::mutex> lock(oc::dvpp_mpi::g_mutex);
  oc::dvpp_mpi::Channels()[static_cast<size_t>(chn)].reset();
  return HI_SUCCESS;
}

hi_s32 hi_mpi_vpc_get_process_result(hi_vpc_chn chn, hi_u32 task_id, hi_s32 milli_sec) {
  const char* fn = "hi_mpi_vpc_get_process_result";
  (void)milli_sec;  // every task is done when its call returns
  if (hi_s32 e = oc::dvpp_mpi::CheckVpcChannel(fn, chn)) return e;
  std::lock_guard<std::mutex> lock(oc::dvpp_mpi::g_mutex);
  oc::dvpp_mpi::VpcChannel* c = oc::dvpp_mpi::Find(chn);
  if (!c || c->tasks.erase(task_id) == 0)
    return Fail(Module::kVpc, HI_ERR_ILLEGAL_PARAM,
                std::string(fn) + ": channel " + std::to_string(chn) + " has no task " +
                    std::to_string(task_id) + " (never submitted, or its result was read)");
  return HI_SUCCESS;
}

}  // extern "C"
