// aclnn's two-stage operator API for custom operator packages: the generated
// aclnn<Op>GetWorkspaceSize / aclnn<Op> call OcAclnnGetWorkspaceSize / OcAclnnRun, which
// prepare the package's kernel for the tensors (types checked by the op's own inference; the
// output tensors' shapes are taken as given, as CANN's aclnn takes them) and run it,
// synchronously or on a stream.
#include <cstdio>
#include <memory>
#include <mutex>
#include <set>
#include <string>

#include "acl/acl_nn_arrays.h"
#include "acl/acl_state.h"
#include "aclnn/acl_meta.h"
#include "backend/backend.h"
#include "base/aligned_buffer.h"
#include "base/dtype.h"
#include "opp/opp_loader.h"
#include "ops/op_schema.h"
#include "register/op_def_registry.h"

using oc::acl::Fail;
using oc::acl::State;

struct aclTensor {
  aclDataType dtype = ACL_DT_UNDEFINED;
  std::vector<int64_t> dims;
  uint8_t* data = nullptr;
  size_t bytes() const {
    int64_t n = 1;
    for (int64_t d : dims) n *= d;
    return static_cast<size_t>(n) * aclDataTypeSize(dtype);
  }
};

struct aclOpExecutor {
  oc::Node node;
  const oc::Backend* backend = nullptr;  // where the op's kernel runs
  std::unique_ptr<oc::Kernel> kernel;
  std::vector<const void*> inputs;
  std::vector<void*> outputs;
  std::vector<size_t> input_bytes, output_bytes;
  size_t workspace = 0;
};

namespace {

// The op's backend reads host memory while the tensors are in a device the host cannot
// read: the kernel runs on host copies, its outputs copied back.
oc::Status RunThroughHost(const aclOpExecutor& ex, const oc::Backend& device) {
  using Kind = oc::Backend::CopyKind;
  if (!ex.backend->host_accessible())
    return oc::Unsupported(std::string("the ") + ex.backend->name() + " backend cannot read the " +
                           device.name() + " backend's memory");
  auto no_memory = [](size_t bytes) {
    return oc::Status(oc::StatusCode::kOutOfMemory,
                      "cannot allocate " + std::to_string(bytes) + " bytes of host memory");
  };
  std::vector<oc::AlignedBuffer> in(ex.inputs.size()), out(ex.outputs.size());
  std::vector<const void*> in_ptrs;
  std::vector<void*> out_ptrs;
  for (size_t i = 0; i < ex.inputs.size(); ++i) {
    if (!in[i].Resize(ex.input_bytes[i])) return no_memory(ex.input_bytes[i]);
    if (ex.input_bytes[i])
      OC_RETURN_IF_ERROR(
          device.Copy(in[i].data(), ex.inputs[i], ex.input_bytes[i], Kind::kDeviceToHost));
    in_ptrs.push_back(ex.inputs[i] ? in[i].data() : nullptr);  // null: an input left out
  }
  for (size_t k = 0; k < ex.outputs.size(); ++k) {
    if (!out[k].Resize(ex.output_bytes[k])) return no_memory(ex.output_bytes[k]);
    out_ptrs.push_back(out[k].data());
  }
  oc::AlignedBuffer workspace;
  if (!workspace.Resize(ex.workspace)) return no_memory(ex.workspace);
  oc::KernelRunContext rc;
  rc.inputs = in_ptrs.data();
  rc.outputs = out_ptrs.data();
  rc.workspace = workspace.data();
  OC_RETURN_IF_ERROR(ex.kernel->Run(rc));
  for (size_t k = 0; k < ex.outputs.size(); ++k)
    if (ex.output_bytes[k])
      OC_RETURN_IF_ERROR(
          device.Copy(ex.outputs[k], out[k].data(), ex.output_bytes[k], Kind::kHostToDevice));
  return oc::Status::Ok();
}

// One stderr line per distinct message for the process.
void WarnOnce(const std::string& message) {
  static std::mutex mutex;
  static std::set<std::string> seen;
  std::lock_guard<std::mutex> lock(mutex);
  if (seen.insert(message).second) std::fprintf(stderr, "[WARNING] %s\n", message.c_str());
}

constexpr const char* kTensorKind = "aclTensor";
constexpr const char* kExecutorKind = "aclOpExecutor";

// The caller holds ReadHandles().
aclnnStatus CheckTensor(const aclTensor* t, const char* what, size_t i, const char* fn) {
  const std::string name = std::string(what) + " " + std::to_string(i);
  if (!t) return Fail(ACLNN_ERR_PARAM_NULLPTR, std::string(fn) + ": " + name + " is null");
  if (!oc::acl::IsHandleKind(t, kTensorKind))
    return Fail(ACLNN_ERR_PARAM_INVALID, std::string(fn) + ": " + name +
                                             " is not a live aclTensor (destroyed already, or "
                                             "not made by aclCreateTensor)");
  if (t->bytes() && !State::Get().IsDevice(t->data, t->bytes()))
    return Fail(ACLNN_ERR_PARAM_INVALID,
                std::string(fn) + ": " + name + " is not device memory of its size (aclrtMalloc)");
  return ACLNN_SUCCESS;
}

// Whether the package op's attribute may be left out (OPTIONAL in its OpDef).
bool IsOptionalPackageAttr(const char* op_type, const char* name) {
  for (const auto& def : ops::OpDefRegistry::Global().op_defs()) {
    if (std::string(def->type()) != op_type) continue;
    for (const auto& a : def->attrs())
      if (std::string(a.name()) == name) return a.attr_type() != ops::REQUIRED;
  }
  return false;
}

}  // namespace

