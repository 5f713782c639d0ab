// msopgen: generates an Ascend C operator project from an op description (op.json), and
// builds it into its package.
//   msopgen gen -i op.json -c ai_core-Ascend910B3 -lan cpp -out DIR [-f onnx] [-v vendor]
//   msopgen compile -i DIR [-c INSTALL_DIR]
#include <cstdio>
#include <filesystem>
#include <map>
#include <string>

#include "cli/soc.h"
#include "msopgen/compile.h"
#include "msopgen/op_spec.h"
#include "msopgen/project.h"

namespace {

void Usage() {
  std::printf(
      "usage: msopgen gen -i <op.json> -c ai_core-<soc_version> -lan cpp -out <dir>\n"
      "                   [-f onnx|pytorch|tf|aclnn] [-v <vendor_name>]\n"
      "  -i    operator description file (a list of ops: op, input_desc, output_desc, attr)\n"
      "  -c    compute unit and SoC, e.g. ai_core-Ascend910B3\n"
      "  -lan  kernel language: cpp (Ascend C)\n"
      "  -out  output folder (new or empty)\n"
      "  -v    vendor name of the package (default customize)\n"
      "usage: msopgen compile -i <project dir> [-c <install dir>]\n"
      "  builds the project msopgen gen wrote into build_out/custom_opp_linux_x86_64.run,\n"
      "  against the OpenCANN installation -c names (default: the one msopgen runs from)\n");
}

int Fail(const std::string& msg) {
  std::fprintf(stderr, "[ERROR] msopgen: %s\n", msg.c_str());
  return 1;
}

// msopgen compile -i DIR [-c INSTALL_DIR]
int Compile(int argc, char** argv) {
  oc::msopgen::CompileOptions options;
  for (int i = 2; i < argc; ++i) {
    std::string key = argv[i];
    if (key == "--input") key = "-i";
    if (key == "--compute_unit" || key == "--cann_path") key = "-c";
    if (key != "-i" && key != "-c") return Fail("unknown option [" + std::string(argv[i]) + "]");
    if (i + 1 >= argc) return Fail("option [" + key + "] needs a value");
    (key == "-i" ? options.project_dir : options.install_dir) = argv[++i];
  }
  if (options.project_dir.empty()) return Fail("option [-i] is required");
  if (options.install_dir.empty()) {
    // The installation msopgen runs from, when it is one.
    std::error_code ec;
    const auto prefix =
        std::filesystem::canonical("/proc/self/exe", ec).parent_path().parent_path();
    if (!ec && std::filesystem::exists(prefix / "lib" / "cmake" / "OpenCANN"))
      options.install_dir = prefix.string();
  }
  std::string package;
  oc::Status s = oc::msopgen::CompileProject(options, &package);
  if (!s.ok()) return Fail(s.message());
  std::printf("[INFO] msopgen: compiled %s into %s\n", options.project_dir.c_str(),
              package.c_str());
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc < 2 || std::string(argv[1]) == "-h" || std::string(argv[1]) == "--help") {
    Usage();
    return argc < 2 ? 1 : 0;
  }
  const std::string cmd = argv[1];
  if (cmd == "compile") return Compile(argc, argv);
  if (cmd != "gen")
    return Fail("unknown command [" + cmd + "]; use gen or compile (see msopgen --help)");
  std::map<std::string, std::string> args;
  for (int i = 2; i < argc; ++i) {
    std::string key = argv[i];
    if (key.rfind("--", 0) == 0) key = key.substr(1);
    static const std::map<std::string, std::string> kAliases = {
        {"-input", "-i"},    {"-compute_unit", "-c"}, {"-language", "-lan"},
        {"-output", "-out"}, {"-framework", "-f"},    {"-vendor_name", "-v"}};
    if (auto it = kAliases.find(key); it != kAliases.end()) key = it->second;
    if (key != "-i" && key != "-c" && key != "-lan" && key != "-out" && key != "-f" && key != "-v")
      return Fail("unknown option [" + std::string(argv[i]) + "]");
    if (i + 1 >= argc) return Fail("option [" + key + "] needs a value");
    args[key] = argv[++i];
  }
  for (const char* required : {"-i", "-c", "-out"})
    if (!args.count(required)) return Fail(std::string("option [") + required + "] is required");
  if (args.count("-lan") && args["-lan"] != "cpp")
    return Fail("-lan [" + args["-lan"] + "]: only cpp (Ascend C) kernels are generated");
  const std::string unit = args["-c"];
  if (unit.rfind("ai_core-", 0) != 0)
    return Fail("-c [" + unit + "] must be ai_core-<soc_version>, e.g. ai_core-Ascend910B3");
  oc::msopgen::ProjectOptions options;
  options.soc = unit.substr(8);
  if (!oc::FindSoc(options.soc)) return Fail("-c: unknown SoC [" + options.soc + "]");
  options.out_dir = args["-out"];
  if (args.count("-v")) options.vendor = args["-v"];
  if (args.count("-f")) options.framework = args["-f"];
  auto ops = oc::msopgen::ParseOpSpecs(args["-i"]);
  if (!ops.ok()) return Fail(ops.status().message());
  oc::Status s = oc::msopgen::GenerateProject(ops.value(), options);
  if (!s.ok()) return Fail(s.message());
  std::printf("[INFO] msopgen: generated the project for");
  for (const auto& op : ops.value()) std::printf(" %s", op.op.c_str());
  std::printf(" in %s\n", options.out_dir.c_str());
  return 0;
}
