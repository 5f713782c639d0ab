// Kernel launch on AscendCL streams (ACLRT_LAUNCH_KERNEL): the kernel runs in the Ascend C
// emulation on the stream's worker, with its arguments' device allocations as the global
// memory the checks know.
#include <cstdio>
#include <utility>

#include "acl/acl_kernel_launch.h"
#include "acl/acl_state.h"
#include "base/config.h"
#include "opp/ascendc_launch.h"

using oc::acl::Fail;
using oc::acl::State;

namespace {

// The most bytes one by-value kernel argument may have (OpenCANN's bound: structs of tiling
// data are a few KiB).
constexpr size_t kMaxByValueBytes = 64 << 10;

// Refuses a launch: the reason goes to the recent-error message and to stderr.
aclError Refuse(aclError code, const std::string& message) {
  std::fprintf(stderr, "[ERROR] %s\n", message.c_str());
  return Fail(code, message);
}

// The kernel is `function` (GM addresses only) or `call` (which unpacks the arguments).
aclError Launch(const char* kernelName, void* function, OcKernelCall call, uint32_t blockDim,
                aclrtStream stream, void** args, const size_t* sizes, uint32_t numArgs) {
  OC_ACL_REQUIRE_CONTEXT();
  OC_ACL_CHECK_NULL(kernelName);
  const std::string what = std::string("ACLRT_LAUNCH_KERNEL(") + kernelName + ")";
  if (numArgs && !args) return Refuse(ACL_ERROR_INVALID_PARAM, what + ": args is null");
  if (blockDim == 0 || blockDim > 65535)
    return Refuse(ACL_ERROR_INVALID_PARAM,
                  what + ": blockDim " + std::to_string(blockDim) + " must be 1..65535");
  if (numArgs > 32) return Refuse(ACL_ERROR_INVALID_PARAM, what + ": at most 32 kernel arguments");
  // The application's arrays are read without faulting: a stale or made-up one is an error.
  if (numArgs && (!oc::HostRangeReadable(args, numArgs * sizeof(void*)) ||
                  (sizes && !oc::HostRangeReadable(sizes, numArgs * sizeof(size_t)))))
    return Refuse(ACL_ERROR_INVALID_PARAM, what + ": args or argSizes is not readable memory");
  // Device pointers are checked against their allocations (which bound the kernel's
  // accesses); values are copied now, as the NPU's launch copies them into its arguments.
  std::vector<std::pair<const void*, size_t>> regions;
  std::vector<std::vector<uint8_t>> values(numArgs);
  for (uint32_t i = 0; i < numArgs; ++i) {
    if (sizes && sizes[i]) {
      if (!args[i])
        return Refuse(ACL_ERROR_INVALID_PARAM,
                      what + ": argument " + std::to_string(i) + " (by value) is null");
      // A kernel's by-value arguments are small (the NPU copies them into its argument area);
      // a size claim is checked before anything is copied.
      if (sizes[i] > kMaxByValueBytes || !oc::HostRangeReadable(args[i], sizes[i]))
        return Refuse(ACL_ERROR_INVALID_PARAM,
                      what + ": argument " + std::to_string(i) + " (by value, " +
                          std::to_string(sizes[i]) + " bytes) is over " +
                          std::to_string(kMaxByValueBytes) + " bytes or not readable memory");
      const auto* p = static_cast<const uint8_t*>(args[i]);
      values[i].assign(p, p + sizes[i]);
      continue;
    }
    if (!args[i]) continue;
    const void* start = nullptr;
    size_t size = 0;
    if (!State::Get().DeviceAllocation(args[i], &start, &size))
      return Refuse(ACL_ERROR_INVALID_PARAM,
                    what + ": argument " + std::to_string(i) +
                        " is a pointer to memory that is not device memory: aclrtMalloc it "
                        "and copy the data in (a struct can be passed by value instead)");
    regions.emplace_back(start, size);
  }
  aclError e = ACL_SUCCESS;
  std::shared_ptr<oc::Queue> worker = oc::acl::StreamOf(stream, &e);
  if (e != ACL_SUCCESS) return e;
  oc::AscendcLaunch launch;
  launch.kernel = kernelName;
  launch.block_dim = blockDim;
  launch.function = function;
  if (call) launch.call = call;
  launch.args.assign(args, args + numArgs);
  launch.globals = std::move(regions);
  launch.globals_padded = true;  // aclrtMalloc memory (Backend::AllocateDeviceMemory)
  launch.report = oc::GlobalConfig().ascendc_report;
  auto task = [launch, what, values]() -> oc::Status {
    // The kernel's device memory stays allocated through the run (aclrtFree waits for it).
    std::vector<oc::acl::PinnedAllocation> held;
    for (const auto& [start, size] : launch.globals) {
      oc::acl::PinnedAllocation pin(start);
      if (!pin.device() || pin.start() != start)
        return oc::InvalidArgument(what + ": an argument's device memory was freed before the run");
      held.push_back(std::move(pin));
    }
    oc::AscendcLaunch run = launch;
    for (size_t i = 0; i < run.args.size(); ++i)
      if (!values[i].empty()) run.args[i] = const_cast<uint8_t*>(values[i].data());
    oc::Status s = oc::RunAscendcKernel(run);
    if (s.ok()) return s;
    if (!run.report) std::fprintf(stderr, "[ERROR] %s: %s\n", what.c_str(), s.message().c_str());
    return oc::Status(s.code(), s.message(), std::to_string(ACL_ERROR_RT_AICORE_EXCEPTION));
  };
  if (worker) {
    worker->Submit(task);
    return ACL_SUCCESS;
  }
  oc::Status s = task();
  if (!s.ok()) return Fail(ACL_ERROR_RT_AICORE_EXCEPTION, s.message());
  return ACL_SUCCESS;
}

}  // namespace

extern "C" aclError OcLaunchKernel(const char* kernelName, void* function, uint32_t blockDim,
                                   aclrtStream stream, void** args, uint32_t numArgs) {
  OC_ACL_CHECK_NULL(function);
  return Launch(kernelName, function, nullptr, blockDim, stream, args, nullptr, numArgs);
}

extern "C" aclError OcLaunchKernelArgs(const char* kernelName, OcKernelCall call, uint32_t blockDim,
                                       aclrtStream stream, void** args, const size_t* argSizes,
                                       uint32_t numArgs) {
  OC_ACL_CHECK_NULL(call);
  return Launch(kernelName, nullptr, call, blockDim, stream, args, argSizes, numArgs);
}
