#include "kernels/cpu/conv_algorithm.h"

#include <omp.h>

#include <chrono>
#include <cstring>
#include <map>
#include <mutex>

#include "kernels/cpu/dnnl_common.h"

namespace oc {
namespace {

using Pd = dnnl::convolution_forward::primitive_desc;

std::string Dims(const dnnl::memory::desc& md) {
  std::string s;
  for (auto d : md.dims()) s += std::to_string(d) + "x";
  return s;
}

dnnl::memory ZeroMemory(const dnnl::memory::desc& md) {
  dnnl::memory m(md, CpuEngine());
  if (md.get_size()) std::memset(m.get_data_handle(), 0, md.get_size());
  return m;
}

// Milliseconds one run takes: the reorders into and out of the primitive's layouts and
// the convolution itself, best of two after a warm-up.
double TimeConv(const Pd& pd, const dnnl::memory::desc& src_user,
                const dnnl::memory::desc& dst_user) {
  auto& eng = CpuEngine();
  dnnl::memory src_u = ZeroMemory(src_user), dst_u = ZeroMemory(dst_user);
  dnnl::memory src = ZeroMemory(pd.src_desc()), dst = ZeroMemory(pd.dst_desc());
  dnnl::memory wei = ZeroMemory(pd.weights_desc()), bias = ZeroMemory(pd.bias_desc());
  dnnl::memory scratch = ZeroMemory(pd.scratchpad_desc());
  const bool in = pd.src_desc() != src_user, out = pd.dst_desc() != dst_user;
  dnnl::reorder to, from;
  if (in) to = dnnl::reorder(dnnl::reorder::primitive_desc(eng, src_user, eng, pd.src_desc()));
  if (out) from = dnnl::reorder(dnnl::reorder::primitive_desc(eng, pd.dst_desc(), eng, dst_user));
  dnnl::convolution_forward conv(pd);
  auto once = [&] {
    if (in) DnnlExecute(to, {{DNNL_ARG_FROM, &src_u}, {DNNL_ARG_TO, &src}});
    DnnlExecute(conv, {{DNNL_ARG_SRC, &src},
                       {DNNL_ARG_WEIGHTS, &wei},
                       {DNNL_ARG_BIAS, &bias},
                       {DNNL_ARG_DST, &dst},
                       {DNNL_ARG_SCRATCHPAD, &scratch}});
    if (out) DnnlExecute(from, {{DNNL_ARG_FROM, &dst}, {DNNL_ARG_TO, &dst_u}});
    CpuStream().wait();
  };
  once();
  double best = 1e30;
  for (int i = 0; i < 2; ++i) {
    const auto t0 = std::chrono::steady_clock::now();
    once();
    best = std::min(
        best,
        std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count());
  }
  return best;
}

}  // namespace

Pd ChooseConvAlgorithm(const Pd& direct, const std::function<Pd()>& make_winograd,
                       const dnnl::memory::desc& src_user, const dnnl::memory::desc& dst_user,
                       const std::string& signature, ConvAlgoMode mode) {
  if (mode == ConvAlgoMode::kDirect) return direct;
  if (mode == ConvAlgoMode::kAuto) {
    // The shapes where Winograd measured clearly faster on AVX-512 (docs/performance.md:
    // 1.4-3x for 32 to 256 channels at 14x14 and larger, 1.06-1.14x below): at least 32
    // input and output channels and 196 output positions. Timing every layer at load
    // (`measure`) costs about 100 ms on resnet50, a third of its load time.
    const auto w = direct.weights_desc().dims();  // O, I, 3, 3
    const auto y = direct.dst_desc().dims();      // N, O, H, W
    if (w.size() != 4 || y.size() != 4 || w[0] < 32 || w[1] < 32 || y[2] * y[3] < 196)
      return direct;
  }
  Pd wino;
  try {
    wino = make_winograd();
  } catch (const dnnl::error&) {
    return direct;  // no Winograd kernel for this shape or machine
  }
  if (std::string(wino.impl_info_str()).rfind("ref", 0) == 0) return direct;
  if (mode != ConvAlgoMode::kMeasure) return wino;
  // Timed once per shape, post-ops and thread count in the process.
  static std::mutex mutex;
  static std::map<std::string, bool> faster;  // key -> Winograd won
  const std::string key = Dims(direct.src_desc()) + "|" + Dims(direct.weights_desc()) + "|" +
                          Dims(direct.dst_desc()) + "|" + signature + "|" +
                          std::to_string(omp_get_max_threads());
  std::lock_guard<std::mutex> lock(mutex);
  auto it = faster.find(key);
  if (it == faster.end()) {
    // Winograd must win clearly: its arithmetic rounds differently (errors ~1e-6 relative).
    const bool wins =
        TimeConv(wino, src_user, dst_user) < 0.9 * TimeConv(direct, src_user, dst_user);
    it = faster.emplace(key, wins).first;
  }
  return it->second ? wino : direct;
}

}  // namespace oc
