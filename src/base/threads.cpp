#include "base/threads.h"

#include <thread>

#include "base/config.h"

namespace oc {

int DefaultNumThreads() {
  if (const int n = GlobalConfig().num_threads; n >= 1) return n;
  unsigned hw = std::thread::hardware_concurrency();
  return hw == 0 ? 1 : static_cast<int>(hw);
}

}  // namespace oc
