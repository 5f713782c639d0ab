// libFuzzer: ONNX bytes through the importer and the compiler (what atc does with a model
// file). Any Status is fine; a crash, a sanitizer report, a hang or a leak is a finding.
#include <cstddef>
#include <cstdint>
#include <string>

#include "frontend/onnx/onnx_importer.h"
#include "fuzz_util.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  oc::fuzz::QuietLogs();
  oc::OnnxImportOptions options;
  options.run_checker = false;  // the importer must stand on its own
  oc::fuzz::CompileIfImported(oc::ImportOnnxBytes(
      std::string(reinterpret_cast<const char*>(data), size), "/nonexistent", options));
  return 0;
}
