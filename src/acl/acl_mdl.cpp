// Model loading, descriptions, datasets and execution.
#include <sys/syscall.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cctype>
#include <cstdio>
#include <cstring>

#include "acl/acl_state.h"
#include "base/dtype.h"
#include "base/file.h"
#include "base/memory_probe.h"

using oc::acl::Fail;
using oc::acl::FailStatus;
using oc::acl::State;

namespace {

aclError Register(oc::Result<std::shared_ptr<oc::Model>> model, uint32_t* modelId, const char* fn) {
  if (!model.ok()) return FailStatus(model.status(), oc::acl::Phase::kLoad, fn);
  auto id = State::Get().AddModel(std::move(model).value());
  *modelId = id.value();
  return ACL_SUCCESS;
}

// aclInit's load options with the application's work and weight memory.
oc::LoadOptions WithMem(void* workPtr, size_t workSize, void* weightPtr, size_t weightSize) {
  oc::LoadOptions opt = State::Get().LoadOptionsFor();
  opt.work_ptr = workPtr;
  opt.work_size = workSize;
  opt.weight_ptr = weightPtr;
  opt.weight_size = weightSize;
  return opt;
}

aclError CheckWithMem(void* workPtr, size_t workSize, void* weightPtr, size_t weightSize,
                      const char* fn) {
  const State& st = State::Get();
  if (workPtr && !st.IsDevice(workPtr, workSize))
    return Fail(
        ACL_ERROR_INVALID_PARAM,
        std::string(fn) + ": workPtr must be device memory from aclrtMalloc of workSize bytes");
  if (weightPtr && !st.IsDevice(weightPtr, weightSize))
    return Fail(ACL_ERROR_INVALID_PARAM, std::string(fn) +
                                             ": weightPtr must be device memory from aclrtMalloc "
                                             "of weightSize bytes");
  return ACL_SUCCESS;
}

aclFormat FormatFromName(const std::string& f) {
  if (f == "NCHW") return ACL_FORMAT_NCHW;
  if (f == "NHWC") return ACL_FORMAT_NHWC;
  if (f == "NCDHW") return ACL_FORMAT_NCDHW;
  if (f == "NDHWC") return ACL_FORMAT_NDHWC;
  return ACL_FORMAT_ND;
}

const oc::IoDesc* IoAt(const aclmdlDesc* d, size_t index, bool input, const char* fn) {
  if (oc::acl::CheckLive(d, "modelDesc", fn) || !d->filled) return nullptr;
  const auto& v = input ? d->inputs : d->outputs;
  return index < v.size() ? &v[index] : nullptr;
}

aclError FillDims(const oc::IoDesc* io, aclmdlIODims* dims, const char* fn, size_t index) {
  if (!io)
    return Fail(ACL_ERROR_INVALID_PARAM, std::string(fn) + ": index " + std::to_string(index) +
                                             " is out of range or the description is empty");
  if (io->shape.size() > ACL_MAX_DIM_CNT) return Fail(ACL_ERROR_INVALID_PARAM, "too many dims");
  std::memset(dims->name, 0, sizeof(dims->name));
  std::strncpy(dims->name, io->name.c_str(), sizeof(dims->name) - 1);
  dims->dimCount = io->shape.size();
  for (size_t i = 0; i < io->shape.size(); ++i) dims->dims[i] = io->shape[i];
  return ACL_SUCCESS;
}

uint32_t NextTaskId() {
  static std::atomic<uint32_t> next{1};
  return next++;
}

// A failed asynchronous execution, for the exception callback and aclmdlCreateAndGetOpDesc:
// the task is the model (its name is the .om's), its tensors the datasets' buffers.
void ReportFailure(uint32_t modelId, const aclmdlDataset* input, const aclmdlDataset* output,
                   uint32_t stream_id, uint32_t task_id, aclError error) {
  oc::acl::FailedTask t;
  t.stream_id = stream_id;
  t.task_id = task_id;
  t.thread_id = static_cast<uint32_t>(syscall(SYS_gettid));
  t.error = static_cast<uint32_t>(error);
  auto m = State::Get().FindModel(modelId);
  t.op_name = m ? "model " + std::to_string(modelId) : "unloaded model";
  auto read = oc::acl::ReadHandles();  // the datasets may be destroyed meanwhile
  auto describe = [&](const aclmdlDataset* ds, const std::vector<oc::IoDesc>* io,
                      std::vector<aclTensorDesc>* out) {
    if (!oc::acl::HandleKindOf(ds)) return;
    for (size_t i = 0; i < ds->buffers.size(); ++i) {
      aclTensorDesc d;
      const aclDataBuffer* b = ds->buffers[i];
      if (io && i < io->size()) {
        d.dtype = static_cast<aclDataType>(oc::ToAclDataType((*io)[i].dtype));
        d.format = ACL_FORMAT_ND;
        d.dims = (*io)[i].shape;
      }
      d.address = b && oc::acl::HandleKindOf(b) ? b->data : nullptr;
      out->push_back(d);
    }
  };
  describe(input, m ? &m->inputs() : nullptr, &t.inputs);
  describe(output, m ? &m->outputs() : nullptr, &t.outputs);
  read.unlock();
  oc::acl::ReportFailedTask(std::move(t));
}

}  // namespace

