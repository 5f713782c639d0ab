#include "ops/op_schema.h"

#include "base/log.h"
#include "ops/op_families.h"

namespace oc {

Status NoKernelError(const Node& node, const std::string& detail) {
  return Unsupported("No supported Ops kernel and engine are found for [" + node.name +
                         "], optype [" + node.op_type + "]." + (detail.empty() ? "" : " " + detail),
                     "EZ3003");
}

Status InferContext::Error(const std::string& msg) const {
  return ShapeMismatch("node [" + node->name + "] (" + node->op_type + "): " + msg);
}

OpRegistry::OpRegistry() {
  RegisterElementwiseSchemas(*this);
  RegisterNnSchemas(*this);
  RegisterTensorSchemas(*this);
  RegisterReductionSchemas(*this);
  RegisterMatmulSchemas(*this);
  RegisterIndexingSchemas(*this);
  RegisterLossSchemas(*this);
  RegisterResizeSchemas(*this);
  RegisterMiscSchemas(*this);
  RegisterQuantizeSchemas(*this);
  RegisterRecurrentSchemas(*this);
  RegisterVisionSchemas(*this);
  RegisterTrainingSchemas(*this);
  RegisterSpectralSchemas(*this);
  RegisterControlFlowSchemas(*this);
  RegisterPrecisionSchemas(*this);
  RegisterAippSchemas(*this);
}

OpRegistry& OpRegistry::Global() {
  static OpRegistry registry;
  return registry;
}

void OpRegistry::Register(OpSchema schema) { schemas_.push_back(std::move(schema)); }

void OpRegistry::SetTraits(const std::string& domain, const std::string& op_type, OpTraits traits) {
  for (auto& s : schemas_)
    if (s.op_type == op_type && s.domain == domain) s.traits = std::move(traits);
}

const OpSchema* OpRegistry::Find(const std::string& domain, const std::string& op_type) const {
  const std::string d = domain == "ai.onnx" ? "" : domain;
  for (const auto& s : schemas_)
    if (s.op_type == op_type && s.domain == d) return &s;
  for (const auto& s : schemas_)
    if (s.op_type == op_type && s.domain == kAnyDomain) return &s;
  return nullptr;
}

std::vector<const OpSchema*> OpRegistry::All() const {
  std::vector<const OpSchema*> out;
  for (const auto& s : schemas_) out.push_back(&s);
  return out;
}

Status InferNode(Graph& graph, const Node& node) {
  const OpSchema* schema = OpRegistry::Global().Find(node.domain, node.op_type);
  if (!schema) return NoKernelError(node);
  int n_in = static_cast<int>(node.inputs.size());
  while (n_in > 0 && node.inputs[n_in - 1].empty()) --n_in;
  if (n_in < schema->min_inputs || n_in > schema->max_inputs)
    return InvalidArgument("node [" + node.name + "] (" + node.op_type + ") has " +
                           std::to_string(n_in) + " inputs, expected " +
                           std::to_string(schema->min_inputs) + " to " +
                           std::to_string(schema->max_inputs));
  int n_out = static_cast<int>(node.outputs.size());
  if (n_out < schema->min_outputs || n_out > schema->max_outputs)
    return InvalidArgument("node [" + node.name + "] (" + node.op_type + ") has " +
                           std::to_string(n_out) + " outputs, expected " +
                           std::to_string(schema->min_outputs) + " to " +
                           std::to_string(schema->max_outputs));
  InferContext ctx;
  ctx.node = &node;
  ctx.opset = graph.opset_version;
  ctx.outputs.resize(node.outputs.size());
  for (size_t i = 0; i < static_cast<size_t>(n_in); ++i) {
    const std::string& in = node.inputs[i];
    if (in.empty()) {
      ctx.inputs.push_back(nullptr);
      ctx.const_inputs.push_back(nullptr);
      continue;
    }
    const ValueInfo* vi = graph.FindValue(in);
    if (!vi || vi->dtype == DataType::kUndefined)
      return Internal("input [" + in + "] of node [" + node.name + "] has no type");
    ctx.inputs.push_back(vi);
    ctx.const_inputs.push_back(graph.FindInitializer(in));
  }
  OC_RETURN_IF_ERROR(schema->infer(ctx));
  for (size_t i = 0; i < node.outputs.size(); ++i) {
    if (node.outputs[i].empty()) continue;
    graph.values[node.outputs[i]] = ctx.outputs[i];
    if (!ctx.outputs[i].has_shape)
      OC_LOG(kDebug, "shape of [" << node.outputs[i] << "] from " << node.op_type << " node ["
                                  << node.name << "] is unknown at compile time");
  }
  return Status::Ok();
}

}  // namespace oc
