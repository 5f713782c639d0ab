// Single-operator mode at run time: the .om files atc --singleop wrote, matched by operator
// type, tensor descriptions and attributes, and run like a model (device buffers, streams).
#include <algorithm>
#include <cmath>
#include <filesystem>
#include <nlohmann/json.hpp>
#include <sstream>
#include <variant>

#include "acl/acl_internal_abi.h"
#include "acl/acl_state.h"
#include "base/config.h"
#include "base/file.h"
#include "base/log.h"
#include "base/memory_probe.h"
#include "base/shape.h"
#include "om/single_op_attrs.h"

using oc::acl::Fail;
using oc::acl::State;

// An attribute value as the calls set it; compared with what the .om recorded.
struct aclopAttr {
  std::map<std::string, nlohmann::json> values;  // {"type": ..., "value": ...}
};

struct aclopHandle {
  std::shared_ptr<oc::Model> model;
  int described_inputs;  // the count given to aclopCreateHandle, omitted inputs included
};

namespace {

std::mutex g_mutex;
std::vector<std::shared_ptr<oc::Model>> g_ops;  // loaded single-op models

bool IsSingleOp(const oc::Model& m) { return m.attrs().count(oc::kSingleOpTypeAttr) != 0; }

aclError Add(oc::Result<std::shared_ptr<oc::Model>> m, const std::string& what, const char* fn) {
  if (!m.ok())
    return Fail(ACL_ERROR_OP_LOAD_FAILED,
                std::string(fn) + ": " + what + ": " + m.status().message());
  if (!IsSingleOp(*m.value()))
    return Fail(ACL_ERROR_OP_LOAD_FAILED,
                std::string(fn) + ": " + what +
                    " is a model, not a single-operator model (atc --singleop writes those)");
  State::Get().ObserveSingleOp(m.value());
  std::lock_guard<std::mutex> lock(g_mutex);
  g_ops.push_back(m.value());
  return ACL_SUCCESS;
}

std::string Describe(const aclTensorDesc* d) {
  return std::to_string(static_cast<int>(d->dtype)) + "/" +
         std::to_string(static_cast<int>(d->format)) + oc::ShapeToString(d->dims);
}

// Whether `m` serves the call: inputs and outputs of the same dtypes, formats and shapes (a
// -1 in the model takes any size), and the same attributes with equal values.
bool Matches(const oc::Model& m, int nin, const aclTensorDesc* const in[], int nout,
             const aclTensorDesc* const out[], const aclopAttr* attr) {
  if (m.inputs().size() != static_cast<size_t>(nin) ||
      m.outputs().size() != static_cast<size_t>(nout))
    return false;
  std::vector<int> formats;
  std::stringstream list(m.attrs().at(oc::kSingleOpFormatsAttr));
  for (std::string f; std::getline(list, f, ',');) formats.push_back(std::stoi(f));
  auto same = [&](const oc::IoDesc& io, const aclTensorDesc* d, size_t k) {
    if (static_cast<int>(d->dtype) != oc::ToAclDataType(io.dtype)) return false;
    if (k < formats.size() && formats[k] != static_cast<int>(d->format)) return false;
    if (io.shape.size() != d->dims.size()) return false;
    for (size_t i = 0; i < io.shape.size(); ++i)
      if (io.shape[i] != -1 && io.shape[i] != d->dims[i]) return false;
    return true;
  };
  for (int i = 0; i < nin; ++i)
    if (!same(m.inputs()[i], in[i], i)) return false;
  for (int i = 0; i < nout; ++i)
    if (!same(m.outputs()[i], out[i], nin + i)) return false;
  const auto recorded = nlohmann::json::parse(m.attrs().at(oc::kSingleOpAttrsAttr), nullptr, false);
  const size_t given = attr ? attr->values.size() : 0;
  if (!recorded.is_object() || recorded.size() != given) return false;
  for (const auto& [name, rec] : recorded.items()) {
    auto it = attr->values.find(name);
    if (it == attr->values.end()) return false;
    if (!oc::SingleOpAttrEqual(rec, it->second)) return false;
  }
  return true;
}

// CANN marks an omitted optional input with aclCreateTensorDesc(ACL_DT_UNDEFINED, 0, nullptr,
// ACL_FORMAT_UNDEFINED) (and a null or empty buffer). Trailing ones are inputs not given; one
// before a given input cannot be expressed by OpenCANN's single-op models.
aclError GivenInputs(const char* fn, int* nin, const aclTensorDesc* const in[]) {
  if (*nin <= 0 || !in) return ACL_SUCCESS;
  auto read = oc::acl::ReadHandles();
  auto omitted = [&](const aclTensorDesc* d) {
    return d && oc::acl::HandleKindOf(d) && d->dtype == ACL_DT_UNDEFINED && d->dims.empty();
  };
  while (*nin > 0 && omitted(in[*nin - 1])) --*nin;
  for (int k = 0; k < *nin; ++k)
    if (omitted(in[k]))
      return Fail(ACL_ERROR_FEATURE_UNSUPPORTED,
                  std::string(fn) + ": input " + std::to_string(k) +
                      " is marked omitted (ACL_DT_UNDEFINED) but a later input is given; "
                      "OpenCANN's single operators take omitted inputs only at the end");
  return ACL_SUCCESS;
}

aclError Find(const char* fn, const char* opType, int nin, const aclTensorDesc* const in[],
              int nout, const aclTensorDesc* const out[], const aclopAttr* attr,
              std::shared_ptr<oc::Model>* found) {
  if (!opType) return Fail(ACL_ERROR_INVALID_PARAM, std::string(fn) + ": opType is null");
  if (nin < 0 || nout < 0 || (nin && !in) || (nout && !out))
    return Fail(ACL_ERROR_INVALID_PARAM, std::string(fn) + ": bad tensor description arrays");
  auto read = oc::acl::ReadHandles();  // the descriptions and attributes, while matched
  for (int i = 0; i < nin; ++i)
    if (aclError e = oc::acl::CheckLive(in[i], "inputDesc", fn)) return e;
  for (int i = 0; i < nout; ++i)
    if (aclError e = oc::acl::CheckLive(out[i], "outputDesc", fn)) return e;
  if (attr)
    if (aclError e = oc::acl::CheckLive(attr, "attr", fn)) return e;
  std::lock_guard<std::mutex> lock(g_mutex);
  size_t of_type = 0;
  for (const auto& m : g_ops) {
    if (m->attrs().at(oc::kSingleOpTypeAttr) != opType) continue;
    ++of_type;
    if (Matches(*m, nin, in, nout, out, attr)) {
      *found = m;
      return ACL_SUCCESS;
    }
  }
  std::string call;
  for (int i = 0; i < nin; ++i) call += (i ? ", " : "") + Describe(in[i]);
  call += " -> ";
  for (int i = 0; i < nout; ++i) call += (i ? ", " : "") + Describe(out[i]);
  return Fail(ACL_ERROR_OP_NOT_FOUND,
              std::string(fn) + ": no loaded single-op model matches " + opType + " (" + call +
                  ", dtype/format[shape]" + (attr ? ", with its attributes" : "") +
                  "): " + std::to_string(of_type) + " " + opType +
                  " model(s) loaded with other descriptions or attributes. Compile it with "
                  "atc --singleop and load it with aclopSetModelDir or aclopLoad");
}

aclError Run(const char* fn, const std::shared_ptr<oc::Model>& m, int nin,
             const aclTensorDesc* const in_desc[], const aclDataBuffer* const in[], int nout,
             aclDataBuffer* const out[], aclrtStream stream) {
  if ((nin && !in) || (nout && !out))
    return Fail(ACL_ERROR_INVALID_PARAM, std::string(fn) + ": bad buffer arrays");
  if (static_cast<size_t>(nin) != m->inputs().size() ||
      static_cast<size_t>(nout) != m->outputs().size())
    return Fail(ACL_ERROR_INVALID_PARAM, std::string(fn) + ": the operator takes " +
                                             std::to_string(m->inputs().size()) + " inputs and " +
                                             std::to_string(m->outputs().size()) + " outputs");
  oc::ExecuteIo io;
  std::vector<std::shared_ptr<const std::vector<uint8_t>>> consts;  // kept until the run
  std::vector<const void*> keys = {m.get()};
  // The device memory, kept allocated through a synchronous run (aclrtFree waits for it).
  std::vector<oc::acl::PinnedAllocation> pins;
  {
    auto read = oc::acl::ReadHandles();  // buffers and descriptions, while copied out
    for (int i = 0; i < nin + nout; ++i) {
      const aclDataBuffer* b = i < nin ? in[i] : out[i - nin];
      if (aclError e = oc::acl::CheckLive(b, i < nin ? "inputs" : "outputs", fn)) return e;
      if (i < nin && in_desc)
        if (aclError e = oc::acl::CheckLive(in_desc[i], "inputDesc", fn)) return e;
      // A constant input (aclSetTensorConst) is read from its description.
      if (i < nin && in_desc && in_desc[i]->const_value) {
        consts.push_back(in_desc[i]->const_value);
        io.inputs.push_back(consts.back()->data());
        io.input_sizes.push_back(consts.back()->size());
        io.input_shapes.push_back(in_desc[i]->dims);
        continue;
      }
      oc::acl::PinnedAllocation pin(b->data);
      if (b->size && !(pin.device() && pin.Holds(b->data, b->size)))
        return Fail(ACL_ERROR_INVALID_PARAM, std::string(fn) + ": " +
                                                 (i < nin ? "input " : "output ") +
                                                 std::to_string(i < nin ? i : i - nin) +
                                                 " is not device memory (aclrtMalloc)");
      if (pin.device()) {
        keys.push_back(pin.start());
        pins.push_back(std::move(pin));
      }
      if (i < nin) {
        io.inputs.push_back(b->data);
        io.input_sizes.push_back(b->size);
        io.input_shapes.push_back(in_desc ? in_desc[i]->dims : oc::Shape{});
      } else {
        io.outputs.push_back(b->data);
        io.output_sizes.push_back(b->size);
      }
    }
  }
  auto run = [m, io, consts]() mutable { return m->Execute(io); };
  aclError e = ACL_SUCCESS;
  std::shared_ptr<oc::Queue> worker = oc::acl::StreamOf(stream, &e);
  if (e != ACL_SUCCESS) return e;
  if (!worker) {
    oc::Status s;
    aclError guarded = oc::acl::Guard(fn, [&] {
      s = run();
      return ACL_SUCCESS;
    });
    if (guarded != ACL_SUCCESS) return guarded;
    return s.ok() ? ACL_SUCCESS : oc::acl::FailStatus(s, oc::acl::Phase::kExecute, fn);
  }
  // Queued: the memory is pinned (InFlight) from now, and again while the run runs (an
  // aclrtFree that came between the check above and the InFlight makes the run fail cleanly).
  auto queued = std::make_shared<oc::acl::InFlight>(std::move(keys));
  pins.clear();
  worker->Submit([run, queued, io, consts]() mutable {
    (void)queued;
    std::vector<oc::acl::PinnedAllocation> held;
    for (size_t i = 0; i < io.inputs.size() + io.outputs.size(); ++i) {
      const bool input = i < io.inputs.size();
      const void* p = input ? io.inputs[i] : io.outputs[i - io.inputs.size()];
      const size_t n = input ? io.input_sizes[i] : io.output_sizes[i - io.inputs.size()];
      if (!n) continue;
      bool constant = false;
      for (const auto& c : consts) constant = constant || c->data() == p;
      if (constant) continue;
      oc::acl::PinnedAllocation pin(p);
      if (!pin.device() || !pin.Holds(p, n))
        return oc::InvalidArgument("the operator's device memory was freed before it ran");
      held.push_back(std::move(pin));
    }
    return run();
  });
  return ACL_SUCCESS;
}

aclError SetValue(aclopAttr* attr, const char* name, const char* type, nlohmann::json value,
                  const char* fn) {
  auto write = oc::acl::WriteHandles();
  if (aclError e = oc::acl::CheckLive(attr, "attr", fn)) return e;
  if (!name) return Fail(ACL_ERROR_INVALID_PARAM, std::string(fn) + ": attrName is null");
  attr->values[name] = {{"type", type}, {"value", std::move(value)}};
  return ACL_SUCCESS;
}

template <typename T, typename Conv>
aclError SetList(aclopAttr* attr, const char* name, const char* type, int n, const T* values,
                 Conv conv, const char* fn) {
  if (n < 0 || (n > 0 && !values))
    return Fail(ACL_ERROR_INVALID_PARAM, std::string(fn) + ": numValues " + std::to_string(n) +
                                             " with " + (values ? "values" : "no values"));
  nlohmann::json list = nlohmann::json::array();
  for (int i = 0; i < n; ++i) list.push_back(conv(values[i]));
  return SetValue(attr, name, type, std::move(list), fn);
}

}  // namespace

