// RunCompare: the .om and its reference run (or read from dumps), tensors matched by name,
// and when an op breaks a threshold, the --keep_dtype lines that fix it, checked by
// converting again.
#include <algorithm>
#include <set>

#include "compare/compare_internal.h"
#include "driver/convert.h"
#include "ir/graph.h"
#include "ir/internal_attrs.h"
#include "om/om_model.h"

namespace oc {
namespace {

using compare_internal::Captured;
using compare_internal::CaptureObserver;

// Rows for every tensor of `ours` (in execution order) that the reference also has.
std::vector<CompareRow> CompareRuns(const CaptureObserver& truth, const CaptureObserver& ours,
                                    const Model& model) {
  std::vector<std::pair<size_t, std::string>> order;
  for (const auto& [name, c] : ours.tensors) order.emplace_back(c.order, name);
  std::sort(order.begin(), order.end());
  std::map<std::string, std::string> op_dtype;  // the dtype each op computed in
  for (const Graph* g : model.Graphs())
    for (const auto& n : g->nodes) op_dtype[n.name] = GetAttr(n.attrs, kComputeDtype, "float32");
  std::vector<CompareRow> rows;
  for (const auto& [unused, name] : order) {
    auto t = truth.tensors.find(name);
    if (t == truth.tensors.end()) continue;
    const Captured& c = ours.tensors.at(name);
    CompareRow row;
    row.index = rows.size();
    row.op_type = c.op_type;
    row.op_name = c.op_name;
    row.truth_op = t->second.op_name;
    row.truth_type = t->second.op_type;
    row.dtype = op_dtype.count(c.op_name) ? op_dtype[c.op_name] : DataTypeName(c.dtype);
    row.truth_dtype = DataTypeName(t->second.dtype);
    row.tensor = name;
    row.shape = ShapeToString(c.shape);
    row.metrics = CompareTensors(c.values, t->second.values);
    rows.push_back(std::move(row));
  }
  return rows;
}

int FirstFailure(const std::vector<CompareRow>& rows) {
  for (const auto& r : rows)
    if (!r.metrics.fail_reason.empty()) return static_cast<int>(r.index);
  return -1;
}

// What can be refused before anything runs.
Status CheckOptions(const CompareOptions& o, const Model& target) {
  // The source model takes the pre-processed tensor, the .om the raw image: no common input.
  if (target.attrs().count(kAippInputsAttr))
    return Unsupported(
        "the .om takes AIPP images (atc --insert_op_conf); OpenCANN's compare "
        "does not support AIPP models yet: convert the model without "
        "--insert_op_conf to compare it");
  if (!o.dump_dir.empty() && o.inputs.empty())
    return InvalidArgument(
        "comparing dumps needs the inputs of the run that wrote them (-i in0.npy,...)");
  if (!o.inputs.empty() && o.inputs.size() != target.inputs().size())
    return InvalidArgument("the .om has " + std::to_string(target.inputs().size()) + " inputs, " +
                           std::to_string(o.inputs.size()) + " input files given");
  return Status::Ok();
}

// The reference's conversion: the source model unfused, in its own dtypes, with the .om's
// shapes.
Result<ConvertOptions> ReferenceOptions(const CompareOptions& o, const Model& target) {
  ConvertOptions ref;
  ref.model = o.source_model;
  for (const auto& in : target.inputs()) {
    if (!IsStatic(in.shape))
      return Unsupported("input [" + in.name + "] has dynamic dims: compare a static .om");
    ref.shapes.push_back({in.name, in.shape, {}});
  }
  for (const auto& p : PipelinePassNames())
    if (p.rfind("Fuse", 0) == 0 || p == "FoldBatchNormIntoConv")
      ref.compile.disabled_passes.insert(p);
  return ref;
}

// Converts and loads in memory, without writing an .om.
Result<std::shared_ptr<Model>> ConvertAndLoad(const ConvertOptions& options) {
  OC_ASSIGN_OR_RETURN(Conversion conv, Convert(options));
  OC_ASSIGN_OR_RETURN(std::string bytes, SerializeOm(conv.graphs, conv.write));
  return Model::Load(MappedFile::FromCopy(bytes.data(), bytes.size()));
}

Result<std::shared_ptr<CaptureObserver>> RunTruth(const CompareOptions& o,
                                                  const std::shared_ptr<Model>& reference,
                                                  const std::vector<std::string>& ref_inputs) {
  if (o.reference == "onnxruntime")
    return compare_internal::RunOrtReference(o.source_model, *reference, ref_inputs);
  if (o.reference == "opencann" || o.reference.empty())
    return compare_internal::RunCaptured(reference, ref_inputs);
  return InvalidArgument("--reference must be opencann or onnxruntime, not [" + o.reference + "]");
}

// The .om's side: run here, or read from the dump files of a run elsewhere.
Result<std::shared_ptr<CaptureObserver>> RunOurs(const CompareOptions& o,
                                                 const std::shared_ptr<Model>& target,
                                                 const Model& reference,
                                                 const std::vector<std::string>& inputs) {
  if (o.dump_dir.empty()) return compare_internal::RunCaptured(target, inputs);
  return compare_internal::LoadDumpCapture(o.dump_dir, reference);
}

// Finds the --keep_dtype lines that fix the first failure, and checks them: converts the
// source model again with the .om's precision mode keeping the failing ops in fp32, until
// nothing fails. Fills report->suggestion (and keep_dtype when the lines were found).
Status SuggestFix(const Model& target, const ConvertOptions& ref, const CaptureObserver& truth,
                  const std::vector<std::string>& ref_inputs, CompareReport* report) {
  const bool mixed = report->precision_mode.find("mix") != std::string::npos;
  auto mode = ParsePrecisionMode(report->precision_mode, false);
  if (!mode.ok()) mode = ParsePrecisionMode(report->precision_mode, true);
  std::vector<std::string> keep;
  bool fixed = false;
  std::vector<CompareRow> rows = report->rows;
  std::set<std::string> outputs;
  for (const auto& out : target.outputs()) outputs.insert(out.name);
  // Fixed: every model output within the thresholds and no NaN or Inf anywhere (a kept
  // fp32 op may still differ by more than RMSE 1.0 in absolute terms when its values are
  // large: its inputs were fp16).
  auto is_fixed = [&](const std::vector<CompareRow>& rs) {
    for (const auto& r : rs) {
      if (r.metrics.fail_reason.find("NaN or Inf") != std::string::npos) return false;
      if (outputs.count(r.tensor) && !r.metrics.fail_reason.empty()) return false;
    }
    return true;
  };
  for (int round = 0; mode.ok() && round < 16; ++round) {
    if (is_fixed(rows)) {
      fixed = true;
      break;
    }
    const CompareRow* next = nullptr;
    for (const auto& r : rows)
      if (!r.metrics.fail_reason.empty() &&
          std::find(keep.begin(), keep.end(), r.op_name) == keep.end()) {
        next = &r;
        break;
      }
    if (!next) break;  // every failing op is kept already: not only a precision problem
    keep.push_back(next->op_name);
    ConvertOptions again = ref;
    again.compile.disabled_passes.clear();
    again.compile.precision = mode.value();
    for (const auto& k : keep) again.compile.precision.keep_nodes.insert(k);
    OC_ASSIGN_OR_RETURN(auto m2, ConvertAndLoad(again));
    OC_ASSIGN_OR_RETURN(auto run2, compare_internal::RunCaptured(m2, ref_inputs));
    rows = CompareRuns(truth, *run2, *m2);
  }
  const CompareRow& r = report->rows[report->first_failure];
  if (fixed) {
    std::string lines;
    for (const auto& k : keep) lines += "\n    " + k;
    report->suggestion =
        "--keep_dtype=FILE, the file holding these lines (checked: with them the model's " +
        std::string("outputs are within the thresholds and nothing overflows):") + lines;
    report->keep_dtype = keep;
  } else if (mixed) {
    report->suggestion =
        "--modify_mixlist with {\"black-list\": {\"to-add\": [\"" + r.op_type + "\"]}}";
  } else {
    report->suggestion = "--keep_dtype=FILE with the line \"" + r.op_name +
                         "\" (or \"OpType::" + r.op_type +
                         "\"); keeping the failing ops in fp32 did not bring every " +
                         "tensor within the thresholds: the difference is not only precision";
  }
  return Status::Ok();
}

}  // namespace

Result<CompareReport> RunCompare(const CompareOptions& o) {
  OC_ASSIGN_OR_RETURN(auto target, Model::LoadFile(o.om_model));
  OC_RETURN_IF_ERROR(CheckOptions(o, *target));
  OC_ASSIGN_OR_RETURN(auto inputs, compare_internal::ModelInputs(*target, o.inputs));
  OC_ASSIGN_OR_RETURN(ConvertOptions ref, ReferenceOptions(o, *target));
  OC_ASSIGN_OR_RETURN(auto reference, ConvertAndLoad(ref));
  const auto ref_inputs = compare_internal::ReferenceInputs(*target, *reference, inputs);
  OC_ASSIGN_OR_RETURN(auto truth, RunTruth(o, reference, ref_inputs));
  OC_ASSIGN_OR_RETURN(auto ours, RunOurs(o, target, *reference, inputs));
  CompareReport report;
  report.reference =
      o.reference == "onnxruntime" ? "ONNX Runtime" : "OpenCANN fp32 (the source model unfused)";
  if (auto it = target->attrs().find("precision_mode"); it != target->attrs().end())
    report.precision_mode = it->second;
  report.rows = CompareRuns(*truth, *ours, *target);
  report.first_failure = FirstFailure(report.rows);
  if (report.first_failure >= 0)
    OC_RETURN_IF_ERROR(SuggestFix(*target, ref, *truth, ref_inputs, &report));
  return report;
}

}  // namespace oc
