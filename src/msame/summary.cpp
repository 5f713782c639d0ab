// What msame reports besides the run itself: the inputs' and outputs' dims (--debug) and the
// timing summary, CANN's average lines followed by the distribution and the throughput.
#include <algorithm>
#include <cmath>
#include <cstdio>

#include "msame/msame_internal.h"

namespace oc::msame {

void Msame::PrintDebugDims() const {
  for (size_t i = 0; i < n_in_; ++i) {
    aclmdlIODims d{};
    aclmdlGetInputDims(desc_, i, &d);
    std::string dims;
    for (size_t k = 0; k < d.dimCount; ++k) dims += (k ? "," : "") + std::to_string(d.dims[k]);
    std::printf("[DEBUG] input %zu: name %s, dims [%s], size %zu bytes (this run %zu)\n", i, d.name,
                dims.c_str(), aclmdlGetInputSizeByIndex(desc_, i), in_sizes_[i]);
  }
  for (size_t i = 0; i < n_out_; ++i) {
    aclmdlIODims d{};
    aclmdlGetOutputDims(desc_, i, &d);
    std::string dims;
    for (size_t k = 0; k < d.dimCount; ++k) dims += (k ? "," : "") + std::to_string(d.dims[k]);
    std::printf("[DEBUG] output %zu: name %s, dims [%s], size %zu bytes\n", i, d.name, dims.c_str(),
                aclmdlGetOutputSizeByIndex(desc_, i));
  }
}

void Msame::PrintSummary() const {
  double sum = 0;
  for (double t : times_) sum += t;
  // CANN's msame prints folder runs with two decimals.
  const char* avg_fmt =
      folder_mode_ ? "Inference average time : %.2f ms\n" : "Inference average time: %f ms\n";
  std::printf(avg_fmt, sum / static_cast<double>(times_.size()));
  if (times_.size() > 1)
    std::printf(folder_mode_ ? "Inference average time without first time: %.2f ms\n"
                             : "Inference average time without first time: %f ms\n",
                (sum - times_[0]) / static_cast<double>(times_.size() - 1));
  // Beyond CANN's lines: the distribution and the throughput (batch = the first input's
  // first dim when it is known).
  std::vector<double> sorted = times_;
  std::sort(sorted.begin(), sorted.end());
  auto pct = [&](double p) {
    const size_t at = static_cast<size_t>(std::ceil(p / 100.0 * sorted.size()));
    return sorted[std::min(sorted.size() - 1, at ? at - 1 : 0)];
  };
  const double mean = sum / static_cast<double>(times_.size());
  int64_t batch = 1;
  if (!data_inputs_.empty() && !shapes_[data_inputs_[0]].empty() && shapes_[data_inputs_[0]][0] > 0)
    batch = shapes_[data_inputs_[0]][0];
  std::printf(
      "[INFO] summary: %zu runs, min %.3f ms, mean %.3f ms, median %.3f ms, p90 %.3f ms, p99 %.3f "
      "ms, max %.3f ms, throughput %.2f samples/s (batch %lld)\n",
      times_.size(), sorted.front(), mean, pct(50), pct(90), pct(99), sorted.back(),
      mean > 0 ? 1000.0 * static_cast<double>(batch) / mean : 0.0, static_cast<long long>(batch));
}

}  // namespace oc::msame
