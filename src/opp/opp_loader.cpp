#include "opp/opp_loader.h"

#include <dlfcn.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <map>
#include <mutex>
#include <set>
#include <sstream>

#include "base/config.h"
#include "base/file.h"
#include "opencann/soc_table.h"
#include "opp/ascendc_backend.h"
#include "opp/custom_op.h"
#include "ops/op_schema.h"
#include "register/op_def_registry.h"

namespace oc {
namespace {

std::mutex g_mutex;
std::set<std::string> g_loaded;         // package files already opened
std::set<const ops::OpDef*> g_bridged;  // definitions already registered
std::vector<std::string> g_summary;
std::map<std::string, std::string> g_custom_types;  // op type -> the package that defined it
std::map<std::string, std::string> g_kernel_notes;  // package folder -> why it has no kernels here

// Checks one definition against its kernel and registers both with OpenCANN.
Status Bridge(const ops::OpDef& def, const std::string& source) {
  std::vector<const ops::KernelEntry*> kernels;
  const auto& reg = ops::OpDefRegistry::Global();
  for (const auto& k : reg.kernels())
    if (k.op_type == def.type()) kernels.push_back(&k);
  const std::string where = "operator package [" + source + "], op [" + def.type() + "]";
  if (kernels.empty()) {
    for (const auto& [dir, note] : g_kernel_notes)
      if (source.rfind(dir, 0) == 0) return NotFound(where + ": no kernel for the op: " + note);
    return ParseError(where +
                      ": no kernel is registered for the op (the op_kernel entry file "
                      "of the msopgen project, or the template's opc binaries, are missing)");
  }
  const size_t params = def.inputs().size() + def.outputs().size();
  const int expected = static_cast<int>(params) + 2;
  for (const auto* kernel : kernels) {
    if (kernel->num_args != expected)
      return ParseError(where + ": kernel [" + kernel->kernel_name + "] takes " +
                        std::to_string(kernel->num_args) + " GM arguments, the OpDef has " +
                        std::to_string(def.inputs().size()) + " inputs and " +
                        std::to_string(def.outputs().size()) +
                        " outputs (+ workspace and tiling = " + std::to_string(expected) + ")");
    if (!kernel->types.empty() && kernel->types.size() != params)
      return ParseError(where + ": kernel [" + kernel->kernel_name + "] is registered for " +
                        std::to_string(kernel->types.size()) + " types, the op has " +
                        std::to_string(params) + " inputs and outputs");
  }
  for (const auto& in : def.inputs())
    if (in.param_type() == ops::DYNAMIC)
      return Unsupported(where + ": dynamic (variadic) input [" + in.name() +
                         "] is not supported yet");
  // The same op from a second package (or the same package reached through a second path):
  // the first keeps it, as CANN's search order decides (ASCEND_CUSTOM_OPP_PATH, then
  // ASCEND_OPP_PATH/vendors by load_priority).
  if (auto first = g_custom_types.find(def.type()); first != g_custom_types.end()) {
    if (first->second != source)
      std::fprintf(stderr, "[WARNING] %s: also defined by [%s], which comes first and is used\n",
                   where.c_str(), first->second.c_str());
    return Status::Ok();
  }
  // An op named like a built-in one (Div, Asinh) is the package's under the "custom" domain:
  // aclnn<Op> and graph nodes of that domain run the package's kernel, ONNX nodes keep the
  // built-in.
  std::string domain = kAnyDomain;
  if (OpRegistry::Global().Find("", def.type())) {
    domain = "custom";
    std::fprintf(stderr,
                 "[WARNING] %s: the type is also a built-in op; aclnn%s and graph nodes of "
                 "domain \"custom\" run the package's kernel, ONNX %s nodes keep OpenCANN's "
                 "built-in (CANN's graph would take the package's)\n",
                 where.c_str(), def.type(), def.type());
  }
  g_custom_types[def.type()] = source;
  OpSchema schema = MakeCustomOpSchema(def, source);
  schema.domain = domain;
  OpRegistry::Global().Register(std::move(schema));
  // Package kernels run in the Ascend C emulation: the ascendc backend's.
  AscendcKernels().Register(
      domain, def.type(),
      [&def, kernels, source] { return MakeCustomOpKernel(def, kernels, source); },
      "as the package declares");
  g_summary.push_back(std::string(def.type()) + " (" + source + ")");
  return Status::Ok();
}

// A package as OpenCANN's msopgen lays it out (op_impl/lib) or as CANN's op-project template
// does (op_impl/ai_core/tbe/: op_tiling/ holds the op_host library, kernel/<unit>/ the
// binaries opc compiled).
bool IsPackageDir(const std::string& dir) {
  return IsDirectory(dir + "/op_impl/lib") || IsDirectory(dir + "/op_impl/ai_core/tbe/op_tiling") ||
         IsDirectory(dir + "/op_impl/ai_core/tbe/kernel");
}

// The compute unit whose binaries the emulated chip runs: Ascend910B3 -> ascend910b, as
// AddConfig and the template's kernel/<unit>/ folders name it.
std::string ComputeUnitOfChip() {
  // As the emulation chooses: OCANN_SOC when it names an emulated chip, else the default.
  const opencann::SocSpec* spec = opencann::FindSocSpec(GlobalConfig().soc.c_str());
  std::string soc = spec && spec->ascendc_emulated ? spec->name : opencann::kDefaultSoc;
  std::string unit;
  for (char c : soc) unit += static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  while (!unit.empty() && std::isdigit(static_cast<unsigned char>(unit.back()))) unit.pop_back();
  return unit;
}

std::vector<std::string> FilesUnder(const std::string& dir, const std::string& suffix) {
  std::vector<std::string> out;
  std::error_code ec;
  for (auto it = std::filesystem::recursive_directory_iterator(dir, ec);
       !ec && it != std::filesystem::recursive_directory_iterator(); it.increment(ec)) {
    const std::string p = it->path().string();
    if (it->is_regular_file(ec) && p.size() > suffix.size() &&
        p.compare(p.size() - suffix.size(), suffix.size(), suffix) == 0)
      out.push_back(p);
  }
  std::sort(out.begin(), out.end());
  return out;
}

// The libraries of one package in load order: the op_host library first, then the kernels.
// A template package's binaries must be opc's (OpenCANN's emulation); CANN's NPU binaries
// are refused by name.
Result<std::vector<std::string>> PackageLibraries(const std::string& dir,
                                                  std::string* kernel_note) {
  std::vector<std::string> libs;
  // One vendor folder may hold both layouts (packages installed into the same vendor merge).
  if (IsDirectory(dir + "/op_impl/lib")) {
    for (const auto& file : ListFiles(dir + "/op_impl/lib"))
      if (file.size() >= 3 && file.compare(file.size() - 3, 3, ".so") == 0) libs.push_back(file);
  }
  const std::string tbe = dir + "/op_impl/ai_core/tbe";
  if (!IsDirectory(tbe + "/op_tiling") && !IsDirectory(tbe + "/kernel")) return libs;
  std::vector<std::string> host = FilesUnder(tbe + "/op_tiling/lib/linux", ".so");
  if (host.empty()) host = FilesUnder(dir + "/op_proto/lib/linux", ".so");
  libs.insert(libs.end(), host.begin(), host.end());
  const std::string unit = ComputeUnitOfChip();
  const std::string kernels = tbe + "/kernel/" + unit;
  if (!IsDirectory(kernels)) {
    std::vector<std::string> units;
    std::error_code ec;
    for (const auto& e : std::filesystem::directory_iterator(tbe + "/kernel", ec)) {
      const std::string name = e.path().filename().string();
      if (name != "config" && e.is_directory(ec)) units.push_back(name);
    }
    std::sort(units.begin(), units.end());
    std::string others;
    for (const auto& u : units) others += (others.empty() ? "" : ", ") + u;
    *kernel_note = "the package has kernel binaries for " +
                   (others.empty() ? "no compute unit" : others) + ", none for " + unit +
                   " (the emulated chip's; OCANN_SOC chooses it): build it with " + unit +
                   " in ASCEND_COMPUTE_UNIT and AddConfig(\"" + unit + "\")";
    return libs;
  }
  for (const auto& obj : FilesUnder(kernels, ".o")) {
    const std::string json = obj.substr(0, obj.size() - 2) + ".json";
    const Result<std::string> text = ReadFile(json);
    if (!text.ok() || text.value().find("OPENCANN_ASCENDC_EMULATION") == std::string::npos)
      return Unsupported("operator package [" + dir + "]: kernel binary [" + obj +
                         "] was not compiled by OpenCANN's opc (an NPU binary from CANN cannot run "
                         "in the emulation); rebuild the package against OpenCANN");
    libs.push_back(obj);
  }
  return libs;
}

// The package's framework plugins (framework/<tensorflow|onnx|caffe>/*.so): loading one
// records its REGISTER_CUSTOM_OP mappings (register/register.h) for the parsers. One that
// does not load is reported and left out: the package's ops still run.
void LoadFrameworkPlugins(const std::string& dir) {
  for (const auto& file : FilesUnder(dir + "/framework", ".so")) {
    std::error_code ec;
    const std::string real = std::filesystem::weakly_canonical(file, ec).string();
    if (!g_loaded.insert(ec ? file : real).second) continue;
    if (!::dlopen(file.c_str(), RTLD_NOW | RTLD_LOCAL)) {
      const char* err = ::dlerror();
      std::fprintf(stderr,
                   "[WARNING] operator package [%s]: framework plugin [%s] cannot be loaded (%s); "
                   "the framework ops it maps are not mapped\n",
                   dir.c_str(), file.c_str(), err ? err : "unknown error");
    }
  }
}

}  // namespace

Status LoadOpPackages(const std::vector<std::string>& vendor_dirs) {
  std::lock_guard<std::mutex> lock(g_mutex);
  auto& reg = ops::OpDefRegistry::Global();
  for (const auto& dir : vendor_dirs) {
    if (!IsPackageDir(dir))
      return NotFound("operator package [" + dir +
                      "] has neither op_impl/lib (OpenCANN's msopgen) nor op_impl/ai_core/tbe "
                      "(CANN's op-project template)");
    std::string kernel_note;
    OC_ASSIGN_OR_RETURN(std::vector<std::string> libs, PackageLibraries(dir, &kernel_note));
    LoadFrameworkPlugins(dir);
    if (!kernel_note.empty()) g_kernel_notes[dir] = kernel_note;
    for (const auto& file : libs) {
      // One package reached through two paths (a symlink, ASCEND_CUSTOM_OPP_PATH and
      // ASCEND_OPP_PATH/vendors) is opened once.
      std::error_code ec;
      const std::string real = std::filesystem::weakly_canonical(file, ec).string();
      if (!g_loaded.insert(ec ? file : real).second) continue;
      reg.SetCurrentSource(file.c_str());
      // RTLD_LOCAL: each op's library keeps its own tiling structs and helpers.
      void* handle = ::dlopen(file.c_str(), RTLD_NOW | RTLD_LOCAL);
      if (!handle) {
        g_loaded.erase(ec ? file : real);  // not loaded: the next call refuses it again
        const char* err = ::dlerror();
        return ParseError("operator package library [" + file +
                          "] cannot be loaded: " + (err ? err : "unknown error"));
      }
    }
  }
  reg.SetCurrentSource("");
  for (size_t i = 0; i < reg.op_defs().size(); ++i) {
    const ops::OpDef* def = reg.op_defs()[i].get();
    if (!g_bridged.insert(def).second) continue;
    OC_RETURN_IF_ERROR(Bridge(*def, reg.sources()[i].GetString()));
  }
  return Status::Ok();
}

// The installed vendor packages under `vendors`, load_priority order first.
static std::vector<std::string> VendorPackages(const std::string& vendors) {
  std::vector<std::string> names, out;
  std::ifstream ini(vendors + "/config.ini");
  std::string line;
  while (std::getline(ini, line)) {
    if (line.rfind("load_priority=", 0) != 0) continue;
    std::stringstream list(line.substr(14));
    for (std::string v; std::getline(list, v, ',');)
      if (!v.empty()) names.push_back(v);
  }
  std::error_code ec;
  std::vector<std::string> found;
  for (const auto& e : std::filesystem::directory_iterator(vendors, ec))
    if (e.is_directory(ec)) found.push_back(e.path().filename().string());
  std::sort(found.begin(), found.end());
  for (const std::string& f : found)
    if (std::find(names.begin(), names.end(), f) == names.end()) names.push_back(f);
  for (const std::string& n : names)
    if (IsPackageDir(vendors + "/" + n)) out.push_back(vendors + "/" + n);
  return out;
}

Status LoadCustomOpPackages() {
  static std::once_flag once;
  static Status result;
  std::call_once(once, [] {
    const Config& config = GlobalConfig();
    std::vector<std::string> dirs;
    const std::string& paths = config.custom_opp_path;
    size_t start = 0;
    while (start <= paths.size()) {
      size_t colon = paths.find(':', start);
      if (colon == std::string::npos) colon = paths.size();
      const std::string dir = paths.substr(start, colon - start);
      // Entries that are not installed packages (stale or empty) are skipped, as CANN does.
      if (!dir.empty() && IsPackageDir(dir)) dirs.push_back(dir);
      start = colon + 1;
    }
    // Then the packages installed into the toolkit: $ASCEND_OPP_PATH/vendors/<vendor>, in
    // the order of vendors/config.ini's load_priority when there is one, else by name.
    if (config.opp_path) {
      for (const std::string& dir : VendorPackages(*config.opp_path + "/vendors"))
        if (std::find(dirs.begin(), dirs.end(), dir) == dirs.end()) dirs.push_back(dir);
    }
    result = LoadOpPackages(dirs);
  });
  return result;
}

std::vector<std::string> CustomOpSummary() {
  std::lock_guard<std::mutex> lock(g_mutex);
  return g_summary;
}

}  // namespace oc
