#include "migrate/report.h"

#include <algorithm>
#include <cstdio>
#include <map>
#include <nlohmann/json.hpp>
#include <sstream>

#include "base/file.h"
#include "migrate/text_util.h"

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
     << a.suitability_note << ")"
     << (a.workload_runner_up.empty() ? "" : "; runner-up: " + a.workload_runner_up) << "\n";
  if (a.supports_ascend) {
    os << paint("existing Ascend support: ", "32") << a.support_summary << "\n";
    for (const auto& e : a.support_evidence) os << "  " << e << "\n";
  }
  for (const auto& n : a.not_advised) os << paint("not advised: ", "31") << n << "\n";
  if (!a.next_steps.empty()) {
    os << "\nwhat to do next:\n";
    for (size_t i = 0; i < a.next_steps.size(); ++i)
      os << "  " << i + 1 << ". " << a.next_steps[i] << "\n";
  }
  os << "\nfindings by branch:\n";
  for (const auto& [b, n] : CountByBranch(a)) os << "  " << BranchTitle(b) << ": " << n << "\n";
  if (!a.kernels.empty()) {
    os << "\nCUDA kernels:\n";
    for (const auto& k : a.kernels) {
      os << "  " << k.file << ":" << k.line << " " << k.name << " - "
         << (k.complex ? "complex" : "simple") << " (";
      for (size_t i = 0; i < k.reasons.size(); ++i) os << (i ? ", " : "") << k.reasons[i];
      os << ")" << (k.covered ? " [NPU implementation in the project]" : "")
         << (k.port.empty() ? "" : " [port: " + k.port + "]") << "\n";
    }
  }
  if (!a.triton.empty()) {
    os << "\nTriton kernels:\n";
    for (const auto& k : a.triton)
      os << "  " << k.file << ":" << k.line << " " << k.name << " - "
         << (k.complex ? "complex" : "simple") << ", " << UsageName(k.usage)
         << (k.equivalent.empty() ? "" : " -> " + k.equivalent)
         << (k.covered ? " [NPU version in the project]" : "") << "\n";
  }
  os << "\nestimate:\n";
  for (const auto& e : a.estimate) {
    os << "  " << e.what << " x" << e.count << ": " << Days(e.low, e.high) << "  [" << e.basis
       << "]";
    for (size_t i = 0; i < e.evidence.size(); ++i) os << (i ? ", " : " <- ") << e.evidence[i];
    os << "\n";
  }
  if (!a.findings.empty()) {
    os << "\nfindings:\n";
    for (const auto& f : a.findings)
      os << "  " << f.file << ":" << f.line << ":" << f.column << " [" << SeverityName(f.severity)
         << "] " << f.api << (f.count > 1 ? " x" + std::to_string(f.count) : "") << " -> "
         << (f.port.empty() ? f.counterpart : f.port) << (f.auto_migratable ? " (auto)" : "")
         << (f.usage != Usage::kRequired
                 ? std::string(" (") + UsageName(f.usage) + ": " + f.usage_why + ")"
                 : "")
         << (f.covered ? " (covered by the NPU path)" : "") << "\n";
  }
  for (const auto& w : a.warnings)
    os << paint("warning: ", "33") << w.file << ": " << w.message << "\n";
  return os.str();
}

