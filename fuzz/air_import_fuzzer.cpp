// libFuzzer: a MindSpore AIR model (GE ModelDef bytes) through the importer and the compiler.
#include <cstddef>
#include <cstdint>
#include <string>

#include "frontend/air/air_importer.h"
#include "fuzz_util.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  oc::fuzz::QuietLogs();
  oc::fuzz::CompileIfImported(
      oc::ImportAirBytes(std::string(reinterpret_cast<const char*>(data), size), "fuzz.air"));
  return 0;
}
