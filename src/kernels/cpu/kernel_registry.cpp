#include "base/aligned_buffer.h"
#include "kernels/cpu/kernel.h"
#include "kernels/cpu/kernel_families.h"
#include "ops/op_schema.h"

namespace oc {

Status KernelPrepareContext::Error(const std::string& msg) const {
  return InvalidArgument("node [" + node->name + "] (" + node->op_type + "): " + msg);
}

Status KernelPrepareContext::NeedsValue(const std::string& what) const {
  return Status(StatusCode::kNeedsInputValue,
                "node [" + node->name + "] (" + node->op_type + ") needs the value of " + what);
}

KernelRegistry::KernelRegistry() {
  RegisterElementwiseKernels(*this);
  RegisterTensorKernels(*this);
  RegisterNnKernels(*this);
  RegisterConvKernels(*this);
  RegisterConvTransposeKernels(*this);
  RegisterMatmulKernels(*this);
  RegisterReductionKernels(*this);
  RegisterNormKernels(*this);
  RegisterIndexingKernels(*this);
  RegisterLossKernels(*this);
  RegisterResizeKernels(*this);
  RegisterMiscKernels(*this);
  RegisterQuantizeKernels(*this);
  RegisterRecurrentKernels(*this);
  RegisterVisionKernels(*this);
  RegisterTrainingKernels(*this);
  RegisterSpectralKernels(*this);
  RegisterControlFlowKernels(*this);
}

KernelRegistry& KernelRegistry::Global() {
  static KernelRegistry registry;
  return registry;
}

void KernelRegistry::Register(const std::string& domain, const std::string& op_type,
                              KernelFactory f, const std::string& types) {
  entries_.emplace_back(domain, op_type, std::move(f));
  types_[{domain, op_type}] = types;
}

std::string KernelRegistry::TypesOf(const std::string& domain, const std::string& op_type) const {
  auto it = types_.find({domain, op_type});
  return it == types_.end() ? "" : it->second;
}

bool KernelRegistry::Supports(const std::string& domain, const std::string& op_type) const {
  return Find(domain, op_type) != nullptr;
}

std::unique_ptr<Kernel> KernelRegistry::Create(const std::string& domain,
                                               const std::string& op_type) const {
  const KernelFactory* f = Find(domain, op_type);
  return f ? (*f)() : nullptr;
}

// An exact (domain, type) entry, else a custom package's op of that type (kAnyDomain).
const KernelFactory* KernelRegistry::Find(const std::string& domain,
                                          const std::string& op_type) const {
  for (const auto& [d, o, f] : entries_)
    if (d == domain && o == op_type) return &f;
  for (const auto& [d, o, f] : entries_)
    if (d == kAnyDomain && o == op_type) return &f;
  return nullptr;
}

std::vector<std::pair<std::string, std::string>> KernelRegistry::List() const {
  std::vector<std::pair<std::string, std::string>> out;
  for (const auto& [d, o, f] : entries_) out.emplace_back(d, o);
  return out;
}

KernelPrepareContext MakePrepareContext(const Graph& graph, const Node& node,
                                        const std::unordered_set<std::string>& blocked,
                                        int num_threads) {
  KernelPrepareContext ctx;
  ctx.node = &node;
  ctx.opset = graph.opset_version;
  ctx.num_threads = num_threads;
  for (const auto& in : node.inputs) {
    const ValueInfo* vi = in.empty() ? nullptr : graph.FindValue(in);
    // An unknown rank becomes {-1} so that CreateKernel reports it instead of a kernel
    // mistaking it for a scalar.
    ctx.inputs.push_back(vi ? TensorType{vi->dtype, vi->has_shape ? vi->shape : Shape{-1}}
                            : TensorType{});
    ctx.constants.push_back(in.empty() ? nullptr : graph.FindInitializer(in));
    ctx.blocked_inputs.push_back(!in.empty() && blocked.count(in));
  }
  for (const auto& out : node.outputs) {
    const ValueInfo* vi = out.empty() ? nullptr : graph.FindValue(out);
    ctx.outputs.push_back(vi ? TensorType{vi->dtype, vi->has_shape ? vi->shape : Shape{-1}}
                             : TensorType{});
    ctx.blocked_outputs.push_back(!out.empty() && blocked.count(out));
  }
  return ctx;
}

Result<std::unique_ptr<Kernel>> CreateKernel(const KernelPrepareContext& ctx) {
  const Node& node = *ctx.node;
  for (const auto* list : {&ctx.inputs, &ctx.outputs})
    for (const auto& t : *list)
      if (t.dtype != DataType::kUndefined && !IsStatic(t.shape))
        return Status(StatusCode::kNeedsInputValue,
                      "node [" + node.name + "] (" + node.op_type +
                          "): a tensor shape is only known at run time");
  auto kernel = KernelRegistry::Global().Create(node.domain, node.op_type);
  if (!kernel)
    return Unsupported("No supported Ops kernel and engine are found for [" + node.name +
                           "], optype [" + node.op_type + "].",
                       "EZ3003");
  Status s = kernel->Prepare(ctx);
  if (!s.ok()) return s;
  return kernel;
}

Result<std::unique_ptr<Kernel>> PrepareForValues(const Node& node, int64_t opset, int num_threads,
                                                 const std::vector<const Tensor*>& inputs,
                                                 std::vector<ValueInfo>* outputs) {
  const OpSchema* schema = OpRegistry::Global().Find(node.domain, node.op_type);
  if (!schema || !KernelRegistry::Global().Supports(node.domain, node.op_type))
    return Unsupported("No supported Ops kernel and engine are found for [" + node.name +
                           "], optype [" + node.op_type + "].",
                       "EZ3003");
  std::vector<ValueInfo> infos(inputs.size());
  InferContext ic;
  ic.node = &node;
  ic.opset = opset;
  ic.outputs.resize(node.outputs.size());
  KernelPrepareContext kc;
  kc.node = &node;
  kc.opset = opset;
  kc.num_threads = num_threads;
  for (size_t i = 0; i < inputs.size(); ++i) {
    const Tensor* t = inputs[i];
    if (t) infos[i] = ValueInfo{t->dtype(), t->shape(), true};
    ic.inputs.push_back(t ? &infos[i] : nullptr);
    ic.const_inputs.push_back(t);
    kc.inputs.push_back(t ? TensorType{t->dtype(), t->shape()} : TensorType{});
    kc.constants.push_back(t);
  }
  OC_RETURN_IF_ERROR(schema->infer(ic));
  bool known = true;
  for (size_t k = 0; k < node.outputs.size(); ++k)
    if (!node.outputs[k].empty())
      known = known && ic.outputs[k].has_shape && IsStatic(ic.outputs[k].shape);
  std::unique_ptr<Kernel> kernel;
  if (!known) {
    // The values decide the size: the kernel computes it while preparing.
    for (const auto& o : ic.outputs) kc.outputs.push_back({o.dtype, Shape{-1}});
    kernel = KernelRegistry::Global().Create(node.domain, node.op_type);
    OC_RETURN_IF_ERROR(kernel->Prepare(kc));
    std::vector<Shape> shapes;
    if (!kernel->OutputShapes(&shapes) || shapes.size() != ic.outputs.size())
      return Internal("node [" + node.name + "]: output shape still unknown at run time");
    for (size_t k = 0; k < shapes.size(); ++k) {
      ic.outputs[k].shape = shapes[k];
      ic.outputs[k].has_shape = true;
    }
  } else {
    for (const auto& o : ic.outputs) kc.outputs.push_back({o.dtype, o.shape});
    OC_ASSIGN_OR_RETURN(kernel, CreateKernel(kc));
  }
  *outputs = std::move(ic.outputs);
  return kernel;
}

Result<std::unique_ptr<Kernel>> PrepareForShapes(KernelPrepareContext ctx,
                                                 std::vector<ValueInfo>* outputs) {
  const Node& node = *ctx.node;
  const OpSchema* schema = OpRegistry::Global().Find(node.domain, node.op_type);
  if (!schema) return Unsupported("no schema for [" + node.op_type + "]", "EZ3003");
  std::vector<ValueInfo> infos(ctx.inputs.size());
  InferContext ic;
  ic.node = &node;
  ic.opset = ctx.opset;
  ic.outputs.resize(node.outputs.size());
  for (size_t i = 0; i < ctx.inputs.size(); ++i) {
    const bool present = ctx.has_input(i);
    if (present) infos[i] = ValueInfo{ctx.inputs[i].dtype, ctx.inputs[i].shape, true};
    ic.inputs.push_back(present ? &infos[i] : nullptr);
    ic.const_inputs.push_back(i < ctx.constants.size() ? ctx.constants[i] : nullptr);
  }
  OC_RETURN_IF_ERROR(schema->infer(ic));
  ctx.outputs.clear();
  for (size_t k = 0; k < node.outputs.size(); ++k) {
    if (!node.outputs[k].empty() && (!ic.outputs[k].has_shape || !IsStatic(ic.outputs[k].shape)))
      return Status(StatusCode::kNeedsInputValue,
                    "node [" + node.name + "]: output shapes depend on input values");
    ctx.outputs.push_back({ic.outputs[k].dtype, ic.outputs[k].shape});
  }
  OC_ASSIGN_OR_RETURN(auto kernel, CreateKernel(ctx));
  *outputs = std::move(ic.outputs);
  return kernel;
}

Result<std::vector<Tensor>> EvaluateNode(const Node& node, const std::vector<const Tensor*>& inputs,
                                         const std::vector<TensorType>& output_types) {
  KernelPrepareContext ctx;
  ctx.node = &node;
  for (const Tensor* t : inputs) {
    ctx.inputs.push_back(t ? TensorType{t->dtype(), t->shape()} : TensorType{});
    ctx.constants.push_back(t);
  }
  ctx.outputs = output_types;
  OC_ASSIGN_OR_RETURN(auto kernel, CreateKernel(ctx));
  std::vector<Tensor> outs;
  std::vector<void*> out_ptrs;
  for (const auto& t : output_types) {
    outs.emplace_back(t.dtype, t.shape);
  }
  for (auto& t : outs) out_ptrs.push_back(t.mutable_data());
  std::vector<const void*> in_ptrs;
  for (const Tensor* t : inputs) in_ptrs.push_back(t ? t->data() : nullptr);
  size_t ws = kernel->WorkspaceSize();
  AlignedBuffer workspace;
  if (!workspace.Resize(ws)) return Status(StatusCode::kOutOfMemory, "workspace allocation failed");
  KernelRunContext run;
  run.inputs = in_ptrs.data();
  run.outputs = out_ptrs.data();
  run.workspace = workspace.data();
  OC_RETURN_IF_ERROR(kernel->Run(run));
  return outs;
}

}  // namespace oc
