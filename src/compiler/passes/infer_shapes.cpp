// Infers the type and shape of every value in topological order.
#include "compiler/pass.h"
#include "ops/op_schema.h"

namespace oc {
namespace {

class InferShapesPass : public Pass {
 public:
  const char* name() const override { return "InferShapes"; }
  Result<bool> Run(Graph& graph) override {
    for (const auto& in : graph.inputs) {
      const ValueInfo* vi = graph.FindValue(in);
      if (!vi || !vi->has_shape)
        return InvalidArgument(
            "Value [] for parameter [--input_shape] is invalid. Reason: input [" + in +
                "] has no shape in the model; give it with --input_shape.",
            "E10001");
      if (!IsStatic(vi->shape))
        return InvalidArgument("Value [" + ShapeToString(vi->shape) +
                                   "] for parameter [--input_shape] is invalid. Reason: input [" +
                                   in +
                                   "] has dynamic dimensions (-1); give a static shape with "
                                   "--input_shape=\"" +
                                   in + ":...\".",
                               "E10001");
    }
    for (const auto& node : graph.nodes) OC_RETURN_IF_ERROR(InferNode(graph, node));
    return false;
  }
};

}  // namespace

std::unique_ptr<Pass> CreateInferShapesPass() { return std::make_unique<InferShapesPass>(); }

}  // namespace oc
