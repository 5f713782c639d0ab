// ccec / bisheng: compiles Ascend C sources (and their host code) for OpenCANN's CPU
// emulation with the host compiler. See src/ccec/ccec_driver.h.
#include <stdlib.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "ccec/ccec_driver.h"

namespace fs = std::filesystem;

namespace {

const char* kTool = "ccec";

int Fail(const std::string& msg) {
  std::fprintf(stderr, "[ERROR] %s: %s\n", kTool, msg.c_str());
  return 1;
}

void Usage() {
  std::printf(
      "usage: ccec [options] <sources and objects>\n"
      "  -xcce / --cce-aicore-lang   following sources are Ascend C (.cce always is)\n"
      "  -x c++ | -x c               following sources are host code\n"
      "  --cce-soc-version=Ascend910B1..B4, --cce-aicore-arch=dav-c220[-vec|-cube],\n"
      "  --cce-soc-core-type=VecCore|CubeCore|AICore   the chip and core type\n"
      "  -c, -E, -o <file>, -shared, -fPIC, -O<n>, -g, -std=c++17, -I, -D, -L, -l, -Wl,...\n"
      "Ascend C sources build against OpenCANN's kernel headers; kernel<<<blockDim, l2ctrl,\n"
      "stream>>>(...) launches run on the AscendCL stream in the CPU emulation. The program\n"
      "links libascendc_emu and libascendcl. NPU-only outputs (-S, --cce-aicore-only) are\n"
      "refused.\n");
}

// The installation ccec runs from: <prefix>/bin/ccec (or a link to it), or the build tree.
struct Layout {
  std::string include_dir, lib_dir;
};

Layout FindLayout() {
  std::error_code ec;
  fs::path exe = fs::canonical("/proc/self/exe", ec);
  fs::path prefix = exe.parent_path().parent_path();
  Layout l;
  l.include_dir = fs::exists(prefix / "include" / "kernel_operator.h")
                      ? (prefix / "include").string()
                      : std::string(OC_CCEC_SOURCE_INCLUDE_DIR);
  l.lib_dir = fs::exists(prefix / "lib" / "libascendc_emu.so") ? (prefix / "lib").string()
                                                               : std::string(OC_CCEC_LIB_DIR);
  return l;
}

int Run(const std::vector<std::string>& cmd, bool verbose) {
  if (verbose) {
    std::string line;
    for (const auto& c : cmd) line += (line.empty() ? "" : " ") + c;
    std::fprintf(stderr, "%s\n", line.c_str());
  }
  std::vector<char*> argv;
  for (const auto& c : cmd) argv.push_back(const_cast<char*>(c.c_str()));
  argv.push_back(nullptr);
  const pid_t pid = fork();
  if (pid < 0) return Fail("cannot start " + cmd[0]);
  if (pid == 0) {
    execvp(argv[0], argv.data());
    std::fprintf(stderr, "[ERROR] %s: cannot run %s\n", kTool, argv[0]);
    _exit(127);
  }
  int status = 0;
  if (waitpid(pid, &status, 0) < 0) return Fail("lost " + cmd[0]);
  return WIFEXITED(status) ? WEXITSTATUS(status) : 1;
}

bool ReadFile(const std::string& path, std::string* out) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return false;
  std::ostringstream ss;
  ss << in.rdbuf();
  *out = ss.str();
  return true;
}

// The dependency file the host compiler wrote for `object`, if the flags asked for one.
std::string DepFile(const std::vector<std::string>& flags, const std::string& object) {
  bool wanted = false;
  for (size_t i = 0; i < flags.size(); ++i) {
    if (flags[i] == "-MF" && i + 1 < flags.size()) return flags[i + 1];
    if (flags[i].rfind("-MF", 0) == 0 && flags[i].size() > 3) return flags[i].substr(3);
    if (flags[i] == "-MD" || flags[i] == "-MMD") wanted = true;
  }
  return wanted ? fs::path(object).replace_extension(".d").string() : "";
}

