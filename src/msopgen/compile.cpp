#include "msopgen/compile.h"

#include <stdlib.h>
#include <sys/wait.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <sstream>

namespace oc::msopgen {
namespace fs = std::filesystem;

namespace {

bool HasAny(const fs::path& dir, const char* extension) {
  std::error_code ec;
  if (!fs::is_directory(dir, ec)) return false;
  for (const auto& e : fs::directory_iterator(dir, ec))
    if (e.path().extension() == extension) return true;
  return false;
}

bool Contains(const fs::path& file, const std::string& text) {
  std::ifstream in(file);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str().find(text) != std::string::npos;
}

}  // namespace

Status CheckCompilable(const std::string& dir) {
  const fs::path p(dir);
  std::error_code ec;
  if (!fs::is_directory(p, ec)) return NotFound("-i [" + dir + "]: no such project folder");
  if (HasAny(p / "tbe" / "impl", ".py"))
    return Unsupported("-i [" + dir +
                       "]: a TBE (Python DSL/TIK) operator; OpenCANN compiles Ascend C operators "
                       "(op_host + op_kernel, msopgen gen -lan cpp)");
  if (fs::is_directory(p / "cpukernel", ec))
    return Unsupported("-i [" + dir +
                       "]: an AI CPU operator; OpenCANN compiles Ascend C operators");
  if (!fs::is_directory(p / "op_host", ec) || !fs::is_directory(p / "op_kernel", ec))
    return InvalidArgument("-i [" + dir +
                           "]: not an operator project (no op_host/ and op_kernel/); create one "
                           "with msopgen gen");
  if (fs::exists(p / "cmake" / "func.cmake") && Contains(p / "cmake" / "func.cmake", "opbuild"))
    return Unsupported("-i [" + dir +
                       "]: a project on CANN's own template (cmake/func.cmake: op_build, opc "
                       "binary kernels), which OpenCANN does not build yet; generate a project "
                       "with OpenCANN's msopgen gen from the same op.json and copy op_host/ and "
                       "op_kernel/ into it");
  if (!fs::exists(p / "build.sh", ec) || !fs::exists(p / "CMakeLists.txt", ec))
    return InvalidArgument("-i [" + dir + "]: build.sh or CMakeLists.txt is missing");
  return Status::Ok();
}

Status CompileProject(const CompileOptions& options, std::string* package) {
  OC_RETURN_IF_ERROR(CheckCompilable(options.project_dir));
  const fs::path dir = fs::absolute(options.project_dir);
  if (!options.install_dir.empty() &&
      !fs::exists(fs::path(options.install_dir) / "lib" / "cmake" / "OpenCANN"))
    return NotFound("-c [" + options.install_dir +
                    "]: not an OpenCANN installation (no lib/cmake/OpenCANN)");
  const fs::path out = dir / "build_out" / "custom_opp_linux_x86_64.run";
  std::error_code ec;
  fs::remove(out, ec);
  const pid_t pid = fork();
  if (pid < 0) return Internal("cannot start the build");
  if (pid == 0) {
    if (!options.install_dir.empty()) setenv("OPENCANN_ROOT", options.install_dir.c_str(), 1);
    const std::string script = (dir / "build.sh").string();
    execl("/bin/bash", "bash", script.c_str(), static_cast<char*>(nullptr));
    _exit(127);
  }
  int status = 0;
  if (waitpid(pid, &status, 0) < 0) return Internal("lost the build");
  if (!WIFEXITED(status) || WEXITSTATUS(status) != 0)
    return Internal("the build of [" + dir.string() + "] failed (its output is above)");
  if (!fs::exists(out, ec)) return Internal("the build wrote no " + out.string());
  *package = out.string();
  return Status::Ok();
}

}  // namespace oc::msopgen
