// Kernel launch on AscendCL streams (ACLRT_LAUNCH_KERNEL): the kernel runs in the Ascend C
// emulation on the stream's worker, with its arguments' device allocations as the global
// memory the checks know.
#include <cstdlib>

#include "acl/acl_kernel_launch.h"
#include "acl/acl_state.h"
#include "tikicpulib.h"

using oc::acl::Fail;
using oc::acl::State;

extern "C" aclError OcLaunchKernel(const char* kernelName, void* function, uint32_t blockDim,
                                   aclrtStream stream, void** args, uint32_t numArgs) {
  OC_ACL_REQUIRE_INIT();
  OC_ACL_CHECK_NULL(kernelName);
  OC_ACL_CHECK_NULL(function);
  if (numArgs && !args) return Fail(ACL_ERROR_INVALID_PARAM, "OcLaunchKernel: args is null");
  if (blockDim == 0 || blockDim > 65535)
    return Fail(ACL_ERROR_INVALID_PARAM, std::string("launch of ") + kernelName + ": blockDim " +
                                             std::to_string(blockDim) + " must be 1..65535");
  if (numArgs > 32)
    return Fail(ACL_ERROR_INVALID_PARAM,
                std::string("launch of ") + kernelName + ": at most 32 kernel arguments");
  // Every argument is device memory, as on the NPU; its allocation bounds the kernel.
  std::vector<std::pair<const void*, size_t>> regions;
  for (uint32_t i = 0; i < numArgs; ++i) {
    if (!args[i]) continue;
    const void* start = nullptr;
    size_t size = 0;
    if (!State::Get().DeviceAllocation(args[i], &start, &size))
      return Fail(ACL_ERROR_INVALID_PARAM,
                  std::string("launch of ") + kernelName + ": argument " + std::to_string(i) +
                      " is not device memory (aclrtMalloc it and copy the data in)");
    regions.emplace_back(start, size);
  }
  aclError e = ACL_SUCCESS;
  oc::Stream* worker = oc::acl::StreamOf(stream, &e);
  if (e != ACL_SUCCESS) return e;
  std::vector<uint8_t*> argv;
  for (uint32_t i = 0; i < numArgs; ++i) argv.push_back(static_cast<uint8_t*>(args[i]));
  auto task = [name = std::string(kernelName), function, blockDim, argv, regions]() -> oc::Status {
    for (auto [p, n] : regions) AscendC::detail::RegisterGlobal(p, n);
    AscendC::detail::LaunchOptions options;
    options.report = std::getenv("OCANN_ASCENDC_REPORT") != nullptr;
    auto result = AscendC::detail::Launch(
        name.c_str(), blockDim,
        [&] { AscendC::detail::CallKernel(function, argv.size(), argv.data()); }, options);
    for (auto [p, n] : regions) AscendC::detail::UnregisterGlobal(p);
    if (result.ok) return oc::Status::Ok();
    std::string msg = "kernel [" + name + "] failed:";
    for (const auto& err : result.errors) msg += "\n  " + err;
    return oc::Status(oc::StatusCode::kInternal, msg,
                      std::to_string(ACL_ERROR_RT_AICORE_EXCEPTION));
  };
  if (worker) {
    worker->Submit(task);
    return ACL_SUCCESS;
  }
  oc::Status s = task();
  if (!s.ok()) return Fail(ACL_ERROR_RT_AICORE_EXCEPTION, s.message());
  return ACL_SUCCESS;
}