extern "C" {

aclError aclmdlLoadFromFile(const char* modelPath, uint32_t* modelId) {
  OC_ACL_REQUIRE_CONTEXT();
  OC_ACL_CHECK_NULL(modelPath);
  OC_ACL_CHECK_NULL(modelId);
  const char* fn = __func__;  // a lambda's __func__ is "operator()"
  return oc::acl::Guard(fn, [&] {
    return Register(oc::Model::LoadFile(modelPath, State::Get().LoadOptionsFor()), modelId, fn);
  });
}

aclError aclmdlLoadFromMem(const void* model, size_t modelSize, uint32_t* modelId) {
  OC_ACL_REQUIRE_CONTEXT();
  OC_ACL_CHECK_NULL(model);
  if (!oc::HostRangeReadable(model, modelSize))
    return Fail(ACL_ERROR_INVALID_PARAM, std::string(__func__) + ": the model's " +
                                             std::to_string(modelSize) +
                                             " bytes are not readable memory (a stale or made-up "
                                             "pointer, or a wrong size?)");
  OC_ACL_CHECK_NULL(modelId);
  if (modelSize == 0) return Fail(ACL_ERROR_INVALID_PARAM, "aclmdlLoadFromMem: modelSize is 0");
  const char* fn = __func__;
  return oc::acl::Guard(fn, [&] {
    return Register(
        oc::Model::Load(oc::MappedFile::FromCopy(model, modelSize), State::Get().LoadOptionsFor()),
        modelId, fn);
  });
}

aclError aclmdlLoadFromFileWithMem(const char* modelPath, uint32_t* modelId, void* workPtr,
                                   size_t workSize, void* weightPtr, size_t weightSize) {
  OC_ACL_REQUIRE_CONTEXT();
  OC_ACL_CHECK_NULL(modelPath);
  OC_ACL_CHECK_NULL(modelId);
  if (aclError e = CheckWithMem(workPtr, workSize, weightPtr, weightSize, __func__)) return e;
  const oc::LoadOptions opt = WithMem(workPtr, workSize, weightPtr, weightSize);
  const char* fn = __func__;
  return oc::acl::Guard(fn,
                        [&] { return Register(oc::Model::LoadFile(modelPath, opt), modelId, fn); });
}

aclError aclmdlLoadFromMemWithMem(const void* model, size_t modelSize, uint32_t* modelId,
                                  void* workPtr, size_t workSize, void* weightPtr,
                                  size_t weightSize) {
  OC_ACL_REQUIRE_CONTEXT();
  OC_ACL_CHECK_NULL(model);
  if (!oc::HostRangeReadable(model, modelSize))
    return Fail(ACL_ERROR_INVALID_PARAM, std::string(__func__) + ": the model's " +
                                             std::to_string(modelSize) +
                                             " bytes are not readable memory (a stale or made-up "
                                             "pointer, or a wrong size?)");
  OC_ACL_CHECK_NULL(modelId);
  if (aclError e = CheckWithMem(workPtr, workSize, weightPtr, weightSize, __func__)) return e;
  const oc::LoadOptions opt = WithMem(workPtr, workSize, weightPtr, weightSize);
  const char* fn = __func__;
  return oc::acl::Guard(fn, [&] {
    return Register(oc::Model::Load(oc::MappedFile::FromCopy(model, modelSize), opt), modelId, fn);
  });
}

aclError aclmdlQuerySize(const char* fileName, size_t* workSize, size_t* weightSize) {
  OC_ACL_REQUIRE_INIT();
  OC_ACL_CHECK_NULL(fileName);
  OC_ACL_CHECK_NULL(workSize);
  OC_ACL_CHECK_NULL(weightSize);
  oc::Status s =
      oc::Model::QuerySize(fileName, workSize, weightSize, State::Get().LoadOptionsFor());
  if (!s.ok()) return FailStatus(s, oc::acl::Phase::kLoad, __func__);
  return ACL_SUCCESS;
}

aclError aclmdlQuerySizeFromMem(const void* model, size_t modelSize, size_t* workSize,
                                size_t* weightSize) {
  OC_ACL_REQUIRE_INIT();
  OC_ACL_CHECK_NULL(model);
  if (!oc::HostRangeReadable(model, modelSize))
    return Fail(ACL_ERROR_INVALID_PARAM, std::string(__func__) + ": the model's " +
                                             std::to_string(modelSize) +
                                             " bytes are not readable memory (a stale or made-up "
                                             "pointer, or a wrong size?)");
  OC_ACL_CHECK_NULL(workSize);
  OC_ACL_CHECK_NULL(weightSize);
  const char* fn = __func__;
  return oc::acl::Guard(fn, [&] {
    oc::Status s = oc::Model::QuerySize(oc::MappedFile::FromCopy(model, modelSize), workSize,
                                        weightSize, State::Get().LoadOptionsFor());
    return s.ok() ? ACL_SUCCESS : FailStatus(s, oc::acl::Phase::kLoad, fn);
  });
}

aclError aclmdlUnload(uint32_t modelId) {
  OC_ACL_REQUIRE_INIT();
  // Executions of the model still queued on streams finish first (they hold its pin).
  if (State::Get().FindModel(modelId)) oc::acl::WaitUnpinned(oc::acl::ModelKey(modelId));
  if (!State::Get().RemoveModel(modelId))
    return Fail(ACL_ERROR_INVALID_MODEL_ID,
                "aclmdlUnload: model id " + std::to_string(modelId) + " is not loaded");
  return ACL_SUCCESS;
}

aclmdlDesc* aclmdlCreateDesc(void) {
  auto* d = new (std::nothrow) aclmdlDesc();
  oc::acl::AddHandle(d, oc::acl::HandleKind(d));
  return d;
}

aclError aclmdlDestroyDesc(aclmdlDesc* modelDesc) {
  auto write = oc::acl::WriteHandles();
  OC_ACL_CHECK_LIVE(modelDesc);
  oc::acl::DropHandle(modelDesc, oc::acl::HandleKind(modelDesc));
  delete modelDesc;
  return ACL_SUCCESS;
}

aclError aclmdlGetDesc(aclmdlDesc* modelDesc, uint32_t modelId) {
  OC_ACL_REQUIRE_INIT();
  auto write = oc::acl::WriteHandles();
  OC_ACL_CHECK_LIVE(modelDesc);
  auto m = State::Get().FindModel(modelId);
  if (!m)
    return Fail(ACL_ERROR_INVALID_MODEL_ID,
                "aclmdlGetDesc: model id " + std::to_string(modelId) + " is not loaded");
  modelDesc->model_id = modelId;
  modelDesc->inputs = m->inputs();
  modelDesc->outputs = m->outputs();
  modelDesc->gear_mode = m->gear_mode();
  modelDesc->gears = m->gears();
  modelDesc->gear_input = m->gear_input();
  modelDesc->filled = true;
  return ACL_SUCCESS;
}

size_t aclmdlGetNumInputs(aclmdlDesc* modelDesc) {
  auto read = oc::acl::ReadHandles();
  if (oc::acl::CheckLive(modelDesc, "modelDesc", __func__)) return 0;
  return modelDesc->filled ? modelDesc->inputs.size() : 0;
}
size_t aclmdlGetNumOutputs(aclmdlDesc* modelDesc) {
  auto read = oc::acl::ReadHandles();
  if (oc::acl::CheckLive(modelDesc, "modelDesc", __func__)) return 0;
  return modelDesc->filled ? modelDesc->outputs.size() : 0;
}
size_t aclmdlGetInputSizeByIndex(aclmdlDesc* modelDesc, size_t index) {
  auto read = oc::acl::ReadHandles();
  const oc::IoDesc* io = IoAt(modelDesc, index, true, __func__);
  return io ? io->bytes : 0;
}
size_t aclmdlGetOutputSizeByIndex(aclmdlDesc* modelDesc, size_t index) {
  auto read = oc::acl::ReadHandles();
  const oc::IoDesc* io = IoAt(modelDesc, index, false, __func__);
  return io ? io->bytes : 0;
}

aclError aclmdlGetInputDims(const aclmdlDesc* modelDesc, size_t index, aclmdlIODims* dims) {
  auto read = oc::acl::ReadHandles();
  OC_ACL_CHECK_LIVE(modelDesc);
  OC_ACL_CHECK_OUT(dims, sizeof(aclmdlIODims));
  const oc::IoDesc* io = IoAt(modelDesc, index, true, __func__);
  if (aclError e = FillDims(io, dims, __func__, index)) return e;
  // A YUV420SP image for static AIPP is stored as H * 3/2 rows of W bytes; CANN reports the
  // image's own [N, H, W, C], which applications read as its height and width.
  auto m = State::Get().FindModel(modelDesc->model_id);
  if (m && oc::acl::StaticYuv420SpAippInput(*m, index) && dims->dimCount == 4 && dims->dims[1] > 0)
    dims->dims[1] = dims->dims[1] * 2 / 3;
  return ACL_SUCCESS;
}
aclError aclmdlGetInputDimsV2(const aclmdlDesc* modelDesc, size_t index, aclmdlIODims* dims) {
  return aclmdlGetInputDims(modelDesc, index, dims);
}
aclError aclmdlGetOutputDims(const aclmdlDesc* modelDesc, size_t index, aclmdlIODims* dims) {
  auto read = oc::acl::ReadHandles();
  OC_ACL_CHECK_LIVE(modelDesc);
  OC_ACL_CHECK_OUT(dims, sizeof(aclmdlIODims));
  return FillDims(IoAt(modelDesc, index, false, __func__), dims, __func__, index);
}
aclError aclmdlGetCurOutputDims(const aclmdlDesc* modelDesc, size_t index, aclmdlIODims* dims) {
  auto read = oc::acl::ReadHandles();
  OC_ACL_CHECK_LIVE(modelDesc);
  OC_ACL_CHECK_OUT(dims, sizeof(aclmdlIODims));
  const oc::IoDesc* io = IoAt(modelDesc, index, false, __func__);
  if (!io) return FillDims(io, dims, __func__, index);
  auto m = State::Get().FindModel(modelDesc->model_id);
  if (!m) return Fail(ACL_ERROR_INVALID_MODEL_ID, "aclmdlGetCurOutputDims: the model is unloaded");
  oc::IoDesc cur = *io;
  // A model with gears: the shapes of the gear last set (aclmdlSetDynamicBatchSize, ...),
  // the largest gear's before any is, as CANN documents. Other models: the shapes of the
  // latest execution, which differ from the description for shapes known only at run time.
  std::vector<oc::Shape> shapes;
  if (!m->gear_mode().empty()) {
    auto gear = State::Get().CurrentGear(modelDesc->model_id);
    shapes = m->GearOutputShapes(gear ? *gear : m->LargestGear());
  } else {
    shapes = m->LastOutputShapes();
  }
  if (index < shapes.size()) cur.shape = shapes[index];
  return FillDims(&cur, dims, __func__, index);
}

const char* aclmdlGetInputNameByIndex(const aclmdlDesc* modelDesc, size_t index) {
  auto read = oc::acl::ReadHandles();
  const oc::IoDesc* io = IoAt(modelDesc, index, true, __func__);
  return io ? io->name.c_str() : "";
}
const char* aclmdlGetOutputNameByIndex(const aclmdlDesc* modelDesc, size_t index) {
  auto read = oc::acl::ReadHandles();
  const oc::IoDesc* io = IoAt(modelDesc, index, false, __func__);
  return io ? io->name.c_str() : "";
}
aclFormat aclmdlGetInputFormat(const aclmdlDesc* modelDesc, size_t index) {
  auto read = oc::acl::ReadHandles();
  const oc::IoDesc* io = IoAt(modelDesc, index, true, __func__);
  return io ? FormatFromName(io->format) : ACL_FORMAT_UNDEFINED;
}
aclFormat aclmdlGetOutputFormat(const aclmdlDesc* modelDesc, size_t index) {
  auto read = oc::acl::ReadHandles();
  const oc::IoDesc* io = IoAt(modelDesc, index, false, __func__);
  return io ? FormatFromName(io->format) : ACL_FORMAT_UNDEFINED;
}
aclDataType aclmdlGetInputDataType(const aclmdlDesc* modelDesc, size_t index) {
  auto read = oc::acl::ReadHandles();
  const oc::IoDesc* io = IoAt(modelDesc, index, true, __func__);
  return io ? static_cast<aclDataType>(oc::ToAclDataType(io->dtype)) : ACL_DT_UNDEFINED;
}
aclDataType aclmdlGetOutputDataType(const aclmdlDesc* modelDesc, size_t index) {
  auto read = oc::acl::ReadHandles();
  const oc::IoDesc* io = IoAt(modelDesc, index, false, __func__);
  return io ? static_cast<aclDataType>(oc::ToAclDataType(io->dtype)) : ACL_DT_UNDEFINED;
}

static aclError IndexByName(const aclmdlDesc* d, const char* name, size_t* index, bool input,
                            const char* fn) {
  auto read = oc::acl::ReadHandles();
  OC_ACL_CHECK_LIVE(d);
  OC_ACL_CHECK_NULL(name);
  OC_ACL_CHECK_NULL(index);
  const auto& v = input ? d->inputs : d->outputs;
  for (size_t i = 0; i < v.size(); ++i)
    if (v[i].name == name) {
      *index = i;
      return ACL_SUCCESS;
    }
  return Fail(ACL_ERROR_INVALID_PARAM,
              std::string(fn) + ": no " + (input ? "input" : "output") + " named [" + name + "]");
}

aclError aclmdlGetInputIndexByName(const aclmdlDesc* modelDesc, const char* name, size_t* index) {
  return IndexByName(modelDesc, name, index, true, __func__);
}
aclError aclmdlGetOutputIndexByName(const aclmdlDesc* modelDesc, const char* name, size_t* index) {
  return IndexByName(modelDesc, name, index, false, __func__);
}

aclmdlDataset* aclmdlCreateDataset(void) {
  auto* d = new (std::nothrow) aclmdlDataset();
  oc::acl::AddHandle(d, oc::acl::HandleKind(d));
  return d;
}

aclError aclmdlDestroyDataset(const aclmdlDataset* dataset) {
  {
    auto read = oc::acl::ReadHandles();
    OC_ACL_CHECK_LIVE(dataset);
  }
  oc::acl::WaitUnpinned(dataset);  // queued executions using it finish first
  auto write = oc::acl::WriteHandles();
  // Checked again: another thread may have destroyed it while this one waited.
  OC_ACL_CHECK_LIVE(dataset);
  oc::acl::DropHandle(dataset, oc::acl::HandleKind(dataset));
  for (auto* d : dataset->tensor_descs) {
    oc::acl::DropHandle(d, oc::acl::kDatasetTensorDesc);
    delete d;
  }
  delete dataset;
  return ACL_SUCCESS;
}

aclError aclmdlAddDatasetBuffer(aclmdlDataset* dataset, aclDataBuffer* dataBuffer) {
  auto write = oc::acl::WriteHandles();
  OC_ACL_CHECK_LIVE(dataset);
  OC_ACL_CHECK_LIVE(dataBuffer);
  dataset->buffers.push_back(dataBuffer);
  dataset->tensor_descs.push_back(nullptr);
  return ACL_SUCCESS;
}

size_t aclmdlGetDatasetNumBuffers(const aclmdlDataset* dataset) {
  auto read = oc::acl::ReadHandles();
  if (oc::acl::CheckLive(dataset, "dataset", __func__)) return 0;
  return dataset->buffers.size();
}

aclDataBuffer* aclmdlGetDatasetBuffer(const aclmdlDataset* dataset, size_t index) {
  auto read = oc::acl::ReadHandles();
  if (oc::acl::CheckLive(dataset, "dataset", __func__) || index >= dataset->buffers.size())
    return nullptr;
  return dataset->buffers[index];
}

aclError aclmdlSetDatasetTensorDesc(aclmdlDataset* dataset, aclTensorDesc* tensorDesc,
                                    size_t index) {
  auto write = oc::acl::WriteHandles();
  OC_ACL_CHECK_LIVE(dataset);
  OC_ACL_CHECK_LIVE(tensorDesc);
  if (index >= dataset->buffers.size())
    return Fail(ACL_ERROR_INVALID_PARAM, "aclmdlSetDatasetTensorDesc: index out of range");
  // The description as aclCreateTensorDesc takes one (an array element from
  // aclmdlCreateAndGetOpDesc carries a model's shape, checked the same way).
  const std::string problem = oc::acl::TensorDescProblem(
      tensorDesc->dtype, tensorDesc->format, static_cast<int64_t>(tensorDesc->dims.size()),
      tensorDesc->dims.data());
  if (!problem.empty())
    return Fail(ACL_ERROR_INVALID_PARAM, "aclmdlSetDatasetTensorDesc: " + problem);
  // Copied before the old one goes: it may be the very description being replaced.
  auto* copy = new aclTensorDesc(*tensorDesc);
  copy->address = nullptr;
  copy->array_size = 1;
  oc::acl::DropHandle(dataset->tensor_descs[index], oc::acl::kDatasetTensorDesc);
  delete dataset->tensor_descs[index];
  dataset->tensor_descs[index] = copy;
  oc::acl::AddHandle(dataset->tensor_descs[index], oc::acl::kDatasetTensorDesc);
  return ACL_SUCCESS;
}

aclTensorDesc* aclmdlGetDatasetTensorDesc(const aclmdlDataset* dataset, size_t index) {
  auto read = oc::acl::ReadHandles();
  if (oc::acl::CheckLive(dataset, "dataset", __func__) || index >= dataset->tensor_descs.size())
    return nullptr;
  return dataset->tensor_descs[index];
}

aclError aclmdlExecute(uint32_t modelId, const aclmdlDataset* input, aclmdlDataset* output) {
  OC_ACL_REQUIRE_CONTEXT();
  // Per thread, so that its lists keep their capacity from one execution to the next.
  thread_local oc::ExecuteIo io;
  // The device memory of the buffers, kept allocated until the execution is over (an
  // aclrtFree meanwhile waits for it).
  thread_local std::vector<oc::acl::PinnedAllocation> pins;
  struct Unpin {
    ~Unpin() { pins.clear(); }
  } unpin;
  io.inputs.clear();
  io.input_sizes.clear();
  io.outputs.clear();
  io.output_sizes.clear();
  std::shared_ptr<oc::Model> m;
  {
    // What the execution needs is copied out of the datasets and buffers under the lock; a
    // destroy racing this call comes before (a clean error here) or after (nothing of the
    // handles is read after the lock is let go but the output descriptions, checked again).
    auto read = oc::acl::ReadHandles();
    OC_ACL_CHECK_LIVE(input);
    OC_ACL_CHECK_LIVE(output);
    m = State::Get().FindModel(modelId);
    if (!m)
      return Fail(ACL_ERROR_INVALID_MODEL_ID,
                  "aclmdlExecute: model id " + std::to_string(modelId) + " is not loaded");
    auto take = [&](const aclDataBuffer* b, size_t i, const char* what) -> aclError {
      if (!b)
        return Fail(ACL_ERROR_INVALID_PARAM, std::string("aclmdlExecute: ") + what + " buffer " +
                                                 std::to_string(i) + " is null");
      if (!oc::acl::HandleKindOf(b))
        return Fail(ACL_ERROR_INVALID_PARAM,
                    std::string("aclmdlExecute: ") + what + " buffer " + std::to_string(i) +
                        " is not a live aclDataBuffer (destroyed already?)");
      if (b->size == 0) return ACL_SUCCESS;
      // As on the hardware, model I/O must live in device memory (aclrtMalloc).
      oc::acl::PinnedAllocation pin(b->data);
      if (!pin || !pin.device() || !pin.Holds(b->data, b->size))
        return Fail(ACL_ERROR_INVALID_PARAM,
                    std::string("aclmdlExecute: ") + what + " buffer " + std::to_string(i) +
                        " is not device memory: allocate it with aclrtMalloc and copy data with "
                        "aclrtMemcpy(ACL_MEMCPY_HOST_TO_DEVICE)");
      pins.push_back(std::move(pin));
      return ACL_SUCCESS;
    };
    for (size_t i = 0; i < input->buffers.size(); ++i) {
      if (aclError e = take(input->buffers[i], i, "input")) return e;
      io.inputs.push_back(input->buffers[i]->data);
      io.input_sizes.push_back(input->buffers[i]->size);
    }
    for (size_t i = 0; i < output->buffers.size(); ++i) {
      if (aclError e = take(output->buffers[i], i, "output")) return e;
      io.outputs.push_back(output->buffers[i]->data);
      io.output_sizes.push_back(output->buffers[i]->size);
    }
    // Shapes of dynamic inputs come from the dataset's tensor descriptions.
    io.input_shapes.resize(input->tensor_descs.size());
    for (size_t i = 0; i < input->tensor_descs.size(); ++i) {
      const aclTensorDesc* d = input->tensor_descs[i];
      if (d)
        io.input_shapes[i] = d->dims;
      else
        io.input_shapes[i].clear();
    }
  }
  oc::Status s;
  aclError guarded = oc::acl::Guard(__func__, [&] {
    s = m->Execute(io);
    return ACL_SUCCESS;
  });
  if (guarded != ACL_SUCCESS) return guarded;
  if (!s.ok()) return FailStatus(s, oc::acl::Phase::kExecute, "aclmdlExecute");
  // The actual output shapes, for aclmdlGetDatasetTensorDesc on the output dataset (unless
  // another thread destroyed it meanwhile: the outputs are written all the same).
  auto write = oc::acl::WriteHandles();
  if (!oc::acl::IsHandleKind(output, oc::acl::HandleKind(output))) return ACL_SUCCESS;
  const auto& descs = m->outputs();
  for (size_t i = 0; i < io.output_shapes.size() && i < output->tensor_descs.size(); ++i) {
    auto* d = output->tensor_descs[i];
    if (!d) {
      d = output->tensor_descs[i] = new aclTensorDesc();
      oc::acl::AddHandle(d, oc::acl::kDatasetTensorDesc);
    }
    d->dtype = static_cast<aclDataType>(oc::ToAclDataType(descs[i].dtype));
    d->format = ACL_FORMAT_ND;
    d->dims = io.output_shapes[i];
  }
  return ACL_SUCCESS;
}

aclError aclmdlExecuteAsync(uint32_t modelId, const aclmdlDataset* input, aclmdlDataset* output,
                            aclrtStream stream) {
  OC_ACL_REQUIRE_CONTEXT();
  {
    auto read = oc::acl::ReadHandles();
    OC_ACL_CHECK_LIVE(input);
    OC_ACL_CHECK_LIVE(output);
  }
  aclError e = ACL_SUCCESS;
  std::shared_ptr<oc::Queue> worker = oc::acl::StreamOf(stream, &e);
  if (e != ACL_SUCCESS) return e;
  if (!worker) return aclmdlExecute(modelId, input, output);
  if (!State::Get().FindModel(modelId))
    return Fail(ACL_ERROR_INVALID_MODEL_ID,
                "aclmdlExecuteAsync: model id " + std::to_string(modelId) + " is not loaded");
  // The datasets must stay valid until the stream is synchronized, as on CANN; the model,
  // datasets, buffers and their device memory are pinned until the execution is done, so an
  // unload, destroy or free meanwhile waits for it (oc::acl::InFlight).
  std::shared_ptr<oc::acl::InFlight> pins;
  {
    auto read = oc::acl::ReadHandles();
    OC_ACL_CHECK_LIVE(input);  // again: destroyed by another thread meanwhile?
    OC_ACL_CHECK_LIVE(output);
    std::vector<const void*> keys = {oc::acl::ModelKey(modelId), input, output};
    for (const aclmdlDataset* ds : {input, static_cast<const aclmdlDataset*>(output)})
      for (const aclDataBuffer* b : ds->buffers) {
        keys.push_back(b);
        const void* start = nullptr;
        size_t size = 0;
        if (b && oc::acl::HandleKindOf(b) && State::Get().DeviceAllocation(b->data, &start, &size))
          keys.push_back(start);
      }
    pins = std::make_shared<oc::acl::InFlight>(std::move(keys));
  }
  const uint32_t stream_id = oc::acl::StreamIdOf(stream), task_id = NextTaskId();
  worker->Submit([=] {
    (void)pins;  // released with the task
    aclError r = aclmdlExecute(modelId, input, output);
    if (r == ACL_SUCCESS) return oc::Status::Ok();
    ReportFailure(modelId, input, output, stream_id, task_id, r);
    const char* msg = aclGetRecentErrMsg();
    return oc::Status(
        r == ACL_ERROR_INVALID_PARAM ? oc::StatusCode::kInvalidArgument : oc::StatusCode::kInternal,
        std::string("aclmdlExecuteAsync: ") + (msg ? msg : std::to_string(r)));
  });
  return ACL_SUCCESS;
}

}  // extern "C"
