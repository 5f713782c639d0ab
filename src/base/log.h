// Leveled logging, two sinks:
// - stderr, from OCANN_LOG_LEVEL or SetLogLevel (debug, info, warning, error, null: atc's
//   --log values), off by default;
// - CANN's plog files: <ASCEND_PROCESS_LOG_PATH or ~/ascend/log>/debug/plog/
//   plog-<pid>_<YYYYMMDDhhmmssmmm>.log, lines "[LEVEL] MODULE(PID,PNAME):date [file:line]text",
//   level from ASCEND_GLOBAL_LOG_LEVEL (0 debug .. 3 error, the default; 4 none), written to
//   stdout instead when ASCEND_SLOG_PRINT_TO_STDOUT=1. The file is created at the first line.
#pragma once

#include <sstream>
#include <string>

namespace oc {

enum class LogLevel { kDebug = 0, kInfo = 1, kWarning = 2, kError = 3, kNull = 4 };

void SetLogLevel(LogLevel level);
LogLevel GetLogLevel();
// The lowest level any sink takes (what OC_LOG formats at all).
LogLevel MinLogLevel();
bool ParseLogLevel(const std::string& name, LogLevel* out);
void LogMessage(LogLevel level, const std::string& msg, const char* file = nullptr, int line = 0);
// The module name plog lines carry (ASCENDCL unless a tool names itself, e.g. ATC).
void SetLogModule(const std::string& module);
// The plog file this process wrote, or empty when it wrote none.
std::string PlogPath();

}  // namespace oc

#define OC_LOG(level, expr)                                                          \
  do {                                                                               \
    if (::oc::LogLevel::level >= ::oc::MinLogLevel()) {                              \
      std::ostringstream oc_log_ss_;                                                 \
      oc_log_ss_ << expr;                                                            \
      ::oc::LogMessage(::oc::LogLevel::level, oc_log_ss_.str(), __FILE__, __LINE__); \
    }                                                                                \
  } while (0)