extern "C" {

void oc_internal_acl_fail(aclError code, const char* message) {
  Fail(code, message ? message : "");
}

const char* oc_internal_aclop_attr_json(const aclopAttr* attr) {
  auto read = oc::acl::ReadHandles();
  if (oc::acl::CheckLive(attr, "attr", __func__)) return nullptr;
  thread_local std::string text;
  nlohmann::json j = nlohmann::json::object();
  for (const auto& [name, v] : attr->values) j[name] = v;
  text = j.dump();
  return text.c_str();
}

const char* oc_internal_config_atc(void) { return oc::GlobalConfig().atc.c_str(); }

int oc_internal_host_range_mapped(const void* p, size_t bytes) {
  return oc::HostRangeMapped(p, bytes) ? 1 : 0;
}

int oc_internal_device_range(const void* p, size_t bytes) {
  return bytes > 0 && State::Get().IsDevice(p, bytes) ? 1 : 0;
}

int oc_internal_host_range_writable(void* p, size_t bytes) {
  return oc::HostRangeWritable(p, bytes) ? 1 : 0;
}

aclopAttr* aclopCreateAttr(void) {
  auto* a = new (std::nothrow) aclopAttr();
  oc::acl::AddHandle(a, oc::acl::HandleKind(a));
  return a;
}

void aclopDestroyAttr(const aclopAttr* attr) {
  auto write = oc::acl::WriteHandles();
  if (oc::acl::CheckLive(attr, "attr", __func__)) return;
  oc::acl::DropHandle(attr, oc::acl::HandleKind(attr));
  delete attr;
}

aclError aclopSetAttrBool(aclopAttr* attr, const char* attrName, uint8_t attrValue) {
  return SetValue(attr, attrName, "bool", attrValue != 0, __func__);
}
aclError aclopSetAttrInt(aclopAttr* attr, const char* attrName, int64_t attrValue) {
  return SetValue(attr, attrName, "int", attrValue, __func__);
}
aclError aclopSetAttrFloat(aclopAttr* attr, const char* attrName, float attrValue) {
  return SetValue(attr, attrName, "float", attrValue, __func__);
}
aclError aclopSetAttrString(aclopAttr* attr, const char* attrName, const char* attrValue) {
  if (!attrValue) return Fail(ACL_ERROR_INVALID_PARAM, "aclopSetAttrString: attrValue is null");
  return SetValue(attr, attrName, "string", attrValue, __func__);
}
aclError aclopSetAttrDataType(aclopAttr* attr, const char* attrName, aclDataType attrValue) {
  return SetValue(attr, attrName, "data_type", static_cast<int>(attrValue), __func__);
}
aclError aclopSetAttrListBool(aclopAttr* attr, const char* attrName, int numValues,
                              const uint8_t* values) {
  return SetList(
      attr, attrName, "list_bool", numValues, values, [](uint8_t v) { return v != 0; }, __func__);
}
aclError aclopSetAttrListInt(aclopAttr* attr, const char* attrName, int numValues,
                             const int64_t* values) {
  return SetList(
      attr, attrName, "list_int", numValues, values, [](int64_t v) { return v; }, __func__);
}
aclError aclopSetAttrListFloat(aclopAttr* attr, const char* attrName, int numValues,
                               const float* values) {
  return SetList(
      attr, attrName, "list_float", numValues, values, [](float v) { return v; }, __func__);
}
aclError aclopSetAttrListString(aclopAttr* attr, const char* attrName, int numValues,
                                const char** values) {
  for (int i = 0; i < numValues && values; ++i)
    if (!values[i]) return Fail(ACL_ERROR_INVALID_PARAM, "aclopSetAttrListString: a null string");
  return SetList(
      attr, attrName, "list_string", numValues, values,
      [](const char* v) { return std::string(v); }, __func__);
}
aclError aclopSetAttrListDataType(aclopAttr* attr, const char* attrName, int numValues,
                                  const aclDataType values[]) {
  return SetList(
      attr, attrName, "list_data_type", numValues, values,
      [](aclDataType v) { return static_cast<int>(v); }, __func__);
}
aclError aclopSetAttrListListInt(aclopAttr* attr, const char* attrName, int numLists,
                                 const int* numValues, const int64_t* const values[]) {
  if (numLists < 0 || (numLists > 0 && (!numValues || !values)))
    return Fail(ACL_ERROR_INVALID_PARAM, "aclopSetAttrListListInt: bad lists");
  nlohmann::json lists = nlohmann::json::array();
  for (int i = 0; i < numLists; ++i) {
    if (numValues[i] < 0 || (numValues[i] > 0 && !values[i]))
      return Fail(ACL_ERROR_INVALID_PARAM,
                  "aclopSetAttrListListInt: bad list " + std::to_string(i));
    nlohmann::json row = nlohmann::json::array();
    for (int k = 0; k < numValues[i]; ++k) row.push_back(values[i][k]);
    lists.push_back(std::move(row));
  }
  return SetValue(attr, attrName, "list_list_int", std::move(lists), __func__);
}

aclError aclopSetModelDir(const char* modelDir) {
  OC_ACL_REQUIRE_INIT();
  OC_ACL_CHECK_NULL(modelDir);
  std::error_code ec;
  if (!std::filesystem::is_directory(modelDir, ec))
    return Fail(ACL_ERROR_INVALID_FILE,
                std::string("aclopSetModelDir: [") + modelDir + "] is not a directory");
  size_t loaded = 0;
  for (auto it = std::filesystem::recursive_directory_iterator(modelDir, ec);
       !ec && it != std::filesystem::recursive_directory_iterator(); it.increment(ec)) {
    if (!it->is_regular_file(ec) || it->path().extension() != ".om") continue;
    const std::string path = it->path().string();
    auto model = oc::Model::LoadFile(path, State::Get().LoadOptionsFor());
    // A whole model beside the single-op models (CANN's samples keep them in one folder) is
    // not an operator: passed over, said once in the log.
    if (model.ok() && !IsSingleOp(*model.value())) {
      OC_LOG(kWarning, "aclopSetModelDir: " << path
                                            << " is a model, not a single-operator model; "
                                               "passed over");
      continue;
    }
    if (aclError e = Add(std::move(model), path, __func__)) return e;
    ++loaded;
  }
  if (loaded == 0)
    return Fail(ACL_ERROR_OP_LOAD_FAILED, std::string("aclopSetModelDir: [") + modelDir +
                                              "] holds no .om (atc --singleop writes them)");
  return ACL_SUCCESS;
}

aclError aclopLoad(const void* model, size_t modelSize) {
  OC_ACL_REQUIRE_INIT();
  OC_ACL_CHECK_NULL(model);
  if (modelSize == 0 || !oc::HostRangeReadable(model, modelSize))
    return Fail(ACL_ERROR_INVALID_PARAM, "aclopLoad: the model's " + std::to_string(modelSize) +
                                             " bytes are not readable memory");
  return Add(
      oc::Model::Load(oc::MappedFile::FromCopy(model, modelSize), State::Get().LoadOptionsFor()),
      "the model in memory", __func__);
}

aclError aclopSetMaxOpQueueNum(uint64_t maxOpNum) {
  if (maxOpNum == 0) return Fail(ACL_ERROR_INVALID_PARAM, "aclopSetMaxOpQueueNum: 0");
  return ACL_SUCCESS;
}

aclError aclopExecuteV2(const char* opType, int numInputs, aclTensorDesc* inputDesc[],
                        aclDataBuffer* inputs[], int numOutputs, aclTensorDesc* outputDesc[],
                        aclDataBuffer* outputs[], aclopAttr* attr, aclrtStream stream) {
  OC_ACL_REQUIRE_CONTEXT();
  std::shared_ptr<oc::Model> m;
  if (aclError e = GivenInputs(__func__, &numInputs, inputDesc)) return e;
  if (aclError e = Find(__func__, opType, numInputs, inputDesc, numOutputs, outputDesc, attr, &m))
    return e;
  return Run(__func__, m, numInputs, inputDesc, inputs, numOutputs, outputs, stream);
}

aclError aclopExecute(const char* opType, int numInputs, const aclTensorDesc* const inputDesc[],
                      const aclDataBuffer* const inputs[], int numOutputs,
                      const aclTensorDesc* const outputDesc[], aclDataBuffer* const outputs[],
                      const aclopAttr* attr, aclrtStream stream) {
  OC_ACL_REQUIRE_CONTEXT();
  std::shared_ptr<oc::Model> m;
  if (aclError e = GivenInputs(__func__, &numInputs, inputDesc)) return e;
  if (aclError e = Find(__func__, opType, numInputs, inputDesc, numOutputs, outputDesc, attr, &m))
    return e;
  return Run(__func__, m, numInputs, inputDesc, inputs, numOutputs, outputs, stream);
}

aclError aclopCreateHandle(const char* opType, int numInputs,
                           const aclTensorDesc* const inputDesc[], int numOutputs,
                           const aclTensorDesc* const outputDesc[], const aclopAttr* opAttr,
                           aclopHandle** handle) {
  OC_ACL_REQUIRE_INIT();
  OC_ACL_CHECK_NULL(handle);
  std::shared_ptr<oc::Model> m;
  const int described = numInputs;
  if (aclError e = GivenInputs(__func__, &numInputs, inputDesc)) return e;
  if (aclError e = Find(__func__, opType, numInputs, inputDesc, numOutputs, outputDesc, opAttr, &m))
    return e;
  auto* h = new aclopHandle{m, described};
  oc::acl::AddHandle(h, "aclopHandle");
  *handle = h;
  return ACL_SUCCESS;
}

void aclopDestroyHandle(aclopHandle* handle) {
  auto write = oc::acl::WriteHandles();
  if (!oc::acl::DropHandle(handle, "aclopHandle")) {
    Fail(ACL_ERROR_INVALID_PARAM, "aclopDestroyHandle: not a live aclopHandle");
    return;
  }
  delete handle;
}

aclError aclopExecWithHandle(aclopHandle* handle, int numInputs,
                             const aclDataBuffer* const inputs[], int numOutputs,
                             aclDataBuffer* const outputs[], aclrtStream stream) {
  OC_ACL_REQUIRE_CONTEXT();
  std::shared_ptr<oc::Model> model;
  {
    auto read = oc::acl::ReadHandles();
    if (!oc::acl::IsHandleKind(handle, "aclopHandle"))
      return Fail(ACL_ERROR_INVALID_PARAM, "aclopExecWithHandle: handle is not a live aclopHandle");
    model = handle->model;  // the model outlives a destroy of the handle meanwhile
    // The application passes as many buffers as it described inputs; those of trailing
    // omitted inputs are not the model's.
    if (numInputs == handle->described_inputs)
      numInputs = std::min<int>(numInputs, static_cast<int>(model->inputs().size()));
  }
  return Run(__func__, model, numInputs, nullptr, inputs, numOutputs, outputs, stream);
}

aclError aclopCast(const aclTensorDesc* srcDesc, const aclDataBuffer* srcBuffer,
                   const aclTensorDesc* dstDesc, aclDataBuffer* dstBuffer, uint8_t truncate,
                   aclrtStream stream) {
  OC_ACL_REQUIRE_CONTEXT();
  aclDataType dst_type = ACL_DT_UNDEFINED;
  {
    auto read = oc::acl::ReadHandles();
    OC_ACL_CHECK_LIVE(srcDesc);
    OC_ACL_CHECK_LIVE(dstDesc);
    dst_type = dstDesc->dtype;
  }
  if (truncate)
    return Fail(ACL_ERROR_FEATURE_UNSUPPORTED,
                "aclopCast: truncate=1 (the NPU's truncating conversion) is not supported by "
                "OpenCANN; it rounds to nearest");
  const aclTensorDesc* in[] = {srcDesc};
  const aclTensorDesc* out[] = {dstDesc};
  std::shared_ptr<oc::Model> m;
  // The Cast models CANN's samples compile carry dst_type and truncate (false), or dst_type
  // alone: either matches. The attributes are registered as a handle for Find's check; no
  // other thread knows them.
  aclError e = ACL_SUCCESS;
  for (const bool with_truncate : {true, false}) {
    aclopAttr attr;
    attr.values["dst_type"] = {{"type", "int"}, {"value", static_cast<int>(dst_type)}};
    if (with_truncate) attr.values["truncate"] = {{"type", "bool"}, {"value", false}};
    oc::acl::AddHandle(&attr, oc::acl::HandleKind(&attr));
    e = Find(__func__, "Cast", 1, in, 1, out, &attr, &m);
    oc::acl::DropHandle(&attr, oc::acl::HandleKind(&attr));
    if (e != ACL_ERROR_OP_NOT_FOUND) break;
  }
  if (e) return e;
  const aclDataBuffer* ins[] = {srcBuffer};
  aclDataBuffer* outs[] = {dstBuffer};
  return Run(__func__, m, 1, in, ins, 1, outs, stream);
}

}  // extern "C"

extern "C" aclError oc_internal_given_inputs(const char* fn, int* nin,
                                             const aclTensorDesc* const in[]) {
  return GivenInputs(fn, nin, in);
}
