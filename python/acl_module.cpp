// The pyACL-compatible `acl` module: handles and pointers are Python ints; calls that
// produce values return tuples ending in the error code; nothing raises for an error
// that pyACL would report through its return code.
#include <pthread.h>
#include <pybind11/numpy.h>
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <cstdint>
#include <cstdio>
#include <cstring>
#include <map>
#include <mutex>
#include <string>
#include <vector>

#include "acl/acl.h"
#include "acl/acl_internal_abi.h"

namespace py = pybind11;

namespace {

template <typename T>
T* Ptr(uintptr_t v) {
  return reinterpret_cast<T*>(v);
}
uintptr_t Int(const void* p) { return reinterpret_cast<uintptr_t>(p); }

// The objects acl.util.bytes_to_ptr handed out (address -> size), and references to them:
// the pointer stays valid while the caller has dropped its own reference, as CANN's samples
// need (acllite's AclLiteImage.data() returns the pointer of a temporary bytes object). The
// latest 64 objects, at most 256 MiB, are kept. A copy that fails reading past one is named
// as the application's over-read, which the runtime, seeing only an unreadable range, cannot
// say.
struct KeptBytes {
  uintptr_t ptr;
  size_t size;
  PyObject* object;  // a strong reference (released under the GIL, never at exit)
};
std::mutex g_bytes_mutex;
std::map<uintptr_t, size_t> g_bytes_sizes;
std::vector<KeptBytes>& KeptObjects() {
  static auto* kept = new std::vector<KeptBytes>();  // never destroyed: no decref after exit
  return *kept;
}

// Called with the GIL held.
void RememberBytes(uintptr_t p, size_t size, PyObject* object) {
  std::lock_guard<std::mutex> lock(g_bytes_mutex);
  auto& kept = KeptObjects();
  size_t total = size;
  for (const auto& k : kept) total += k.size;
  while (!kept.empty() && (kept.size() >= 64 || total > (size_t{256} << 20))) {
    total -= kept.front().size;
    g_bytes_sizes.erase(kept.front().ptr);
    Py_DECREF(kept.front().object);
    kept.erase(kept.begin());
  }
  Py_INCREF(object);
  kept.push_back({p, size, object});
  g_bytes_sizes[p] = size;
}

void ExplainOverRead(aclError ret, uintptr_t src, size_t count, const char* fn) {
  if (ret == ACL_SUCCESS) return;
  std::lock_guard<std::mutex> lock(g_bytes_mutex);
  auto it = g_bytes_sizes.find(src);
  if (it == g_bytes_sizes.end() || count <= it->second) return;
  std::fprintf(stderr,
               "[ERROR] acl.rt.%s: src is a %zu-byte object from acl.util.bytes_to_ptr and "
               "count is %zu: the copy reads past its end (copy len(data) bytes)\n",
               fn, it->second, count);
}

py::dict DimsToDict(const aclmdlIODims& d) {
  py::dict out;
  out["name"] = std::string(d.name);
  out["dimCount"] = d.dimCount;
  py::list dims;
  for (size_t i = 0; i < d.dimCount; ++i) dims.append(d.dims[i]);
  out["dims"] = dims;
  return out;
}

py::tuple Dims(aclError (*fn)(const aclmdlDesc*, size_t, aclmdlIODims*), uintptr_t desc,
               size_t index) {
  aclmdlIODims d{};
  aclError ret = fn(Ptr<const aclmdlDesc>(desc), index, &d);
  return py::make_tuple(ret == ACL_SUCCESS ? py::object(DimsToDict(d)) : py::object(py::dict()),
                        ret);
}

// numpy type numbers as pyACL takes them (NPY_FLOAT = 11, ...), or a dtype object.
py::dtype ToDtype(const py::object& t) {
  if (py::isinstance<py::int_>(t)) {
    return py::dtype(t.cast<int>());
  }
  return py::dtype::from_args(t);
}

// A Python callback with its argument, run on the report thread with the GIL held.
struct PyCallback {
  py::object fn, data;
};

void RunPyCallback(void* p) {
  py::gil_scoped_acquire gil;
  std::unique_ptr<PyCallback> cb(static_cast<PyCallback*>(p));
  try {
    cb->fn(cb->data);
  } catch (py::error_already_set& e) {
    e.discard_as_unraisable("acl callback");
  }
}

// Raw pointers the module reads itself must be mapped host memory: a made-up or stale
// address raises ValueError instead of a segfault.
void CheckMapped(uintptr_t ptr, size_t bytes, const char* fn) {
  if (!ptr) throw py::value_error(std::string(fn) + ": the pointer is 0");
  if (!oc_internal_host_range_mapped(Ptr<const void>(ptr), bytes))
    throw py::value_error(std::string(fn) + ": " + std::to_string(bytes) + " bytes at " +
                          std::to_string(ptr) +
                          " are not mapped memory (a stale or made-up "
                          "pointer?)");
}

struct ReportThread {
  py::object func, args;
  pthread_t handle{};
};
std::mutex g_threads_mutex;
std::map<uint64_t, ReportThread*> g_threads;

void* RunReportThread(void* p) {
  auto* t = static_cast<ReportThread*>(p);
  py::gil_scoped_acquire gil;
  try {
    t->func(t->args);
  } catch (py::error_already_set& e) {
    e.discard_as_unraisable("acl.util.start_thread function");
  }
  return nullptr;
}

}  // namespace

void BindExtra(py::module_& m, py::module_& mdl);  // acl_module_extra.cpp
void BindMedia(py::module_& m);                    // acl_media.cpp

