#include "kernels/cpu/cpu_backend.h"

#include <omp.h>

#include <cstring>

#include "kernels/cpu/dnnl_common.h"
#include "kernels/cpu/kernel_families.h"
#include "kernels/cpu/layout.h"

namespace oc {
namespace {

KernelTable MakeCpuKernels() {
  KernelTable t;
  RegisterElementwiseKernels(t);
  RegisterTensorKernels(t);
  RegisterNnKernels(t);
  RegisterConvKernels(t);
  RegisterConvTransposeKernels(t);
  RegisterMatmulKernels(t);
  RegisterReductionKernels(t);
  RegisterNormKernels(t);
  RegisterIndexingKernels(t);
  RegisterLossKernels(t);
  RegisterResizeKernels(t);
  RegisterLocalNormKernels(t);
  RegisterReverseSequenceKernels(t);
  RegisterSelectionKernels(t);
  RegisterLinalgKernels(t);
  RegisterWindowKernels(t);
  RegisterMaxUnpoolKernels(t);
  RegisterSoftmaxKernels(t);
  RegisterIsInfKernels(t);
  RegisterShrinkKernels(t);
  RegisterPrecisionKernels(t);
  RegisterAippKernels(t);
  RegisterQuantizeKernels(t);
  RegisterRecurrentKernels(t);
  RegisterVisionKernels(t);
  RegisterDetectionOutputKernels(t);
  RegisterYoloKernels(t);
  RegisterTrainingKernels(t);
  RegisterSpectralKernels(t);
  RegisterControlFlowKernels(t);
  return t;
}

class CpuBackendImpl final : public Backend {
 public:
  const char* name() const override { return "cpu"; }

  bool Supports(const Node& node, const std::vector<TensorType>&) const override {
    // Kernels check types at Prepare and name what they refuse.
    return CpuKernels().Has(node.domain, node.op_type);
  }

  Result<std::unique_ptr<Kernel>> CreateKernel(const KernelPrepareContext& ctx) const override {
    auto kernel = CpuKernels().Create(ctx.node->domain, ctx.node->op_type);
    if (!kernel) return NoKernelError(*ctx.node);
    // oneDNN and the loops here index with 32-bit ints in places (oneDNN's matmul dies of a
    // division by zero at 2^32 rows): larger tensors are refused by name, not run.
    for (const auto* list : {&ctx.inputs, &ctx.outputs})
      for (const TensorType& t : *list)
        if (t.dtype != DataType::kUndefined && IsStatic(t.shape) &&
            NumElements(t.shape) > int64_t{INT32_MAX})
          return Unsupported("node [" + ctx.node->name + "] (" + ctx.node->op_type +
                                 "): the CPU backend takes tensors of at most 2^31-1 elements, "
                                 "this one is " +
                                 ShapeToString(t.shape),
                             "EZ3003");
    // oneDNN fixes a primitive's thread count when it is created.
    omp_set_num_threads(ctx.num_threads);
    // oneDNN reports what it cannot build by throwing; that stays inside this library.
    Status prepared;
    OC_RETURN_IF_ERROR(DnnlCall("node [" + ctx.node->name + "] (" + ctx.node->op_type + ")",
                                [&] { prepared = kernel->Prepare(ctx); }));
    OC_RETURN_IF_ERROR(prepared);
    return kernel;
  }

  std::string TypesOf(const std::string& domain, const std::string& op_type) const override {
    return CpuKernels().Has(domain, op_type) ? CpuKernels().TypesOf(domain, op_type) : "";
  }

  std::unordered_map<std::string, int> ChooseLayouts(const Graph& graph,
                                                     const std::vector<bool>& mine) const override {
    std::unordered_map<std::string, int> layouts;
    for (const auto& v : ChooseChannelsLastValues(graph, mine)) layouts[v] = kLayoutChannelsLast;
    return layouts;
  }

  Status ToPlain(int layout, const TensorType& t, const void* src, void* dst) const override {
    if (layout != kLayoutChannelsLast || t.shape.size() < 3)
      return Backend::ToPlain(0, t, src, dst);
    // N,spatial...,C in memory -> N,C,spatial...
    const size_t es = DataTypeSize(t.dtype);
    const int64_t n = t.numel();
    const int64_t batch = t.shape[0], c = t.shape[1];
    const int64_t spatial = n / std::max<int64_t>(1, batch * c);
    const auto* s = static_cast<const char*>(src);
    auto* d = static_cast<char*>(dst);
    for (int64_t b = 0; b < batch; ++b)
      for (int64_t p = 0; p < spatial; ++p)
        for (int64_t k = 0; k < c; ++k)
          std::memcpy(d + ((b * c + k) * spatial + p) * es, s + ((b * spatial + p) * c + k) * es,
                      es);
    return Status::Ok();
  }

  // OpenMP's thread count is per calling thread: set it for the executing one.
  void BeginExecution(int num_threads) const override { omp_set_num_threads(num_threads); }
};

}  // namespace

KernelTable& CpuKernels() {
  static KernelTable table = MakeCpuKernels();
  return table;
}

const Backend& CpuBackend() {
  static CpuBackendImpl backend;
  return backend;
}

}  // namespace oc
