#include "opp/ascendc_launch.h"

#include "tikicpulib.h"

namespace oc {

Status RunAscendcKernel(const AscendcLaunch& launch) {
  // CallKernel takes the addresses as the uint8_t* (GM_ADDR) parameters kernels declare.
  std::vector<uint8_t*> gm;
  if (!launch.call)
    for (void* a : launch.args) gm.push_back(static_cast<uint8_t*>(a));
  for (auto [p, n] : launch.globals)
    if (p && n) {
      if (launch.globals_padded)
        AscendC::detail::RegisterDeviceGlobal(p, n);
      else
        AscendC::detail::RegisterGlobal(p, n);
    }
  AscendC::detail::LaunchOptions options;
  options.tiling_key = launch.tiling_key;
  options.soc = launch.soc.empty() ? nullptr : launch.soc.c_str();
  options.report = launch.report;
  auto result = AscendC::detail::Launch(
      launch.kernel.c_str(), launch.block_dim,
      [&] {
        if (launch.call)
          launch.call(launch.args.data());
        else
          AscendC::detail::CallKernel(launch.function, gm.size(), gm.data());
      },
      options);
  for (auto [p, n] : launch.globals)
    if (p && n) AscendC::detail::UnregisterGlobal(p);
  if (result.ok) return Status::Ok();
  std::string msg = "kernel [" + launch.kernel + "]";
  if (!launch.owner.empty()) msg += " of " + launch.owner;
  msg += " failed:";
  for (const auto& e : result.errors) msg += "\n  " + e;
  return Internal(msg);
}

}  // namespace oc
