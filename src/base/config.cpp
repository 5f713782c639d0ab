#include "base/config.h"

#include <algorithm>
#include <atomic>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <mutex>

namespace oc {
namespace {

// An on/off switch: unset gives `fallback`, "0" and "1" say off and on; any other value is
// recorded as the error that refuses the load, naming the variable.
CheckedSetting<bool> ParseSwitch(const char* name, const char* env, bool fallback) {
  CheckedSetting<bool> s{fallback, {}};
  if (!env) return s;
  if (std::strcmp(env, "0") == 0) {
    s.value = false;
  } else if (std::strcmp(env, "1") == 0) {
    s.value = true;
  } else {
    s.error = std::string(name) + "=" + env + " is not a valid value: use 0 or 1";
  }
  return s;
}

CheckedSetting<ConvAlgoMode> ParseConvAlgo(const char* env) {
  const std::string v = env ? env : "auto";
  if (v == "auto") return {ConvAlgoMode::kAuto, {}};
  if (v == "measure") return {ConvAlgoMode::kMeasure, {}};
  if (v == "direct") return {ConvAlgoMode::kDirect, {}};
  if (v == "winograd") return {ConvAlgoMode::kWinograd, {}};
  return {ConvAlgoMode::kAuto,
          "OCANN_CONV_ALGO=" + v + " is not a valid value: use auto, measure, direct or winograd"};
}

// A positive decimal integer, else nothing.
std::optional<uint64_t> ParseByteCount(const char* env) {
  // Digits only: strtoull would take "-3" as 2^64 - 3 and skip leading blanks.
  if (!env || *env < '0' || *env > '9') return std::nullopt;
  char* end = nullptr;
  const unsigned long long v = std::strtoull(env, &end, 10);
  if (end && *end == '\0' && v > 0) return static_cast<uint64_t>(v);
  return std::nullopt;
}

std::optional<std::string> Optional(const char* env) {
  return env ? std::optional<std::string>(env) : std::nullopt;
}

// The installed configuration. Installed ones are never freed: GlobalConfig hands out
// references that callers keep (prepare contexts, cached settings).
std::atomic<const Config*> g_current{nullptr};

const Config* Keep(Config config) {
  static std::mutex mutex;
  static std::vector<std::unique_ptr<const Config>>* kept =
      new std::vector<std::unique_ptr<const Config>>;  // never destroyed: see above
  std::lock_guard<std::mutex> lock(mutex);
  kept->push_back(std::make_unique<const Config>(std::move(config)));
  return kept->back().get();
}

// The environment's configuration, parsed at the first call.
const Config& EnvironmentConfig() {
  static const Config* from_env = Keep(ConfigFromEnvironment());
  return *from_env;
}

// What GlobalConfig returns: the environment's configuration unless one is installed.
const Config& Installed() {
  if (const Config* c = g_current.load(std::memory_order_acquire)) return *c;
  const Config* none = nullptr;
  g_current.compare_exchange_strong(none, &EnvironmentConfig(), std::memory_order_acq_rel);
  return *g_current.load(std::memory_order_acquire);
}

}  // namespace

Config ParseConfig(const EnvLookup& lookup) {
  Config c;
  if (const char* env = lookup("OCANN_NUM_THREADS")) c.num_threads = std::max(std::atoi(env), 0);
  if (const char* env = lookup("OCANN_LOG_LEVEL")) ParseLogLevel(env, &c.log_level);
  if (const char* env = lookup("ASCEND_GLOBAL_LOG_LEVEL");
      env && env[0] >= '0' && env[0] <= '4' && env[1] == '\0')
    c.plog_level = static_cast<LogLevel>(env[0] - '0');
  if (const char* env = lookup("ASCEND_SLOG_PRINT_TO_STDOUT"))
    c.plog_to_stdout = std::strcmp(env, "1") == 0;
  // Both looked up always, so that every name the parse knows is asked (the docs test).
  const char* log_path = lookup("ASCEND_PROCESS_LOG_PATH");
  const char* home = lookup("HOME");
  if (log_path && *log_path)
    c.log_root = log_path;
  else if (home && *home)
    c.log_root = std::string(home) + "/ascend/log";
  if (const char* env = lookup("OCANN_PROFILE")) c.profile = env[0] == '1';
  if (const char* env = lookup("OCANN_BACKENDS")) c.backends = env;
  c.conv_algo = ParseConvAlgo(lookup("OCANN_CONV_ALGO"));
  c.bf16_compute = ParseSwitch("OCANN_BF16_COMPUTE", lookup("OCANN_BF16_COMPUTE"), true);
  c.int8_plain = ParseSwitch("OCANN_INT8_PLAIN", lookup("OCANN_INT8_PLAIN"), false);
  // The old name still works when the new one is unset; either way its use is reported.
  const char* max_bytes = lookup("OCANN_MAX_TENSOR_BYTES");
  const char* old_max_bytes = lookup("OC_MAX_TENSOR_BYTES");
  if (old_max_bytes)
    c.warnings.push_back("OC_MAX_TENSOR_BYTES is deprecated: set OCANN_MAX_TENSOR_BYTES instead" +
                         std::string(max_bytes ? " (which is set, and used)" : ""));
  if (auto v = ParseByteCount(max_bytes ? max_bytes : old_max_bytes)) c.max_tensor_bytes = *v;
  if (auto v = ParseByteCount(lookup("OCANN_MAX_LOOP_ITERATIONS"))) c.max_loop_iterations = *v;
  if (const char* env = lookup("OCANN_ATC"); env && *env) c.atc = env;
  c.ort_reference = Optional(lookup("OCANN_ORT_REFERENCE"));
  c.python = Optional(lookup("OCANN_PYTHON"));
  c.ascendc_report = lookup("OCANN_ASCENDC_REPORT") != nullptr;
  if (const char* env = lookup("OCANN_SOC")) c.soc = env;
  if (const char* env = lookup("ASCEND_CUSTOM_OPP_PATH")) c.custom_opp_path = env;
  c.opp_path = Optional(lookup("ASCEND_OPP_PATH"));
  return c;
}

// The one place (outside the Ascend C emulation and the OpenMP wait policy) that reads the
// process's environment.
Config ConfigFromEnvironment() {
  return ParseConfig([](const char* name) -> const char* { return std::getenv(name); });
}

const Config& GlobalConfigForLogging() { return Installed(); }

const Config& GlobalConfig() {
  const Config& c = Installed();
  // Once per process, after installing: the warnings go through logging, which reads the
  // configuration (GlobalConfigForLogging) and must find it.
  static std::atomic<bool> reported{false};
  if (!reported.load(std::memory_order_acquire) &&
      !reported.exchange(true, std::memory_order_acq_rel))
    LogConfigWarnings(EnvironmentConfig());
  return c;
}

void LogConfigWarnings(const Config& config) {
  for (const std::string& w : config.warnings) OC_LOG(kWarning, w);
}

ScopedConfig::ScopedConfig(Config config) : previous_(&GlobalConfigForLogging()) {
  g_current.store(Keep(std::move(config)), std::memory_order_release);
}

ScopedConfig::~ScopedConfig() { g_current.store(previous_, std::memory_order_release); }

}  // namespace oc
