// Notebooks, CUDA C++, dependency lists and line-based text files.
#include <algorithm>
#include <cctype>
#include <nlohmann/json.hpp>

#include "migrate/analyzers.h"
#include "migrate/rules.h"
#include "migrate/text_util.h"

namespace oc::migrate {
namespace {

Finding Make(const Rule& rule, const std::string& file, int line, int column,
             const std::string& snippet, const std::string& api) {
  Finding f;
  f.file = file;
  f.line = f.end_line = line;
  f.column = column;
  f.snippet = Trim(snippet);
  f.rule = rule.id;
  f.api = api;
  f.branch = rule.branch;
  f.severity = rule.severity;
  f.counterpart = rule.counterpart;
  f.auto_migratable = rule.auto_migratable;
  f.message = rule.message;
  return f;
}

// Signals of existing Ascend support in shell, config, build and C++ text.
void TextNpuSignals(const std::string& file, int line, const std::string& code, FileResult* r) {
  // JSON files are data (fixtures, metadata, notebooks' outputs): a word in them proves nothing.
  if (file.size() > 5 && file.compare(file.size() - 5, 5, ".json") == 0) return;
  static const std::pair<const char*, const char*> kSignals[] = {
      {"ASCEND_RT_VISIBLE_DEVICES", "ASCEND_RT_VISIBLE_DEVICES"},
      {"HCCL_", "HCCL settings"},
      {"npu-smi", "npu-smi"},
      {"ascend-toolkit", "CANN toolkit (set_env.sh)"},
      {"DS_ACCELERATOR=npu", "DeepSpeed NPU accelerator"},
      {"MULTI_NPU", "accelerate MULTI_NPU"},
      {"FORCE_NPU", "NPU build switch (FORCE_NPU)"},
      {"WITH_NPU", "NPU build switch"},
      {"PrivateUse1", "PyTorch PrivateUse1 (NPU) registration"},
      {"c10_npu", "torch_npu C++ API"},
      {"torch_npu", "torch_npu"},
      {"aclnn", "CANN aclnn operators"},
      {"acl/acl.h", "AscendCL"},
      {"ascendhub", "Ascend container image"},
      {"accelerator: npu", "NPU accelerator config"},
      {"backend: hccl", "HCCL backend"}};
  for (const auto& [needle, what] : kSignals)
    if (code.find(needle) != std::string::npos) {
      r->npu.push_back({file, line, what});
      return;
    }
}

// URLs name where something is downloaded from, not what the code runs on.
std::string WithoutUrls(std::string code) {
  for (size_t p = code.find("://"); p != std::string::npos; p = code.find("://", p)) {
    size_t a = p;
    while (a > 0 && std::isalpha(static_cast<unsigned char>(code[a - 1]))) --a;
    size_t b = p;
    while (b < code.size() && !std::isspace(static_cast<unsigned char>(code[b])) &&
           code[b] != '"' && code[b] != '\'' && code[b] != ')')
      ++b;
    code.replace(a, b - a, std::string(b - a, ' '));
    p = b;
  }
  return code;
}

// Text rules on one line (already free of comments).
void TextRules(const std::string& file, int line, const std::string& raw_code,
               const std::string& shown, FileResult* r) {
  const std::string code = WithoutUrls(raw_code);
  TextNpuSignals(file, line, code, r);
  // A container image tagged for CUDA (pytorch/pytorch:2.1-cuda12.1-cudnn8): the whole line
  // is one finding, a base-image change, not a cuDNN port.
  {
    std::string t = Trim(code), upper;
    for (size_t k = 0; k < t.size() && k < 5; ++k)
      upper += static_cast<char>(std::toupper(static_cast<unsigned char>(t[k])));
    if (upper == "FROM " &&
        (t.find("cuda") != std::string::npos || t.find("nvidia") != std::string::npos ||
         t.find("cudnn") != std::string::npos)) {
      static const Rule image{
          Rule::kText,     "FROM",
          "docker.nvidia", Branch::kStandardModel,
          Severity::kLow,  "a CANN base image (ascendhub: cann / ascend-pytorch)",
          false,           "CUDA container image"};
      r->findings.push_back(Make(image, file, line, 1, shown, t.substr(5)));
      return;
    }
  }
  for (const auto& rule : Rules()) {
    if (rule.kind != Rule::kText) continue;
    const size_t at = code.find(rule.pattern);
    if (at == std::string::npos) continue;
    // Several patterns of one rule on a line make one finding (findings come line by line).
    bool dup = false;
    for (auto it = r->findings.rbegin(); it != r->findings.rend() && it->line == line; ++it)
      dup |= it->rule == rule.id;
    if (!dup)
      r->findings.push_back(Make(rule, file, line, static_cast<int>(at) + 1, shown, rule.pattern));
  }
}

// C and C++ without comments and string literals, line structure kept.
std::string StripC(const std::string& s) {
  std::string out = s;
  size_t i = 0;
  while (i < out.size()) {
    if (out.compare(i, 2, "//") == 0) {
      while (i < out.size() && out[i] != '\n') out[i++] = ' ';
    } else if (out.compare(i, 2, "/*") == 0) {
      while (i < out.size() && out.compare(i, 2, "*/") != 0) {
        if (out[i] != '\n') out[i] = ' ';
        ++i;
      }
      if (i < out.size()) out[i] = out[i + 1] = ' ', i += 2;
    } else if (out[i] == '"' || out[i] == '\'') {
      const char q = out[i++];
      while (i < out.size() && out[i] != q && out[i] != '\n') {
        if (out[i] == '\\' && i + 1 < out.size()) out[i++] = ' ';
        out[i++] = ' ';
      }
      ++i;
    } else {
      ++i;
    }
  }
  return out;
}

// The op a kernel implements: its name without the launch and direction words, so that a
// forward/backward pair and its template instances are one op.
}  // namespace

std::string OpStem(const std::string& name) {
  std::string n;
  for (size_t i = 0; i < name.size(); ++i) {
    const char c = name[i];
    if (std::isupper(static_cast<unsigned char>(c)) && i > 0 &&
        (std::islower(static_cast<unsigned char>(name[i - 1])) ||
         std::isdigit(static_cast<unsigned char>(name[i - 1]))))
      n += '_';
    n += static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  }
  static const char* const kWords[] = {"kernel", "cuda",   "gpu",  "forward",  "backward",
                                       "fwd",    "bwd",    "grad", "impl",     "launch",
                                       "device", "global", "npu",  "launcher", "op"};
  std::vector<std::string> parts, kept;
  for (size_t a = 0; a <= n.size();) {
    size_t b = n.find('_', a);
    if (b == std::string::npos) b = n.size();
    if (b > a) parts.push_back(n.substr(a, b - a));
    a = b + 1;
  }
  for (const auto& p : parts) {
    bool drop = false;
    for (const char* w : kWords) drop |= p == w;
    if (!drop) kept.push_back(p);
  }
  std::string out;
  for (const auto& p : kept) out += (out.empty() ? "" : "_") + p;
  return out.empty() ? n : out;
}

namespace {

bool HelperName(const std::string& name) {
  std::string n;
  for (char c : name) n += static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  for (const char* w : {"setup", "init", "ptr", "pointer", "fill", "zero", "set_", "offset",
                        "index", "copy", "buffer"})
    if (n.find(w) != std::string::npos) return true;
  return false;
}

std::string NormalizePackage(std::string name) {
  std::string out;
  for (char c : name)
    out +=
        c == '_' || c == '.' ? '-' : static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return out;
}

}  // namespace

FileResult AnalyzeCuda(const std::string& file, const std::string& text) {
  FileResult r;
  const std::string code = StripC(text);
  const auto lines = Lines(text), clean = Lines(code);
  for (size_t i = 0; i < clean.size(); ++i) {
    if (!Trim(clean[i]).empty()) ++r.code_lines;
    TextRules(file, static_cast<int>(i + 1), clean[i], lines[i], &r);
    const auto pos = clean[i].find("<<<");
    if (pos != std::string::npos) {
      static const Rule launch{Rule::kText,     "<<<",
                               "cuda.launch",   Branch::kCustomKernel,
                               Severity::kHigh, "ACLRT_LAUNCH_KERNEL (Ascend C)",
                               false,           "CUDA kernel launch"};
      r.findings.push_back(Make(launch, file, static_cast<int>(i + 1), static_cast<int>(pos) + 1,
                                lines[i], "<<<...>>>"));
    }
    if (clean[i].find("TORCH_LIBRARY_IMPL") != std::string::npos &&
        clean[i].find("CUDA") != std::string::npos) {
      static const Rule impl{Rule::kText,
                             "TORCH_LIBRARY_IMPL",
                             "torch_library.cuda",
                             Branch::kCustomKernel,
                             Severity::kHigh,
                             "TORCH_LIBRARY_IMPL(..., PrivateUse1, ...) with an Ascend C op",
                             false,
                             "PyTorch op registered for CUDA"};
      r.findings.push_back(
          Make(impl, file, static_cast<int>(i + 1), 1, lines[i], "TORCH_LIBRARY_IMPL(CUDA)"));
    }
  }
  // Kernels: __global__ void name(...) { ... } and what their bodies use.
  size_t pos = 0;
  while ((pos = code.find("__global__", pos)) != std::string::npos) {
    const size_t paren = code.find('(', pos), brace = code.find('{', pos),
                 semi = code.find(';', pos);
    if (paren == std::string::npos || brace == std::string::npos ||
        (semi != std::string::npos && semi < brace)) {
      pos += 10;
      continue;  // a declaration
    }
    size_t name_end = paren;
    while (name_end > pos && std::isspace(static_cast<unsigned char>(code[name_end - 1])))
      --name_end;
    size_t name_start = name_end;
    while (name_start > pos && (std::isalnum(static_cast<unsigned char>(code[name_start - 1])) ||
                                code[name_start - 1] == '_'))
      --name_start;
    int depth = 0;
    size_t end = brace;
    for (; end < code.size(); ++end) {
      if (code[end] == '{') ++depth;
      if (code[end] == '}' && --depth == 0) break;
    }
    const std::string body = code.substr(brace, end - brace);
    CudaKernel k;
    k.file = file;
    k.name = code.substr(name_start, name_end - name_start);
    k.line =
        static_cast<int>(std::count(code.begin(), code.begin() + static_cast<long>(pos), '\n')) + 1;
    k.lines = static_cast<int>(std::count(body.begin(), body.end(), '\n')) + 1;
    const std::pair<const char*, const char*> kComplex[] = {
        {"__shared__", "shared memory"},
        {"__shfl", "warp shuffles"},
        {"__ballot", "warp votes"},
        {"wmma::", "tensor cores (WMMA)"},
        {"mma.sync", "tensor cores (MMA PTX)"},
        {"asm(", "inline PTX"},
        {"asm volatile", "inline PTX"},
        {"atomic", "atomics"},
        {"__syncthreads", "block synchronisation"},
        {"cooperative_groups", "cooperative groups"},
        {"cute::", "CUTLASS CuTe"},
        {"cutlass::", "CUTLASS"}};
    for (const auto& [needle, why] : kComplex)
      if (body.find(needle) != std::string::npos &&
          std::find(k.reasons.begin(), k.reasons.end(), why) == k.reasons.end())
        k.reasons.push_back(why);
    if (k.lines > 80) k.reasons.push_back(std::to_string(k.lines) + " lines");
    k.complex = !k.reasons.empty();
    const bool loops = body.find("for (") != std::string::npos ||
                       body.find("for(") != std::string::npos ||
                       body.find("while") != std::string::npos;
    k.helper = !k.complex && !loops && k.lines <= 8 && HelperName(k.name);
    if (k.helper)
      k.reasons.push_back("helper: a few lines of pointer or index setup");
    else if (!k.complex)
      k.reasons.push_back(
          "elementwise: one thread per element, no shared memory or warp intrinsics");
    k.group = file + ":" + OpStem(k.name);
    r.kernels.push_back(std::move(k));
    pos = end;
  }
  return r;
}

FileResult AnalyzeRequirements(const std::string& file, const std::string& text) {
  FileResult r;
  const auto lines = Lines(text);
  for (size_t i = 0; i < lines.size(); ++i) {
    std::string l = Trim(lines[i]);
    if (l.empty() || l[0] == '#' || l[0] == '-') continue;
    const size_t cut = l.find_first_of("<>=!~;[ @");
    const std::string name = NormalizePackage(l.substr(0, cut));
    ++r.code_lines;
    for (const char* npu : {"torch-npu", "mindspeed", "vllm-ascend", "triton-ascend", "mindspore",
                            "mindie", "torchair"})
      if (name == npu || name.rfind(std::string(npu) + "-", 0) == 0)
        r.npu.push_back({file, static_cast<int>(i + 1), "dependency " + name});
    for (const auto& rule : Rules()) {
      if (rule.kind != Rule::kPackage) continue;
      const std::string p = NormalizePackage(rule.pattern);
      // cupy-cuda12x, nvidia-dali-cuda120, ...: the package family counts.
      if (name == p || name.rfind(p + "-", 0) == 0) {
        r.findings.push_back(
            Make(rule, file, static_cast<int>(i + 1), 1, lines[i], l.substr(0, cut)));
        r.findings.back().dependency = true;
        break;
      }
    }
  }
  return r;
}

FileResult AnalyzePyproject(const std::string& file, const std::string& text) {
  // Dependency strings are quoted: "flash-attn>=2", 'triton'. Those under
  // [project.optional-dependencies], poetry extras/groups or [dependency-groups] are optional.
  FileResult r;
  const auto lines = Lines(text);
  std::string section;
  for (size_t i = 0; i < lines.size(); ++i) {
    const std::string& l = lines[i];
    if (Trim(l).rfind("#", 0) == 0) continue;
    if (const std::string t = Trim(l); !t.empty() && t[0] == '[') {
      section = t.substr(1, t.find(']') == std::string::npos ? std::string::npos : t.find(']') - 1);
      continue;
    }
    const bool optional = section.find("optional-dependencies") != std::string::npos ||
                          section.rfind("tool.poetry.group", 0) == 0 ||
                          section == "tool.poetry.extras" || section == "dependency-groups";
    for (size_t q = l.find_first_of("\"'"); q != std::string::npos;
         q = l.find_first_of("\"'", q + 1)) {
      const size_t e = l.find(l[q], q + 1);
      if (e == std::string::npos) break;
      auto sub = AnalyzeRequirements(file, l.substr(q + 1, e - q - 1));
      for (auto& f : sub.findings) {
        f.line = f.end_line = static_cast<int>(i + 1);
        f.column = static_cast<int>(q) + 1;
        f.snippet = Trim(l);
        if (optional)
          f.usage = Usage::kOptional, f.usage_why = "an optional dependency [" + section + "]";
        r.findings.push_back(std::move(f));
      }
      q = e;
    }
  }
  return r;
}

FileResult AnalyzeText(const std::string& file, const std::string& text, const char* comment) {
  FileResult r;
  const auto lines = Lines(text);
  for (size_t i = 0; i < lines.size(); ++i) {
    std::string code = lines[i];
    if (comment && *comment) {
      const size_t c = code.find(comment);
      if (c != std::string::npos) code = code.substr(0, c);
    }
    if (Trim(code).empty()) continue;
    ++r.code_lines;
    TextRules(file, static_cast<int>(i + 1), code, lines[i], &r);
  }
  return r;
}

FileResult AnalyzeNotebook(const std::string& file, const std::string& text) {
  FileResult r;
  nlohmann::json nb = nlohmann::json::parse(text, nullptr, false);
  if (nb.is_discarded() || !nb.is_object() || !nb.contains("cells") || !nb["cells"].is_array()) {
    r.error = "not a valid notebook (JSON with a \"cells\" list)";
    return r;
  }
  // The code cells run in one interpreter: their Python is analysed as one module (an
  // import in cell 1 resolves a call in cell 5), findings name the cell and its line.
  struct Cell {
    int index, first_line, lines;
  };
  std::vector<Cell> cells;
  std::string python;
  int next_line = 1, index = 0;
  for (const auto& cell : nb["cells"]) {
    ++index;
    // Any field may be of any type in a file from anywhere: compare, never convert.
    if (!cell.is_object() || !cell.contains("cell_type") || cell["cell_type"] != "code" ||
        !cell.contains("source"))
      continue;
    std::string src;
    if (cell["source"].is_array()) {
      for (const auto& s : cell["source"])
        if (s.is_string()) src += s.get<std::string>();
    } else if (cell["source"].is_string()) {
      src = cell["source"].get<std::string>();
    } else {
      r.error = "cell " + std::to_string(index) + ": source is neither text nor a list of lines";
      return r;
    }
    // Shell (!) and magic (%) lines are shell text; the rest is Python.
    std::string shell;
    const auto src_lines = Lines(src);
    for (const auto& l : src_lines) {
      const std::string t = Trim(l);
      const bool sh = !t.empty() && (t[0] == '!' || t[0] == '%');
      python += (sh ? "" : l) + "\n";
      shell += (sh ? l : "") + "\n";
    }
    cells.push_back({index, next_line, static_cast<int>(src_lines.size())});
    next_line += static_cast<int>(src_lines.size());
    const std::string where = file + "#cell" + std::to_string(index);
    auto sh = AnalyzeText(where, shell, "#");
    r.findings.insert(r.findings.end(), sh.findings.begin(), sh.findings.end());
    r.npu.insert(r.npu.end(), sh.npu.begin(), sh.npu.end());
    r.code_lines += sh.code_lines;
  }
  auto py = AnalyzePython(file, python);
  if (!py.error.empty()) {
    r.error = py.error;
    return r;
  }
  auto where = [&](int line, std::string* name, int* local) {
    for (const auto& c : cells)
      if (line >= c.first_line && line < c.first_line + c.lines) {
        *name = file + "#cell" + std::to_string(c.index);
        *local = line - c.first_line + 1;
        return;
      }
  };
  for (auto& f : py.findings) {
    where(f.line, &f.file, &f.line);
    f.end_line = f.line;
  }
  for (auto& k : py.triton) where(k.line, &k.file, &k.line);
  for (auto& n : py.npu) where(n.line, &n.file, &n.line);
  r.findings.insert(r.findings.end(), py.findings.begin(), py.findings.end());
  r.npu.insert(r.npu.end(), py.npu.begin(), py.npu.end());
  r.triton = std::move(py.triton);
  r.code_lines += py.code_lines;
  r.modules = std::move(py.modules);
  r.names = std::move(py.names);
  r.triton_kernels = py.triton_kernels;
  r.triton_complex = py.triton_complex;
  r.trains = py.trains;
  return r;
}

}  // namespace oc::migrate
