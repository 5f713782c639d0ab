// What the files of the accuracy comparison share: a run's captured tensors, the ways to fill
// a capture (running a model, reading dump files, ONNX Runtime) and the inputs they take.
// Not installed; only src/compare/ includes it.
#pragma once

#include <cstdint>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include "base/dtype.h"
#include "base/shape.h"
#include "base/status.h"
#include "compare/compare.h"
#include "runtime/model.h"

namespace oc::compare_internal {

// One tensor of a run, as doubles, with the op that produced it.
struct Captured {
  std::vector<double> values;
  Shape shape;
  DataType dtype = DataType::kUndefined;
  std::string op_name, op_type;
  size_t order = 0;  // execution order within its run
};

// Every float output of every step of a model run, by value name. Dump files and ONNX
// Runtime's outputs fill the same map, so every source compares alike.
class CaptureObserver : public StepObserver {
 public:
  void OnStep(const StepRecord& r) override;
  std::map<std::string, Captured> tensors;

 private:
  std::mutex mutex_;
  size_t order_ = 0;
};

// ---- compare_inputs.cpp
// The bytes each input of `model` gets: from `files` (one per input; .npy or raw) or, when
// `files` is empty, seeded pseudo-random values.
Result<std::vector<std::string>> ModelInputs(const Model& model,
                                             const std::vector<std::string>& files);
// `inputs` (for `target`) as `reference` takes them: in its own dtypes, fp32 where the .om
// has fp16.
std::vector<std::string> ReferenceInputs(const Model& target, const Model& reference,
                                         const std::vector<std::string>& inputs);

// ---- capture.cpp
// A float tensor's bytes (float32, float16, bfloat16 or float64) as doubles.
std::vector<double> FloatValues(DataType dtype, const void* bytes, size_t count);
// Runs `model` on `inputs` with every op's outputs captured.
Result<std::shared_ptr<CaptureObserver>> RunCaptured(const std::shared_ptr<Model>& model,
                                                     const std::vector<std::string>& inputs);

// ---- dump_capture.cpp
// The dump files of one execution in `dir`, each output keyed by the reference's value name.
Result<std::shared_ptr<CaptureObserver>> LoadDumpCapture(const std::string& dir,
                                                         const Model& reference);

// ---- ort_reference.cpp
// ONNX Runtime's run of the `source` model (python/ocann_ort_reference.py in a child process).
Result<std::shared_ptr<CaptureObserver>> RunOrtReference(const std::string& source,
                                                         const Model& reference,
                                                         const std::vector<std::string>& inputs);

}  // namespace oc::compare_internal