std::string JsonReport(const Analysis& a) {
  using json = nlohmann::ordered_json;
  json j;
  j["schema"] = "opencann.gpu2npu/2";
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
                                      {"basis", e.basis},
                                      {"evidence", e.evidence}});
  j["next_steps"] = a.next_steps;
  j["existing_support"] = {{"supports_ascend", a.supports_ascend},
                           {"summary", a.support_summary},
                           {"evidence", a.support_evidence}};
  j["workload"] = {{"type", a.workload},
                   {"title", a.workload_title},
                   {"suitability", a.suitability},
                   {"note", a.suitability_note},
                   {"runner_up", a.workload_runner_up}};
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
                             {"message", f.message},
                             {"usage", UsageName(f.usage)},
                             {"usage_why", f.usage_why},
                             {"covered", f.covered},
                             {"port", f.port},
                             {"count", f.count}});
  j["cuda_kernels"] = json::array();
  for (const auto& k : a.kernels)
    j["cuda_kernels"].push_back({{"file", k.file},
                                 {"line", k.line},
                                 {"name", k.name},
                                 {"lines", k.lines},
                                 {"complexity", k.complex ? "complex" : "simple"},
                                 {"helper", k.helper},
                                 {"op", k.group},
                                 {"covered", k.covered},
                                 {"port", k.port},
                                 {"usage", UsageName(k.usage)},
                                 {"reasons", k.reasons}});
  j["triton_kernels"] = {
      {"count", a.triton_kernels}, {"complex", a.triton_complex}, {"kernels", json::array()}};
  for (const auto& k : a.triton)
    j["triton_kernels"]["kernels"].push_back({{"file", k.file},
                                              {"line", k.line},
                                              {"name", k.name},
                                              {"lines", k.lines},
                                              {"complexity", k.complex ? "complex" : "simple"},
                                              {"reasons", k.reasons},
                                              {"equivalent", k.equivalent},
                                              {"usage", UsageName(k.usage)},
                                              {"op", k.group},
                                              {"covered", k.covered}});
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
  if (!a.next_steps.empty()) {
    os << "## What to do next\n\n";
    for (size_t i = 0; i < a.next_steps.size(); ++i) os << i + 1 << ". " << a.next_steps[i] << "\n";
    os << "\n";
  }
  if (a.supports_ascend) {
    os << "## Existing Ascend support\n\n" << a.support_summary << ":\n\n";
    for (const auto& e : a.support_evidence) os << "- " << e << "\n";
    os << "\n";
  }
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
    os << "\n## CUDA kernels\n\n| kernel | file | complexity | why | on NPU |\n"
          "| --- | --- | --- | --- | --- |\n";
    for (const auto& k : a.kernels) {
      os << "| `" << k.name << "` | " << k.file << ":" << k.line << " | "
         << (k.complex ? "complex" : "simple") << " | ";
      for (size_t i = 0; i < k.reasons.size(); ++i) os << (i ? ", " : "") << k.reasons[i];
      os << " | "
         << (k.covered         ? std::string("NPU implementation in the project")
             : !k.port.empty() ? "port: " + k.port
             : k.helper        ? std::string("fold into the host code")
                               : std::string("Ascend C rewrite"))
         << " |\n";
    }
  }
  os << "\n## Findings\n\n| where | found | severity | Ascend counterpart | automatic | usage |\n"
        "| --- | --- | --- | --- | --- | --- |\n";
  for (const auto& f : a.findings)
    os << "| " << f.file << ":" << f.line << " | `" << f.api << "`"
       << (f.count > 1 ? " x" + std::to_string(f.count) : "") << " | " << SeverityName(f.severity)
       << " | " << (f.port.empty() ? f.counterpart : f.port) << " | "
       << (f.auto_migratable ? "yes" : "no") << " | " << UsageName(f.usage)
       << (f.covered ? ", covered" : "") << " |\n";
  if (!a.warnings.empty()) {
    os << "\n## Skipped files\n\n";
    for (const auto& w : a.warnings) os << "- " << w.file << ": " << w.message << "\n";
  }
  return os.str();
}

namespace {
std::string Html(const std::string& s) {
  std::string out;
  for (char c : s) {
    switch (c) {
      case '&':
        out += "&amp;";
        break;
      case '<':
        out += "&lt;";
        break;
      case '>':
        out += "&gt;";
        break;
      case '"':
        out += "&quot;";
        break;
      default:
        out += c;
    }
  }
  return out;
}
}  // namespace

