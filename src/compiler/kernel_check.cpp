// Checks that every node has a CPU kernel that accepts it (EZ3003 otherwise) and
// measures the largest kernel workspace, recorded in the .om for aclmdlQuerySize.
#include "base/threads.h"
#include "compiler/compiler.h"
#include "kernels/cpu/kernel.h"
#include "kernels/cpu/layout.h"

namespace oc {

Result<size_t> CheckKernels(const Graph& graph) {
  size_t workspace = 0;
  const auto blocked = ChooseBlockedValues(graph);
  for (const auto& n : graph.nodes) {
    if (!KernelRegistry::Global().Supports(n.domain, n.op_type))
      return Unsupported("No supported Ops kernel and engine are found for [" + n.name +
                             "], optype [" + n.op_type + "].",
                         "EZ3003");
    KernelPrepareContext ctx = MakePrepareContext(graph, n, blocked, DefaultNumThreads());
    auto kernel = CreateKernel(ctx);
    // Nodes that need input values or run-time shapes are prepared by the runtime.
    if (!kernel.ok() && kernel.status().code() == StatusCode::kNeedsInputValue) continue;
    if (!kernel.ok()) {
      if (kernel.status().code() == StatusCode::kUnsupported && kernel.status().cann_code().empty())
        return Unsupported("No supported Ops kernel and engine are found for [" + n.name +
                               "], optype [" + n.op_type + "]: " + kernel.status().message(),
                           "EZ3003");
      return kernel.status();
    }
    workspace = std::max(workspace, kernel.value()->WorkspaceSize());
  }
  return workspace;
}

}  // namespace oc
