// VPC channels of the media API: the table of channels (ids below the chip's limit), the
// tasks each has run and not yet collected (hi_mpi_vpc_get_process_result), and the colour
// matrix hi_mpi_sys_set_chn_csc_matrix chose for it.
#pragma once

#include "dvpp_mpi/mpi_core.h"

namespace oc::dvpp_mpi {

hi_s32 SetVpcCscMatrix(hi_mod_id mode, hi_s32 chn, hi_csc_matrix matrix,
                       const hi_csc_coefficient* coefficient);
hi_s32 GetVpcCscMatrix(hi_mod_id mode, hi_s32 chn, hi_csc_matrix* matrix,
                       hi_csc_coefficient* coefficient);

// Runs one VPC call on channel chn: the system and the channel checked, `work` run (it
// returns HI_SUCCESS or a recorded error), and on success a task id handed out for
// hi_mpi_vpc_get_process_result.
template <typename Work>
hi_s32 RunVpcTask(const char* fn, hi_vpc_chn chn, hi_u32* task_id, Work work);

hi_s32 CheckVpcChannel(const char* fn, hi_vpc_chn chn);
hi_s32 RecordVpcTask(const char* fn, hi_vpc_chn chn, hi_u32* task_id);

template <typename Work>
hi_s32 RunVpcTask(const char* fn, hi_vpc_chn chn, hi_u32* task_id, Work work) {
  if (hi_s32 e = CheckVpcChannel(fn, chn)) return e;
  if (!task_id) return Fail(Module::kVpc, HI_ERR_NULL_PTR, std::string(fn) + ": task_id is null");
  if (hi_s32 e = work()) return e;
  return RecordVpcTask(fn, chn, task_id);
}

}  // namespace oc::dvpp_mpi
