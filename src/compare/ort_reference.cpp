// ONNX Runtime as the reference: python/ocann_ort_reference.py runs the source model in a
// child process; inputs and outputs travel as .npy files in a temporary folder.
#include <sys/wait.h>
#include <unistd.h>

#include <filesystem>
#include <nlohmann/json.hpp>

#include "base/config.h"
#include "base/file.h"
#include "base/npy.h"
#include "compare/compare_internal.h"

namespace oc::compare_internal {
namespace {

// The helper script: OCANN_ORT_REFERENCE, else beside this tool in the build tree
// (bin/../python) or in the installed layout (bin/../lib/python3/dist-packages).
std::string FindOrtHelper() {
  if (const auto& e = GlobalConfig().ort_reference) return *e;
  std::error_code ec;
  const auto exe = std::filesystem::read_symlink("/proc/self/exe", ec);
  if (ec) return "";
  for (const char* rel : {"../python", "../lib/python3/dist-packages"}) {
    const auto p = exe.parent_path() / rel / "ocann_ort_reference.py";
    if (std::filesystem::exists(p, ec)) return p.string();
  }
  return "";
}

// Runs argv without a shell; returns its exit status (-1 when it could not start).
int RunProgram(const std::vector<std::string>& args) {
  std::vector<char*> argv;
  for (const auto& a : args) argv.push_back(const_cast<char*>(a.c_str()));
  argv.push_back(nullptr);
  const pid_t pid = fork();
  if (pid < 0) return -1;
  if (pid == 0) {
    execv(argv[0], argv.data());
    _exit(127);
  }
  int status = 0;
  if (waitpid(pid, &status, 0) < 0) return -1;
  return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

// The helper's index.json and the .npy files it names, as a capture.
Result<std::shared_ptr<CaptureObserver>> ReadOrtOutputs(const std::filesystem::path& out) {
  OC_ASSIGN_OR_RETURN(std::string text, ReadFile((out / "index.json").string()));
  const auto index = nlohmann::json::parse(text, nullptr, false);
  if (index.is_discarded() || !index.contains("tensors") || !index["tensors"].is_array())
    return Internal("the ONNX Runtime reference wrote no valid index.json");
  auto capture = std::make_shared<CaptureObserver>();
  size_t order = 0;
  for (const auto& t : index["tensors"]) {
    if (!t.is_object() || !t.value("file", nlohmann::json()).is_string()) continue;
    OC_ASSIGN_OR_RETURN(NpyArray h, ReadNpy((out / t["file"].get<std::string>()).string()));
    if (h.dtype != DataType::kFloat && h.dtype != DataType::kFloat16 &&
        h.dtype != DataType::kDouble)
      continue;
    Captured c;
    c.shape = h.shape;
    c.dtype = h.dtype;
    auto field = [&](const char* key) {
      return t.contains(key) && t[key].is_string() ? t[key].get<std::string>() : std::string();
    };
    c.op_name = field("op");
    c.op_type = field("op_type");
    c.order = order++;
    c.values = FloatValues(h.dtype, h.data.data(), h.data.size() / DataTypeSize(h.dtype));
    capture->tensors[field("name")] = std::move(c);
  }
  return capture;
}

}  // namespace

Result<std::shared_ptr<CaptureObserver>> RunOrtReference(const std::string& source,
                                                         const Model& reference,
                                                         const std::vector<std::string>& inputs) {
  const std::string helper = FindOrtHelper();
  if (helper.empty())
    return NotFound("ocann_ort_reference.py is not beside ocann-compare; set OCANN_ORT_REFERENCE");
  const std::optional<std::string>& py = GlobalConfig().python;
  std::error_code ec;
  const auto dir = std::filesystem::temp_directory_path(ec) /
                   ("ocann_ort_" + std::to_string(getpid()) + "_" +
                    std::to_string(reinterpret_cast<uintptr_t>(&reference) & 0xffff));
  std::filesystem::create_directories(dir / "out", ec);
  if (ec) return Internal("cannot make a temporary folder: " + ec.message());
  struct Cleanup {
    std::filesystem::path p;
    ~Cleanup() {
      std::error_code e;
      std::filesystem::remove_all(p, e);
    }
  } cleanup{dir};
  std::vector<std::string> args = {py ? *py : "/usr/bin/python3", helper, source,
                                   (dir / "out").string()};
  for (size_t i = 0; i < inputs.size(); ++i) {
    const IoDesc& d = reference.inputs()[i];
    const std::string f = (dir / ("in" + std::to_string(i) + ".npy")).string();
    OC_ASSIGN_OR_RETURN(std::string npy, NpyBytes(d.dtype, d.shape, inputs[i]));
    OC_RETURN_IF_ERROR(WriteFileAtomic(f, npy));
    args.push_back(f);
  }
  const int rc = RunProgram(args);
  if (rc == 3)
    return Unsupported(
        "ONNX Runtime is not available as the reference: install the Python module "
        "onnxruntime or onnxruntime-node (ORT_NODE_MODULE), or use --reference opencann");
  if (rc != 0)
    return Internal("the ONNX Runtime reference failed (exit status " + std::to_string(rc) +
                    "; its message is above)");
  return ReadOrtOutputs(dir / "out");
}

}  // namespace oc::compare_internal
