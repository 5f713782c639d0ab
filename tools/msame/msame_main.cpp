// msame: runs an .om model through AscendCL and reports inference times, like CANN's msame
// tool. This file parses the flags; src/msame/ is the tool.
#include <cstdio>

#include "cli/flags.h"
#include "msame/msame.h"

int main(int argc, char** argv) {
  auto flags = oc::Flags::Parse(
      argc, argv,
      {"model", "input", "output", "outfmt", "loop", "debug", "device", "dymBatch", "dymHW",
       "dymDims", "dymShape", "outputSize", "profiler", "dump", "help", "h"},
      {"help", "h"});
  if (!flags.ok()) {
    std::printf("[ERROR] %s\n", flags.status().ToString().c_str());
    return 1;
  }
  if (flags->Has("help") || flags->Has("h") || argc == 1) {
    std::printf(
        "msame --model <x.om> [--input a.bin,b.npy|dir] [--output dir] [--outfmt TXT|BIN]\n"
        "      [--loop N] [--device 0] [--debug true|false] [--dump true|false]\n"
        "      [--profiler true|false]\n"
        "      [--dymBatch N | --dymHW h,w | --dymDims \"in:d1,d2;in2:..\" |\n"
        "       --dymShape \"in:n,c,h,w;in2:..\" --outputSize \"bytes0,bytes1\"]\n");
    return argc == 1 ? 1 : 0;
  }
  auto options = oc::msame::OptionsFromFlags(flags.value());
  if (!options.ok()) {
    std::printf("[ERROR] %s\n", options.status().message().c_str());
    return 1;
  }
  return oc::msame::Run(options.value());
}
