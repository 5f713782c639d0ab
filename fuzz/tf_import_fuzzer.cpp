// libFuzzer: a TensorFlow GraphDef (.pb bytes) through the importer, the compiler and the
// .om writer, then the .om through the loader and one execution (round_trip.h).
#include <cstddef>
#include <cstdint>
#include <string>

#include "fuzz_util.h"
#include "round_trip.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  oc::fuzz::QuietLogs();
  const std::string bytes(reinterpret_cast<const char*>(data), size);
  oc::fuzz::CheckRoundTrip(oc::fuzz::InputKind::kTensorFlow, bytes);
  return 0;
}
