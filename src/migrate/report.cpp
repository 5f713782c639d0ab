#include "migrate/report.h"

#include <cstdio>
#include <map>
#include <nlohmann/json.hpp>
#include <sstream>

#include "base/file.h"

namespace oc::migrate {
namespace {

std::string Days(double lo, double hi) {
  char buf[64];
  std::snprintf(buf, sizeof(buf), "%g-%g person-days", lo, hi);
  return buf;
}

std::map<Branch, int> CountByBranch(const Analysis& a) {
  std::map<Branch, int> m;
  for (const auto& f : a.findings) ++m[f.branch];
  return m;
}

std::string Csv(const std::string& s) {
  if (s.find_first_of(",\"\n") == std::string::npos) return s;
  std::string out = "\"";
  for (char c : s) out += c == '"' ? std::string("\"\"") : std::string(1, c);
  return out + "\"";
}

}  // namespace

std::string TerminalReport(const Analysis& a, bool color) {
  auto paint = [&](const std::string& s, const char* code) {
    return color ? std::string("\033[") + code + "m" + s + "\033[0m" : s;
  };
  const char* level_color = a.level == Level::kLow ? "32" : a.level == Level::kMedium ? "33" : "31";
  std::ostringstream os;
  os << "gpu2npu: " << a.root << " (" << a.files << " files, " << a.code_lines << " lines)\n";
  os << "verdict:  "
     << paint(std::string(LevelName(a.level)) + (a.level == Level::kNotAdvised ? "" : " cost"),
              level_color)
     << ", decided by " << BranchTitle(a.deciding) << ": " << a.reason << "\n";
  os << "estimate: " << Days(a.estimate_low, a.estimate_high) << "\n";
  os << "workload: " << a.workload_title << " (NPU suitability: " << a.suitability << "; "
     << a.suitability_note << ")\n";
  for (const auto& n : a.not_advised) os << paint("not advised: ", "31") << n << "\n";
  os << "\nfindings by branch:\n";
  for (const auto& [b, n] : CountByBranch(a)) os << "  " << BranchTitle(b) << ": " << n << "\n";
  if (!a.kernels.empty()) {
    os << "\nCUDA kernels:\n";
    for (const auto& k : a.kernels) {
      os << "  " << k.file << ":" << k.line << " " << k.name << " - "
         << (k.complex ? "complex" : "simple") << " (";
      for (size_t i = 0; i < k.reasons.size(); ++i) os << (i ? ", " : "") << k.reasons[i];
      os << ")\n";
    }
  }
  os << "\nestimate:\n";
  for (const auto& e : a.estimate)
    os << "  " << e.what << " x" << e.count << ": " << Days(e.low, e.high) << "  [" << e.basis
       << "]\n";
  if (!a.findings.empty()) {
    os << "\nfindings:\n";
    for (const auto& f : a.findings)
      os << "  " << f.file << ":" << f.line << ":" << f.column << " [" << SeverityName(f.severity)
         << "] " << f.api << " -> " << f.counterpart << (f.auto_migratable ? " (auto)" : "")
         << "\n";
  }
  for (const auto& w : a.warnings)
    os << paint("warning: ", "33") << w.file << ": " << w.message << "\n";
  return os.str();
}

std::string JsonReport(const Analysis& a) {
  using json = nlohmann::ordered_json;
  json j;
  j["schema"] = "opencann.gpu2npu/1";
  j["root"] = a.root;
  j["files"] = a.files;
  j["lines"] = a.code_lines;
  j["verdict"] = {
      {"level", LevelName(a.level)}, {"branch", BranchId(a.deciding)}, {"reason", a.reason}};
  j["estimate"] = {
      {"low_days", a.estimate_low}, {"high_days", a.estimate_high}, {"items", json::array()}};
  for (const auto& e : a.estimate)
    j["estimate"]["items"].push_back({{"what", e.what},
                                      {"count", e.count},
                                      {"low_days", e.low},
                                      {"high_days", e.high},
                                      {"basis", e.basis}});
  j["workload"] = {{"type", a.workload},
                   {"title", a.workload_title},
                   {"suitability", a.suitability},
                   {"note", a.suitability_note}};
  j["not_advised"] = a.not_advised;
  json counts = json::object();
  for (const auto& [b, n] : CountByBranch(a)) counts[BranchId(b)] = n;
  j["findings_by_branch"] = counts;
  j["findings"] = json::array();
  for (const auto& f : a.findings)
    j["findings"].push_back({{"file", f.file},
                             {"line", f.line},
                             {"column", f.column},
                             {"snippet", f.snippet},
                             {"rule", f.rule},
                             {"api", f.api},
                             {"branch", BranchId(f.branch)},
                             {"severity", SeverityName(f.severity)},
                             {"counterpart", f.counterpart},
                             {"auto", f.auto_migratable},
                             {"message", f.message}});
  j["cuda_kernels"] = json::array();
  for (const auto& k : a.kernels)
    j["cuda_kernels"].push_back({{"file", k.file},
                                 {"line", k.line},
                                 {"name", k.name},
                                 {"lines", k.lines},
                                 {"complexity", k.complex ? "complex" : "simple"},
                                 {"reasons", k.reasons}});
  j["triton_kernels"] = {{"count", a.triton_kernels}, {"complex", a.triton_complex}};
  j["warnings"] = json::array();
  for (const auto& w : a.warnings)
    j["warnings"].push_back({{"file", w.file}, {"message", w.message}});
  return j.dump(2) + "\n";
}

std::string MarkdownReport(const Analysis& a) {
  std::ostringstream os;
  os << "# GPU to NPU migration report: `" << a.root << "`\n\n";
  os << "| | |\n| --- | --- |\n";
  os << "| Verdict | **" << LevelName(a.level) << "**"
     << (a.level == Level::kNotAdvised ? "" : " cost") << " — " << BranchTitle(a.deciding) << ": "
     << a.reason << " |\n";
  os << "| Estimate | " << Days(a.estimate_low, a.estimate_high) << " |\n";
  os << "| Workload | " << a.workload_title << " — NPU suitability " << a.suitability << " ("
     << a.suitability_note << ") |\n";
  os << "| Scanned | " << a.files << " files, " << a.code_lines << " lines |\n\n";
  if (!a.not_advised.empty()) {
    os << "## Not advised\n\n";
    for (const auto& n : a.not_advised) os << "- " << n << "\n";
    os << "\n";
  }
  os << "## Estimate\n\n| item | count | person-days | basis |\n| --- | --- | --- | --- |\n";
  for (const auto& e : a.estimate)
    os << "| " << e.what << " | " << e.count << " | " << e.low << "–" << e.high << " | " << e.basis
       << " |\n";
  os << "\n## Findings by branch\n\n| branch | findings |\n| --- | --- |\n";
  for (const auto& [b, n] : CountByBranch(a)) os << "| " << BranchTitle(b) << " | " << n << " |\n";
  if (!a.kernels.empty()) {
    os << "\n## CUDA kernels\n\n| kernel | file | complexity | why |\n| --- | --- | --- | --- |\n";
    for (const auto& k : a.kernels) {
      os << "| `" << k.name << "` | " << k.file << ":" << k.line << " | "
         << (k.complex ? "complex" : "simple") << " | ";
      for (size_t i = 0; i < k.reasons.size(); ++i) os << (i ? ", " : "") << k.reasons[i];
      os << " |\n";
    }
  }
  os << "\n## Findings\n\n| where | found | severity | Ascend counterpart | automatic |\n| --- | "
        "--- | --- | --- | --- |\n";
  for (const auto& f : a.findings)
    os << "| " << f.file << ":" << f.line << " | `" << f.api << "` | " << SeverityName(f.severity)
       << " | " << f.counterpart << " | " << (f.auto_migratable ? "yes" : "no") << " |\n";
  if (!a.warnings.empty()) {
    os << "\n## Skipped files\n\n";
    for (const auto& w : a.warnings) os << "- " << w.file << ": " << w.message << "\n";
  }
  return os.str();
}

Status WriteCsvReports(const Analysis& a, const std::string& dir) {
  OC_RETURN_IF_ERROR(CreateDirectories(dir));
  std::string ops = "File,Api\n", unsupported = "File,Start Line,End Line,OP,Tips\n",
              perf = "File,Start Line,End Line,OP,Tips\n";
  for (const auto& f : a.findings) {
    ops += Csv(f.file) + "," + Csv(f.api) + "\n";
    const std::string row = Csv(f.file) + "," + std::to_string(f.line) + "," +
                            std::to_string(f.end_line) + "," + Csv(f.api) + "," +
                            Csv(f.message + "; on Ascend: " + f.counterpart) + "\n";
    if (f.severity >= Severity::kHigh) unsupported += row;
    if (f.severity == Severity::kInfo || f.rule == "data_parallel" || f.rule == "jit.script")
      perf += row;
  }
  OC_RETURN_IF_ERROR(WriteFileAtomic(dir + "/cuda_op_list.csv", ops));
  OC_RETURN_IF_ERROR(WriteFileAtomic(dir + "/unsupported_api.csv", unsupported));
  return WriteFileAtomic(dir + "/api_performance_advice.csv", perf);
}

}  // namespace oc::migrate
