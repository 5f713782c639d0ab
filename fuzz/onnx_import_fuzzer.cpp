// libFuzzer: ONNX bytes through the importer, the compiler and the .om writer (what atc does
// with a model file), then the .om through the runtime's loader and one execution (the
// round-trip property, round_trip.h). Any Status is fine; a crash, a sanitizer report, a
// hang, a leak or a loader refusing what the compiler wrote is a finding.
#include <cstddef>
#include <cstdint>
#include <string>

#include "fuzz_util.h"
#include "round_trip.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  oc::fuzz::QuietLogs();
  const std::string bytes(reinterpret_cast<const char*>(data), size);
  oc::fuzz::CheckRoundTrip(oc::fuzz::InputKind::kOnnx, bytes);
  return 0;
}
