// What gpu2npu reports: findings (one code signal each) sorted into the seed's decision-tree
// branches, and the analysis of a project.
#pragma once

#include <string>
#include <vector>

namespace oc::migrate {

// The branches of the seed's decision tree (section 4).
enum class Branch {
  kStandardModel,  // device strings, torch.cuda.* calls, AMP, env vars
  kDistributed,    // NCCL -> HCCL
  kCustomKernel,   // CUDA C++ kernels, extensions, cupy/numba kernels
  kTriton,         // Triton kernels
  kCompile,        // torch.compile, Dynamo, Inductor, CUDA graphs
  kNvidiaLibrary,  // flash-attn, xformers, apex, bitsandbytes, TensorRT, DALI, ...
  kFramework,      // Lightning, Hugging Face Trainer / accelerate
  kCount
};
const char* BranchId(Branch b);     // "standard_model", ...
const char* BranchTitle(Branch b);  // "Standard model (device strings)", ...

enum class Severity { kInfo, kLow, kMedium, kHigh, kBlocker };
const char* SeverityName(Severity s);  // "info", "low", "medium", "high", "blocker"

struct Finding {
  std::string file;  // relative to the project root
  int line = 0, column = 0, end_line = 0;
  std::string snippet;  // the source line, trimmed
  std::string rule;     // rule id, e.g. "torch.cuda.call"
  std::string api;      // what was found, e.g. "torch.cuda.synchronize"
  Branch branch = Branch::kStandardModel;
  Severity severity = Severity::kLow;
  std::string counterpart;  // the Ascend replacement
  bool auto_migratable = false;
  std::string message;
};

// A CUDA kernel found in C++ sources, with how hard it is to port.
struct CudaKernel {
  std::string file, name;
  int line = 0, lines = 0;
  bool complex = false;
  std::vector<std::string> reasons;  // "shared memory", "warp shuffles", ...
};

struct Warning {
  std::string file, message;
};

}  // namespace oc::migrate
