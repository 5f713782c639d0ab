// Infers the type and shape of every value in topological order.
#include "compiler/pass.h"
#include "ops/op_schema.h"

namespace oc {
namespace {

class InferShapesPass : public Pass {
 public:
  explicit InferShapesPass(bool allow_dynamic_inputs)
      : allow_dynamic_inputs_(allow_dynamic_inputs) {}
  const char* name() const override { return "InferShapes"; }
  Result<bool> Run(Graph& graph) override {
    for (const auto& in : graph.inputs) {
      const ValueInfo* vi = graph.FindValue(in);
      if (!vi || !vi->has_shape)
        return InvalidArgument(
            "Value [] for parameter [--input_shape] is invalid. Reason: input [" + in +
                "] has no shape in the model; give it with --input_shape.",
            "E10001");
      if (IsStatic(vi->shape)) {
        auto bytes = TensorBytes(vi->shape, DataTypeSize(vi->dtype));
        if (!bytes.ok())
          return InvalidArgument("Value [" + ShapeToString(vi->shape) +
                                     "] for parameter [--input_shape] is invalid. Reason: input [" +
                                     in + "]: " + bytes.status().message(),
                                 "E10001");
      }
      // Dynamic dims only when asked for (-1 or a range in --input_shape): a model
      // exported with symbolic dims usually just lacks --input_shape.
      if (!IsStatic(vi->shape) && !allow_dynamic_inputs_)
        return InvalidArgument("Value [" + ShapeToString(vi->shape) +
                                   "] for parameter [--input_shape] is invalid. Reason: input [" +
                                   in +
                                   "] has dynamic dimensions (-1); give a static shape with "
                                   "--input_shape=\"" +
                                   in +
                                   ":...\", or mark dynamic dims explicitly with -1 or a range "
                                   "(1~16) in --input_shape.",
                               "E10001");
    }
    for (const auto& node : graph.nodes) OC_RETURN_IF_ERROR(InferNode(graph, node));
    return false;
  }

 private:
  bool allow_dynamic_inputs_;
};

}  // namespace

std::unique_ptr<Pass> CreateInferShapesPass(bool allow_dynamic_inputs) {
  return std::make_unique<InferShapesPass>(allow_dynamic_inputs);
}

}  // namespace oc