// The dependency file names the rewritten copy; make it name the source the user wrote.
void FixDepFile(const std::string& dep, const std::string& copy, const std::string& source) {
  std::string text;
  if (dep.empty() || !ReadFile(dep, &text)) return;
  for (size_t at = text.find(copy); at != std::string::npos; at = text.find(copy, at)) {
    text.replace(at, copy.size(), source);
    at += source.size();
  }
  std::ofstream(dep, std::ios::binary | std::ios::trunc) << text;
}

struct TempDir {
  std::string path;
  TempDir() {
    std::string tmpl = (fs::temp_directory_path() / "ccec_XXXXXX").string();
    if (mkdtemp(tmpl.data())) path = tmpl;
  }
  ~TempDir() {
    std::error_code ec;
    if (!path.empty()) fs::remove_all(path, ec);
  }
};

// The -I folders of a command line ("-Idir" or "-I dir").
std::vector<std::string> IncludeDirs(const std::vector<std::string>& args) {
  std::vector<std::string> dirs;
  for (size_t i = 0; i < args.size(); ++i) {
    if (args[i] == "-I" && i + 1 < args.size())
      dirs.push_back(args[++i]);
    else if (args[i].size() > 2 && args[i].compare(0, 2, "-I") == 0)
      dirs.push_back(args[i].substr(2));
  }
  return dirs;
}

