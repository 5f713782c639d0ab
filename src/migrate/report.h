// gpu2npu's reports: terminal summary, JSON (schema in docs/gpu2npu.md), Markdown, and the
// CSV files of Huawei's analysis tool (same names and columns).
#pragma once

#include <string>

#include "base/status.h"
#include "migrate/analysis.h"

namespace oc::migrate {

std::string TerminalReport(const Analysis& a, bool color);
std::string JsonReport(const Analysis& a);
std::string MarkdownReport(const Analysis& a);
// A self-contained HTML page: verdict, estimate, a bar chart of findings by branch (inline
// SVG), CUDA kernels and the findings table. No scripts, no external resources.
std::string HtmlReport(const Analysis& a);
// cuda_op_list.csv, unsupported_api.csv, api_performance_advice.csv in `dir`.
Status WriteCsvReports(const Analysis& a, const std::string& dir);

}  // namespace oc::migrate
