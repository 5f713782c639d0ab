#include "base/log.h"

#include <sys/stat.h>
#include <sys/time.h>
#include <unistd.h>

#include <atomic>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <ctime>
#include <mutex>

#include "base/config.h"

namespace oc {
namespace {

// The settings come from GlobalConfigForLogging: GlobalConfig logs its warnings through here.
std::atomic<int>& LevelStore() {
  static std::atomic<int> level{static_cast<int>(GlobalConfigForLogging().log_level)};
  return level;
}

LogLevel PlogLevel() {
  static const LogLevel level = GlobalConfigForLogging().plog_level;
  return level;
}

bool PlogToStdout() {
  static const bool on = GlobalConfigForLogging().plog_to_stdout;
  return on;
}

std::mutex g_plog_mutex;
std::FILE* g_plog = nullptr;
bool g_plog_failed = false;
std::string g_plog_path;
std::string g_module = "ASCENDCL";

std::string ProcessName() {
  char buf[256] = {};
  std::FILE* f = std::fopen("/proc/self/comm", "r");
  if (f) {
    if (!std::fgets(buf, sizeof(buf), f)) buf[0] = '\0';
    std::fclose(f);
  }
  std::string s = buf;
  while (!s.empty() && (s.back() == '\n' || s.back() == '\r')) s.pop_back();
  return s.empty() ? "unknown" : s;
}

bool MakeDirs(const std::string& path) {
  for (size_t at = 1; at <= path.size(); ++at) {
    if (at != path.size() && path[at] != '/') continue;
    const std::string part = path.substr(0, at);
    if (mkdir(part.c_str(), 0750) != 0 && errno != EEXIST) return false;
  }
  return true;
}

// Opens the process's plog file; false (once, then quietly) when it cannot be written.
bool OpenPlog() {
  if (g_plog) return true;
  if (g_plog_failed) return false;
  const std::string& root = GlobalConfigForLogging().log_root;
  if (root.empty()) {
    g_plog_failed = true;
    return false;
  }
  const std::string dir = root + "/debug/plog";
  timeval tv{};
  gettimeofday(&tv, nullptr);
  tm t{};
  localtime_r(&tv.tv_sec, &t);
  char stamp[64];
  std::snprintf(stamp, sizeof(stamp), "%04d%02d%02d%02d%02d%02d%03ld", t.tm_year + 1900,
                t.tm_mon + 1, t.tm_mday, t.tm_hour, t.tm_min, t.tm_sec,
                static_cast<long>(tv.tv_usec / 1000));
  const std::string path = dir + "/plog-" + std::to_string(getpid()) + "_" + stamp + ".log";
  if (MakeDirs(dir)) g_plog = std::fopen(path.c_str(), "a");
  if (!g_plog) {
    g_plog_failed = true;
    std::fprintf(stderr, "[WARNING] cannot write the log file %s: %s\n", path.c_str(),
                 std::strerror(errno));
    return false;
  }
  g_plog_path = path;
  return true;
}

void WritePlog(LogLevel level, const std::string& msg, const char* file, int line) {
  static const char* kTags[] = {"DEBUG", "INFO", "WARNING", "ERROR", ""};
  timeval tv{};
  gettimeofday(&tv, nullptr);
  tm t{};
  localtime_r(&tv.tv_sec, &t);
  char when[64];
  std::snprintf(when, sizeof(when), "%04d-%02d-%02d-%02d:%02d:%02d.%03ld.%03ld", t.tm_year + 1900,
                t.tm_mon + 1, t.tm_mday, t.tm_hour, t.tm_min, t.tm_sec,
                static_cast<long>(tv.tv_usec / 1000), static_cast<long>(tv.tv_usec % 1000));
  static const std::string pname = ProcessName();
  const char* base = file ? std::strrchr(file, '/') : nullptr;
  std::lock_guard<std::mutex> lock(g_plog_mutex);
  std::FILE* out = PlogToStdout() ? stdout : (OpenPlog() ? g_plog : nullptr);
  if (!out) return;
  std::fprintf(out, "[%s] %s(%d,%s):%s [%s:%d]%s\n", kTags[static_cast<int>(level)],
               g_module.c_str(), static_cast<int>(getpid()), pname.c_str(), when,
               base ? base + 1 : (file ? file : "-"), line, msg.c_str());
  std::fflush(out);
}

}  // namespace

void SetLogLevel(LogLevel level) { LevelStore() = static_cast<int>(level); }
LogLevel GetLogLevel() { return static_cast<LogLevel>(LevelStore().load()); }
LogLevel MinLogLevel() {
  const int a = LevelStore().load(), b = static_cast<int>(PlogLevel());
  return static_cast<LogLevel>(a < b ? a : b);
}

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

void LogMessage(LogLevel level, const std::string& msg, const char* file, int line) {
  static const char* kTags[] = {"DEBUG", "INFO", "WARNING", "ERROR", ""};
  if (level == LogLevel::kNull) return;
  if (level >= GetLogLevel())
    std::fprintf(stderr, "[%s] %s\n", kTags[static_cast<int>(level)], msg.c_str());
  if (level >= PlogLevel()) WritePlog(level, msg, file, line);
}

void SetLogModule(const std::string& module) {
  std::lock_guard<std::mutex> lock(g_plog_mutex);
  g_module = module;
}

std::string PlogPath() {
  std::lock_guard<std::mutex> lock(g_plog_mutex);
  return g_plog_path;
}

}  // namespace oc
