// libFuzzer: msopgen's op.json reader. It reads a path, so each input goes through a file.
#include <unistd.h>

#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <string>

#include "msopgen/op_spec.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  static const std::string path = "/tmp/oc_op_json_fuzz." + std::to_string(getpid()) + ".json";
  FILE* f = std::fopen(path.c_str(), "wb");
  if (!f) return 0;
  if (size) std::fwrite(data, 1, size, f);
  std::fclose(f);
  (void)oc::msopgen::ParseOpSpecs(path);
  return 0;
}
