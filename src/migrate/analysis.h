// gpu2npu analyse: a project's findings and CUDA kernels, and what the seed's decision tree
// and cost table make of them.
#pragma once

#include <set>
#include <string>
#include <vector>

#include "base/status.h"
#include "migrate/finding.h"

namespace oc::migrate {

enum class Level { kLow, kMedium, kHigh, kNotAdvised };
const char* LevelName(Level l);  // "low", "medium", "high", "not advised"

// One node of the decision tree (section 4), as data: docs/gpu2npu.md prints this table.
struct TreeNode {
  Branch branch;
  const char* question;
  const char* answer;  // what the seed says when the answer is yes
  Level level;
};
const std::vector<TreeNode>& DecisionTree();

// One row of the estimate: a finding class, how many, and its cost in person-days.
struct EstimateLine {
  std::string what;
  int count = 0;
  double low = 0, high = 0;
  std::string basis;  // the seed row it comes from
};

struct Analysis {
  std::string root;
  int files = 0, code_lines = 0;
  std::vector<Finding> findings;
  std::vector<CudaKernel> kernels;
  std::vector<Warning> warnings;
  std::set<std::string> modules, names;
  int triton_kernels = 0, triton_complex = 0;
  bool trains = false;
  // Decisions.
  std::string workload, workload_title, suitability, suitability_note;
  Level level = Level::kLow;
  Branch deciding = Branch::kStandardModel;
  std::string reason;
  std::vector<std::string> not_advised;  // 4.2 cases found, explained
  std::vector<EstimateLine> estimate;
  double estimate_low = 0, estimate_high = 0;
};

// Scans PATH (a folder or one file); unreadable, binary, non-UTF-8 or huge files and
// syntax errors become warnings. Errors only when PATH itself cannot be read.
Result<Analysis> AnalyseProject(const std::string& path);

// Fills the decision fields from the findings (used by AnalyseProject).
void Decide(Analysis* a);

}  // namespace oc::migrate
