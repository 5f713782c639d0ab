// CANN's comparison metrics of one tensor against its reference, and the thresholds that
// make a difference a precision problem.
#include <algorithm>
#include <cmath>

#include "compare/compare.h"

namespace oc {
namespace {

double Sum(const std::vector<double>& v) {
  double s = 0;
  for (double a : v) s += a;
  return s;
}

double StdDev(const std::vector<double>& v) {
  if (v.empty()) return 0;
  const double mean = Sum(v) / static_cast<double>(v.size());
  double acc = 0;
  for (double a : v) acc += (a - mean) * (a - mean);
  return std::sqrt(acc / static_cast<double>(v.size()));
}

// Min-max normalised to [0, 1], then to a distribution (sum 1).
std::vector<double> Distribution(const std::vector<double>& v) {
  const auto [lo, hi] = std::minmax_element(v.begin(), v.end());
  const double span = *hi - *lo;
  std::vector<double> p(v.size());
  for (size_t i = 0; i < v.size(); ++i) p[i] = span > 0 ? (v[i] - *lo) / span : 1.0;
  const double s = Sum(p);
  for (double& a : p) a = s > 0 ? a / s : 0;
  return p;
}

}  // namespace

TensorMetrics CompareTensors(const std::vector<double>& x, const std::vector<double>& y) {
  TensorMetrics m;
  const size_t n = std::min(x.size(), y.size());
  if (x.size() != y.size()) {
    m.fail_reason = "the tensors differ in size";
    return m;
  }
  bool finite = true;
  for (double a : x) finite = finite && std::isfinite(a);
  double xx = 0, yy = 0, xy = 0, abs_sum = 0, y_abs = 0, sq = 0, rel_sum = 0;
  size_t rel_count = 0;
  constexpr double kEps = 1e-6;
  for (size_t i = 0; i < n; ++i) {
    const double d = x[i] - y[i];
    xx += x[i] * x[i];
    yy += y[i] * y[i];
    xy += x[i] * y[i];
    abs_sum += std::fabs(d);
    y_abs += std::fabs(y[i]);
    sq += d * d;
    m.max_abs = std::max(m.max_abs, std::fabs(d));
    if (std::fabs(y[i]) > kEps) {
      const double rel = std::fabs(x[i] / y[i] - 1.0);
      m.max_rel = std::max(m.max_rel, rel);
      rel_sum += rel;
      ++rel_count;
    }
  }
  m.cosine = (xx == 0 && yy == 0) ? 1.0 : (xx == 0 || yy == 0) ? 0.0 : xy / std::sqrt(xx * yy);
  m.accumulated_rel = y_abs > 0 ? abs_sum / y_abs : (abs_sum > 0 ? INFINITY : 0);
  m.red = yy > 0 ? std::sqrt(sq / yy) : (sq > 0 ? INFINITY : 0);
  m.mae = n ? abs_sum / static_cast<double>(n) : 0;
  m.rmse = n ? std::sqrt(sq / static_cast<double>(n)) : 0;
  m.mean_rel = rel_count ? rel_sum / static_cast<double>(rel_count) : 0;
  m.std_ours = StdDev(x);
  m.std_truth = StdDev(y);
  if (finite && n) {
    const auto p = Distribution(y), q = Distribution(x);
    for (size_t i = 0; i < n; ++i)
      if (p[i] > 0) m.kld += p[i] * std::log(p[i] / std::max(q[i], 1e-12));
  }
  std::vector<std::string> why;
  if (!finite) why.push_back("NaN or Inf in the .om's tensor");
  if (!(m.cosine >= 0.99)) why.push_back("cosine < 0.99");
  if (!(m.red <= 0.05)) why.push_back("RED > 0.05");
  if (!(m.kld <= 0.005)) why.push_back("KLD > 0.005");
  if (!(m.rmse <= 1.0)) why.push_back("RMSE > 1.0");
  if (!(m.mean_rel <= 1.0)) why.push_back("MeanRelativeError > 1.0");
  for (size_t i = 0; i < why.size(); ++i) m.fail_reason += (i ? "; " : "") + why[i];
  return m;
}

}  // namespace oc
