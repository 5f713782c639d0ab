// What every harness shares: logs off (a Status is a fine outcome, its message is noise).
#pragma once

#include <cstdlib>

#include "base/log.h"

namespace oc::fuzz {

inline void QuietLogs() {
  static const bool quiet = [] {
    SetLogLevel(LogLevel::kNull);
    return true;
  }();
  (void)quiet;
}

// OC_FUZZ_IMPORT_ONLY=1: the importer harnesses stop after the import (no compilation, no
// round trip), so that a run exercises the custom mutators and the readers alone, at their
// own speed, with the readers' coverage still guiding it.
inline bool ImportOnly() {
  static const bool only = std::getenv("OC_FUZZ_IMPORT_ONLY") != nullptr;
  return only;
}

}  // namespace oc::fuzz
