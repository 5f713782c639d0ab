// libFuzzer: atc-style command lines (NUL-separated arguments) through the flag parser, with
// atc's own flag table (cli/atc_flags.h).
#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "cli/atc_flags.h"

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
  auto flags = oc::ParseAtcFlags(static_cast<int>(argv.size()), argv.data());
  if (flags.ok())
    for (const auto& [k, v] : flags->all()) (void)flags->Get(k);
  return 0;
}
