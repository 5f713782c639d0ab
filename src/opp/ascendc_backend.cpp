#include "opp/ascendc_backend.h"

namespace oc {
namespace {

class AscendcBackendImpl final : public Backend {
 public:
  const char* name() const override { return "ascendc"; }

  bool Supports(const Node& node, const std::vector<TensorType>& inputs) const override {
    return AscendcKernels().Has(node.domain, node.op_type);
  }

  Result<std::unique_ptr<Kernel>> CreateKernel(const KernelPrepareContext& ctx) const override {
    auto kernel = AscendcKernels().Create(ctx.node->domain, ctx.node->op_type);
    if (!kernel) return NoKernelError(*ctx.node, "Backend asked: ascendc.");
    for (size_t i = 0; i < ctx.inputs.size(); ++i)
      if (ctx.input_layout(i) != kPlainLayout) return ctx.Error("package kernels read plain data");
    OC_RETURN_IF_ERROR(kernel->Prepare(ctx));
    return kernel;
  }

  std::string TypesOf(const std::string& domain, const std::string& op_type) const override {
    return AscendcKernels().Has(domain, op_type) ? AscendcKernels().TypesOf(domain, op_type) : "";
  }
};

}  // namespace

KernelTable& AscendcKernels() {
  static KernelTable* table = new KernelTable();  // packages stay loaded for the process
  return *table;
}

const Backend& AscendcBackend() {
  static AscendcBackendImpl backend;
  return backend;
}

}  // namespace oc
