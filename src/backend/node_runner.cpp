#include "backend/node_runner.h"

#include <utility>

namespace oc {
namespace {

// Runs a prepared kernel of a backend whose memory the host cannot read: the inputs are
// copied into its memory, the outputs copied back.
Result<std::vector<Tensor>> RunOnDevice(const Backend& backend, const Kernel& kernel,
                                        const std::vector<const Tensor*>& inputs,
                                        const std::vector<TensorType>& output_types) {
  using Kind = Backend::CopyKind;
  auto allocate = [&](size_t bytes) -> Result<DeviceBuffer> {
    DeviceBuffer b(&backend, bytes);
    if (!b.data())
      return Status(StatusCode::kOutOfMemory, "cannot allocate " + std::to_string(bytes) +
                                                  " bytes of " + backend.name() + " memory");
    return b;
  };
  std::vector<DeviceBuffer> device_in, device_out;
  std::vector<const void*> in_ptrs;
  std::vector<void*> out_ptrs;
  for (const Tensor* t : inputs) {
    if (!t) {
      in_ptrs.push_back(nullptr);
      continue;
    }
    OC_ASSIGN_OR_RETURN(DeviceBuffer b, allocate(t->nbytes()));
    OC_RETURN_IF_ERROR(backend.Copy(b.data(), t->data(), t->nbytes(), Kind::kHostToDevice));
    in_ptrs.push_back(b.data());
    device_in.push_back(std::move(b));
  }
  for (const TensorType& t : output_types) {
    OC_ASSIGN_OR_RETURN(DeviceBuffer b, allocate(t.nbytes()));
    out_ptrs.push_back(b.data());
    device_out.push_back(std::move(b));
  }
  OC_ASSIGN_OR_RETURN(DeviceBuffer workspace, allocate(kernel.WorkspaceSize()));
  KernelRunContext run;
  run.inputs = in_ptrs.data();
  run.outputs = out_ptrs.data();
  run.workspace = workspace.data();
  OC_RETURN_IF_ERROR(kernel.Run(run));
  std::vector<Tensor> outs;
  for (size_t k = 0; k < output_types.size(); ++k) {
    outs.emplace_back(output_types[k].dtype, output_types[k].shape);
    OC_RETURN_IF_ERROR(backend.Copy(outs.back().mutable_data(), out_ptrs[k],
                                    output_types[k].nbytes(), Kind::kDeviceToHost));
  }
  return outs;
}

}  // namespace

NodeRunner::NodeRunner(std::vector<const Backend*> backends, int num_threads,
                       std::string soc_version)
    : backends_(std::move(backends)),
      num_threads_(num_threads),
      soc_version_(std::move(soc_version)) {}

Result<std::vector<Tensor>> NodeRunner::RunNode(const Node& node, int64_t opset,
                                                const std::vector<const Tensor*>& inputs,
                                                const std::vector<TensorType>* output_types) const {
  std::vector<TensorType> types;
  for (const Tensor* t : inputs)
    types.push_back(t ? TensorType{t->dtype(), t->shape()} : TensorType{});
  const Backend* backend = FirstSupporting(backends_, node, types);
  if (!backend) {
    std::string asked;
    for (const Backend* b : backends_)
      asked += (asked.empty() ? "" : ", ") + std::string(b->name());
    return NoKernelError(node, "Backends asked: " + asked + ".");
  }
  std::unique_ptr<Kernel> kernel;
  std::vector<TensorType> outs;
  if (output_types) {
    KernelPrepareContext ctx;
    ctx.node = &node;
    ctx.opset = opset;
    ctx.num_threads = num_threads_;
    ctx.soc_version = soc_version_;
    ctx.subgraphs = this;
    ctx.inputs = types;
    for (const Tensor* t : inputs) ctx.constants.push_back(t);
    ctx.outputs = outs = *output_types;
    OC_ASSIGN_OR_RETURN(kernel, PrepareKernel(*backend, ctx));
  } else {
    std::vector<ValueInfo> infos;
    OC_ASSIGN_OR_RETURN(
        kernel, PrepareForValues(*backend, node, opset, num_threads_, inputs, &infos, this));
    for (const auto& o : infos) outs.push_back({o.dtype, o.shape});
  }
  backend->BeginExecution(num_threads_);
  if (backend->host_accessible()) return RunOnTensors(*kernel, inputs, outs);
  return RunOnDevice(*backend, *kernel, inputs, outs);
}

Result<std::vector<Tensor>> NodeRunner::RunGraph(const Graph& g, int64_t opset,
                                                 const std::vector<Tensor>& inputs,
                                                 const std::map<std::string, Tensor>& outer) const {
  std::map<std::string, Tensor> env = outer;
  for (const auto& [name, t] : g.initializers) env[name] = t;
  for (size_t i = 0; i < g.inputs.size() && i < inputs.size(); ++i) env[g.inputs[i]] = inputs[i];
  for (const auto& node : g.nodes) {
    std::vector<const Tensor*> in;
    for (const auto& name : node.inputs) {
      if (name.empty()) {
        in.push_back(nullptr);
        continue;
      }
      auto it = env.find(name);
      if (it == env.end()) return Internal("subgraph value [" + name + "] is not available");
      in.push_back(&it->second);
    }
    auto outs = RunNode(node, opset, in);
    if (!outs.ok()) return outs.status().WithContext("subgraph node [" + node.name + "]");
    for (size_t k = 0; k < node.outputs.size(); ++k)
      if (!node.outputs[k].empty()) env[node.outputs[k]] = std::move(outs.value()[k]);
  }
  std::vector<Tensor> result;
  for (const auto& o : g.outputs) {
    auto it = env.find(o);
    if (it == env.end()) return Internal("subgraph output [" + o + "] was not produced");
    result.push_back(it->second);
  }
  return result;
}

}  // namespace oc
