#include "backend/backend.h"

#include <algorithm>
#include <cstdlib>
#include <cstring>

#include "base/aligned_buffer.h"
#include "ops/op_schema.h"

namespace oc {

Status KernelPrepareContext::Error(const std::string& msg) const {
  return InvalidArgument("node [" + node->name + "] (" + node->op_type + "): " + msg);
}

Status KernelPrepareContext::NeedsValue(const std::string& what) const {
  return Status(StatusCode::kNeedsInputValue,
                "node [" + node->name + "] (" + node->op_type + ") needs the value of " + what);
}

namespace {

// A scalar constant input: absent, or not constant (NeedsValue).
Result<const Tensor*> ScalarInput(const KernelPrepareContext& ctx, size_t i,
                                  const std::string& what) {
  const Tensor* t = ctx.constants[i];
  if (!t) return ctx.has_input(i) ? ctx.NeedsValue(what) : ctx.Error(what + " is required");
  return t;
}

}  // namespace

Result<double> KernelPrepareContext::OneDouble(size_t i, const std::string& what) const {
  OC_ASSIGN_OR_RETURN(const Tensor* t, ScalarInput(*this, i, what));
  auto v = t->OneDouble(what);
  if (!v.ok()) return Error(v.status().message());
  return v.value();
}

Result<int64_t> KernelPrepareContext::OneInt(size_t i, const std::string& what) const {
  OC_ASSIGN_OR_RETURN(const Tensor* t, ScalarInput(*this, i, what));
  auto v = t->OneInt(what);
  if (!v.ok()) return Error(v.status().message());
  return v.value();
}

// ---- KernelTable -------------------------------------------------------------------

void KernelTable::Register(const std::string& domain, const std::string& op_type, KernelFactory f,
                           const std::string& types) {
  entries_.emplace_back(domain, op_type, std::move(f));
  types_[{domain, op_type}] = types;
}

std::string KernelTable::TypesOf(const std::string& domain, const std::string& op_type) const {
  auto it = types_.find({domain, op_type});
  if (it != types_.end()) return it->second;
  it = types_.find({kAnyDomain, op_type});
  return it == types_.end() ? "" : it->second;
}

bool KernelTable::Has(const std::string& domain, const std::string& op_type) const {
  return Find(domain, op_type) != nullptr;
}

std::unique_ptr<Kernel> KernelTable::Create(const std::string& domain,
                                            const std::string& op_type) const {
  const KernelFactory* f = Find(domain, op_type);
  return f ? (*f)() : nullptr;
}

// An exact (domain, type) entry, else a custom package's op of that type (kAnyDomain).
const KernelFactory* KernelTable::Find(const std::string& domain,
                                       const std::string& op_type) const {
  for (const auto& [d, o, f] : entries_)
    if (d == domain && o == op_type) return &f;
  for (const auto& [d, o, f] : entries_)
    if (d == kAnyDomain && o == op_type) return &f;
  return nullptr;
}

std::vector<std::pair<std::string, std::string>> KernelTable::List() const {
  std::vector<std::pair<std::string, std::string>> out;
  for (const auto& [d, o, f] : entries_) out.emplace_back(d, o);
  return out;
}

// ---- Backend defaults: host memory, plain layout only -----------------------------

Status Backend::ToPlain(int layout, const TensorType& type, const void* src, void* dst) const {
  if (layout != kPlainLayout)
    return Internal(std::string("backend ") + name() + " has no layout " + std::to_string(layout));
  if (type.numel() > 0) std::memcpy(dst, src, type.nbytes());
  return Status::Ok();
}

void* Backend::AllocateDeviceMemory(size_t bytes) const {
  // As the NPU's aclrtMalloc lays memory out: rounded up to 32 bytes plus 32, which kernels
  // may read (Ascend C's checks allow it); then to the alignment (aligned_alloc's rule). A
  // size that overflows is refused.
  constexpr size_t kAlign = 64;
  if (bytes == 0) bytes = 1;
  if (bytes > SIZE_MAX - 2 * kAlign) return nullptr;
  const size_t laid_out = (bytes + 31) / 32 * 32 + 32;
  const size_t total = (laid_out + kAlign - 1) / kAlign * kAlign;
  void* p = std::aligned_alloc(kAlign, total);
  // Fresh device memory reads as zero here, as a newly mapped NPU allocation does in
  // practice (CANN's own samples compare never-written outputs with zeros); CANN documents
  // the memory as uninitialised, so applications should not rely on it.
  if (p) std::memset(p, 0, total);
  return p;
}

void Backend::FreeDeviceMemory(void* p) const { std::free(p); }

Status Backend::Copy(void* dst, const void* src, size_t bytes, CopyKind) const {
  if (bytes) std::memmove(dst, src, bytes);
  return Status::Ok();
}

std::unique_ptr<Queue> Backend::CreateQueue() const { return std::make_unique<HostQueue>(); }

Status Backend::Fill(void* dst, int value, size_t bytes) const {
  if (bytes) std::memset(dst, value, bytes);
  return Status::Ok();
}

// ---- Registry and placement --------------------------------------------------------

void BackendRegistry::Add(const Backend* backend, Use use) {
  backends_.push_back(backend);
  if (use != Use::kByName) default_order_.push_back(backend);
  if (use == Use::kAlways) always_.push_back(backend);
}

const Backend* BackendRegistry::Find(const std::string& name) const {
  for (const auto& b : backends_)
    if (name == b->name()) return b;
  return nullptr;
}

std::vector<std::string> BackendRegistry::Names() const {
  std::vector<std::string> out;
  for (const auto& b : backends_) out.push_back(b->name());
  return out;
}

Result<std::vector<const Backend*>> BackendRegistry::Order(const std::string& names) const {
  std::string spec = names;
  if (spec.empty()) spec = GlobalConfig().backends;
  std::vector<const Backend*> order;
  if (spec.empty()) {
    order = default_order_;
    return order;
  }
  size_t pos = 0;
  while (pos <= spec.size()) {
    size_t comma = spec.find(',', pos);
    if (comma == std::string::npos) comma = spec.size();
    std::string name = spec.substr(pos, comma - pos);
    while (!name.empty() && name.front() == ' ') name.erase(name.begin());
    while (!name.empty() && name.back() == ' ') name.pop_back();
    pos = comma + 1;
    if (name.empty()) continue;
    const Backend* b = Find(name);
    if (!b) {
      std::string known;
      for (const auto& n : Names()) known += (known.empty() ? "" : ", ") + n;
      return InvalidArgument("unknown backend [" + name + "] in [" + spec + "]; known: " + known);
    }
    bool dup = false;
    for (const Backend* o : order) dup = dup || o == b;
    if (!dup) order.push_back(b);
  }
  if (order.empty()) return InvalidArgument("the backend list [" + spec + "] names no backend");
  for (const Backend* b : always_)
    if (std::find(order.begin(), order.end(), b) == order.end()) order.push_back(b);
  return order;
}

namespace {

std::vector<TensorType> InputTypes(const Graph& graph, const Node& node) {
  std::vector<TensorType> types;
  for (const auto& in : node.inputs) {
    const ValueInfo* vi = in.empty() ? nullptr : graph.FindValue(in);
    types.push_back(vi ? TensorType{vi->dtype, vi->has_shape ? vi->shape : Shape{-1}}
                       : TensorType{});
  }
  return types;
}

}  // namespace

const Backend* FirstSupporting(const std::vector<const Backend*>& order, const Node& node,
                               const std::vector<TensorType>& inputs) {
  for (const Backend* b : order)
    if (b->Supports(node, inputs)) return b;
  return nullptr;
}

Result<Placement> PlaceGraph(const Graph& graph, const std::vector<const Backend*>& order) {
  Placement p;
  for (const auto& n : graph.nodes) {
    const Backend* b = FirstSupporting(order, n, InputTypes(graph, n));
    if (!b) {
      std::string asked;
      for (const Backend* o : order) asked += (asked.empty() ? "" : ", ") + std::string(o->name());
      return NoKernelError(n, "Backends asked: " + asked + ".");
    }
    p.node_backend.push_back(b);
  }
  for (const Backend* b : order) {
    std::vector<bool> mine(graph.nodes.size());
    bool any = false;
    for (size_t i = 0; i < mine.size(); ++i) any |= (mine[i] = p.node_backend[i] == b);
    if (!any) continue;
    for (auto& [v, layout] : b->ChooseLayouts(graph, mine))
      if (layout != kPlainLayout) p.layouts[v] = layout;
  }
  return p;
}

KernelPrepareContext MakePrepareContext(const Graph& graph, const Node& node,
                                        const Placement* placement, int num_threads) {
  KernelPrepareContext ctx;
  ctx.node = &node;
  ctx.opset = graph.opset_version;
  ctx.num_threads = num_threads;
  // An unknown rank becomes {-1} so that PrepareKernel reports it instead of a kernel
  // mistaking it for a scalar.
  ctx.inputs = InputTypes(graph, node);
  for (const auto& in : node.inputs) {
    ctx.constants.push_back(in.empty() ? nullptr : graph.FindInitializer(in));
    ctx.input_layouts.push_back(in.empty() || !placement ? kPlainLayout : placement->LayoutOf(in));
  }
  for (const auto& out : node.outputs) {
    const ValueInfo* vi = out.empty() ? nullptr : graph.FindValue(out);
    ctx.outputs.push_back(vi ? TensorType{vi->dtype, vi->has_shape ? vi->shape : Shape{-1}}
                             : TensorType{});
    ctx.output_layouts.push_back(out.empty() || !placement ? kPlainLayout
                                                           : placement->LayoutOf(out));
  }
  return ctx;
}

Result<std::unique_ptr<Kernel>> PrepareKernel(const Backend& backend,
                                              const KernelPrepareContext& ctx) {
  const Node& node = *ctx.node;
  for (const auto* list : {&ctx.inputs, &ctx.outputs})
    for (const auto& t : *list)
      if (t.dtype != DataType::kUndefined && !IsStatic(t.shape))
        return Status(StatusCode::kNeedsInputValue,
                      "node [" + node.name + "] (" + node.op_type +
                          "): a tensor shape is only known at run time");
  return backend.CreateKernel(ctx);
}

Result<std::unique_ptr<Kernel>> PrepareForValues(const Backend& backend, const Node& node,
                                                 int64_t opset, int num_threads,
                                                 const std::vector<const Tensor*>& inputs,
                                                 std::vector<ValueInfo>* outputs,
                                                 const SubgraphRunner* subgraphs) {
  const OpSchema* schema = OpRegistry::Global().Find(node.domain, node.op_type);
  if (!schema) return NoKernelError(node);
  std::vector<ValueInfo> infos(inputs.size());
  InferContext ic;
  ic.node = &node;
  ic.opset = opset;
  ic.outputs.resize(node.outputs.size());
  KernelPrepareContext kc;
  kc.node = &node;
  kc.opset = opset;
  kc.num_threads = num_threads;
  kc.subgraphs = subgraphs;
  for (size_t i = 0; i < inputs.size(); ++i) {
    const Tensor* t = inputs[i];
    if (t) infos[i] = ValueInfo{t->dtype(), t->shape(), true};
    ic.inputs.push_back(t ? &infos[i] : nullptr);
    ic.const_inputs.push_back(t);
    kc.inputs.push_back(t ? TensorType{t->dtype(), t->shape()} : TensorType{});
    kc.constants.push_back(t);
  }
  if (!backend.Supports(node, kc.inputs))
    return NoKernelError(node, std::string("Backend asked: ") + backend.name() + ".");
  // Subgraph nodes reach here without InferNode: the schema sees checked arity only.
  OC_RETURN_IF_ERROR(CheckArity(*schema, node));
  OC_RETURN_IF_ERROR(RunSchema(*schema, ic));
  bool known = true;
  for (size_t k = 0; k < node.outputs.size(); ++k)
    if (!node.outputs[k].empty())
      known = known && ic.outputs[k].has_shape && IsStatic(ic.outputs[k].shape);
  std::unique_ptr<Kernel> kernel;
  if (!known) {
    // The values decide the size: the kernel computes it while preparing.
    for (const auto& o : ic.outputs) kc.outputs.push_back({o.dtype, Shape{-1}});
    OC_ASSIGN_OR_RETURN(kernel, backend.CreateKernel(kc));
    std::vector<Shape> shapes;
    if (!kernel->OutputShapes(&shapes) || shapes.size() != ic.outputs.size())
      return Internal("node [" + node.name + "]: output shape still unknown at run time");
    for (size_t k = 0; k < shapes.size(); ++k) {
      ic.outputs[k].shape = shapes[k];
      ic.outputs[k].has_shape = true;
    }
  } else {
    for (const auto& o : ic.outputs) kc.outputs.push_back({o.dtype, o.shape});
    OC_ASSIGN_OR_RETURN(kernel, PrepareKernel(backend, kc));
  }
  *outputs = std::move(ic.outputs);
  return kernel;
}

Result<std::unique_ptr<Kernel>> PrepareForShapes(const Backend& backend, KernelPrepareContext ctx,
                                                 std::vector<ValueInfo>* outputs) {
  const Node& node = *ctx.node;
  const OpSchema* schema = OpRegistry::Global().Find(node.domain, node.op_type);
  if (!schema) return NoKernelError(node, "It has no schema.");
  std::vector<ValueInfo> infos(ctx.inputs.size());
  InferContext ic;
  ic.node = &node;
  ic.opset = ctx.opset;
  ic.outputs.resize(node.outputs.size());
  for (size_t i = 0; i < ctx.inputs.size(); ++i) {
    const bool present = ctx.has_input(i);
    if (present) infos[i] = ValueInfo{ctx.inputs[i].dtype, ctx.inputs[i].shape, true};
    ic.inputs.push_back(present ? &infos[i] : nullptr);
    ic.const_inputs.push_back(ctx.constants[i]);
  }
  OC_RETURN_IF_ERROR(RunSchema(*schema, ic));
  ctx.outputs.clear();
  for (size_t k = 0; k < node.outputs.size(); ++k) {
    if (!node.outputs[k].empty() && (!ic.outputs[k].has_shape || !IsStatic(ic.outputs[k].shape)))
      return Status(StatusCode::kNeedsInputValue,
                    "node [" + node.name + "]: output shapes depend on input values");
    ctx.outputs.push_back({ic.outputs[k].dtype, ic.outputs[k].shape});
  }
  OC_ASSIGN_OR_RETURN(auto kernel, PrepareKernel(backend, ctx));
  *outputs = std::move(ic.outputs);
  return kernel;
}

Result<std::vector<Tensor>> EvaluateNode(const Backend& backend, const Node& node, int64_t opset,
                                         const std::vector<const Tensor*>& inputs,
                                         const std::vector<TensorType>& output_types) {
  KernelPrepareContext ctx;
  ctx.node = &node;
  ctx.opset = opset;
  for (const Tensor* t : inputs) {
    ctx.inputs.push_back(t ? TensorType{t->dtype(), t->shape()} : TensorType{});
    ctx.constants.push_back(t);
  }
  ctx.outputs = output_types;
  if (!backend.Supports(node, ctx.inputs))
    return NoKernelError(node, std::string("Backend asked: ") + backend.name() + ".");
  OC_ASSIGN_OR_RETURN(auto kernel, PrepareKernel(backend, ctx));
  return RunOnTensors(*kernel, inputs, output_types);
}

Result<std::vector<Tensor>> RunOnTensors(const Kernel& kernel,
                                         const std::vector<const Tensor*>& inputs,
                                         const std::vector<TensorType>& output_types) {
  std::vector<Tensor> outs;
  std::vector<void*> out_ptrs;
  for (const auto& t : output_types) outs.emplace_back(t.dtype, t.shape);
  for (auto& t : outs) out_ptrs.push_back(t.mutable_data());
  std::vector<const void*> in_ptrs;
  for (const Tensor* t : inputs) in_ptrs.push_back(t ? t->data() : nullptr);
  AlignedBuffer workspace;
  if (!workspace.Resize(kernel.WorkspaceSize()))
    return Status(StatusCode::kOutOfMemory, "cannot allocate the kernel workspace");
  KernelRunContext run;
  run.inputs = in_ptrs.data();
  run.outputs = out_ptrs.data();
  run.workspace = workspace.data();
  OC_RETURN_IF_ERROR(kernel.Run(run));
  return outs;
}

}  // namespace oc