std::string HtmlReport(const Analysis& a) {
  std::ostringstream os;
  const char* color = a.level == Level::kLow      ? "#1a7f37"
                      : a.level == Level::kMedium ? "#9a6700"
                                                  : "#cf222e";
  os << "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\"><title>gpu2npu: "
     << Html(a.root)
     << "</title>\n<style>\nbody{font-family:sans-serif;margin:2em;color:#1f2328;max-width:1100px}"
        "h1{font-size:1.5em}h2{font-size:1.2em;margin-top:1.6em}"
        ".verdict{font-size:1.4em;font-weight:bold;color:"
     << color
     << "}table{border-collapse:collapse;width:100%;font-size:.9em}"
        "td,th{border:1px solid #d0d7de;padding:4px 8px;text-align:left;vertical-align:top}"
        "th{background:#f6f8fa}code{font-size:.95em}.sev-high,.sev-blocker{color:#cf222e}"
        ".sev-medium{color:#9a6700}.sev-low{color:#1a7f37}.box{border:1px solid "
        "#d0d7de;padding:1em;border-radius:6px}"
        "\n</style></head><body>\n";
  os << "<h1>GPU to NPU migration report: <code>" << Html(a.root)
     << "</code></h1>\n<div class=\"box\">"
     << "<div class=\"verdict\">Verdict: " << LevelName(a.level)
     << (a.level == Level::kNotAdvised ? "" : " cost") << "</div><p>Decided by <b>"
     << Html(BranchTitle(a.deciding)) << "</b>: " << Html(a.reason) << "</p>"
     << "<p>Estimate: <b>" << Days(a.estimate_low, a.estimate_high) << "</b></p>"
     << "<p>Workload: " << Html(a.workload_title) << " — NPU suitability <b>" << Html(a.suitability)
     << "</b> (" << Html(a.suitability_note) << ")</p><p>Scanned " << a.files << " files, "
     << a.code_lines << " lines.</p>";
  for (const auto& n : a.not_advised)
    os << "<p class=\"sev-blocker\"><b>Not advised:</b> " << Html(n) << "</p>";
  if (a.supports_ascend) {
    os << "<p><b>Existing Ascend support:</b> " << Html(a.support_summary) << "</p><ul>";
    for (const auto& e : a.support_evidence) os << "<li>" << Html(e) << "</li>";
    os << "</ul>";
  }
  os << "</div>\n";
  os << "<h2>What to do next</h2>\n<ol>";
  if (a.next_steps.empty()) os << "<li>Nothing needs to change.</li>";
  for (const auto& n : a.next_steps) os << "<li>" << Html(n) << "</li>";
  os << "</ol>\n<h2>Findings by branch</h2>\n";
  const auto counts = CountByBranch(a);
  int max = 1;
  for (const auto& [b, n] : counts) max = std::max(max, n);
  const int bar_h = 28, width = 900, label_w = 330;
  os << "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"" << width << "\" height=\""
     << std::max<size_t>(1, counts.size()) * bar_h + 10
     << "\" role=\"img\" aria-label=\"findings by branch\">";
  int row = 0;
  for (const auto& [b, n] : counts) {
    const int y = row++ * bar_h + 5, w = (width - label_w - 60) * n / max;
    os << "<text x=\"0\" y=\"" << y + 18 << "\" font-size=\"14\">" << Html(BranchTitle(b))
       << "</text>"
       << "<rect x=\"" << label_w << "\" y=\"" << y + 4 << "\" width=\"" << std::max(w, 2)
       << "\" height=\"18\" fill=\"#0969da\"/><text x=\"" << label_w + std::max(w, 2) + 6
       << "\" y=\"" << y + 18 << "\" font-size=\"14\">" << n << "</text>";
  }
  os << "</svg>\n<h2>Estimate</h2>\n<table><tr><th>item</th><th>count</th><th>person-days</"
        "th><th>basis</th></tr>";
  for (const auto& e : a.estimate)
    os << "<tr><td>" << Html(e.what) << "</td><td>" << e.count << "</td><td>" << e.low << "–"
       << e.high << "</td><td>" << Html(e.basis) << "</td></tr>";
  os << "</table>\n";
  if (!a.kernels.empty()) {
    os << "<h2>CUDA "
          "kernels</h2>\n<table><tr><th>kernel</th><th>where</th><th>complexity</th><th>why</th>"
          "<th>on NPU</th></tr>";
    for (const auto& k : a.kernels) {
      std::string why;
      for (const auto& r : k.reasons) why += (why.empty() ? "" : ", ") + r;
      os << "<tr><td><code>" << Html(k.name) << "</code></td><td>" << Html(k.file) << ":" << k.line
         << "</td><td>" << (k.complex ? "complex" : "simple") << "</td><td>" << Html(why)
         << "</td><td>"
         << (k.covered         ? std::string("NPU implementation in the project")
             : !k.port.empty() ? "port: " + Html(k.port)
             : k.helper        ? std::string("fold into the host code")
                               : std::string("Ascend C rewrite"))
         << "</td></tr>";
    }
    os << "</table>\n";
  }
  if (!a.triton.empty()) {
    os << "<h2>Triton kernels</h2>\n<table><tr><th>kernel</th><th>where</th><th>complexity</th>"
          "<th>usage</th><th>torch / torch_npu equivalent</th></tr>";
    for (const auto& k : a.triton)
      os << "<tr><td><code>" << Html(k.name) << "</code></td><td>" << Html(k.file) << ":" << k.line
         << "</td><td>" << (k.complex ? "complex" : "simple") << "</td><td>" << UsageName(k.usage)
         << "</td><td>"
         << (k.equivalent.empty() ? "none: triton-ascend or Ascend C" : Html(k.equivalent))
         << "</td></tr>";
    os << "</table>\n";
  }
  // Findings grouped by file, in file order.
  os << "<h2>Findings</h2>\n";
  std::string current;
  for (const auto& f : a.findings) {
    if (f.file != current) {
      if (!current.empty()) os << "</table>\n";
      current = f.file;
      os << "<h3><code>" << Html(f.file)
         << "</code></h3>\n<table><tr><th>line</th><th>code</th>"
            "<th>found</th><th>severity</th><th>Ascend counterpart</th><th>automatic</th>"
            "<th>usage</th></tr>";
    }
    os << "<tr><td>" << f.line << ":" << f.column << "</td><td><code>" << Html(f.snippet)
       << "</code></td><td><code>" << Html(f.api) << "</code>"
       << (f.count > 1 ? " ×" + std::to_string(f.count) : "") << "</td><td class=\"sev-"
       << SeverityName(f.severity) << "\">" << SeverityName(f.severity) << "</td><td>"
       << Html(f.port.empty() ? f.counterpart : f.port) << "</td><td>"
       << (f.auto_migratable ? "yes" : "no") << "</td><td>" << UsageName(f.usage)
       << (f.usage_why.empty() || f.usage == Usage::kRequired ? "" : ": " + Html(f.usage_why))
       << (f.covered ? " (covered by the NPU path)" : "") << "</td></tr>";
  }
  if (!current.empty()) os << "</table>\n";
  if (!a.warnings.empty()) {
    os << "<h2>Skipped files</h2><ul>";
    for (const auto& w : a.warnings)
      os << "<li>" << Html(w.file) << ": " << Html(w.message) << "</li>";
    os << "</ul>";
  }
  os << "<p style=\"color:#656d76\">gpu2npu (OpenCANN): the verdict applies the seed's decision "
        "tree; the "
        "estimate its cost table. Both are estimates.</p></body></html>\n";
  return os.str();
}

