// The round-trip property of the importer harnesses and of the round_trip_corpus test: a
// model that atc converts (import, compile, .om serialization) must load through the
// runtime from those bytes and execute once on zero-filled inputs, or be refused cleanly by
// the loader: atc loads what it wrote before the file takes its name, so "atc succeeded"
// implies "the runtime loads it", and a loader refusal is atc refusing the model.
#pragma once

#include <cstdint>
#include <string>

#include "base/status.h"
#include "ir/graph.h"

namespace oc::fuzz {

// The readers the harnesses drive, with the input layout each harness takes.
enum class InputKind {
  kOnnx,         // ModelProto bytes (external data relative to base_dir)
  kCaffeJoined,  // prototxt text, a "\n#WEIGHTS\n" line, the .caffemodel bytes
  kTensorFlow,   // GraphDef bytes
  kAir,          // GE ModelDef bytes
};
inline constexpr const char* kCaffeWeightsSeparator = "\n#WEIGHTS\n";

// The --framework atc gives the kind (5 ONNX, 0 Caffe, 3 TensorFlow, 1 AIR).
const char* FrameworkOf(InputKind kind);
// The importer a harness runs on `bytes` (ONNX with the checker off: the importer must
// stand on its own).
Result<Graph> ImportInput(InputKind kind, const std::string& bytes,
                          const std::string& base_dir = "/nonexistent");

enum class RoundTrip {
  kNotConverted,     // import or compilation refused the model (a fine outcome)
  kNotSerialized,    // the .om writer refused it (atc fails: fine)
  kLoadRefused,      // the runtime refused the .om the compiler wrote: atc refuses it
  kLoaded,           // loaded; inputs or work memory too large to execute here
  kExecuted,         // loaded and executed once
  kExecutionFailed,  // loaded; the execution returned an error status
};
const char* RoundTripName(RoundTrip outcome);

struct RoundTripResult {
  RoundTrip outcome = RoundTrip::kNotConverted;
  std::string detail;  // the Status message of the step that stopped
  size_t om_bytes = 0;
};

// Skips execution when the inputs together exceed this, or the work memory 64 times it.
inline constexpr size_t kMaxExecuteInputBytes = size_t{4} << 20;

// What atc does with an imported graph (ConvertGraph with --input_shape keeping the
// model's -1 dims, SerializeOm), then what an application does with the bytes
// (Model::Load from memory, one execution, each -1 dim given as 1 or its range's lower end).
RoundTripResult RunRoundTrip(Result<Graph> graph, InputKind kind);

// The harnesses' check: the input imported as `kind`, then RunRoundTrip; a crash or a
// sanitizer report anywhere is the finding. With OC_FUZZ_REFUSALS=DIR set, loader refusals
// are recorded: DIR gets one input per distinct message (digits and [names] ignored),
// NAME.input beside NAME.txt holding the message, the compiler checks worth adding. With
// OC_FUZZ_STRICT_ROUND_TRIP=1 a refusal aborts (a finding).
void CheckRoundTrip(InputKind kind, const std::string& bytes);

}  // namespace oc::fuzz
