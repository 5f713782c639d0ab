// Community NPU ports: torch_npu fused ops, NPU builds of popular libraries and native torch
// ops that do what a CUDA kernel, a Triton kernel or an NVIDIA library does. Consulted for
// every kernel and library finding, so the estimate is "adopt the port", not "rewrite".
#pragma once

#include <set>
#include <string>

namespace oc::migrate {

struct Port {
  const char* what;  // "torch_npu.npu_deformable_conv2d"
  const char* note;  // what it covers, version, caveats
  double low, high;  // person-days to adopt and validate it
};

// A kernel's port by its name or its file's name (lower-cased words: "deform", "roi_align").
const Port* KernelPort(const std::string& kernel_name, const std::string& file);
// A Triton kernel's torch / torch_npu equivalent by its name and the tl.* calls in it, or "".
std::string TritonEquivalent(const std::string& name, const std::set<std::string>& tl_calls);
// The NPU port of a library finding's rule ("flash_attn", "apex", "deepspeed"), or nullptr.
const Port* LibraryPort(const std::string& rule_id);

}  // namespace oc::migrate
