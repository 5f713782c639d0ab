#include "base/log.h"

#include <atomic>
#include <cstdio>
#include <cstdlib>

namespace oc {
namespace {

LogLevel InitialLevel() {
  LogLevel level = LogLevel::kNull;
  if (const char* env = std::getenv("OCANN_LOG_LEVEL")) ParseLogLevel(env, &level);
  return level;
}

std::atomic<int>& LevelStore() {
  static std::atomic<int> level{static_cast<int>(InitialLevel())};
  return level;
}

}  // namespace

void SetLogLevel(LogLevel level) { LevelStore() = static_cast<int>(level); }
LogLevel GetLogLevel() { return static_cast<LogLevel>(LevelStore().load()); }

bool ParseLogLevel(const std::string& name, LogLevel* out) {
  static const struct {
    const char* name;
    LogLevel level;
  } kNames[] = {{"debug", LogLevel::kDebug},
                {"info", LogLevel::kInfo},
                {"warning", LogLevel::kWarning},
                {"error", LogLevel::kError},
                {"null", LogLevel::kNull}};
  for (const auto& n : kNames) {
    if (name == n.name) {
      *out = n.level;
      return true;
    }
  }
  return false;
}

void LogMessage(LogLevel level, const std::string& msg) {
  static const char* kTags[] = {"DEBUG", "INFO", "WARNING", "ERROR", ""};
  std::fprintf(stderr, "[%s] %s\n", kTags[static_cast<int>(level)], msg.c_str());
}

}  // namespace oc
