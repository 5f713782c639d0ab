// msame as a library: runs an .om model through AscendCL and reports inference times, like
// CANN's msame tool (tools/msame only parses the flags). It uses only the public AscendCL C
// API, as the original does, and prints CANN's lines on stdout: tests and bench/ parse them.
#pragma once

#include <cstdint>
#include <optional>
#include <string>

#include "base/status.h"
#include "cli/flags.h"

namespace oc::msame {

struct Options {
  std::string model;
  int loop = 1;
  int32_t device = 0;
  std::string outfmt = "BIN";  // "TXT" or "BIN"
  bool debug = false, dump = false, profiler = false;
  // Given as text and checked once the model is loaded, so that their errors come after the
  // load's lines as in CANN's msame.
  std::optional<std::string> input, output, dym_batch, dym_hw, dym_dims, dym_shape, output_size;
};

// The flags' values, checked as far as they can be before AscendCL starts; the message is
// msame's [ERROR] line without its prefix.
Result<Options> OptionsFromFlags(const Flags& flags);

// Loads, runs and unloads the model; returns the process exit code.
int Run(const Options& options);

}  // namespace oc::msame
