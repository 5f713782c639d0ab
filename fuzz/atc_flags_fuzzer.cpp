// libFuzzer: atc-style command lines (NUL-separated arguments) through the flag parser.
#include <cstddef>
#include <cstdint>
#include <set>
#include <string>
#include <vector>

#include "cli/flags.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  std::vector<std::string> args{"atc"};
  std::string cur;
  for (size_t i = 0; i < size && args.size() < 64; ++i) {
    if (data[i] == 0) {
      args.push_back(cur);
      cur.clear();
    } else {
      cur += static_cast<char>(data[i]);
    }
  }
  if (!cur.empty()) args.push_back(cur);
  std::vector<char*> argv;
  for (auto& a : args) argv.push_back(a.data());
  static const std::set<std::string> known = {"model",
                                              "weight",
                                              "framework",
                                              "output",
                                              "soc_version",
                                              "input_shape",
                                              "input_format",
                                              "dynamic_batch_size",
                                              "dynamic_image_size",
                                              "dynamic_dims",
                                              "insert_op_conf",
                                              "log",
                                              "precision_mode",
                                              "out_nodes",
                                              "mode",
                                              "om",
                                              "json",
                                              "help",
                                              "h"};
  static const std::set<std::string> boolean = {"help", "h"};
  auto flags = oc::Flags::Parse(static_cast<int>(argv.size()), argv.data(), known, boolean);
  if (flags.ok())
    for (const auto& [k, v] : flags->all()) (void)flags->Get(k);
  return 0;
}
