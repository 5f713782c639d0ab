// msame's run loop: for each set of input files, feed them, execute --loop times (each
// execution timed and printed) and write the outputs.
#include <chrono>
#include <cstdio>

#include "msame/msame_internal.h"

namespace oc::msame {

bool Msame::RunAll(const Options& o) {
  for (size_t r = 0; r < runs_.size(); ++r) {
    if (!FeedInputs(r)) return false;
    for (int l = 0; l < o.loop; ++l) {
      auto t0 = std::chrono::steady_clock::now();
      aclError e = aclmdlExecute(model_id_, in_, out_);
      auto t1 = std::chrono::steady_clock::now();
      if (!Check(e, "model execute")) return false;
      double ms = std::chrono::duration<double, std::milli>(t1 - t0).count();
      times_.push_back(ms);
      std::printf("Inference time: %gms\n", ms);
    }
    if (!out_dir_.empty() && !WriteOutputs(o, r)) return false;
  }
  return true;
}

}  // namespace oc::msame
