// libFuzzer: a MindSpore AIR model (GE ModelDef bytes) through the importer and the compiler.
#include <cstddef>
#include <cstdint>
#include <string>

#include "base/log.h"
#include "compiler/compiler.h"
#include "frontend/air/air_importer.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  static const bool quiet = [] {
    oc::SetLogLevel(oc::LogLevel::kNull);
    return true;
  }();
  (void)quiet;
  auto graph =
      oc::ImportAirBytes(std::string(reinterpret_cast<const char*>(data), size), "fuzz.air");
  if (!graph.ok()) return 0;
  oc::CompileOptions compile;
  compile.dynamic_inputs = true;
  (void)oc::CompileGraph(std::move(graph).value(), compile);
  return 0;
}
