#include "msopgen/compile.h"

#include <stdlib.h>
#include <sys/wait.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <sstream>
#include <vector>

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
  // CANN's own template (cmake/func.cmake: op_build, opc) builds through its build.sh as
  // OpenCANN's does: both run against the toolkit op_build and opc are part of.
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
  // The package: custom_opp_<system>_<arch>.run (OpenCANN's template names the system
  // "linux", CANN's the distribution's id).
  auto packages = [&dir] {
    std::vector<fs::path> found;
    std::error_code e;
    for (const auto& f : fs::directory_iterator(dir / "build_out", e)) {
      const std::string name = f.path().filename().string();
      if (name.rfind("custom_opp_", 0) == 0 && f.path().extension() == ".run")
        found.push_back(f.path());
    }
    return found;
  };
  std::error_code ec;
  for (const auto& old : packages()) fs::remove(old, ec);
  const pid_t pid = fork();
  if (pid < 0) return Internal("cannot start the build");
  if (pid == 0) {
    if (!options.install_dir.empty()) setenv("OPENCANN_ROOT", options.install_dir.c_str(), 1);
    // CANN's build.sh makes build_out/ in the current folder: run it from the project's.
    if (chdir(dir.c_str()) != 0) _exit(126);
    execl("/bin/bash", "bash", "./build.sh", static_cast<char*>(nullptr));
    _exit(127);
  }
  int status = 0;
  if (waitpid(pid, &status, 0) < 0) return Internal("lost the build");
  if (!WIFEXITED(status) || WEXITSTATUS(status) != 0)
    return Internal("the build of [" + dir.string() + "] failed (its output is above)");
  const std::vector<fs::path> built = packages();
  if (built.empty())
    return Internal("the build wrote no " + (dir / "build_out" / "custom_opp_*.run").string());
  *package = built.front().string();
  return Status::Ok();
}

}  // namespace oc::msopgen
