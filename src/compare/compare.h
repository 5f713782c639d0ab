// Accuracy comparison, as CANN's comparison tool does it: the source model run as the
// reference (our own fp32 execution of the unfused graph), the .om run with every op's
// outputs captured, tensors matched by name (a fused op's output carries the name of the
// last op it absorbed, so a post-ReLU tensor is compared with the reference's ReLU output),
// CANN's metrics per tensor, and the first op that breaks a threshold with the flag line
// that keeps it in fp32.
#pragma once

#include <string>
#include <vector>

#include "base/status.h"

namespace oc {

struct TensorMetrics {
  double cosine = 1, max_abs = 0, accumulated_rel = 0, red = 0, kld = 0;
  double std_ours = 0, std_truth = 0, mae = 0, rmse = 0, max_rel = 0, mean_rel = 0;
  std::string fail_reason;  // empty when every threshold holds
};

// x: ours (the .om), y: the reference. Thresholds as CANN's: cosine < 0.99, RED > 0.05,
// KLD > 0.005, RMSE > 1.0 or mean relative error > 1.0 is a precision problem.
TensorMetrics CompareTensors(const std::vector<double>& x, const std::vector<double>& y);

struct CompareRow {
  size_t index = 0;
  std::string op_type, op_name;      // the .om op that produced the tensor (its source op)
  std::string truth_op, truth_type;  // the reference op
  std::string dtype, truth_dtype;    // as computed in each (the .om op's _oc_dtype)
  std::string tensor;                // the value name
  std::string shape;
  TensorMetrics metrics;
};

struct CompareOptions {
  std::string source_model;  // ONNX
  std::string om_model;
  std::vector<std::string> inputs;  // .npy or raw .bin files, one per model input; empty:
                                    // seeded pseudo-random data
  // A folder of dump files (aclInit "dump", dump_mode output or all, one execution: the
  // {model_id}/{iteration} folder) to compare instead of running the .om here: dumps from an
  // NPU or from OpenCANN, matched to the reference through each output's original op name
  // and index. Needs the inputs that run used (`inputs`).
  std::string dump_dir;
  // The reference: "opencann" (the default: our fp32 execution of the unfused source
  // model) or "onnxruntime" (ONNX Runtime, when the user has the Python module or
  // onnxruntime-node; run by python/ocann_ort_reference.py). Refused when it is missing.
  std::string reference = "opencann";
};

struct CompareReport {
  std::vector<CompareRow> rows;         // in the .om's execution order
  int first_failure = -1;               // index into rows
  std::string suggestion;               // the flag line that keeps the failing op in fp32
  std::vector<std::string> keep_dtype;  // the --keep_dtype lines found to fix it (checked)
  std::string precision_mode;           // of the .om
  std::string reference;                // what the ground truth came from
};

Result<CompareReport> RunCompare(const CompareOptions& options);
// CANN's CSV columns (Index, OpType, NPUDump, DataType, GroundTruth, DataType, TensorIndex,
// Shape, CosineSimilarity, ..., CompareFailReason).
std::string CompareCsv(const CompareReport& report);
std::string CompareSummary(const CompareReport& report);
// A self-contained page: the summary, a per-layer plot of cosine similarity and relative
// Euclidean distance (inline SVG), and the rows with the failing ones marked.
std::string CompareHtml(const CompareReport& report);

}  // namespace oc
