// What every harness shares: logs off (a Status is a fine outcome, its message is noise) and
// a tensor-size bound that fits libFuzzer's memory limit.
#pragma once

#include <cstdlib>

#include "base/log.h"

namespace oc::fuzz {

// The bound on one tensor's bytes while fuzzing (OCANN_MAX_TENSOR_BYTES, unless the caller
// set it). The product's default, 64 GiB, lets a 100-byte TensorFlow splat Const or a Caffe
// filler legitimately claim gigabytes; under a 6 GiB RSS limit that reads as a finding when it
// is the documented behaviour. 64 MiB keeps the seed models convertible and the legitimate
// work of one input (a Caffe Interp of a 5-D tensor filling 64M outputs, 32 reads each)
// under the fuzzers' time limit with ASan's slowdown.
inline constexpr const char* kFuzzMaxTensorBytes = "67108864";

// Call first in every harness: before anything reads the configuration, which is read once.
inline void SetUpHarness() {
  static const bool done = [] {
    setenv("OCANN_MAX_TENSOR_BYTES", kFuzzMaxTensorBytes, /*overwrite=*/0);
    // A Loop whose trip count is 2^62 is the model's own (it would run as long on the NPU):
    // under the fuzzer it reads as a hang. The bound turns it into an error.
    setenv("OCANN_MAX_LOOP_ITERATIONS", "10000", /*overwrite=*/0);
    SetLogLevel(LogLevel::kNull);
    return true;
  }();
  (void)done;
}

// OC_FUZZ_IMPORT_ONLY=1: the importer harnesses stop after the import (no compilation, no
// round trip), so that a run exercises the custom mutators and the readers alone, at their
// own speed, with the readers' coverage still guiding it.
inline bool ImportOnly() {
  static const bool only = std::getenv("OC_FUZZ_IMPORT_ONLY") != nullptr;
  return only;
}

}  // namespace oc::fuzz