PYBIND11_MODULE(acl, m) {
  m.doc() = "OpenCANN pyACL: AscendCL for Python on the host CPU";

  m.def(
      "init",
      [](py::object path) {
        if (path.is_none()) return aclInit(nullptr);
        std::string p = path.cast<std::string>();
        return aclInit(p.c_str());
      },
      py::arg("config_path") = py::none(),
      "init(config_path=None) -> ret\n\nInitializes AscendCL (aclInit) with an optional JSON "
      "config path.");
  m.def(
      "finalize", [] { return aclFinalize(); },
      "finalize() -> ret\n\nReleases AscendCL (aclFinalize); streams left are destroyed.");
  m.def(
      "get_soc_name",
      [] {
        const char* name = aclrtGetSocName();
        return std::string(name ? name : "");
      },
      "get_soc_name() -> str\n\nThe SoC of the emulated device (aclrtGetSocName).");
  m.def(
      "get_device_capability",
      [](uint32_t device_id, int info) {
        int64_t value = 0;
        const aclError ret =
            aclGetDeviceCapability(device_id, static_cast<aclDeviceInfo>(info), &value);
        return py::make_tuple(value, ret);
      },
      py::arg("device_id"), py::arg("device_info"),
      "get_device_capability(device_id, device_info) -> (value, ret)\n\nAI cores (0), vector "
      "cores (1) or L2 bytes (2) of the emulated SoC (aclGetDeviceCapability).");
  m.def(
      "get_recent_err_msg",
      [] {
        const char* s = aclGetRecentErrMsg();
        return std::string(s ? s : "");
      },
      "get_recent_err_msg() -> str\n\nThe last error message of the calling thread "
      "(aclGetRecentErrMsg).");
  m.def(
      "create_data_buffer",
      [](uintptr_t ptr, size_t size) { return Int(aclCreateDataBuffer(Ptr<void>(ptr), size)); },
      py::arg("ptr"), py::arg("size"),
      "create_data_buffer(data, size) -> data_buffer\n\nA buffer description for device memory "
      "(aclCreateDataBuffer); 0 on failure.");
  m.def(
      "destroy_data_buffer",
      [](uintptr_t buf) { return aclDestroyDataBuffer(Ptr<aclDataBuffer>(buf)); },
      py::arg("data_buffer"),
      "destroy_data_buffer(data_buffer) -> ret\n\nDestroys a buffer description (not its memory). "
      "A stale handle returns ACL_ERROR_INVALID_PARAM.");
  m.def(
      "update_data_buffer",
      [](uintptr_t buf, uintptr_t ptr, size_t size) {
        return aclUpdateDataBuffer(Ptr<aclDataBuffer>(buf), Ptr<void>(ptr), size);
      },
      py::arg("data_buffer"), py::arg("ptr"), py::arg("size"));
  m.def(
      "get_data_buffer_addr",
      [](uintptr_t buf) { return Int(aclGetDataBufferAddr(Ptr<aclDataBuffer>(buf))); },
      py::arg("data_buffer"));
  m.def(
      "get_data_buffer_size",
      [](uintptr_t buf) { return aclGetDataBufferSize(Ptr<aclDataBuffer>(buf)); },
      py::arg("data_buffer"));
  m.def(
      "get_data_buffer_size_v2",
      [](uintptr_t buf) { return aclGetDataBufferSizeV2(Ptr<aclDataBuffer>(buf)); },
      py::arg("data_buffer"));
  m.def(
      "data_type_size", [](int t) { return aclDataTypeSize(static_cast<aclDataType>(t)); },
      py::arg("data_type"));
  m.def(
      "float16_to_float", [](uint16_t v) { return aclFloat16ToFloat(v); }, py::arg("value"));
  m.def(
      "float_to_float16", [](float v) { return aclFloatToFloat16(v); }, py::arg("value"));
  m.def(
      "create_tensor_desc",
      [](int dtype, std::vector<int64_t> dims, int format) {
        return Int(aclCreateTensorDesc(static_cast<aclDataType>(dtype),
                                       static_cast<int>(dims.size()), dims.data(),
                                       static_cast<aclFormat>(format)));
      },
      py::arg("dtype"), py::arg("dims"), py::arg("format"));
  m.def(
      "destroy_tensor_desc", [](uintptr_t d) { aclDestroyTensorDesc(Ptr<aclTensorDesc>(d)); },
      py::arg("desc"));
  m.def(
      "get_tensor_desc_type",
      [](uintptr_t d) { return static_cast<int>(aclGetTensorDescType(Ptr<aclTensorDesc>(d))); },
      py::arg("desc"));
  m.def(
      "get_tensor_desc_format",
      [](uintptr_t d) { return static_cast<int>(aclGetTensorDescFormat(Ptr<aclTensorDesc>(d))); },
      py::arg("desc"));
  m.def(
      "set_tensor_const",
      [](uintptr_t d, uintptr_t data, size_t length) {
        return aclSetTensorConst(Ptr<aclTensorDesc>(d), reinterpret_cast<void*>(data), length);
      },
      py::arg("desc"), py::arg("data_buffer"), py::arg("length"));
  m.def(
      "get_tensor_desc_size",
      [](uintptr_t d) { return aclGetTensorDescSize(Ptr<aclTensorDesc>(d)); }, py::arg("desc"));
  m.def(
      "get_tensor_desc_element_count",
      [](uintptr_t d) { return aclGetTensorDescElementCount(Ptr<aclTensorDesc>(d)); },
      py::arg("desc"));
  m.def(
      "get_tensor_desc_num_dims",
      [](uintptr_t d) { return aclGetTensorDescNumDims(Ptr<aclTensorDesc>(d)); }, py::arg("desc"));
  m.def(
      "get_tensor_desc_dim_v2",
      [](uintptr_t d, size_t i) {
        int64_t v = 0;
        aclError ret = aclGetTensorDescDimV2(Ptr<aclTensorDesc>(d), i, &v);
        return py::make_tuple(v, ret);
      },
      py::arg("desc"), py::arg("index"));

  py::module_ rt = m.def_submodule("rt", "runtime: devices, contexts, streams, memory");
  rt.def(
      "set_device", [](int32_t id) { return aclrtSetDevice(id); }, py::arg("device_id"),
      "set_device(device_id) -> ret\n\nOpens the device for the calling thread (aclrtSetDevice).");
  rt.def(
      "reset_device", [](int32_t id) { return aclrtResetDevice(id); }, py::arg("device_id"),
      "reset_device(device_id) -> ret");
  rt.def("get_device", [] {
    int32_t id = -1;
    aclError ret = aclrtGetDevice(&id);
    return py::make_tuple(id, ret);
  });
  rt.def("get_device_count", [] {
    uint32_t n = 0;
    aclError ret = aclrtGetDeviceCount(&n);
    return py::make_tuple(n, ret);
  });
  rt.def(
      "get_run_mode",
      [] {
        aclrtRunMode mode = ACL_HOST;
        aclError ret = aclrtGetRunMode(&mode);
        return py::make_tuple(static_cast<int>(mode), ret);
      },
      "get_run_mode() -> (run_mode, ret)\n\n0 device, 1 host (always 1 here). Needs no init.");
  rt.def("synchronize_device", [] { return aclrtSynchronizeDevice(); });
  rt.def(
      "get_mem_info",
      [](int attr) {
        size_t free = 0, total = 0;
        aclError ret = aclrtGetMemInfo(static_cast<aclrtMemAttr>(attr), &free, &total);
        return py::make_tuple(free, total, ret);
      },
      py::arg("attr"),
      "get_mem_info(attr) -> (free, total, ret)\n\nBytes of device memory (attr: ACL_DDR_MEM 0, "
      "ACL_HBM_MEM 1, ...).");
  rt.def(
      "memset_async",
      [](uintptr_t dev_ptr, size_t max_size, int32_t value, size_t count, uintptr_t stream) {
        return aclrtMemsetAsync(Ptr<void>(dev_ptr), max_size, value, count, Ptr<void>(stream));
      },
      py::arg("dev_ptr"), py::arg("max_size"), py::arg("value"), py::arg("count"),
      py::arg("stream"), "memset_async(dev_ptr, max_size, value, count, stream) -> ret");
  rt.def(
      "synchronize_stream_with_timeout",
      [](uintptr_t stream, int32_t timeout) {
        py::gil_scoped_release release;
        return aclrtSynchronizeStreamWithTimeout(Ptr<void>(stream), timeout);
      },
      py::arg("stream"), py::arg("timeout"));
  rt.def(
      "create_context",
      [](int32_t id) {
        aclrtContext c = nullptr;
        aclError ret = aclrtCreateContext(&c, id);
        return py::make_tuple(Int(c), ret);
      },
      py::arg("device_id"), "create_context(device_id) -> (context, ret)");
  rt.def(
      "destroy_context", [](uintptr_t c) { return aclrtDestroyContext(Ptr<void>(c)); },
      py::arg("context"));
  rt.def(
      "set_context", [](uintptr_t c) { return aclrtSetCurrentContext(Ptr<void>(c)); },
      py::arg("context"));
  rt.def("get_context", [] {
    aclrtContext c = nullptr;
    aclError ret = aclrtGetCurrentContext(&c);
    return py::make_tuple(Int(c), ret);
  });
  rt.def(
      "create_stream",
      [] {
        aclrtStream s = nullptr;
        aclError ret = aclrtCreateStream(&s);
        return py::make_tuple(Int(s), ret);
      },
      "create_stream() -> (stream, ret)");
  rt.def(
      "destroy_stream", [](uintptr_t s) { return aclrtDestroyStream(Ptr<void>(s)); },
      py::arg("stream"),
      "destroy_stream(stream) -> ret\n\nWaits for the stream's work, then destroys it.");
  rt.def(
      "synchronize_stream",
      [](uintptr_t s) {
        py::gil_scoped_release release;
        return aclrtSynchronizeStream(Ptr<void>(s));
      },
      py::arg("stream"),
      "synchronize_stream(stream) -> ret\n\nWaits for the work queued on the stream.");
  rt.def(
      "malloc",
      [](size_t size, int policy) {
        void* p = nullptr;
        aclError ret = aclrtMalloc(&p, size, static_cast<aclrtMemMallocPolicy>(policy));
        return py::make_tuple(Int(p), ret);
      },
      py::arg("size"), py::arg("policy") = 0,
      "malloc(size, policy=0) -> (dev_ptr, ret)\n\nDevice memory (aclrtMalloc).");
  rt.def(
      "malloc_host",
      [](size_t size) {
        void* p = nullptr;
        aclError ret = aclrtMallocHost(&p, size);
        return py::make_tuple(Int(p), ret);
      },
      py::arg("size"), "malloc_host(size) -> (host_ptr, ret)");
  rt.def(
      "free", [](uintptr_t p) { return aclrtFree(Ptr<void>(p)); }, py::arg("ptr"),
      "free(dev_ptr) -> ret\n\nFrees device memory; work queued on streams that uses it finishes "
      "first.");
  rt.def(
      "free_host", [](uintptr_t p) { return aclrtFreeHost(Ptr<void>(p)); }, py::arg("ptr"));
  rt.def(
      "memcpy",
      [](uintptr_t dst, size_t dest_max, uintptr_t src, size_t count, int kind) {
        const aclError ret = aclrtMemcpy(Ptr<void>(dst), dest_max, Ptr<const void>(src), count,
                                         static_cast<aclrtMemcpyKind>(kind));
        ExplainOverRead(ret, src, count, "memcpy");
        return ret;
      },
      py::arg("dst"), py::arg("dest_max"), py::arg("src"), py::arg("count"), py::arg("kind"),
      "memcpy(dst, dest_max, src, count, kind) -> ret\n\nkind: 0 host-to-host, 1 host-to-device, 2 "
      "device-to-host, 3 device-to-device.");
  rt.def(
      "memcpy_async",
      [](uintptr_t dst, size_t dest_max, uintptr_t src, size_t count, int kind, uintptr_t stream) {
        return aclrtMemcpyAsync(Ptr<void>(dst), dest_max, Ptr<const void>(src), count,
                                static_cast<aclrtMemcpyKind>(kind), Ptr<void>(stream));
      },
      py::arg("dst"), py::arg("dest_max"), py::arg("src"), py::arg("count"), py::arg("kind"),
      py::arg("stream"), "memcpy_async(dst, dest_max, src, count, kind, stream) -> ret");
  rt.def(
      "memset",
      [](uintptr_t p, size_t max, int32_t value, size_t count) {
        return aclrtMemset(Ptr<void>(p), max, value, count);
      },
      py::arg("ptr"), py::arg("max_size"), py::arg("value"), py::arg("count"));
  rt.def(
      "subscribe_report",
      [](uint64_t thread_id, uintptr_t stream) {
        return aclrtSubscribeReport(thread_id, Ptr<void>(stream));
      },
      py::arg("thread_id"), py::arg("stream"),
      "subscribe_report(thread_id, stream) -> ret\n\nCallbacks launched on the stream run in that "
      "thread's process_report.");
  rt.def(
      "unsubscribe_report",
      [](uint64_t thread_id, uintptr_t stream) {
        return aclrtUnSubscribeReport(thread_id, Ptr<void>(stream));
      },
      py::arg("thread_id"), py::arg("stream"));
  rt.def(
      "launch_callback",
      [](py::object fn, py::object data, int block, uintptr_t stream) {
        auto* cb = new PyCallback{fn, data};
        aclError ret = aclrtLaunchCallback(
            RunPyCallback, cb, static_cast<aclrtCallbackBlockType>(block), Ptr<void>(stream));
        if (ret != ACL_SUCCESS) delete cb;
        return ret;
      },
      py::arg("fn"), py::arg("data"), py::arg("block"), py::arg("stream"),
      "launch_callback(callback, user_data, block_flag, stream) -> ret");
  rt.def(
      "process_report",
      [](int32_t timeout) {
        py::gil_scoped_release release;  // the callback takes the GIL itself
        return aclrtProcessReport(timeout);
      },
      py::arg("timeout"),
      "process_report(timeout_ms) -> ret\n\nRuns the callbacks handed to this thread, waiting up "
      "to timeout_ms.");
  rt.def("create_event", [] {
    aclrtEvent e = nullptr;
    aclError ret = aclrtCreateEvent(&e);
    return py::make_tuple(Int(e), ret);
  });
  rt.def(
      "destroy_event", [](uintptr_t e) { return aclrtDestroyEvent(Ptr<void>(e)); },
      py::arg("event"));
  rt.def(
      "record_event",
      [](uintptr_t e, uintptr_t s) { return aclrtRecordEvent(Ptr<void>(e), Ptr<void>(s)); },
      py::arg("event"), py::arg("stream"));
  rt.def(
      "synchronize_event",
      [](uintptr_t e) {
        py::gil_scoped_release release;
        return aclrtSynchronizeEvent(Ptr<void>(e));
      },
      py::arg("event"));
  rt.def(
      "event_elapsed_time",
      [](uintptr_t a, uintptr_t b) {
        float ms = 0;
        aclError ret = aclrtEventElapsedTime(&ms, Ptr<void>(a), Ptr<void>(b));
        return py::make_tuple(ms, ret);
      },
      py::arg("start_event"), py::arg("end_event"));

  py::module_ mdl = m.def_submodule("mdl", "model loading and execution");
  BindExtra(m, mdl);
  BindMedia(m);
  mdl.def(
      "load_from_file",
      [](const std::string& path) {
        uint32_t id = 0;
        aclError ret = aclmdlLoadFromFile(path.c_str(), &id);
        return py::make_tuple(id, ret);
      },
      py::arg("path"), "load_from_file(model_path) -> (model_id, ret)");
  mdl.def(
      "load_from_mem",
      [](uintptr_t ptr, size_t size) {
        uint32_t id = 0;
        aclError ret = aclmdlLoadFromMem(Ptr<const void>(ptr), size, &id);
        return py::make_tuple(id, ret);
      },
      py::arg("ptr"), py::arg("size"), "load_from_mem(model_ptr, model_size) -> (model_id, ret)");
  mdl.def(
      "load_from_file_with_mem",
      [](const std::string& path, uintptr_t work, size_t work_size, uintptr_t weight,
         size_t weight_size) {
        uint32_t id = 0;
        aclError ret = aclmdlLoadFromFileWithMem(path.c_str(), &id, Ptr<void>(work), work_size,
                                                 Ptr<void>(weight), weight_size);
        return py::make_tuple(id, ret);
      },
      py::arg("path"), py::arg("work"), py::arg("work_size"), py::arg("weight"),
      py::arg("weight_size"));
  mdl.def(
      "query_size",
      [](const std::string& path) {
        size_t work = 0, weight = 0;
        aclError ret = aclmdlQuerySize(path.c_str(), &work, &weight);
        return py::make_tuple(work, weight, ret);
      },
      py::arg("path"));
  mdl.def(
      "unload", [](uint32_t id) { return aclmdlUnload(id); }, py::arg("model_id"),
      "unload(model_id) -> ret\n\nExecutions of the model still queued on streams finish first.");
  mdl.def(
      "create_desc", [] { return Int(aclmdlCreateDesc()); }, "create_desc() -> model_desc");
  mdl.def(
      "destroy_desc", [](uintptr_t d) { return aclmdlDestroyDesc(Ptr<aclmdlDesc>(d)); },
      py::arg("model_desc"), "destroy_desc(model_desc) -> ret");
  mdl.def(
      "get_desc", [](uintptr_t d, uint32_t id) { return aclmdlGetDesc(Ptr<aclmdlDesc>(d), id); },
      py::arg("model_desc"), py::arg("model_id"), "get_desc(model_desc, model_id) -> ret");
  mdl.def(
      "get_num_inputs", [](uintptr_t d) { return aclmdlGetNumInputs(Ptr<aclmdlDesc>(d)); },
      py::arg("model_desc"), "get_num_inputs(model_desc) -> int");
  mdl.def(
      "get_num_outputs", [](uintptr_t d) { return aclmdlGetNumOutputs(Ptr<aclmdlDesc>(d)); },
      py::arg("model_desc"), "get_num_outputs(model_desc) -> int");
  mdl.def(
      "get_input_size_by_index",
      [](uintptr_t d, size_t i) { return aclmdlGetInputSizeByIndex(Ptr<aclmdlDesc>(d), i); },
      py::arg("model_desc"), py::arg("index"), "get_input_size_by_index(model_desc, index) -> int");
  mdl.def(
      "get_output_size_by_index",
      [](uintptr_t d, size_t i) { return aclmdlGetOutputSizeByIndex(Ptr<aclmdlDesc>(d), i); },
      py::arg("model_desc"), py::arg("index"),
      "get_output_size_by_index(model_desc, index) -> int");
  mdl.def(
      "get_input_dims", [](uintptr_t d, size_t i) { return Dims(aclmdlGetInputDims, d, i); },
      py::arg("model_desc"), py::arg("index"));
  mdl.def(
      "get_input_dims_v2", [](uintptr_t d, size_t i) { return Dims(aclmdlGetInputDimsV2, d, i); },
      py::arg("model_desc"), py::arg("index"));
  mdl.def(
      "get_output_dims", [](uintptr_t d, size_t i) { return Dims(aclmdlGetOutputDims, d, i); },
      py::arg("model_desc"), py::arg("index"));
  mdl.def(
      "get_cur_output_dims",
      [](uintptr_t d, size_t i) { return Dims(aclmdlGetCurOutputDims, d, i); },
      py::arg("model_desc"), py::arg("index"));
  mdl.def(
      "get_input_name_by_index",
      [](uintptr_t d, size_t i) {
        return std::string(aclmdlGetInputNameByIndex(Ptr<aclmdlDesc>(d), i));
      },
      py::arg("model_desc"), py::arg("index"));
  mdl.def(
      "get_output_name_by_index",
      [](uintptr_t d, size_t i) {
        return std::string(aclmdlGetOutputNameByIndex(Ptr<aclmdlDesc>(d), i));
      },
      py::arg("model_desc"), py::arg("index"));
  mdl.def(
      "get_input_data_type",
      [](uintptr_t d, size_t i) {
        return static_cast<int>(aclmdlGetInputDataType(Ptr<aclmdlDesc>(d), i));
      },
      py::arg("model_desc"), py::arg("index"));
  mdl.def(
      "get_output_data_type",
      [](uintptr_t d, size_t i) {
        return static_cast<int>(aclmdlGetOutputDataType(Ptr<aclmdlDesc>(d), i));
      },
      py::arg("model_desc"), py::arg("index"));
  mdl.def(
      "get_input_format",
      [](uintptr_t d, size_t i) {
        return static_cast<int>(aclmdlGetInputFormat(Ptr<aclmdlDesc>(d), i));
      },
      py::arg("model_desc"), py::arg("index"));
  mdl.def(
      "get_output_format",
      [](uintptr_t d, size_t i) {
        return static_cast<int>(aclmdlGetOutputFormat(Ptr<aclmdlDesc>(d), i));
      },
      py::arg("model_desc"), py::arg("index"));
  mdl.def(
      "get_aipp_type",
      [](uint32_t model_id, size_t index) {
        aclmdlInputAippType type = ACL_DATA_WITHOUT_AIPP;
        size_t attached = 0;
        aclError ret = aclmdlGetAippType(model_id, index, &type, &attached);
        return py::make_tuple(static_cast<int>(type), attached, ret);
      },
      "get_aipp_type(model_id, index) -> (type, dynamic_attached_data_index, ret)",
      py::arg("model_id"), py::arg("index"));
  mdl.def(
      "get_first_aipp_info",
      [](uint32_t model_id, size_t index) {
        aclAippInfo info;
        aclError ret = aclmdlGetFirstAippInfo(model_id, index, &info);
        py::dict d;
        if (ret == ACL_SUCCESS) {
          d["input_format"] = static_cast<int>(info.inputFormat);
          d["src_image_size_w"] = info.srcImageSizeW;
          d["src_image_size_h"] = info.srcImageSizeH;
          d["crop_switch"] = info.cropSwitch;
          d["load_start_pos_w"] = info.loadStartPosW;
          d["load_start_pos_h"] = info.loadStartPosH;
          d["crop_size_w"] = info.cropSizeW;
          d["crop_size_h"] = info.cropSizeH;
          d["padding_switch"] = info.paddingSwitch;
          d["left_padding_size"] = info.leftPaddingSize;
          d["right_padding_size"] = info.rightPaddingSize;
          d["top_padding_size"] = info.topPaddingSize;
          d["bottom_padding_size"] = info.bottomPaddingSize;
          d["csc_switch"] = info.cscSwitch;
          d["rbuv_swap_switch"] = info.rbuvSwapSwitch;
          d["ax_swap_switch"] = info.axSwapSwitch;
          // Lists, as pyACL returns every sequence inside its results.
          py::list mean, var_reci;
          for (auto v : {info.meanChn0, info.meanChn1, info.meanChn2, info.meanChn3})
            mean.append(v);
          for (auto v : {info.varReciChn0, info.varReciChn1, info.varReciChn2, info.varReciChn3})
            var_reci.append(v);
          d["mean_chn"] = mean;
          d["var_reci_chn"] = var_reci;
          d["src_size"] = info.outDims[0].srcSize;
        }
        return py::make_tuple(d, ret);
      },
      "get_first_aipp_info(model_id, index) -> (dict of the static AIPP parameters, ret)",
      py::arg("model_id"), py::arg("index"));
  // Dynamic AIPP: a parameter set is an integer handle, as every pyACL pointer.
  mdl.def(
      "create_aipp", [](uint64_t batch) { return Int(aclmdlCreateAIPP(batch)); }, py::arg("batch"));
  mdl.def(
      "destroy_aipp", [](uintptr_t a) { return aclmdlDestroyAIPP(Ptr<aclmdlAIPP>(a)); },
      py::arg("aipp_set"));
  mdl.def(
      "get_aipp_data_size",
      [](uint64_t batch) {
        size_t size = 0;
        aclError ret = aclmdlGetAippDataSize(batch, &size);
        return py::make_tuple(size, ret);
      },
      py::arg("batch"));
  mdl.def(
      "set_aipp_input_format",
      [](uintptr_t a, int format) {
        return aclmdlSetAIPPInputFormat(Ptr<aclmdlAIPP>(a),
                                        static_cast<aclAippInputFormat>(format));
      },
      py::arg("aipp_set"), py::arg("format"));
  mdl.def(
      "set_aipp_csc_params",
      [](uintptr_t a, int8_t sw, int16_t r0c0, int16_t r0c1, int16_t r0c2, int16_t r1c0,
         int16_t r1c1, int16_t r1c2, int16_t r2c0, int16_t r2c1, int16_t r2c2, uint8_t ob0,
         uint8_t ob1, uint8_t ob2, uint8_t ib0, uint8_t ib1, uint8_t ib2) {
        return aclmdlSetAIPPCscParams(Ptr<aclmdlAIPP>(a), sw, r0c0, r0c1, r0c2, r1c0, r1c1, r1c2,
                                      r2c0, r2c1, r2c2, ob0, ob1, ob2, ib0, ib1, ib2);
      },
      py::arg("aipp_set"), py::arg("switch"), py::arg("r0c0"), py::arg("r0c1"), py::arg("r0c2"),
      py::arg("r1c0"), py::arg("r1c1"), py::arg("r1c2"), py::arg("r2c0"), py::arg("r2c1"),
      py::arg("r2c2"), py::arg("ob0"), py::arg("ob1"), py::arg("ob2"), py::arg("ib0"),
      py::arg("ib1"), py::arg("ib2"));
  mdl.def(
      "set_aipp_rbuv_swap_switch",
      [](uintptr_t a, int8_t v) { return aclmdlSetAIPPRbuvSwapSwitch(Ptr<aclmdlAIPP>(a), v); },
      py::arg("aipp_set"), py::arg("value"));
  mdl.def(
      "set_aipp_ax_swap_switch",
      [](uintptr_t a, int8_t v) { return aclmdlSetAIPPAxSwapSwitch(Ptr<aclmdlAIPP>(a), v); },
      py::arg("aipp_set"), py::arg("value"));
  mdl.def(
      "set_aipp_src_image_size",
      [](uintptr_t a, int32_t w, int32_t h) {
        return aclmdlSetAIPPSrcImageSize(Ptr<aclmdlAIPP>(a), w, h);
      },
      py::arg("aipp_set"), py::arg("width"), py::arg("height"));
  mdl.def(
      "set_aipp_scf_params",
      [](uintptr_t a, int8_t sw, int32_t iw, int32_t ih, int32_t ow, int32_t oh,
         uint64_t batch_index) {
        return aclmdlSetAIPPScfParams(Ptr<aclmdlAIPP>(a), sw, iw, ih, ow, oh, batch_index);
      },
      py::arg("aipp_set"), py::arg("switch"), py::arg("iw"), py::arg("ih"), py::arg("ow"),
      py::arg("oh"), py::arg("batch_index"));
  mdl.def(
      "set_aipp_crop_params",
      [](uintptr_t a, int8_t sw, int32_t x, int32_t y, int32_t w, int32_t h, uint64_t batch_index) {
        return aclmdlSetAIPPCropParams(Ptr<aclmdlAIPP>(a), sw, x, y, w, h, batch_index);
      },
      py::arg("aipp_set"), py::arg("switch"), py::arg("x"), py::arg("y"), py::arg("width"),
      py::arg("height"), py::arg("batch_index"));
  mdl.def(
      "set_aipp_padding_params",
      [](uintptr_t a, int8_t sw, int32_t top, int32_t bottom, int32_t left, int32_t right,
         uint64_t batch_index) {
        return aclmdlSetAIPPPaddingParams(Ptr<aclmdlAIPP>(a), sw, top, bottom, left, right,
                                          batch_index);
      },
      py::arg("aipp_set"), py::arg("switch"), py::arg("top"), py::arg("bottom"), py::arg("left"),
      py::arg("right"), py::arg("batch_index"));
  mdl.def(
      "set_aipp_dtc_pixel_mean",
      [](uintptr_t a, int16_t c0, int16_t c1, int16_t c2, int16_t c3, uint64_t batch_index) {
        return aclmdlSetAIPPDtcPixelMean(Ptr<aclmdlAIPP>(a), c0, c1, c2, c3, batch_index);
      },
      py::arg("aipp_set"), py::arg("c0"), py::arg("c1"), py::arg("c2"), py::arg("c3"),
      py::arg("batch_index"));
  mdl.def(
      "set_aipp_dtc_pixel_min",
      [](uintptr_t a, float c0, float c1, float c2, float c3, uint64_t batch_index) {
        return aclmdlSetAIPPDtcPixelMin(Ptr<aclmdlAIPP>(a), c0, c1, c2, c3, batch_index);
      },
      py::arg("aipp_set"), py::arg("c0"), py::arg("c1"), py::arg("c2"), py::arg("c3"),
      py::arg("batch_index"));
  mdl.def(
      "set_aipp_pixel_var_reci",
      [](uintptr_t a, float c0, float c1, float c2, float c3, uint64_t batch_index) {
        return aclmdlSetAIPPPixelVarReci(Ptr<aclmdlAIPP>(a), c0, c1, c2, c3, batch_index);
      },
      py::arg("aipp_set"), py::arg("c0"), py::arg("c1"), py::arg("c2"), py::arg("c3"),
      py::arg("batch_index"));
  mdl.def(
      "set_input_aipp",
      [](uint32_t id, uintptr_t ds, size_t index, uintptr_t a) {
        return aclmdlSetInputAIPP(id, Ptr<aclmdlDataset>(ds), index, Ptr<aclmdlAIPP>(a));
      },
      py::arg("model_id"), py::arg("dataset"), py::arg("index"), py::arg("aipp_set"));
  mdl.def(
      "set_aipp_by_input_index",
      [](uint32_t id, uintptr_t ds, size_t index, uintptr_t a) {
        return aclmdlSetAIPPByInputIndex(id, Ptr<aclmdlDataset>(ds), index, Ptr<aclmdlAIPP>(a));
      },
      py::arg("model_id"), py::arg("dataset"), py::arg("index"), py::arg("aipp_set"));
  mdl.def(
      "get_input_index_by_name",
      [](uintptr_t d, const std::string& name) {
        size_t idx = 0;
        aclError ret = aclmdlGetInputIndexByName(Ptr<aclmdlDesc>(d), name.c_str(), &idx);
        return py::make_tuple(idx, ret);
      },
      py::arg("model_desc"), py::arg("name"));
  mdl.def(
      "get_output_index_by_name",
      [](uintptr_t d, const std::string& name) {
        size_t idx = 0;
        aclError ret = aclmdlGetOutputIndexByName(Ptr<aclmdlDesc>(d), name.c_str(), &idx);
        return py::make_tuple(idx, ret);
      },
      py::arg("model_desc"), py::arg("name"));
  mdl.def(
      "create_dataset", [] { return Int(aclmdlCreateDataset()); }, "create_dataset() -> dataset");
  mdl.def(
      "destroy_dataset", [](uintptr_t ds) { return aclmdlDestroyDataset(Ptr<aclmdlDataset>(ds)); },
      py::arg("dataset"),
      "destroy_dataset(dataset) -> ret\n\nDestroying twice returns ACL_ERROR_INVALID_PARAM; queued "
      "executions using it finish first.");
  mdl.def(
      "add_dataset_buffer",
      [](uintptr_t ds, uintptr_t buf) {
        aclError ret = aclmdlAddDatasetBuffer(Ptr<aclmdlDataset>(ds), Ptr<aclDataBuffer>(buf));
        return py::make_tuple(ds, ret);
      },
      py::arg("dataset"), py::arg("data_buffer"),
      "add_dataset_buffer(dataset, data_buffer) -> (dataset, ret)");
  mdl.def(
      "get_dataset_num_buffers",
      [](uintptr_t ds) { return aclmdlGetDatasetNumBuffers(Ptr<aclmdlDataset>(ds)); },
      py::arg("dataset"));
  mdl.def(
      "get_dataset_buffer",
      [](uintptr_t ds, size_t i) { return Int(aclmdlGetDatasetBuffer(Ptr<aclmdlDataset>(ds), i)); },
      py::arg("dataset"), py::arg("index"));
  mdl.def(
      "set_dataset_tensor_desc",
      [](uintptr_t ds, uintptr_t desc, size_t i) {
        return aclmdlSetDatasetTensorDesc(Ptr<aclmdlDataset>(ds), Ptr<aclTensorDesc>(desc), i);
      },
      py::arg("dataset"), py::arg("desc"), py::arg("index"));
  mdl.def(
      "get_dataset_tensor_desc",
      [](uintptr_t ds, size_t i) {
        return Int(aclmdlGetDatasetTensorDesc(Ptr<aclmdlDataset>(ds), i));
      },
      py::arg("dataset"), py::arg("index"));
  // Execution releases the GIL: other Python threads keep running meanwhile.
  mdl.def(
      "execute",
      [](uint32_t id, uintptr_t in, uintptr_t out) {
        py::gil_scoped_release release;
        return aclmdlExecute(id, Ptr<aclmdlDataset>(in), Ptr<aclmdlDataset>(out));
      },
      py::arg("model_id"), py::arg("input"), py::arg("output"),
      "execute(model_id, input, output) -> ret\n\nRuns the model on the input dataset into the "
      "output dataset (aclmdlExecute); the GIL is released meanwhile.");
  mdl.def(
      "execute_async",
      [](uint32_t id, uintptr_t in, uintptr_t out, uintptr_t stream) {
        py::gil_scoped_release release;
        return aclmdlExecuteAsync(id, Ptr<aclmdlDataset>(in), Ptr<aclmdlDataset>(out),
                                  Ptr<void>(stream));
      },
      py::arg("model_id"), py::arg("input"), py::arg("output"), py::arg("stream"),
      "execute_async(model_id, input, output, stream) -> ret\n\nQueues the execution on the "
      "stream; the datasets must stay until it is synchronized.");
  mdl.def(
      "set_dynamic_batch_size",
      [](uint32_t id, uintptr_t ds, size_t i, uint64_t bs) {
        return aclmdlSetDynamicBatchSize(id, Ptr<aclmdlDataset>(ds), i, bs);
      },
      py::arg("model_id"), py::arg("dataset"), py::arg("index"), py::arg("batch_size"));
  mdl.def(
      "set_dynamic_hw_size",
      [](uint32_t id, uintptr_t ds, size_t i, uint64_t h, uint64_t w) {
        return aclmdlSetDynamicHWSize(id, Ptr<aclmdlDataset>(ds), i, h, w);
      },
      py::arg("model_id"), py::arg("dataset"), py::arg("index"), py::arg("height"),
      py::arg("width"));
  mdl.def(
      "set_input_dynamic_dims",
      [](uint32_t id, uintptr_t ds, size_t i, py::dict dims) {
        aclmdlIODims d{};
        std::string name = dims.contains("name") ? py::str(dims["name"]).cast<std::string>() : "";
        std::strncpy(d.name, name.c_str(), sizeof(d.name) - 1);
        auto values = dims["dims"].cast<std::vector<int64_t>>();
        if (values.size() > ACL_MAX_DIM_CNT) return static_cast<aclError>(ACL_ERROR_INVALID_PARAM);
        d.dimCount = dims.contains("dimCount") ? dims["dimCount"].cast<size_t>() : values.size();
        if (d.dimCount > values.size()) d.dimCount = values.size();
        for (size_t k = 0; k < values.size(); ++k) d.dims[k] = values[k];
        return aclmdlSetInputDynamicDims(id, Ptr<aclmdlDataset>(ds), i, &d);
      },
      py::arg("model_id"), py::arg("dataset"), py::arg("index"), py::arg("dims"));
  mdl.def(
      "get_dynamic_batch",
      [](uintptr_t d) {
        aclmdlBatch b{};
        aclError ret = aclmdlGetDynamicBatch(Ptr<const aclmdlDesc>(d), &b);
        py::list batch;
        for (size_t k = 0; k < b.batchCount; ++k) batch.append(b.batch[k]);
        py::dict out;
        out["batchCount"] = b.batchCount;
        out["batch"] = batch;
        return py::make_tuple(out, ret);
      },
      py::arg("model_desc"));
  mdl.def(
      "get_dynamic_hw",
      [](uintptr_t d, int64_t index) {
        aclmdlHW hw{};
        aclError ret =
            aclmdlGetDynamicHW(Ptr<const aclmdlDesc>(d), static_cast<size_t>(index), &hw);
        py::list list;
        for (size_t k = 0; k < hw.hwCount; ++k)
          list.append([&] {
            py::list pair;
            pair.append(hw.hw[k][0]);
            pair.append(hw.hw[k][1]);
            return pair;
          }());
        py::dict out;
        out["hwCount"] = hw.hwCount;
        out["hw"] = list;
        return py::make_tuple(out, ret);
      },
      py::arg("model_desc"), py::arg("index"));
  mdl.def(
      "get_input_dynamic_gear_count",
      [](uintptr_t d, int64_t index) {
        size_t count = 0;
        aclError ret = aclmdlGetInputDynamicGearCount(Ptr<const aclmdlDesc>(d),
                                                      static_cast<size_t>(index), &count);
        return py::make_tuple(count, ret);
      },
      py::arg("model_desc"), py::arg("index"));
  mdl.def(
      "get_input_dynamic_dims",
      [](uintptr_t d, int64_t index, size_t gear_count) {
        std::vector<aclmdlIODims> dims(gear_count ? gear_count : 1);
        aclError ret = aclmdlGetInputDynamicDims(
            Ptr<const aclmdlDesc>(d), static_cast<size_t>(index), dims.data(), gear_count);
        py::list out;
        size_t have = 0;  // the model's gears (0 without --dynamic_dims), at most gear_count
        if (ret == ACL_SUCCESS &&
            aclmdlGetInputDynamicGearCount(Ptr<const aclmdlDesc>(d), static_cast<size_t>(index),
                                           &have) == ACL_SUCCESS)
          for (size_t k = 0; k < std::min(have, gear_count); ++k) out.append(DimsToDict(dims[k]));
        return py::make_tuple(out, ret);
      },
      py::arg("model_desc"), py::arg("index"), py::arg("gear_count"));
  mdl.def(
      "query_size_from_mem",
      [](uintptr_t ptr, size_t size) {
        size_t work = 0, weight = 0;
        aclError ret = aclmdlQuerySizeFromMem(Ptr<const void>(ptr), size, &work, &weight);
        return py::make_tuple(work, weight, ret);
      },
      py::arg("ptr"), py::arg("size"));
  mdl.def(
      "load_from_mem_with_mem",
      [](uintptr_t ptr, size_t size, uintptr_t work, size_t work_size, uintptr_t weight,
         size_t weight_size) {
        uint32_t id = 0;
        aclError ret = aclmdlLoadFromMemWithMem(Ptr<const void>(ptr), size, &id, Ptr<void>(work),
                                                work_size, Ptr<void>(weight), weight_size);
        return py::make_tuple(id, ret);
      },
      py::arg("ptr"), py::arg("size"), py::arg("work"), py::arg("work_size"), py::arg("weight"),
      py::arg("weight_size"));

  py::module_ op = m.def_submodule("op", "single-operator mode (atc --singleop models)");
  op.def(
      "set_model_dir", [](const std::string& dir) { return aclopSetModelDir(dir.c_str()); },
      py::arg("model_dir"),
      "set_model_dir(model_dir) -> ret\n\nLoads every single-op .om under the directory.");
  op.def(
      "load", [](uintptr_t model, size_t size) { return aclopLoad(Ptr<const void>(model), size); },
      py::arg("model"), py::arg("model_size"), "load(model, model_size) -> ret");
  op.def(
      "create_attr", [] { return Int(aclopCreateAttr()); }, "create_attr() -> attr");
  op.def(
      "destroy_attr", [](uintptr_t a) { aclopDestroyAttr(Ptr<aclopAttr>(a)); }, py::arg("attr"));
  op.def(
      "set_attr_bool",
      [](uintptr_t a, const std::string& n, bool v) {
        return aclopSetAttrBool(Ptr<aclopAttr>(a), n.c_str(), v ? 1 : 0);
      },
      py::arg("attr"), py::arg("attr_name"), py::arg("attr_value"));
  op.def(
      "set_attr_int",
      [](uintptr_t a, const std::string& n, int64_t v) {
        return aclopSetAttrInt(Ptr<aclopAttr>(a), n.c_str(), v);
      },
      py::arg("attr"), py::arg("attr_name"), py::arg("attr_value"));
  op.def(
      "set_attr_float",
      [](uintptr_t a, const std::string& n, float v) {
        return aclopSetAttrFloat(Ptr<aclopAttr>(a), n.c_str(), v);
      },
      py::arg("attr"), py::arg("attr_name"), py::arg("attr_value"));
  op.def(
      "set_attr_string",
      [](uintptr_t a, const std::string& n, const std::string& v) {
        return aclopSetAttrString(Ptr<aclopAttr>(a), n.c_str(), v.c_str());
      },
      py::arg("attr"), py::arg("attr_name"), py::arg("attr_value"));
  op.def(
      "set_attr_data_type",
      [](uintptr_t a, const std::string& n, int v) {
        return aclopSetAttrDataType(Ptr<aclopAttr>(a), n.c_str(), static_cast<aclDataType>(v));
      },
      py::arg("attr"), py::arg("attr_name"), py::arg("attr_value"));
  op.def(
      "set_attr_list_int",
      [](uintptr_t a, const std::string& n, std::vector<int64_t> v) {
        return aclopSetAttrListInt(Ptr<aclopAttr>(a), n.c_str(), static_cast<int>(v.size()),
                                   v.data());
      },
      py::arg("attr"), py::arg("attr_name"), py::arg("values"));
  op.def(
      "set_attr_list_float",
      [](uintptr_t a, const std::string& n, std::vector<float> v) {
        return aclopSetAttrListFloat(Ptr<aclopAttr>(a), n.c_str(), static_cast<int>(v.size()),
                                     v.data());
      },
      py::arg("attr"), py::arg("attr_name"), py::arg("values"));
  op.def(
      "set_attr_list_bool",
      [](uintptr_t a, const std::string& n, std::vector<bool> v) {
        std::vector<uint8_t> b(v.begin(), v.end());
        return aclopSetAttrListBool(Ptr<aclopAttr>(a), n.c_str(), static_cast<int>(b.size()),
                                    b.data());
      },
      py::arg("attr"), py::arg("attr_name"), py::arg("values"));
  op.def(
      "execute_v2",
      [](const std::string& type, std::vector<uintptr_t> in_desc, std::vector<uintptr_t> inputs,
         std::vector<uintptr_t> out_desc, std::vector<uintptr_t> outputs, uintptr_t attr,
         uintptr_t stream) {
        if (in_desc.size() != inputs.size() || out_desc.size() != outputs.size())
          return static_cast<aclError>(ACL_ERROR_INVALID_PARAM);
        std::vector<aclTensorDesc*> id, od;
        std::vector<aclDataBuffer*> ib, ob;
        for (auto v : in_desc) id.push_back(Ptr<aclTensorDesc>(v));
        for (auto v : out_desc) od.push_back(Ptr<aclTensorDesc>(v));
        for (auto v : inputs) ib.push_back(Ptr<aclDataBuffer>(v));
        for (auto v : outputs) ob.push_back(Ptr<aclDataBuffer>(v));
        py::gil_scoped_release release;
        return aclopExecuteV2(type.c_str(), static_cast<int>(id.size()), id.data(), ib.data(),
                              static_cast<int>(od.size()), od.data(), ob.data(),
                              Ptr<aclopAttr>(attr), Ptr<void>(stream));
      },
      py::arg("op_type"), py::arg("input_desc"), py::arg("inputs"), py::arg("output_desc"),
      py::arg("outputs"), py::arg("attr"), py::arg("stream"),
      "execute_v2(op_type, input_desc, inputs, output_desc, outputs, attr, stream) -> ret\n\n"
      "Runs the loaded single-op model matching the type, descriptions and attributes.");
  op.def(
      "cast",
      [](uintptr_t in_desc, uintptr_t in, uintptr_t out_desc, uintptr_t out, int truncate,
         uintptr_t stream) {
        py::gil_scoped_release release;
        return aclopCast(Ptr<aclTensorDesc>(in_desc), Ptr<aclDataBuffer>(in),
                         Ptr<aclTensorDesc>(out_desc), Ptr<aclDataBuffer>(out),
                         static_cast<uint8_t>(truncate), Ptr<void>(stream));
      },
      py::arg("input_desc"), py::arg("input"), py::arg("output_desc"), py::arg("output"),
      py::arg("truncate"), py::arg("stream"),
      "cast(input_desc, input, output_desc, output, truncate, stream) -> ret (aclopCast)");

  py::module_ util = m.def_submodule("util", "pointer and numpy helpers");
  util.def(
      "bytes_to_ptr",
      [](py::bytes b) {
        char* data = nullptr;
        Py_ssize_t len = 0;
        PyBytes_AsStringAndSize(b.ptr(), &data, &len);
        RememberBytes(Int(data), static_cast<size_t>(len), b.ptr());
        return Int(data);
      },
      py::arg("data"), "bytes_to_ptr(data) -> ptr");
  util.def(
      "ptr_to_bytes",
      [](uintptr_t ptr, size_t size) {
        CheckMapped(ptr, size, "ptr_to_bytes");
        return py::bytes(Ptr<const char>(ptr), size);
      },
      py::arg("ptr"), py::arg("size"), "ptr_to_bytes(ptr, size) -> bytes");
  util.def(
      "numpy_to_ptr",
      [](py::array arr) {
        if (!(arr.flags() & py::array::c_style))
          throw py::value_error(
              "numpy_to_ptr needs a C-contiguous array (use np.ascontiguousarray)");
        return Int(arr.data());
      },
      py::arg("arr"), "numpy_to_ptr(array) -> ptr");
  util.def(
      "ptr_to_numpy",
      [](uintptr_t ptr, std::vector<py::ssize_t> shape, py::object type) {
        // A view of the memory, as pyACL's: valid while the memory is.
        py::dtype dt = ToDtype(type);
        size_t bytes = static_cast<size_t>(dt.itemsize());
        for (py::ssize_t d : shape) {
          if (d < 0) throw py::value_error("ptr_to_numpy: negative dimension");
          if (d && bytes > SIZE_MAX / static_cast<size_t>(d))
            throw py::value_error("ptr_to_numpy: the shape's size overflows");
          bytes *= static_cast<size_t>(d);
        }
        CheckMapped(ptr, bytes, "ptr_to_numpy");
        return py::array(dt, shape, Ptr<void>(ptr), py::none());
      },
      py::arg("ptr"), py::arg("shape"), py::arg("type"),
      "ptr_to_numpy(ptr, shape, npy_type) -> numpy.ndarray\n\nA view of memory at ptr (ValueError "
      "if it is not mapped).");
  // A native thread running func(args_list), as pyACL's (for aclrtProcessReport loops); its
  // id is the one aclrtSubscribeReport takes.
  util.def(
      "start_thread",
      [](py::object func, py::object args_list) {
        auto* t = new ReportThread{func, args_list};
        if (pthread_create(&t->handle, nullptr, RunReportThread, t) != 0) {
          delete t;
          return py::make_tuple(0, static_cast<int>(ACL_ERROR_FAILURE));
        }
        std::lock_guard<std::mutex> lock(g_threads_mutex);
        g_threads[static_cast<uint64_t>(t->handle)] = t;
        return py::make_tuple(static_cast<uint64_t>(t->handle), static_cast<int>(ACL_SUCCESS));
      },
      py::arg("func"), py::arg("args_list"),
      "start_thread(func, args_list) -> (thread_id, ret)\n\nA native thread running "
      "func(args_list); its id is what subscribe_report takes.");
  // Waits for the thread's function to return (it is not stopped from outside).
  util.def(
      "stop_thread",
      [](uint64_t thread_id) {
        ReportThread* t = nullptr;
        {
          std::lock_guard<std::mutex> lock(g_threads_mutex);
          auto it = g_threads.find(thread_id);
          if (it == g_threads.end()) return static_cast<int>(ACL_ERROR_INVALID_PARAM);
          t = it->second;
          g_threads.erase(it);
        }
        {
          py::gil_scoped_release release;
          pthread_join(t->handle, nullptr);
        }
        delete t;
        return static_cast<int>(ACL_SUCCESS);
      },
      py::arg("thread_id"),
      "stop_thread(thread_id) -> ret\n\nWaits for the thread's function to return.");
  util.def(
      "numpy_contiguous_to_ptr", [](py::array arr) { return Int(arr.data()); }, py::arg("arr"));
}
