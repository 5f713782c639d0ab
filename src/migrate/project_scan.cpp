// Walks a project and hands each file to its analyser.
#include <algorithm>
#include <filesystem>
#include <fstream>

#include "migrate/analysis.h"
#include "migrate/analyzers.h"

namespace fs = std::filesystem;

namespace oc::migrate {
namespace {

constexpr uintmax_t kMaxFileBytes = 8u << 20;

enum class Kind {
  kNone,
  kPython,
  kSetupPy,
  kNotebook,
  kRequirements,
  kPyproject,
  kConfig,
  kDocker,
  kShell,
  kCMake,
  kCuda
};

Kind KindOf(const fs::path& p) {
  const std::string name = p.filename().string(), ext = p.extension().string();
  if (name == "setup.py") return Kind::kSetupPy;
  if (ext == ".py") return Kind::kPython;
  if (ext == ".ipynb") return Kind::kNotebook;
  if (name.rfind("requirements", 0) == 0 && ext == ".txt") return Kind::kRequirements;
  if (name == "pyproject.toml") return Kind::kPyproject;
  if (ext == ".yaml" || ext == ".yml" || ext == ".json") return Kind::kConfig;
  if (name.rfind("Dockerfile", 0) == 0 || ext == ".dockerfile") return Kind::kDocker;
  if (ext == ".sh" || ext == ".bash") return Kind::kShell;
  if (name == "CMakeLists.txt" || ext == ".cmake") return Kind::kCMake;
  if (ext == ".cu" || ext == ".cuh" || ext == ".cpp" || ext == ".cc" || ext == ".cxx" ||
      ext == ".h" || ext == ".hpp")
    return Kind::kCuda;
  return Kind::kNone;
}

// Source with a stray invalid byte (a Latin-1 comment, a damaged file) is still source: the
// invalid bytes become U+FFFD and the rest is analysed. Returns how many were replaced.
size_t RepairUtf8(std::string* text) {
  const std::string& s = *text;
  std::string out;
  size_t replaced = 0, i = 0;
  while (i < s.size()) {
    const unsigned char c = static_cast<unsigned char>(s[i]);
    const int n = c < 0x80 ? 0 : (c >> 5) == 6 ? 1 : (c >> 4) == 14 ? 2 : (c >> 3) == 30 ? 3 : -1;
    bool ok = n >= 0 && i + n < s.size();
    for (int k = 1; ok && k <= n; ++k) ok = (static_cast<unsigned char>(s[i + k]) >> 6) == 2;
    if (ok) {
      out.append(s, i, static_cast<size_t>(n) + 1);
      i += static_cast<size_t>(n) + 1;
    } else {
      out += "\xEF\xBF\xBD";
      ++replaced;
      ++i;
    }
  }
  if (replaced) *text = std::move(out);
  return replaced;
}

bool Skipped(const std::string& dir) {
  static const char* const kSkip[] = {".git",          ".hg",         ".svn",         "__pycache__",
                                      "node_modules",  ".venv",       "venv",         ".tox",
                                      "site-packages", ".mypy_cache", ".pytest_cache"};
  for (const char* s : kSkip)
    if (dir == s) return true;
  return false;
}

// Files whose names or folders show an NPU implementation (csrc/pytorch/npu/,
// npu_accelerator.py, roi_align_npu.cpp).
// "npu" or "ascend" as a word of a path segment: npu_accelerator.py, roi_align_npu.cpp,
// backends/_ascend/, not gpu2npu.py or ascending.py.
bool NpuWord(const std::string& segment) {
  for (const char* w : {"npu", "ascend"}) {
    const size_t n = std::char_traits<char>::length(w);
    for (size_t p = segment.find(w); p != std::string::npos; p = segment.find(w, p + 1)) {
      const bool left = p == 0 || segment[p - 1] == '_' || segment[p - 1] == '-';
      const char r = p + n < segment.size() ? segment[p + n] : '.';
      if (left && (r == '_' || r == '-' || r == '.')) return true;
    }
  }
  return false;
}

// Files whose names or folders show an NPU implementation (csrc/pytorch/npu/,
// npu_accelerator.py, roi_align_npu.cpp, ops/backends/_ascend/).
void PathSignal(const std::string& shown, Analysis* a) {
  std::string l;
  for (char c : shown) l += static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  bool folder = false;
  size_t start = 0;
  for (size_t slash = l.find('/'); slash != std::string::npos; slash = l.find('/', start)) {
    folder |= NpuWord(l.substr(start, slash - start));
    start = slash + 1;
  }
  const bool named = NpuWord(l.substr(start));
  if (folder || named)
    a->npu_signals.push_back({shown, 0, folder ? "NPU source folder" : "NPU source file"});
}

void Merge(FileResult&& r, Analysis* a) {
  for (const auto& [w, n] : WorkloadEvidence(r.modules, r.names)) a->workload_weight[w] += n;
  a->triton.insert(a->triton.end(), r.triton.begin(), r.triton.end());
  a->npu_signals.insert(a->npu_signals.end(), r.npu.begin(), r.npu.end());
  a->findings.insert(a->findings.end(), std::make_move_iterator(r.findings.begin()),
                     std::make_move_iterator(r.findings.end()));
  a->kernels.insert(a->kernels.end(), r.kernels.begin(), r.kernels.end());
  a->modules.insert(r.modules.begin(), r.modules.end());
  a->names.insert(r.names.begin(), r.names.end());
  a->triton_kernels += r.triton_kernels;
  a->triton_complex += r.triton_complex;
  a->trains |= r.trains;
  a->code_lines += r.code_lines;
}

void AnalyseFile(const fs::path& path, const std::string& shown, Analysis* a) {
  const Kind kind = KindOf(path);
  if (kind == Kind::kNone) return;
  std::error_code ec;
  const uintmax_t size = fs::file_size(path, ec);
  if (ec) {
    a->warnings.push_back({shown, "cannot be read: " + ec.message()});
    return;
  }
  if (size > kMaxFileBytes) {
    a->warnings.push_back(
        {shown, "skipped: " + std::to_string(size >> 20) + " MiB is over the 8 MiB limit"});
    return;
  }
  std::ifstream in(path, std::ios::binary);
  std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  if (!in.good() && !in.eof()) {
    a->warnings.push_back({shown, "cannot be read"});
    return;
  }
  if (text.find('\0') != std::string::npos) {
    a->warnings.push_back({shown, "skipped: binary file"});
    return;
  }
  if (const size_t bad = RepairUtf8(&text))
    a->warnings.push_back(
        {shown, "not UTF-8 text: " + std::to_string(bad) + " invalid bytes read as U+FFFD"});
  ++a->files;
  PathSignal(shown, a);
  FileResult r;
  switch (kind) {
    case Kind::kPython:
      r = AnalyzePython(shown, text);
      break;
    case Kind::kSetupPy:
      r = AnalyzePython(shown, text, true);
      break;
    case Kind::kNotebook:
      r = AnalyzeNotebook(shown, text);
      break;
    case Kind::kRequirements:
      r = AnalyzeRequirements(shown, text);
      break;
    case Kind::kPyproject:
      r = AnalyzePyproject(shown, text);
      break;
    case Kind::kConfig:
      r = AnalyzeText(shown, text, nullptr);
      break;
    case Kind::kDocker:
    case Kind::kShell:
      r = AnalyzeText(shown, text, "#");
      break;
    case Kind::kCMake:
      r = AnalyzeText(shown, text, "#");
      break;
    case Kind::kCuda:
      r = AnalyzeCuda(shown, text);
      break;
    case Kind::kNone:
      break;
  }
  if (!r.error.empty()) {
    a->warnings.push_back({shown, "skipped: " + r.error});
    --a->files;
    return;
  }
  Merge(std::move(r), a);
}

}  // namespace

Result<Analysis> AnalyseProject(const std::string& path) {
  Analysis a;
  std::error_code ec;
  const fs::path root = fs::path(path);
  if (!fs::exists(root, ec)) return NotFound("[" + path + "] does not exist");
  a.root = path;
  if (!fs::is_directory(root, ec)) {
    AnalyseFile(root, root.filename().string(), &a);
  } else {
    // Canonical folders already seen: symlink loops end here.
    std::set<std::string> seen;
    std::vector<fs::path> stack{root};
    while (!stack.empty()) {
      const fs::path dir = stack.back();
      stack.pop_back();
      const fs::path canon = fs::weakly_canonical(dir, ec);
      if (ec || !seen.insert(canon.string()).second) {
        if (!ec)
          a.warnings.push_back({fs::relative(dir, root, ec).string(), "skipped: symlink loop"});
        continue;
      }
      std::vector<fs::directory_entry> entries;
      for (fs::directory_iterator it(dir, fs::directory_options::skip_permission_denied, ec), end;
           !ec && it != end; it.increment(ec))
        entries.push_back(*it);
      if (ec) {
        a.warnings.push_back(
            {fs::relative(dir, root).string(), "cannot be listed: " + ec.message()});
        ec.clear();
      }
      std::sort(entries.begin(), entries.end(),
                [](const auto& x, const auto& y) { return x.path() > y.path(); });
      for (const auto& e : entries) {
        std::error_code e2;
        const std::string shown = fs::relative(e.path(), root, e2).string();
        if (e.is_directory(e2)) {
          if (!Skipped(e.path().filename().string())) stack.push_back(e.path());
        } else if (e.is_regular_file(e2)) {
          AnalyseFile(e.path(), shown, &a);
        } else if (e.is_symlink(e2) && !e.exists(e2)) {
          a.warnings.push_back({shown, "skipped: broken symlink"});
        }
      }
    }
  }
  std::sort(a.findings.begin(), a.findings.end(), [](const Finding& x, const Finding& y) {
    return std::tie(x.file, x.line, x.column, x.rule) < std::tie(y.file, y.line, y.column, y.rule);
  });
  std::sort(a.kernels.begin(), a.kernels.end(), [](const CudaKernel& x, const CudaKernel& y) {
    return std::tie(x.file, x.line) < std::tie(y.file, y.line);
  });
  Weigh(&a);
  Decide(&a);
  return a;
}

}  // namespace oc::migrate
