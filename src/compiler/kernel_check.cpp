// Checks that every node can be placed on the backends the compiler was given and prepares
// its kernel once, so that a node nothing can run fails at atc (EZ3003 naming it) rather
// than at load. Placement itself is PlaceGraph's (backend/backend.h), which the runtime
// calls at load with the backends the application chose; nothing is recorded here.
// Workspace is not measured here: it depends on the machine that runs the model.
#include "base/threads.h"
#include "compiler/compiler.h"

namespace oc {

Status CheckKernels(const Graph& graph, const std::vector<const Backend*>& backends,
                    const std::string& soc_version, std::vector<std::string>* runtime_prepared) {
  OC_ASSIGN_OR_RETURN(Placement placement, PlaceGraph(graph, backends));
  for (size_t i = 0; i < graph.nodes.size(); ++i) {
    const Node& n = graph.nodes[i];
    const Backend& backend = *placement.node_backend[i];
    KernelPrepareContext ctx = MakePrepareContext(graph, n, &placement, DefaultNumThreads());
    ctx.soc_version = soc_version;
    auto kernel = PrepareKernel(backend, ctx);
    // Nodes that need input values or run-time shapes are prepared by the runtime.
    if (!kernel.ok() && kernel.status().code() != StatusCode::kNeedsInputValue) {
      if (kernel.status().code() == StatusCode::kUnsupported && kernel.status().cann_code().empty())
        return NoKernelError(n, kernel.status().message());
      return kernel.status();
    }
    if (!kernel.ok() && runtime_prepared) runtime_prepared->push_back(kernel.status().message());
  }
  return Status::Ok();
}

}  // namespace oc
