// Ops of the ai.onnx.preview.training domain that are plain formulas (Adagrad, Adam,
// Momentum) and TfIdfVectorizer. Gradient needs automatic differentiation: not here.
#include "ops/op_families.h"
#include "ops/schema_helpers.h"

namespace oc {
namespace {

constexpr const char* kTraining = "ai.onnx.preview.training";

// Optimizers: inputs R, T, then n groups of tensors; outputs the updated groups.
Status InferOptimizer(InferContext& c, size_t groups_in, size_t groups_out) {
  const size_t n = (c.num_inputs() - 2) / groups_in;
  if ((c.num_inputs() - 2) % groups_in || c.outputs.size() != n * groups_out)
    return c.Error("inputs and outputs do not form complete groups");
  for (size_t g = 0; g < groups_out; ++g)
    for (size_t i = 0; i < n; ++i) c.outputs[g * n + i] = c.in(2 + i);
  return Status::Ok();
}

Status InferTfIdf(InferContext& c) {
  const ValueInfo& x = c.in(0);
  std::vector<int64_t> idx = c.attrs().GetInts("ngram_indexes");
  int64_t width = 0;
  for (int64_t i : idx) width = std::max(width, i + 1);
  if (!x.has_shape) return c.Error("input shape unknown");
  if (x.shape.empty() || x.shape.size() > 2)
    return c.Error("X must be of rank 1 or 2, got " + ShapeToString(x.shape));
  if (x.shape.size() == 1)
    c.SetOutput(0, DataType::kFloat, {width});
  else
    c.SetOutput(0, DataType::kFloat, {x.shape[0], width});
  return Status::Ok();
}

}  // namespace

void RegisterTrainingSchemas(OpRegistry& r) {
  r.Register(Variadic({"Adagrad", kTraining, 5, 1 << 20, 2, 1 << 20,
                       [](InferContext& c) { return InferOptimizer(c, 3, 2); }}));
  r.Register(Variadic({"Momentum", kTraining, 5, 1 << 20, 2, 1 << 20,
                       [](InferContext& c) { return InferOptimizer(c, 3, 2); }}));
  r.Register(Variadic({"Adam", kTraining, 6, 1 << 20, 3, 1 << 20,
                       [](InferContext& c) { return InferOptimizer(c, 4, 3); }}));
  r.Register({"TfIdfVectorizer", "", 1, 1, 1, 1, InferTfIdf});
}

}  // namespace oc
