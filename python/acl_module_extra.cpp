// More of the pyACL `acl` module (acl_module.cpp holds the rest): model loading through a
// configuration handle, and the application log.
#include <pybind11/pybind11.h>

#include <cstdint>
#include <map>
#include <mutex>
#include <string>

#include "acl/acl.h"

namespace py = pybind11;

namespace {

// Path options take a Python str: the bytes live here until the handle is destroyed.
std::mutex g_paths_mutex;
std::map<uintptr_t, std::map<int, std::string>>& HandlePaths() {
  static std::map<uintptr_t, std::map<int, std::string>> paths;
  return paths;
}

bool IsPathOption(int attr) { return attr == ACL_MDL_PATH_PTR || attr == ACL_MDL_WEIGHT_PATH_PTR; }
bool IsPointerOption(int attr) {
  return attr == ACL_MDL_MEM_ADDR_PTR || attr == ACL_MDL_WEIGHT_ADDR_PTR ||
         attr == ACL_MDL_WORKSPACE_ADDR_PTR || IsPathOption(attr);
}

}  // namespace

void BindExtra(py::module_& m, py::module_& mdl) {
  mdl.def(
      "create_config_handle",
      [] { return reinterpret_cast<uintptr_t>(aclmdlCreateConfigHandle()); },
      "create_config_handle() -> config_handle (0 on failure)");
  mdl.def(
      "destroy_config_handle",
      [](uintptr_t h) {
        aclError ret = aclmdlDestroyConfigHandle(reinterpret_cast<aclmdlConfigHandle*>(h));
        if (ret == ACL_SUCCESS) {
          std::lock_guard<std::mutex> lock(g_paths_mutex);
          HandlePaths().erase(h);
        }
        return ret;
      },
      py::arg("config_handle"));
  mdl.def(
      "set_config_opt",
      [](uintptr_t h, int attr, const py::object& value) -> aclError {
        auto* handle = reinterpret_cast<aclmdlConfigHandle*>(h);
        const auto opt = static_cast<aclmdlConfigAttr>(attr);
        if (py::isinstance<py::str>(value)) {
          if (!IsPathOption(attr)) return ACL_ERROR_INVALID_PARAM;
          std::lock_guard<std::mutex> lock(g_paths_mutex);
          std::string& kept = HandlePaths()[h][attr];
          std::string previous = kept;
          kept = value.cast<std::string>();
          const char* p = kept.c_str();
          aclError ret = aclmdlSetConfigOpt(handle, opt, &p, sizeof(p));
          if (ret != ACL_SUCCESS) kept = previous;
          return ret;
        }
        if (!py::isinstance<py::int_>(value)) return ACL_ERROR_INVALID_PARAM;
        if (IsPointerOption(attr)) {
          const auto v = value.cast<uintptr_t>();
          const void* p = reinterpret_cast<const void*>(v);
          return aclmdlSetConfigOpt(handle, opt, &p, sizeof(p));
        }
        if (attr == ACL_MDL_PRIORITY_INT32) {
          const auto v = value.cast<int32_t>();
          return aclmdlSetConfigOpt(handle, opt, &v, sizeof(v));
        }
        const auto v = value.cast<size_t>();
        return aclmdlSetConfigOpt(handle, opt, &v, sizeof(v));
      },
      py::arg("config_handle"), py::arg("attr"), py::arg("attr_value"),
      "set_config_opt(config_handle, attr, value) -> ret; paths as str, pointers and sizes as "
      "int");
  mdl.def(
      "load_with_config",
      [](uintptr_t h) {
        uint32_t id = 0;
        aclError ret = aclmdlLoadWithConfig(reinterpret_cast<aclmdlConfigHandle*>(h), &id);
        return py::make_tuple(id, ret);
      },
      py::arg("config_handle"), "load_with_config(config_handle) -> (model_id, ret)");
  // acl.app_log(level, message): the application's line in CANN's log (ACL_APP_LOG), with
  // the calling Python function and file where CANN's C macro puts __FUNCTION__ and __FILE__.
  m.def(
      "app_log",
      [](int level, const std::string& message) {
        std::string func = "python", file = "<python>";
        uint32_t line = 0;
        py::object frame = py::module_::import("sys").attr("_getframe")(0);
        if (!frame.is_none()) {
          py::object code = frame.attr("f_code");
          func = py::str(code.attr("co_name"));
          file = py::str(code.attr("co_filename"));
          line = frame.attr("f_lineno").cast<uint32_t>();
        }
        aclAppLog(static_cast<aclLogLevel>(level), func.c_str(), file.c_str(), line, "%s",
                  message.c_str());
      },
      py::arg("log_level"), py::arg("message"),
      "app_log(log_level, message): 0 debug, 1 info, 2 warning, 3 error");
}
