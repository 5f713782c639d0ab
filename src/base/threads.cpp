#include "base/threads.h"

#include <cstdlib>
#include <thread>

namespace oc {

int DefaultNumThreads() {
  if (const char* env = std::getenv("OCANN_NUM_THREADS")) {
    int n = std::atoi(env);
    if (n >= 1) return n;
  }
  unsigned hw = std::thread::hardware_concurrency();
  return hw == 0 ? 1 : static_cast<int>(hw);
}

}  // namespace oc
