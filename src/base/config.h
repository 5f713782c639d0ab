// The process's settings, read from the environment once (as TFLM and IREE take theirs: a
// typed configuration handed down, so that kernels and passes never read the environment and
// tests set values without touching it). ParseConfig is the one reader; GlobalConfig holds the
// process's copy for code that runs before any API call gives it one (logging, the runtime).
// Not here: the Ascend C emulation's own settings (src/ascendc) and the OpenMP wait policy
// (base/omp_wait_policy.cpp, read by a load-time constructor before anything else runs).
#pragma once

#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "base/log.h"
#include "base/status.h"

namespace oc {

// OCANN_CONV_ALGO (kernels/cpu/conv_algorithm.h says what each does).
enum class ConvAlgoMode { kAuto, kMeasure, kDirect, kWinograd };

// A setting whose value in the environment can be invalid. The parse records the error
// rather than failing, so that only what uses the setting fails (a model's load, naming the
// variable) and a misspelt switch is never ignored.
template <typename T>
struct CheckedSetting {
  T value{};
  std::string error;  // non-empty: the value given was refused

  Result<T> Get() const {
    if (!error.empty()) return InvalidArgument(error);
    return value;
  }
};

struct Config {
  // OCANN_NUM_THREADS: compute threads; 0 (unset, or not a number from 1) means all cores.
  int num_threads = 0;
  // OCANN_LOG_LEVEL: the stderr sink's level (debug, info, warning, error, null; else null).
  LogLevel log_level = LogLevel::kNull;
  // ASCEND_GLOBAL_LOG_LEVEL: the plog files' level, 0..4; anything else is CANN's default.
  LogLevel plog_level = LogLevel::kError;
  // ASCEND_SLOG_PRINT_TO_STDOUT=1: plog lines go to stdout instead of a file.
  bool plog_to_stdout = false;
  // ASCEND_PROCESS_LOG_PATH, else $HOME/ascend/log: the plog folder's root; empty: no file.
  std::string log_root;
  // OCANN_PROFILE (a value starting with 1): the per-op-type time table at unload.
  bool profile = false;
  // OCANN_BACKENDS: the backend preference order; empty: the registry's default.
  std::string backends;
  // OCANN_CONV_ALGO: auto, measure, direct or winograd.
  CheckedSetting<ConvAlgoMode> conv_algo{ConvAlgoMode::kAuto, {}};
  // OCANN_BF16_COMPUTE (0 or 1): bf16-assigned cube ops may multiply in bf16.
  CheckedSetting<bool> bf16_compute{true, {}};
  // OCANN_INT8_PLAIN (0 or 1): quantized ops run on the plain integer loops.
  CheckedSetting<bool> int8_plain{false, {}};
  // OCANN_MAX_TENSOR_BYTES (OC_MAX_TENSOR_BYTES, deprecated): the most bytes one tensor may
  // have; values that are not a positive integer keep the default, 64 GiB.
  uint64_t max_tensor_bytes = uint64_t{64} << 30;
  // OCANN_MAX_LOOP_ITERATIONS: the most iterations one Loop node may run in one execution
  // (a model from elsewhere can loop 2^62 times); values that are not a positive integer keep
  // the default, no bound.
  uint64_t max_loop_iterations = UINT64_MAX;
  // OCANN_ATC: the atc aclopCompile runs; empty: the one installed beside the library.
  std::string atc;
  // OCANN_ORT_REFERENCE: ocann-compare's ONNX Runtime helper script (set even empty wins).
  std::optional<std::string> ort_reference;
  // OCANN_PYTHON: the interpreter that runs it; unset: /usr/bin/python3.
  std::optional<std::string> python;
  // OCANN_ASCENDC_REPORT (set, to anything): Ascend C launches report their cost.
  bool ascendc_report = false;
  // OCANN_SOC: the emulated chip; empty or unknown: the default SoC.
  std::string soc;
  // ASCEND_CUSTOM_OPP_PATH: custom operator packages, colon-separated, searched first.
  std::string custom_opp_path;
  // ASCEND_OPP_PATH: the toolkit's opp folder (its vendors/ packages), when set.
  std::optional<std::string> opp_path;

  // One line each for names that still work but are deprecated (LogConfigWarnings).
  std::vector<std::string> warnings;
};

// What a variable is set to, or null when it is unset (std::getenv's contract).
using EnvLookup = std::function<const char*(const char* name)>;

// Every setting from `lookup`: invalid values of the checked settings are recorded in them,
// other invalid values keep the default (as each reader did before).
Config ParseConfig(const EnvLookup& lookup);
// ParseConfig over the process's environment.
Config ConfigFromEnvironment();

// The process's configuration: ConfigFromEnvironment at the first call (which also logs its
// warnings), or what a ScopedConfig installed. The reference stays valid for the process.
const Config& GlobalConfig();
// The same without logging the warnings: for logging itself, which the warnings go through.
const Config& GlobalConfigForLogging();
// Logs `config.warnings` through OC_LOG, at warning level.
void LogConfigWarnings(const Config& config);

// Makes GlobalConfig() return `config` while it lives (tests, and code that runs with settings
// of its own). Configurations installed once are kept for the process: references to them may
// be held (a prepare context's config) past the scope.
class ScopedConfig {
 public:
  explicit ScopedConfig(Config config);
  ~ScopedConfig();
  ScopedConfig(const ScopedConfig&) = delete;
  ScopedConfig& operator=(const ScopedConfig&) = delete;

 private:
  const Config* previous_;
};

}  // namespace oc
