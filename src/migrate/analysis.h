// gpu2npu analyse: a project's findings and CUDA kernels, and what the seed's decision tree
// and cost table make of them.
#pragma once

#include <map>
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
  std::string basis;                  // the seed row it comes from
  std::vector<std::string> evidence;  // file:line of what triggered it (the first few)
};

struct Analysis {
  std::string root;
  int files = 0, code_lines = 0;
  std::vector<Finding> findings;
  std::vector<CudaKernel> kernels;
  std::vector<Warning> warnings;
  std::set<std::string> modules, names;
  int triton_kernels = 0, triton_complex = 0;
  std::vector<TritonKernel> triton;
  std::vector<NpuSignal> npu_signals;
  std::map<std::string, double> workload_weight;  // evidence per workload class
  bool trains = false;
  // Decisions.
  std::string workload, workload_title, suitability, suitability_note;
  std::string workload_runner_up;  // the class with the next most evidence ("" when none)
  // Existing Ascend support: the files that show it and what they show.
  bool supports_ascend = false;
  std::string support_summary;
  std::vector<std::string> support_evidence;
  std::vector<std::string> next_steps;  // the largest items and what replaces them
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

// How much each workload class shows in one file's imports and names ("cv", "llm", ...).
std::map<std::string, double> WorkloadEvidence(const std::set<std::string>& modules,
                                               const std::set<std::string>& names);

// The library a rule belongs to: a dependency line and its code uses share it
// ("bnb.quantized_load" and "bitsandbytes" are both "bitsandbytes").
std::string LibraryFamily(const std::string& rule);

// Project-level passes, in this order (used by AnalyseProject):
// weigh: usage by path (tests, examples, docs), dependencies never used in code, findings
// the project's own NPU path already covers, community ports, noise folded per file.
void Weigh(Analysis* a);
// decide: workload, the estimate and the verdict from the weighed findings.
void Decide(Analysis* a);

}  // namespace oc::migrate
