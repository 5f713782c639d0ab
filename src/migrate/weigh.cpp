// The weighing pass: what each finding means for this project. A finding used only in tests,
// behind a flag or only named in requirements does not decide the verdict; one the
// project's own NPU path already handles costs nothing; one a community port replaces costs
// the port's adoption; repeated calls of one API family in one file are one finding.
#include <algorithm>
#include <cctype>
#include <map>

#include "migrate/analysis.h"
#include "migrate/analyzers.h"
#include "migrate/ports.h"

namespace oc::migrate {
namespace {

// tests/, examples/, docs/, benchmarks/ and test files: the product runs without them.
std::string AuxiliaryPath(const std::string& file) {
  std::string l;
  for (char c : file) l += static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  const std::string path = "/" + l.substr(0, l.find('#'));
  for (const char* dir :
       {"test", "tests", "testing", "example", "examples", "docs", "doc", "benchmark", "benchmarks",
        "bench", "demo", "demos", ".github", ".circleci", ".gitlab", ".dev_scripts", ".buildkite"})
    if (path.find("/" + std::string(dir) + "/") != std::string::npos) return std::string(dir) + "/";
  const std::string name = path.substr(path.find_last_of('/') + 1);
  if (name.rfind("requirements", 0) == 0)
    for (const char* aux : {"dev", "test", "doc", "bench", "lint", "example"})
      if (name.find(aux) != std::string::npos)
        return std::string("a ") + aux + " requirements file";
  if (name.rfind("test_", 0) == 0 || name == "conftest.py" ||
      (name.size() > 8 && name.compare(name.size() - 8, 8, "_test.py") == 0))
    return "a test file";
  return "";
}

std::string Squash(const std::string& s) {
  std::string out;
  for (char c : s)
    if (c != '_') out += c;
  return out;
}

std::string Stem(const std::string& file) {
  std::string name = file.substr(file.find_last_of('/') + 1);
  name = name.substr(0, name.find('.'));
  return Squash(OpStem(name));
}

}  // namespace

std::string LibraryFamily(const std::string& rule) {
  if (rule.rfind("bnb.", 0) == 0 || rule == "bitsandbytes") return "bitsandbytes";
  if (rule.rfind("apex", 0) == 0 || rule == "amp_C") return "apex";
  if (rule.rfind("lightning", 0) == 0) return "lightning";
  return rule;
}

void Weigh(Analysis* a) {
  // 1. Usage by where the code lives (one answer per file).
  std::map<std::string, std::string> aux_cache;
  auto AuxiliaryPath = [&](const std::string& file) -> const std::string& {
    auto it = aux_cache.find(file);
    if (it == aux_cache.end()) it = aux_cache.emplace(file, migrate::AuxiliaryPath(file)).first;
    return it->second;
  };
  for (auto& f : a->findings)
    if (f.usage == Usage::kRequired)
      if (const std::string why = AuxiliaryPath(f.file); !why.empty())
        f.usage = Usage::kAuxiliary, f.usage_why = "only in " + why;
  for (auto& k : a->kernels)
    if (!AuxiliaryPath(k.file).empty()) k.usage = Usage::kAuxiliary;
  for (auto& k : a->triton)
    if (k.usage == Usage::kRequired && !AuxiliaryPath(k.file).empty()) k.usage = Usage::kAuxiliary;

  // A module named after the library it wraps (quantizers/bitsandbytes/, xformers_utils.py,
  // convert_to_tensorrt.py) is that library's backend or tool: loaded when a user picks it.
  for (auto& f : a->findings) {
    if (f.usage != Usage::kRequired || f.dependency || f.branch != Branch::kNvidiaLibrary) continue;
    std::string path;
    for (char c : f.file) path += static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    const std::string family = LibraryFamily(f.rule);
    std::vector<std::string> names = {family};
    if (family == "bitsandbytes") names.push_back("bnb");
    if (family == "tensorrt") names.push_back("trt");
    if (family == "flash_attn") names.push_back("flash");
    for (const auto& n : names)
      if (n.size() >= 3 && path.find(n) != std::string::npos) {
        f.usage = Usage::kOptional;
        f.usage_why = "in a module for " + family + " (a backend the user selects)";
        break;
      }
  }

  // 2. Dependencies: required when the code uses them on its main path.
  std::map<std::string, const Finding*> code_use;  // family -> the most required code use
  for (const auto& f : a->findings) {
    if (f.dependency) continue;
    const Finding*& best = code_use[LibraryFamily(f.rule)];
    if (!best || f.usage < best->usage) best = &f;
  }
  for (auto& f : a->findings) {
    if (!f.dependency || f.usage == Usage::kAuxiliary) continue;
    auto it = code_use.find(LibraryFamily(f.rule));
    if (it == code_use.end()) {
      if (f.usage == Usage::kOptional)
        f.usage_why += ", never imported";
      else
        f.usage = Usage::kDependency, f.usage_why = "named as a dependency, never imported";
    } else if (it->second->usage != Usage::kRequired) {
      f.usage = Usage::kOptional;
      f.usage_why = "used only " + std::string(UsageName(it->second->usage)) + " (" +
                    it->second->file + ":" + std::to_string(it->second->line) + ")";
    } else {
      // The dependency line goes with what the code does with the library: an 8-bit load
      // that bf16 replaces makes the requirement droppable, not a blocker.
      f.usage_why = "used in " + it->second->file + ":" + std::to_string(it->second->line);
      if (it->second->severity < f.severity) f.severity = it->second->severity;
      if (it->second->severity >= Severity::kMedium) f.severity = it->second->severity;
      f.port = it->second->port.empty() ? f.port : it->second->port;
    }
  }

  // 3. Existing Ascend support.
  std::set<std::string> signal_files, npu_sources;
  bool strong = false, transfer = false;
  for (const auto& s : a->npu_signals) {
    if (!AuxiliaryPath(s.file).empty()) continue;
    signal_files.insert(s.file.substr(0, s.file.find('#')));
    if (s.what == "NPU source folder" || s.what == "NPU source file" ||
        s.what == "PyTorch PrivateUse1 (NPU) registration" || s.what == "CANN aclnn operators" ||
        s.what == "torch_npu C++ API")
      npu_sources.insert(s.file);
    strong |= s.what == "torch_npu" || s.what == "transfer_to_npu" ||
              s.what.rfind("dependency", 0) == 0 || s.what == "NPU source folder" ||
              s.what == "NPU source file" || s.what == "DeepSpeed NPU accelerator" ||
              s.what == "vLLM-Ascend" || s.what == "MindSpeed";
    transfer |= s.what == "transfer_to_npu";
  }
  a->supports_ascend = strong || signal_files.size() >= 2;
  a->support_evidence.clear();
  if (a->supports_ascend) {
    std::map<std::string, std::set<std::string>> by_file;
    for (const auto& s : a->npu_signals)
      if (AuxiliaryPath(s.file).empty()) by_file[s.file.substr(0, s.file.find('#'))].insert(s.what);
    for (const auto& [file, whats] : by_file) {
      std::string w;
      for (const auto& x : whats) w += (w.empty() ? "" : ", ") + x;
      a->support_evidence.push_back(file + " (" + w + ")");
    }
    a->support_summary = "already supports Ascend: NPU code in " + std::to_string(by_file.size()) +
                         " file" + (by_file.size() == 1 ? "" : "s");
  }
  // Findings the project's NPU path already handles: device code in a file that also has
  // an NPU path, everything transfer_to_npu patches, kernels with an NPU implementation.
  // The CUDA half of an accelerator abstraction (cuda_accelerator.py beside
  // npu_accelerator.py) is correct as it is: the NPU half exists.
  auto npu_sibling = [&](const std::string& file) {
    if (!a->supports_ascend) return false;
    for (const char* gpu : {"cuda", "gpu", "CUDA", "GPU"}) {
      const size_t p = file.rfind(gpu);
      if (p == std::string::npos) continue;
      std::string twin = file;
      twin.replace(p, std::char_traits<char>::length(gpu),
                   std::isupper(static_cast<unsigned char>(gpu[0])) ? "NPU" : "npu");
      if (signal_files.count(twin)) return true;
    }
    return false;
  };
  for (auto& f : a->findings) {
    const std::string file = f.file.substr(0, f.file.find('#'));
    const bool device_code = f.branch == Branch::kStandardModel || f.branch == Branch::kDistributed;
    if (device_code &&
        ((transfer && f.auto_migratable) || signal_files.count(file) || npu_sibling(file)))
      f.covered = true;
  }
  std::set<std::string> npu_stems;
  for (const auto& s : npu_sources) npu_stems.insert(Stem(s));
  for (auto& k : a->kernels) {
    const std::string ks = Squash(OpStem(k.name)), fs = Stem(k.file);
    for (const auto& n : npu_stems)
      if (!n.empty() &&
          (n == ks || n == fs || (ks.size() > 3 && n.find(ks) != std::string::npos) ||
           (n.size() >= 5 && (ks.find(n) != std::string::npos || fs.find(n) != std::string::npos))))
        k.covered = true;
  }

  // Triton kernels: an NPU twin of the file (backends/_ascend/ops/rms_norm.py beside
  // ops/rms_norm.py), or the kernel itself lives in an NPU folder (a triton-ascend kernel).
  for (auto& k : a->triton) {
    k.group = k.file + ":" + OpStem(k.name);
    const std::string fs = Stem(k.file);
    if (npu_sources.count(k.file) || npu_stems.count(fs)) k.covered = true;
  }

  // 4. Community ports.
  for (auto& k : a->kernels)
    if (!k.covered && !k.helper)
      if (const Port* p = KernelPort(k.name, k.file)) k.port = p->what;
  for (auto& f : a->findings)
    if (f.branch == Branch::kNvidiaLibrary || f.branch == Branch::kFramework ||
        f.branch == Branch::kTriton)
      if (const Port* p =
              LibraryPort(f.rule.rfind("apex", 0) == 0 && f.rule != "apex.amp" &&
                                  f.rule != "apex.optimizers" && f.rule != "apex.normalization"
                              ? "apex"
                              : f.rule))
        f.port = p->what;

  // 5. Noise: one finding per file and rule for what is not rewritten automatically
  // (every tl.* call, every tensorrt attribute), the most required occurrence kept.
  std::vector<Finding> kept;
  std::map<std::pair<std::string, std::string>, size_t> first;
  for (auto& f : a->findings) {
    const bool fold = !f.auto_migratable && !f.dependency &&
                      (f.branch == Branch::kTriton || f.branch == Branch::kNvidiaLibrary ||
                       f.branch == Branch::kCustomKernel || f.branch == Branch::kCompile);
    if (!fold) {
      kept.push_back(std::move(f));
      continue;
    }
    const auto key = std::make_pair(f.file, f.rule);
    auto it = first.find(key);
    if (it == first.end()) {
      first[key] = kept.size();
      kept.push_back(std::move(f));
      continue;
    }
    Finding& k = kept[it->second];
    const int n = k.count + f.count;
    if (f.usage < k.usage) k = std::move(f);
    k.count = n;
  }
  a->findings = std::move(kept);
}

}  // namespace oc::migrate
