// The comparison's reports: CANN's CSV, the text summary and a self-contained HTML page.
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <sstream>

#include "compare/compare.h"

namespace oc {
namespace {

std::string Fmt(double v) {
  if (std::isnan(v)) return "NaN";
  if (std::isinf(v)) return v > 0 ? "inf" : "-inf";
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.6f", v);
  return buf;
}

std::string Escape(const std::string& s) {
  std::string out;
  for (char c : s) {
    if (c == '<')
      out += "&lt;";
    else if (c == '>')
      out += "&gt;";
    else if (c == '&')
      out += "&amp;";
    else if (c == '"')
      out += "&quot;";
    else
      out += c;
  }
  return out;
}

// A polyline of `values` (clamped to [lo, hi]) over the plot area. Non-finite values are
// drawn at `worst` (a NaN cosine at the bottom, an infinite distance at the top).
std::string Polyline(const std::vector<double>& values, double lo, double hi, double worst,
                     double x0, double y0, double w, double h, const char* colour) {
  std::ostringstream os;
  os << "<polyline fill=\"none\" stroke=\"" << colour << "\" stroke-width=\"1.5\" points=\"";
  const size_t n = values.size();
  for (size_t i = 0; i < n; ++i) {
    double v = std::isfinite(values[i]) ? values[i] : worst;
    v = std::min(hi, std::max(lo, v));
    const double x = x0 + (n > 1 ? w * static_cast<double>(i) / static_cast<double>(n - 1) : 0);
    const double y = y0 + h - h * (v - lo) / (hi - lo);
    os << x << "," << y << " ";
  }
  os << "\"/>";
  return os.str();
}

}  // namespace

std::string CompareCsv(const CompareReport& report) {
  std::ostringstream csv;
  csv << "Index,OpType,NPUDump,DataType,GroundTruth,DataType,TensorIndex,Shape,"
         "CosineSimilarity,MaxAbsoluteError,AccumulatedRelativeError,RelativeEuclideanDistance,"
         "KullbackLeiblerDivergence,StandardDeviation,MeanAbsoluteError,RootMeanSquareError,"
         "MaxRelativeError,MeanRelativeError,CompareFailReason\n";
  auto q = [](const std::string& s) {
    std::string out = "\"";
    for (char c : s) out += c == '"' ? std::string("\"\"") : std::string(1, c);
    return out + "\"";
  };
  for (const auto& r : report.rows) {
    const auto& m = r.metrics;
    csv << r.index << "," << r.op_type << "," << q(r.op_name) << "," << q(r.dtype) << ","
        << q(r.truth_op) << "," << r.truth_dtype << "," << q(r.tensor) << "," << q(r.shape) << ","
        << Fmt(m.cosine) << "," << Fmt(m.max_abs) << "," << Fmt(m.accumulated_rel) << ","
        << Fmt(m.red) << "," << Fmt(m.kld) << "," << q(Fmt(m.std_ours) + ";" + Fmt(m.std_truth))
        << "," << Fmt(m.mae) << "," << Fmt(m.rmse) << "," << Fmt(m.max_rel) << ","
        << Fmt(m.mean_rel) << "," << q(m.fail_reason) << "\n";
  }
  return csv.str();
}

std::string CompareSummary(const CompareReport& report) {
  std::ostringstream s;
  s << report.rows.size() << " tensors compared (precision mode "
    << (report.precision_mode.empty() ? "?" : report.precision_mode) << ")\n";
  if (!report.reference.empty()) s << "reference: " << report.reference << "\n";
  double worst = 1;
  for (const auto& r : report.rows) worst = std::min(worst, r.metrics.cosine);
  s << "lowest cosine similarity: " << Fmt(worst) << "\n";
  if (report.first_failure < 0) {
    s << "every tensor is within CANN's thresholds\n";
    return s.str();
  }
  const CompareRow& r = report.rows[report.first_failure];
  s << "first op breaking a threshold: " << r.op_name << " (" << r.op_type << ", computed in "
    << r.dtype << "), tensor " << r.tensor << ": " << r.metrics.fail_reason << "\n";
  s << "fix: " << report.suggestion << "\n";
  return s.str();
}

std::string CompareHtml(const CompareReport& report) {
  std::ostringstream os;
  os << "<!DOCTYPE html><html><head><meta charset=\"utf-8\"><title>ocann-compare</title>"
        "<style>body{font-family:sans-serif;margin:24px;color:#222}"
        "table{border-collapse:collapse;font-size:13px}td,th{border:1px solid #ccc;"
        "padding:3px 6px;text-align:right}td.l,th.l{text-align:left}tr.fail{background:#fde2e2}"
        "pre{background:#f4f4f4;padding:8px;white-space:pre-wrap}</style></head><body>\n";
  os << "<h1>Accuracy comparison</h1>\n<pre>" << Escape(CompareSummary(report)) << "</pre>\n";
  std::vector<double> cos, red;
  for (const auto& r : report.rows) {
    cos.push_back(r.metrics.cosine);
    red.push_back(r.metrics.red);
  }
  const double W = 900, H = 260, L = 60, T = 20, PW = W - L - 20, PH = H - T - 40;
  os << "<h2>Per layer</h2>\n<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"" << W
     << "\" height=\"" << H << "\">";
  os << "<rect x=\"" << L << "\" y=\"" << T << "\" width=\"" << PW << "\" height=\"" << PH
     << "\" fill=\"#fafafa\" stroke=\"#999\"/>";
  // Cosine on [0.9, 1] (left axis), RED on [0, 0.2] (right), the thresholds dashed.
  const double cos_threshold_y = T + PH - PH * (0.99 - 0.9) / 0.1;
  os << "<line x1=\"" << L << "\" x2=\"" << L + PW << "\" y1=\"" << cos_threshold_y << "\" y2=\""
     << cos_threshold_y << "\" stroke=\"#1f77b4\" stroke-dasharray=\"4 3\"/>";
  const double red_threshold_y = T + PH - PH * 0.05 / 0.2;
  os << "<line x1=\"" << L << "\" x2=\"" << L + PW << "\" y1=\"" << red_threshold_y << "\" y2=\""
     << red_threshold_y << "\" stroke=\"#d62728\" stroke-dasharray=\"4 3\"/>";
  os << Polyline(cos, 0.9, 1.0, 0.9, L, T, PW, PH, "#1f77b4");
  os << Polyline(red, 0.0, 0.2, 0.2, L, T, PW, PH, "#d62728");
  os << "<text x=\"4\" y=\"" << T + 10 << "\" font-size=\"11\" fill=\"#1f77b4\">cos 1.0</text>"
     << "<text x=\"4\" y=\"" << T + PH << "\" font-size=\"11\" fill=\"#1f77b4\">cos 0.9</text>"
     << "<text x=\"" << L << "\" y=\"" << H - 8 << "\" font-size=\"12\">layer index (0 to "
     << (report.rows.empty() ? 0 : report.rows.size() - 1)
     << "); blue: cosine similarity (threshold 0.99), red: relative Euclidean distance on [0, "
        "0.2] (threshold 0.05)</text>";
  if (report.first_failure >= 0 && report.rows.size() > 1) {
    const double x = L + PW * report.first_failure / static_cast<double>(report.rows.size() - 1);
    os << "<line x1=\"" << x << "\" x2=\"" << x << "\" y1=\"" << T << "\" y2=\"" << T + PH
       << "\" stroke=\"#000\" stroke-width=\"1\"/>";
  }
  os << "</svg>\n<h2>Tensors</h2>\n<table><tr><th>#</th><th class=\"l\">op</th><th "
        "class=\"l\">type</th><th class=\"l\">dtype</th><th class=\"l\">tensor</th><th "
        "class=\"l\">shape</th><th>cosine</th><th>RED</th><th>max abs</th><th>RMSE</th><th "
        "class=\"l\">fail reason</th></tr>\n";
  for (const auto& r : report.rows) {
    const auto& m = r.metrics;
    os << "<tr" << (m.fail_reason.empty() ? "" : " class=\"fail\"") << "><td>" << r.index
       << "</td><td class=\"l\">" << Escape(r.op_name) << "</td><td class=\"l\">"
       << Escape(r.op_type) << "</td><td class=\"l\">" << Escape(r.dtype) << "</td><td class=\"l\">"
       << Escape(r.tensor) << "</td><td class=\"l\">" << r.shape << "</td><td>" << Fmt(m.cosine)
       << "</td><td>" << Fmt(m.red) << "</td><td>" << Fmt(m.max_abs) << "</td><td>" << Fmt(m.rmse)
       << "</td><td class=\"l\">" << Escape(m.fail_reason) << "</td></tr>\n";
  }
  os << "</table></body></html>\n";
  return os.str();
}

}  // namespace oc
