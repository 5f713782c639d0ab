// Minimal leveled logging to stderr. Level from OCANN_LOG_LEVEL or SetLogLevel
// (debug, info, warning, error, null), matching atc's --log values.
#pragma once

#include <sstream>
#include <string>

namespace oc {

enum class LogLevel { kDebug = 0, kInfo = 1, kWarning = 2, kError = 3, kNull = 4 };

void SetLogLevel(LogLevel level);
LogLevel GetLogLevel();
bool ParseLogLevel(const std::string& name, LogLevel* out);
void LogMessage(LogLevel level, const std::string& msg);

}  // namespace oc

#define OC_LOG(level, expr)                                      \
  do {                                                           \
    if (::oc::LogLevel::level >= ::oc::GetLogLevel()) {          \
      std::ostringstream oc_log_ss_;                             \
      oc_log_ss_ << expr;                                        \
      ::oc::LogMessage(::oc::LogLevel::level, oc_log_ss_.str()); \
    }                                                            \
  } while (0)
