// What every harness shares: logs off (a Status is a fine outcome, its message is noise).
#pragma once

#include "base/log.h"

namespace oc::fuzz {

inline void QuietLogs() {
  static const bool quiet = [] {
    SetLogLevel(LogLevel::kNull);
    return true;
  }();
  (void)quiet;
}

}  // namespace oc::fuzz
