// libFuzzer: a Caffe prototxt and .caffemodel (the input split at the first "\n#WEIGHTS\n"
// line: text before, binary after) through the importer and the compiler.
#include <cstddef>
#include <cstdint>
#include <string>

#include "frontend/caffe/caffe_importer.h"
#include "fuzz_util.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  oc::fuzz::QuietLogs();
  const std::string input(reinterpret_cast<const char*>(data), size);
  const std::string separator = "\n#WEIGHTS\n";
  const size_t at = input.find(separator);
  const std::string text = input.substr(0, at);
  const std::string weights = at == std::string::npos ? "" : input.substr(at + separator.size());
  oc::fuzz::CompileIfImported(oc::ImportCaffeBuffers(text, weights, "fuzz.prototxt"));
  return 0;
}
