// Per-file analysers: each turns one kind of file into findings (and CUDA kernels).
#pragma once

#include <set>
#include <string>
#include <vector>

#include "migrate/finding.h"

namespace oc::migrate {

struct FileResult {
  std::vector<Finding> findings;
  std::vector<CudaKernel> kernels;
  std::set<std::string> modules;  // imported Python modules (workload detection)
  std::set<std::string> names;    // resolved names used (workload detection)
  int triton_kernels = 0, triton_complex = 0;
  std::vector<TritonKernel> triton;
  std::vector<NpuSignal> npu;  // signals of existing Ascend support
  bool trains = false;         // backward() / optimizer steps seen
  int code_lines = 0;
  std::string error;  // not analysable (syntax); the file is skipped with a warning
};

// The op a kernel or source file implements, without launch and direction words:
// "RoIAlignForwardKernel" and "roi_align_npu" are both "ro_i_align"/"roi_align" stems.
std::string OpStem(const std::string& name);

// `file` is the path shown in findings; `text` the file's contents.
FileResult AnalyzePython(const std::string& file, const std::string& text, bool setup_py = false);
FileResult AnalyzeNotebook(const std::string& file, const std::string& text);
FileResult AnalyzeCuda(const std::string& file, const std::string& text);
FileResult AnalyzeRequirements(const std::string& file, const std::string& text);
FileResult AnalyzePyproject(const std::string& file, const std::string& text);
// Shell scripts, Dockerfiles, YAML/JSON configs, CMakeLists: line-based text rules.
FileResult AnalyzeText(const std::string& file, const std::string& text, const char* comment);

}  // namespace oc::migrate