Status WriteCsvReports(const Analysis& a, const std::string& dir) {
  std::string ops = "File,Api\n", unsupported = "File,Start Line,End Line,OP,Tips\n",
              perf = "File,Start Line,End Line,OP,Tips\n";
  for (const auto& f : a.findings) {
    ops += CsvField(f.file) + "," + CsvField(f.api) + "\n";
    const std::string row = CsvField(f.file) + "," + std::to_string(f.line) + "," +
                            std::to_string(f.end_line) + "," + CsvField(f.api) + "," +
                            CsvField(f.message + "; on Ascend: " + f.counterpart) + "\n";
    if (f.severity >= Severity::kHigh && !f.covered) unsupported += row;
    if (f.severity == Severity::kInfo || f.rule == "data_parallel" || f.rule == "jit.script")
      perf += row;
  }
  auto write = [&](const std::string& d) -> Status {
    OC_RETURN_IF_ERROR(WriteFileAtomic(d + "/cuda_op_list.csv", ops));
    OC_RETURN_IF_ERROR(WriteFileAtomic(d + "/unsupported_api.csv", unsupported));
    return WriteFileAtomic(d + "/api_performance_advice.csv", perf);
  };
  // A new folder appears whole; one that already holds reports has each replaced whole.
  if (IsDirectory(dir) && !ListFiles(dir).empty()) return write(dir);
  return WriteFolderAtomic(dir, "gpu2npu", write);
}

}  // namespace oc::migrate
