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

// How the project depends on what a finding names: only required findings decide the
// verdict; the others are reported and costed lightly (they can be switched off or dropped).
enum class Usage {
  kRequired,    // on the main path: imported at module level, called unconditionally
  kOptional,    // behind a flag or a try/except ImportError; the project runs without it
  kDependency,  // named in requirements / setup.py / pyproject but never used in code
  kAuxiliary,   // only in tests, examples, benchmarks or docs
};
const char* UsageName(Usage u);  // "required", "optional", "dependency only", "auxiliary"

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
  Usage usage = Usage::kRequired;
  std::string usage_why;    // "if args.compile:", "try/except ImportError", "tests/"
  bool covered = false;     // the project already has an NPU path for it
  std::string port;         // a community NPU port that replaces it (torch_npu op, fork)
  int count = 1;            // occurrences folded into this finding (same file and API family)
  bool dependency = false;  // from requirements / setup.py / pyproject, not from code
};

// A signal that the project already runs on Ascend (torch_npu, hccl, an NPU source folder).
struct NpuSignal {
  std::string file;
  int line = 0;
  std::string what;
};

// A CUDA kernel found in C++ sources, with how hard it is to port.
struct CudaKernel {
  std::string file, name;
  int line = 0, lines = 0;
  bool complex = false;
  bool helper = false;               // a few lines of pointer or index setup: trivial to port
  std::vector<std::string> reasons;  // "shared memory", "warp shuffles", ...
  std::string group;                 // file + op name without _forward/_backward/_kernel
  std::string port;                  // a community NPU port of the op, when one exists
  bool covered = false;              // the project already has an NPU implementation
  Usage usage = Usage::kRequired;    // kAuxiliary under tests/, examples/, benchmarks/
};

// A Triton kernel (@triton.jit) and what replaces it on NPU.
struct TritonKernel {
  std::string file, name;
  int line = 0, lines = 0;
  bool complex = false;
  std::vector<std::string> reasons;  // "tl.dot", "loops", "atomics"
  std::string equivalent;            // a torch / torch_npu op doing the same, when one does
  Usage usage = Usage::kRequired;
  std::string group;     // file + op name without _fwd/_bwd/_kernel: one op to port
  bool covered = false;  // an NPU version exists in the project (an _ascend/ or npu/ twin)
};

struct Warning {
  std::string file, message;
};

}  // namespace oc::migrate
