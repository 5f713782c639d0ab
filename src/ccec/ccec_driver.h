// ccec (and its newer name, bisheng): CANN's Ascend C compiler driver, for the CPU emulation.
// Ascend C sources (-xcce, .cce) are compiled with the host C++ compiler against OpenCANN's
// kernel headers, their <<<>>> launches rewritten into AscendCL stream launches; host sources
// are compiled as they are; the result links libascendc_emu and libascendcl. Options that
// only shape NPU machine code are accepted and recorded (a warning where they would change
// what the NPU computes); those that ask for NPU machine code itself are refused.
#pragma once

#include <string>
#include <vector>

#include "base/status.h"

namespace oc::ccec {

enum class Language { kAuto, kCce, kCxx, kC };

struct Input {
  std::string path;
  Language language = Language::kAuto;  // kAuto: by extension (.cce is Ascend C)
};

struct Invocation {
  std::vector<Input> inputs;
  std::vector<std::string> objects_and_libs;  // .o, .a, .so given as inputs
  std::string output;                         // -o
  bool compile_only = false;                  // -c
  bool preprocess_only = false;               // -E
  bool shared = false;                        // -shared / --shared
  bool show_version = false;
  bool show_help = false;
  bool verbose = false;  // -v: print the commands run
  std::string std_flag = "-std=c++17";
  std::string soc;            // from --cce-soc-version or the arch (default Ascend910B3)
  std::string core_type;      // VecCore, CubeCore, AICore or empty (from the arch or the flag)
  std::string auto_sync_log;  // --cce-auto-sync-log=<file>
  std::vector<std::string> host_flags;  // passed to the host compiler for every source
  std::vector<std::string> link_flags;  // -L, -l, -Wl, ... in order
  std::vector<std::string> warnings;    // one line each, printed before compiling
};

// Parses ccec's command line (argv[1..]). Refusals name the option and why.
Result<Invocation> ParseCommandLine(const std::vector<std::string>& args);

// The Ascend C source with each `kernel<<<a, b, c>>>(` rewritten into
// `::oc_ccec::Launch<&kernel>("kernel", a, b, c)(`, and a #line directive so that the host
// compiler's messages name the original file and lines. Comments and string literals are
// left alone. Fails on a <<< without its >>>. A kernel marked __cube__, __vector__ or
// __mix__ here or in a file this one includes with quotes (searched in the source's folder,
// then `include_dirs`) is launched on those cores.
Result<std::string> RewriteLaunches(const std::string& source, const std::string& path,
                                    const std::vector<std::string>& include_dirs = {});

// Macros ccec defines for an Ascend C source: the chip (OCANN_TIKICPU_SOC), __CCE_AICORE__
// and the core-type macros of a single-core-type compile.
std::vector<std::string> DeviceDefines(const Invocation& inv);

}  // namespace oc::ccec
