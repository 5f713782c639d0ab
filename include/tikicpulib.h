// Host side of Ascend C CPU debugging: global memory and the block launcher.
#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "kernel_operator.h"

namespace AscendC {

// Global memory for kernel arguments; accesses outside it are reported.
void* GmAlloc(size_t size);
void GmFree(void* ptr);
void SetKernelMode(KernelMode mode);

namespace detail {

struct LaunchOptions {
  std::optional<uint64_t> tiling_key;  // default: ICPU_SET_TILING_KEY's
  std::optional<KernelMode> mode;      // default: SetKernelMode's
  const char* soc = nullptr;  // the chip to model (a model's --soc_version); null: SetSoc's
  bool report = true;         // print the report and write <kernel>_cost.json
};
#if !defined(_GLIBCXX_USE_CXX11_ABI) || _GLIBCXX_USE_CXX11_ABI
// What a launch found: errors and warnings (as printed) and the cost estimate. OpenCANN's
// own runtime calls this; it carries std::strings, so it is hidden under the old string ABI.
struct LaunchResult {
  bool ok = false;
  std::vector<std::string> errors, warnings;
  double cycles[6] = {}, us[6] = {};      // busy per pipe: MTE2, MTE3, MTE1, Vector, Cube, Scalar
  double total_cycles = 0, total_us = 0;  // the slowest block, pipes overlapping (x waves)
  std::string bound;                      // the pipe with the most time on the critical path
};
LaunchResult Launch(const char* name, uint32_t block_dim, const std::function<void()>& body,
                    const LaunchOptions& options);
#endif

// Runs `body` once per block, each on its own thread with its block index; reports
// faults, warnings and the cost estimate. Returns true when no block failed.
bool RunKernel(const char* name, uint32_t block_dim, const std::function<void()>& body);
void SetTilingKey(uint64_t key);
// Forgets SetKernelMode: launches go back to the kernel's declared type or the default.
void ClearKernelMode();
// Calls an extern "C" kernel whose parameters are `num_args` GM addresses (at most 32).
// False when num_args is out of range.
bool CallKernel(void* function, size_t num_args, uint8_t* const* args);
// The SoC whose facts the checks and the cost model use (default Ascend910B3, or the
// OCANN_SOC environment variable). False for an unknown name.
bool SetSoc(const char* name);
}  // namespace detail

}  // namespace AscendC

using AscendC::KernelMode;  // CANN samples write KernelMode::AIV_MODE at global scope

#define ICPU_RUN_KF(func, blockdim, ...) \
  ::AscendC::detail::RunKernel(#func, (blockdim), [&]() { func(__VA_ARGS__); })
#define ICPU_SET_TILING_KEY(key) ::AscendC::detail::SetTilingKey(key)
