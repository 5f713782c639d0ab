// Loss functions of ai.onnx: NegativeLogLikelihoodLoss and SoftmaxCrossEntropyLoss.
#include "ops/op_families.h"
#include "ops/schema_helpers.h"

namespace oc {
namespace {

Status InferLoss(InferContext& c) {
  const ValueInfo& x = c.in(0);
  const ValueInfo& t = c.in(1);
  const std::string reduction = c.attrs().GetString("reduction", "mean");
  if (reduction != "none" && reduction != "sum" && reduction != "mean")
    return c.Error("reduction must be none, sum or mean");
  if (x.has_shape && t.has_shape && x.shape.size() != t.shape.size() + 1)
    return c.Error("target must have one dimension less than the input");
  if (reduction == "none") {
    if (t.has_shape)
      c.SetOutput(0, x.dtype, t.shape);
    else
      c.SetOutputTypeOnly(0, x.dtype);
  } else {
    c.SetOutput(0, x.dtype, {});
  }
  if (c.outputs.size() > 1) c.outputs[1] = x;  // log_prob
  return Status::Ok();
}

}  // namespace

void RegisterLossSchemas(OpRegistry& r) {
  r.Register({"NegativeLogLikelihoodLoss", "", 2, 3, 1, 1, InferLoss});
  r.Register({"SoftmaxCrossEntropyLoss", "", 2, 3, 1, 2, InferLoss});
}

}  // namespace oc