// ccec --oc-launcher <compiler> <args...>: a CMake compiler launcher (ascendc_library sets it)
// that rewrites <<<>>> launches in the source being compiled and runs the compiler on the
// rewritten copy; sources without a launch compile unchanged.
int Launcher(std::vector<std::string> cmd) {
  size_t src = 0, obj = 0;
  for (size_t i = 1; i + 1 < cmd.size(); ++i) {
    if (cmd[i] == "-c") src = i + 1;
    if (cmd[i] == "-o") obj = i + 1;
  }
  std::string text;
  if (src == 0 || !ReadFile(cmd[src], &text) || text.find("<<<") == std::string::npos)
    return Run(cmd, false);
  const std::string original = cmd[src];
  auto rewritten = oc::ccec::RewriteLaunches(text, original, IncludeDirs(cmd));
  if (!rewritten.ok()) return Fail(rewritten.status().message());
  TempDir tmp;
  if (tmp.path.empty()) return Fail("cannot create a temporary directory");
  const std::string copy = tmp.path + "/" + fs::path(original).filename().string();
  std::ofstream(copy, std::ios::binary) << rewritten.value();
  cmd[src] = copy;
  const fs::path dir = fs::path(original).parent_path();
  cmd.insert(cmd.begin() + 1,
             {"-iquote", dir.empty() ? "." : dir.string(), "-include", "opencann/ccec_launch.h"});
  const int rc = Run(cmd, false);
  if (rc == 0 && obj) {
    std::vector<std::string> flags(cmd.begin() + 1, cmd.end());
    FixDepFile(DepFile(flags, cmd[obj + 4]), copy, original);
  }
  return rc;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc > 0 && fs::path(argv[0]).filename() == "bisheng") kTool = "bisheng";
  std::vector<std::string> args(argv + 1, argv + argc);
  if (!args.empty() && args[0] == "--oc-launcher") {
    if (args.size() < 2) return Fail("--oc-launcher needs the compiler command");
    return Launcher(std::vector<std::string>(args.begin() + 1, args.end()));
  }
  auto parsed = oc::ccec::ParseCommandLine(args);
  if (!parsed.ok()) return Fail(parsed.status().message());
  oc::ccec::Invocation inv = parsed.value();
  if (inv.show_help) {
    Usage();
    return 0;
  }
  if (inv.show_version) {
    std::printf("%s (OpenCANN) for the Ascend C CPU emulation; host compiler: g++\n", kTool);
    return 0;
  }
  for (const auto& w : inv.warnings) std::fprintf(stderr, "[WARNING] %s: %s\n", kTool, w.c_str());
  const Layout layout = FindLayout();
  if (!inv.auto_sync_log.empty()) {
    std::ofstream log(inv.auto_sync_log, std::ios::trunc);
    if (!log) return Fail("--cce-auto-sync-log: cannot write " + inv.auto_sync_log);
    log << "OpenCANN ccec: no synchronisation inserted; the CPU emulation runs each block's "
           "pipes in program order.\n";
  }
  TempDir tmp;
  if (tmp.path.empty()) return Fail("cannot create a temporary directory");

  const bool link = !inv.compile_only && !inv.preprocess_only;
  std::vector<std::string> objects;
  int index = 0;
  for (const auto& input : inv.inputs) {
    const fs::path src(input.path);
    std::string source_file = input.path;
    std::vector<std::string> cmd;
    const bool is_c = input.language == oc::ccec::Language::kC;
    cmd.push_back(is_c ? "gcc" : "g++");
    cmd.push_back("-x");
    cmd.push_back(is_c ? "c" : "c++");
    if (!is_c) cmd.push_back(inv.std_flag);
    cmd.push_back("-fPIC");
    if (input.language == oc::ccec::Language::kCce) {
      std::string text;
      if (!ReadFile(input.path, &text)) return Fail("cannot read " + input.path);
      auto rewritten = oc::ccec::RewriteLaunches(text, input.path, IncludeDirs(inv.host_flags));
      if (!rewritten.ok()) return Fail(rewritten.status().message());
      source_file = tmp.path + "/" + std::to_string(index) + "_" + src.filename().string();
      if (fs::path(source_file).extension() != ".cpp") source_file += ".cpp";
      std::ofstream(source_file, std::ios::binary) << rewritten.value();
      // Quoted includes resolve from the source's own folder, as they would in place.
      cmd.push_back("-iquote");
      cmd.push_back(src.parent_path().empty() ? "." : src.parent_path().string());
      for (const auto& d : oc::ccec::DeviceDefines(inv)) cmd.push_back(d);
      cmd.push_back("-include");
      cmd.push_back("opencann/ccec_launch.h");
    }
    cmd.insert(cmd.end(), inv.host_flags.begin(), inv.host_flags.end());
    cmd.push_back("-I" + layout.include_dir);
    std::string out;
    if (inv.preprocess_only) {
      cmd.push_back("-E");
      out = inv.output;
    } else {
      cmd.push_back("-c");
      out = inv.compile_only && !inv.output.empty() ? inv.output
            : inv.compile_only ? src.filename().replace_extension(".o").string()
                               : tmp.path + "/" + std::to_string(index) + ".o";
    }
    cmd.push_back(source_file);
    if (!out.empty()) {
      cmd.push_back("-o");
      cmd.push_back(out);
    }
    const int rc = Run(cmd, inv.verbose);
    if (rc != 0) return rc;
    if (source_file != input.path && !inv.preprocess_only)
      FixDepFile(DepFile(inv.host_flags, out), source_file, input.path);
    objects.push_back(out);
    ++index;
  }
  if (!link) return 0;
  std::vector<std::string> cmd = {"g++"};
  cmd.insert(cmd.end(), objects.begin(), objects.end());
  cmd.insert(cmd.end(), inv.objects_and_libs.begin(), inv.objects_and_libs.end());
  cmd.insert(cmd.end(), inv.link_flags.begin(), inv.link_flags.end());
  cmd.push_back("-L" + layout.lib_dir);
  cmd.push_back("-Wl,-rpath," + layout.lib_dir);
  cmd.push_back("-lascendc_emu");
  cmd.push_back("-lascendcl");
  cmd.push_back("-pthread");
  cmd.push_back("-o");
  cmd.push_back(inv.output.empty() ? "a.out" : inv.output);
  return Run(cmd, inv.verbose);
}
