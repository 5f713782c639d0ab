// The pass order, in one place. Each constraint is noted where it matters.
#include "compiler/compiler.h"
#include "compiler/pass.h"
#include "ops/op_schema.h"

namespace oc {
namespace {

std::vector<std::unique_ptr<Pass>> BuildPipeline(const CompileOptions& options = {},
                                                 std::vector<const Backend*> backends = {}) {
  std::vector<std::unique_ptr<Pass>> p;
  // Types and shapes first: every later pass relies on them.
  p.push_back(CreateInferShapesPass(options.dynamic_inputs));
  // Folding turns Shape/Constant subgraphs into constants, which the fusions below
  // need (BatchNorm parameters, Clip bounds, MatMul biases must be constant).
  p.push_back(CreateFoldConstantsPass(std::move(backends)));
  p.push_back(CreateEliminateIdentityPass());
  // Layout round trips a frontend left (NHWC models around NCHW ops) cancel before fusion
  // looks for Conv -> activation chains.
  p.push_back(CreateSinkTransposesPass());
  p.push_back(CreateCancelTransposesPass());
  // BatchNorm must fold before activation fusion: Conv -> BN -> Relu becomes Conv -> Relu.
  p.push_back(CreateFoldBatchNormIntoConvPass());
  p.push_back(CreateFuseConvActivationPass());
  // Decomposed LayerNorm and GELU become single ops; GELU must exist before the MatMul
  // fusion so it can become that MatMul's post-op.
  p.push_back(CreateFuseLayerNormPass());
  p.push_back(CreateFuseGeluPass());
  p.push_back(CreateFuseMatMulBiasActivationPass());
  // Last: drop whatever the rewrites left unused.
  p.push_back(CreateEliminateDeadCodePass());
  return p;
}

}  // namespace

std::vector<std::string> PipelinePassNames() {
  std::vector<std::string> names;
  for (const auto& p : BuildPipeline()) names.push_back(p->name());
  return names;
}

Result<CompiledGraph> CompileGraph(Graph graph, const CompileOptions& options) {
  CompiledGraph out;
  // The compiler knows backends only through the interface: whoever calls it (the driver,
  // from the registry and the application's choice) says which the model may run on.
  const std::vector<const Backend*>& backends = options.backends;
  if (backends.empty())
    return InvalidArgument("the compiler was given no backend to place the model on");
  OC_RETURN_IF_ERROR(CheckNamesAreUtf8(graph));
  OC_RETURN_IF_ERROR(CheckNoStringValues(graph));
  NormalizeBoolInitializers(graph);
  OC_RETURN_IF_ERROR(graph.TopologicalSort());
  OC_RETURN_IF_ERROR(graph.Verify());
  // Bodies are inferred only when they run; what the loader checks in them is refused here,
  // with the op's own code, rather than after the .om is written.
  OC_RETURN_IF_ERROR(CheckSubgraphs(graph));
  PrecisionOptions precision = options.precision;
  if (HasFloat16(graph)) {
    OC_RETURN_IF_ERROR(CreateInferShapesPass(options.dynamic_inputs)->Run(graph).status());
    OC_RETURN_IF_ERROR(WidenFloat16(graph, &precision));
  }
  const ValueOrigins origins = RecordValueOrigins(graph);
  for (auto& pass : BuildPipeline(options, backends)) {
    const std::string name = pass->name();
    // Shape inference is not optional: it is how the compiler knows anything.
    if (options.disabled_passes.count(name) && name != "InferShapes") {
      out.pass_log.push_back(name + ": off");
      continue;
    }
    auto changed = pass->Run(graph);
    if (!changed.ok()) return changed.status();
    out.pass_log.push_back(name + (changed.value() ? ": changed" : ": unchanged"));
  }
  // The precision mode is what the model means on the NPU, not an optimisation: it runs
  // after the fusions (a fused node rounds once) and cannot be switched off.
  {
    auto changed = CreateAssignPrecisionPass(precision, &out.precision_table)->Run(graph);
    if (!changed.ok()) return changed.status();
    out.pass_log.push_back(std::string("AssignPrecision (") +
                           (options.precision.name.empty() ? "float32" : options.precision.name) +
                           (changed.value() ? "): changed" : "): unchanged"));
    // Constants replaced by their rounded copies are stored no more.
    if (changed.value()) OC_RETURN_IF_ERROR(CreateEliminateDeadCodePass()->Run(graph).status());
  }
  OC_RETURN_IF_ERROR(graph.TopologicalSort());
  OC_RETURN_IF_ERROR(graph.Verify());
  // Re-infer after rewrites so every value has a checked type and shape.
  OC_RETURN_IF_ERROR(CreateInferShapesPass(options.dynamic_inputs)->Run(graph).status());
  StampValueOrigins(graph, origins);
  OC_RETURN_IF_ERROR(CheckKernels(graph, backends, options.soc_version, &out.runtime_prepared));
  auto in_place = [](const Node& n) {
    const OpSchema* s = OpRegistry::Global().Find(n.domain, n.op_type);
    return s ? s->traits.in_place_input : -1;
  };
  OC_ASSIGN_OR_RETURN(out.plan, PlanGraphMemory(graph, options.reuse_memory, in_place));
  out.graph = std::move(graph);
  return out;
}

}  // namespace oc
