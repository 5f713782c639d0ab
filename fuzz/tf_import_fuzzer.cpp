// libFuzzer: a TensorFlow GraphDef (.pb bytes) through the importer and the compiler.
#include <cstddef>
#include <cstdint>
#include <string>

#include "frontend/tensorflow/tf_importer.h"
#include "fuzz_util.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  oc::fuzz::QuietLogs();
  oc::fuzz::CompileIfImported(
      oc::ImportTensorFlowBytes(std::string(reinterpret_cast<const char*>(data), size), "fuzz.pb"));
  return 0;
}
