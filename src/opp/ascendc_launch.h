// One Ascend C kernel launch in the emulation, made the same way for the runtime's package
// kernels (custom_op.cpp) and AscendCL's ACLRT_LAUNCH_KERNEL (acl/acl_kernel.cpp): the
// arguments' global memory made known to the checks for the launch, the launch, and its
// failure as a Status.
#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "base/status.h"

namespace oc {

struct AscendcLaunch {
  std::string kernel;  // the kernel's name, as the report and the failure name it
  std::string owner;   // what the kernel belongs to ("custom op Add"): in the failure; may be empty
  uint32_t block_dim = 1;
  // The kernel: an extern "C" function whose parameters are the GM addresses in `args`, or
  // (when set) `call`, which unpacks `args` into the kernel's parameters itself.
  void* function = nullptr;
  std::function<void(void* const*)> call;
  std::vector<void*> args;
  // Global memory the kernel may access, known to the checks while it runs (null or empty
  // regions are left out).
  std::vector<std::pair<const void*, size_t>> globals;
  // The regions are aclrtMalloc memory, laid out as on the NPU (32-byte rounding plus 32
  // that kernels may read); otherwise only their exact sizes are the kernel's.
  bool globals_padded = false;
  std::optional<uint64_t> tiling_key;  // unset: ICPU_SET_TILING_KEY's
  std::string soc;                     // the chip to model; empty: the emulation's own
  bool report = true;                  // print the emulation's report, write <kernel>_cost.json
};

// Runs the kernel on block_dim blocks. A failing kernel is kInternal with the emulation's
// errors: "kernel [<kernel>] of <owner> failed:\n  <error>...".
Status RunAscendcKernel(const AscendcLaunch& launch);

}  // namespace oc
