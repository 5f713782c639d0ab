// libFuzzer: a Caffe prototxt and .caffemodel (the input split at the first "\n#WEIGHTS\n"
// line: text before, binary after) through the importer and the compiler.
#include <cstddef>
#include <cstdint>
#include <string>

#include "base/log.h"
#include "compiler/compiler.h"
#include "frontend/caffe/caffe_importer.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  static const bool quiet = [] {
    oc::SetLogLevel(oc::LogLevel::kNull);
    return true;
  }();
  (void)quiet;
  const std::string input(reinterpret_cast<const char*>(data), size);
  const std::string separator = "\n#WEIGHTS\n";
  const size_t at = input.find(separator);
  const std::string text = input.substr(0, at);
  const std::string weights = at == std::string::npos ? "" : input.substr(at + separator.size());
  auto graph = oc::ImportCaffeBuffers(text, weights, "fuzz.prototxt");
  if (!graph.ok()) return 0;
  oc::CompileOptions compile;
  compile.dynamic_inputs = true;
  (void)oc::CompileGraph(std::move(graph).value(), compile);
  return 0;
}
