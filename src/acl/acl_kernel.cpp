// Kernel launch on AscendCL streams (ACLRT_LAUNCH_KERNEL): the kernel runs in the Ascend C
// emulation on the stream's worker, with its arguments' device allocations as the global
// memory the checks know.
#include <cstdio>
#include <functional>

#include "acl/acl_kernel_launch.h"
#include "acl/acl_state.h"
#include "base/config.h"
#include "tikicpulib.h"

using oc::acl::Fail;
using oc::acl::State;

namespace {

// Refuses a launch: the reason goes to the recent-error message and to stderr.
aclError Refuse(aclError code, const std::string& message) {
  std::fprintf(stderr, "[ERROR] %s\n", message.c_str());
  return Fail(code, message);
}

aclError Launch(const char* kernelName, std::function<void(void* const*)> call, uint32_t blockDim,
                aclrtStream stream, void** args, const size_t* sizes, uint32_t numArgs) {
  OC_ACL_REQUIRE_INIT();
  OC_ACL_CHECK_NULL(kernelName);
  const std::string what = std::string("ACLRT_LAUNCH_KERNEL(") + kernelName + ")";
  if (numArgs && !args) return Refuse(ACL_ERROR_INVALID_PARAM, what + ": args is null");
  if (blockDim == 0 || blockDim > 65535)
    return Refuse(ACL_ERROR_INVALID_PARAM,
                  what + ": blockDim " + std::to_string(blockDim) + " must be 1..65535");
  if (numArgs > 32) return Refuse(ACL_ERROR_INVALID_PARAM, what + ": at most 32 kernel arguments");
  // Device pointers are checked against their allocations (which bound the kernel's
  // accesses); values are copied now, as the NPU's launch copies them into its arguments.
  std::vector<std::pair<const void*, size_t>> regions;
  std::vector<std::vector<uint8_t>> values(numArgs);
  for (uint32_t i = 0; i < numArgs; ++i) {
    if (sizes && sizes[i]) {
      if (!args[i])
        return Refuse(ACL_ERROR_INVALID_PARAM,
                      what + ": argument " + std::to_string(i) + " (by value) is null");
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
  oc::Queue* worker = oc::acl::StreamOf(stream, &e);
  if (e != ACL_SUCCESS) return e;
  std::vector<void*> pointers(args, args + numArgs);
  auto task = [name = std::string(kernelName), what, call, blockDim, pointers, values,
               regions]() -> oc::Status {
    std::vector<void*> argv = pointers;
    for (size_t i = 0; i < argv.size(); ++i)
      if (!values[i].empty()) argv[i] = const_cast<uint8_t*>(values[i].data());
    for (auto [p, n] : regions) AscendC::detail::RegisterGlobal(p, n);
    AscendC::detail::LaunchOptions options;
    options.report = oc::GlobalConfig().ascendc_report;
    auto result = AscendC::detail::Launch(
        name.c_str(), blockDim, [&] { call(argv.data()); }, options);
    for (auto [p, n] : regions) AscendC::detail::UnregisterGlobal(p);
    if (result.ok) return oc::Status::Ok();
    std::string msg = "kernel [" + name + "] failed:";
    for (const auto& err : result.errors) msg += "\n  " + err;
    if (!options.report) std::fprintf(stderr, "[ERROR] %s: %s\n", what.c_str(), msg.c_str());
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

}  // namespace

extern "C" aclError OcLaunchKernel(const char* kernelName, void* function, uint32_t blockDim,
                                   aclrtStream stream, void** args, uint32_t numArgs) {
  OC_ACL_CHECK_NULL(function);
  const size_t n = numArgs;
  return Launch(
      kernelName,
      [function, n](void* const* a) {
        std::vector<uint8_t*> argv(n);
        for (size_t i = 0; i < n; ++i) argv[i] = static_cast<uint8_t*>(a[i]);
        AscendC::detail::CallKernel(function, n, argv.data());
      },
      blockDim, stream, args, nullptr, numArgs);
}

extern "C" aclError OcLaunchKernelArgs(const char* kernelName, OcKernelCall call, uint32_t blockDim,
                                       aclrtStream stream, void** args, const size_t* argSizes,
                                       uint32_t numArgs) {
  OC_ACL_CHECK_NULL(call);
  return Launch(kernelName, call, blockDim, stream, args, argSizes, numArgs);
}