extern "C" {

aclTensor* aclCreateTensor(const int64_t* viewDims, uint64_t viewDimsNum, aclDataType dataType,
                           const int64_t* stride, int64_t offset, aclFormat format,
                           const int64_t* storageDims, uint64_t storageDimsNum, void* tensorData) {
  (void)format;
  (void)storageDims;
  (void)storageDimsNum;
  // aclnn's sizes, strides and offsets are not negative (CANN's aclCreateTensor); the rank
  // and the byte count are bounded as aclCreateTensorDesc bounds them.
  const std::string problem =
      viewDimsNum > static_cast<uint64_t>(oc::acl::kMaxTensorDescDims)
          ? "viewDimsNum " + std::to_string(viewDimsNum) + " is over " +
                std::to_string(oc::acl::kMaxTensorDescDims)
          : oc::acl::TensorDescProblem(dataType, format, static_cast<int64_t>(viewDimsNum),
                                       viewDims);
  bool negative = offset < 0;
  for (uint64_t i = 0; problem.empty() && i < viewDimsNum; ++i)
    negative |= viewDims[i] < 0 || (stride && stride[i] < 0);
  if (!problem.empty() || negative || aclDataTypeSize(dataType) == 0) {
    Fail(ACLNN_ERR_PARAM_INVALID,
         "aclCreateTensor: " + (problem.empty() ? std::string("negative dims, strides or offset, "
                                                              "or a data type without a size")
                                                : problem));
    return nullptr;
  }
  auto* t = new (std::nothrow) aclTensor();
  if (!t) return nullptr;
  t->dtype = dataType;
  t->dims.assign(viewDims, viewDims + viewDimsNum);
  // Only contiguous (row-major) views: the kernels read tensors as flat buffers.
  if (stride) {
    int64_t expect = 1;
    for (size_t i = viewDimsNum; i-- > 0;) {
      if (t->dims[i] != 1 && stride[i] != expect) {
        delete t;
        return nullptr;
      }
      expect *= t->dims[i];
    }
  }
  t->data =
      static_cast<uint8_t*>(tensorData) + offset * static_cast<int64_t>(aclDataTypeSize(dataType));
  oc::acl::AddHandle(t, kTensorKind);
  return t;
}

aclnnStatus aclDestroyTensor(const aclTensor* tensor) {
  if (!tensor) return Fail(ACLNN_ERR_PARAM_NULLPTR, "aclDestroyTensor: tensor is null");
  auto write = oc::acl::WriteHandles();
  if (!oc::acl::DropHandle(tensor, kTensorKind))
    return Fail(ACLNN_ERR_PARAM_INVALID,
                "aclDestroyTensor: not a live aclTensor (destroyed already?)");
  delete tensor;
  return ACLNN_SUCCESS;
}

aclnnStatus OcAclnnGetWorkspaceSize(const char* opType, const aclTensor* const* inputs,
                                    uint64_t numInputs, const OcAclnnAttr* attrs, uint64_t numAttrs,
                                    const aclTensor* const* outputs, uint64_t numOutputs,
                                    uint64_t* workspaceSize, aclOpExecutor** executor) {
  const char* fn = "aclnnGetWorkspaceSize";
  if (!State::Get().initialized())
    return Fail(ACLNN_ERR_RUNTIME_ERROR, std::string(fn) + ": aclInit has not been called");
  if (!opType || !workspaceSize || !executor || (numInputs && !inputs) ||
      (numOutputs && !outputs) || (numAttrs && !attrs))
    return Fail(ACLNN_ERR_PARAM_NULLPTR, std::string(fn) + ": a required pointer is null");
  // The tensors' fields are read under the lock (a destroy meanwhile comes before or after).
  auto read = oc::acl::ReadHandles();
  // A null input is checked against the op below: an optional one may be left out.
  for (uint64_t i = 0; i < numInputs; ++i)
    if (inputs[i])
      if (aclnnStatus s = CheckTensor(inputs[i], "input", i, fn)) return s;
  for (uint64_t i = 0; i < numOutputs; ++i)
    if (aclnnStatus s = CheckTensor(outputs[i], "output", i, fn)) return s;
  if (oc::Status p = oc::LoadCustomOpPackages(); !p.ok())
    return Fail(ACLNN_ERR_INNER, std::string(fn) + ": " + p.ToString());
  return oc::acl::Guard(fn, [&]() -> aclError {
    auto ex = std::make_unique<aclOpExecutor>();
    ex->node.name = opType;
    ex->node.op_type = opType;
    ex->node.domain = "custom";
    for (uint64_t a = 0; a < numAttrs; ++a) {
      const OcAclnnAttr& at = attrs[a];
      if (!at.name) return Fail(ACLNN_ERR_PARAM_NULLPTR, "an attribute has no name");
      if (at.kind == 1) {
        ex->node.attrs.Set(at.name, static_cast<float>(at.f));
      } else if (at.kind == 3) {
        ex->node.attrs.Set(at.name, std::string(at.s ? at.s : ""));
      } else if (at.kind == 4 || at.kind == 5) {
        const char* kind = at.kind == 4 ? oc::acl::kIntArrayKind : oc::acl::kFloatArrayKind;
        // A null list leaves an optional attribute at its default, as CANN's aclnn takes it;
        // a required one must be given.
        if (!at.list) {
          if (!IsOptionalPackageAttr(opType, at.name))
            return Fail(ACLNN_ERR_PARAM_NULLPTR, std::string("aclnn") + opType + ": attribute " +
                                                     at.name + " is null and the op requires it");
          continue;
        }
        if (!oc::acl::IsHandleKind(at.list, kind))
          return Fail(ACLNN_ERR_PARAM_INVALID, std::string("aclnn") + opType + ": attribute " +
                                                   at.name + " is not a live " + kind);
        if (at.kind == 4)
          ex->node.attrs.Set(at.name, static_cast<const aclIntArray*>(at.list)->values);
        else
          ex->node.attrs.Set(at.name, static_cast<const aclFloatArray*>(at.list)->values);
      } else {
        ex->node.attrs.Set(at.name, at.i);
      }
    }
    const oc::OpSchema* schema = oc::OpRegistry::Global().Find("custom", opType);
    if (!schema)
      return Fail(ACLNN_ERR_PARAM_INVALID, std::string("aclnn") + opType +
                                               ": no operator package on ASCEND_CUSTOM_OPP_PATH "
                                               "defines the op");
    // The op's own inference decides what the outputs must be.
    std::vector<oc::ValueInfo> in_infos(numInputs);
    oc::InferContext ic;
    ic.node = &ex->node;
    ic.aclnn = true;
    ic.outputs.resize(numOutputs);
    oc::KernelPrepareContext kc;
    kc.node = &ex->node;
    kc.num_threads = State::Get().num_threads() > 0 ? State::Get().num_threads() : 1;
    for (uint64_t i = 0; i < numInputs; ++i) {
      if (!inputs[i]) {
        // An optional input left out, as CANN's aclnn takes a null tensor for it.
        const bool optional = static_cast<int64_t>(i) >= schema->min_inputs ||
                              (i < 32 && (schema->omittable_inputs >> i & 1u));
        if (!optional)
          return Fail(ACLNN_ERR_PARAM_NULLPTR, std::string(fn) + ": input " + std::to_string(i) +
                                                   " is null and the op requires it");
        ic.inputs.push_back(nullptr);
        ic.const_inputs.push_back(nullptr);
        kc.inputs.push_back({oc::DataType::kUndefined, {}});
        kc.constants.push_back(nullptr);
        ex->inputs.push_back(nullptr);
        ex->input_bytes.push_back(0);
        continue;
      }
      const oc::DataType dt = oc::FromAclDataType(inputs[i]->dtype);
      in_infos[i] = oc::ValueInfo{dt, inputs[i]->dims, true};
      ic.inputs.push_back(&in_infos[i]);
      ic.const_inputs.push_back(nullptr);
      kc.inputs.push_back({dt, inputs[i]->dims});
      kc.constants.push_back(nullptr);
      ex->inputs.push_back(inputs[i]->data);
      ex->input_bytes.push_back(inputs[i]->bytes());
    }
    if (static_cast<int>(numInputs) < schema->min_inputs ||
        static_cast<int>(numInputs) > schema->max_inputs ||
        static_cast<int>(numOutputs) > schema->max_outputs || numOutputs == 0)
      return Fail(ACLNN_ERR_PARAM_INVALID,
                  std::string("aclnn") + opType + ": wrong number of inputs or outputs");
    oc::Status s = oc::RunSchema(*schema, ic);
    if (!s.ok())
      return Fail(ACLNN_ERR_PARAM_INVALID, std::string("aclnn") + opType + ": " + s.message());
    for (uint64_t k = 0; k < numOutputs; ++k) {
      const auto& want = ic.outputs[k];
      const oc::DataType dt = oc::FromAclDataType(outputs[k]->dtype);
      if (want.dtype != dt)
        return Fail(ACLNN_ERR_PARAM_INVALID,
                    std::string("aclnn") + opType + ": output " + std::to_string(k) + " must be " +
                        oc::DataTypeName(want.dtype) + ", the tensor is " + oc::DataTypeName(dt) +
                        " " + oc::ShapeToString(outputs[k]->dims));
      // The caller's output tensors define the shapes, as CANN's aclnn takes them (an op's
      // InferShape serves graph compilation); a disagreement is reported once per op.
      if (want.has_shape && want.shape != outputs[k]->dims)
        WarnOnce(std::string("aclnn") + opType + ": output " + std::to_string(k) + " is " +
                 oc::ShapeToString(outputs[k]->dims) + ", the op's InferShape gives " +
                 oc::ShapeToString(want.shape) + "; the tensor's shape is used");
      kc.outputs.push_back({dt, outputs[k]->dims});
      ex->outputs.push_back(outputs[k]->data);
      ex->output_bytes.push_back(outputs[k]->bytes());
    }
    // The package's kernel lives on the backend that took the package's ops, among those
    // aclInit chose.
    const std::vector<const oc::Backend*> order = State::Get().LoadOptionsFor().backends;
    const oc::Backend* backend = oc::FirstSupporting(order, ex->node, kc.inputs);
    if (!backend)
      return Fail(ACLNN_ERR_PARAM_INVALID,
                  std::string("aclnn") + opType + ": no backend has a kernel for the op");
    auto kernel = oc::PrepareKernel(*backend, kc);
    if (!kernel.ok())
      return Fail(ACLNN_ERR_PARAM_INVALID,
                  std::string("aclnn") + opType + ": " + kernel.status().message());
    ex->kernel = std::move(kernel).value();
    ex->backend = backend;
    ex->workspace = ex->kernel->WorkspaceSize();
    *workspaceSize = ex->workspace;
    *executor = ex.release();
    oc::acl::AddHandle(*executor, kExecutorKind);
    return ACLNN_SUCCESS;
  });
}

aclnnStatus OcAclnnRun(void* workspace, uint64_t workspaceSize, aclOpExecutor* executor,
                       aclrtStream stream) {
  const char* fn = "aclnnRun";
  if (aclError e = oc::acl::RequireContext(fn)) return e;
  if (!executor) return Fail(ACLNN_ERR_PARAM_NULLPTR, std::string(fn) + ": executor is null");
  {
    auto write = oc::acl::WriteHandles();
    if (!oc::acl::DropHandle(executor, kExecutorKind))
      return Fail(ACLNN_ERR_PARAM_INVALID,
                  std::string(fn) + ": not a live aclOpExecutor (run already? it serves one run)");
  }
  std::unique_ptr<aclOpExecutor> ex(executor);  // an executor serves one run, as in CANN
  if (workspaceSize < ex->workspace)
    return Fail(ACLNN_ERR_PARAM_INVALID,
                std::string(fn) + ": workspace of " + std::to_string(workspaceSize) +
                    " bytes, GetWorkspaceSize asked for " + std::to_string(ex->workspace));
  if (ex->workspace && (!workspace || !State::Get().IsDevice(workspace, ex->workspace)))
    return Fail(ACLNN_ERR_PARAM_INVALID,
                std::string(fn) + ": the workspace must be device memory (aclrtMalloc)");
  aclError e = ACL_SUCCESS;
  std::shared_ptr<oc::Queue> worker = oc::acl::StreamOf(stream, &e);
  if (e != ACL_SUCCESS) return Fail(ACLNN_ERR_PARAM_INVALID, std::string(fn) + ": unknown stream");
  auto run = [ws = workspace, ex = std::shared_ptr<aclOpExecutor>(std::move(ex))]() -> oc::Status {
    // The tensors' device memory stays allocated through the run (aclrtFree waits for it); a
    // tensor whose memory was freed since GetWorkspaceSize fails the run instead.
    std::vector<oc::acl::PinnedAllocation> held;
    for (size_t i = 0; i < ex->inputs.size() + ex->outputs.size(); ++i) {
      const bool input = i < ex->inputs.size();
      const void* p = input ? ex->inputs[i] : ex->outputs[i - ex->inputs.size()];
      const size_t n = input ? ex->input_bytes[i] : ex->output_bytes[i - ex->inputs.size()];
      if (!n) continue;
      oc::acl::PinnedAllocation pin(p);
      if (!pin.device() || !pin.Holds(p, n))
        return oc::InvalidArgument("a tensor's device memory was freed before the run");
      held.push_back(std::move(pin));
    }
    const oc::Backend& device = State::Get().device_backend();
    if (&ex->backend->memory_space() == &device.memory_space()) {
      oc::KernelRunContext rc;
      rc.inputs = ex->inputs.data();
      rc.outputs = ex->outputs.data();
      rc.workspace = ws;
      return ex->kernel->Run(rc);
    }
    return RunThroughHost(*ex, device);
  };
  // A kernel that fails on the device is an AI Core exception for the stream (507015), as
  // CANN reports it from aclrtSynchronizeStream.
  auto run_on_core = [run]() -> oc::Status {
    oc::Status st = run();
    if (st.ok() || !st.cann_code().empty() || st.code() != oc::StatusCode::kInternal) return st;
    return oc::Status(st.code(), st.message(), std::to_string(ACL_ERROR_RT_AICORE_EXCEPTION));
  };
  if (worker) {
    worker->Submit(run_on_core);
    return ACLNN_SUCCESS;
  }
  oc::Status s = run_on_core();
  if (!s.ok()) return Fail(ACLNN_ERR_RUNTIME_ERROR, std::string(fn) + ": " + s.ToString());
  return ACLNN_SUCCESS;
}

}  // extern "C"
