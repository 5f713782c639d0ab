// libFuzzer: ONNX bytes through the importer and the compiler (what atc does with a model
// file). Any Status is fine; a crash, a sanitizer report, a hang or a leak is a finding.
#include <cstddef>
#include <cstdint>
#include <string>

#include "base/log.h"
#include "compiler/compiler.h"
#include "frontend/onnx/onnx_importer.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  static const bool quiet = [] {
    oc::SetLogLevel(oc::LogLevel::kNull);
    return true;
  }();
  (void)quiet;
  std::string bytes(reinterpret_cast<const char*>(data), size);
  oc::OnnxImportOptions options;
  options.run_checker = false;  // the importer must stand on its own
  auto graph = oc::ImportOnnxBytes(bytes, "/nonexistent", options);
  if (!graph.ok()) return 0;
  oc::CompileOptions compile;
  compile.dynamic_inputs = true;
  (void)oc::CompileGraph(std::move(graph).value(), compile);
  return 0;
}
