// Python: tokens, imports resolved to qualified names, then the rules. Comments never
// produce findings; strings only when they are device or backend strings.
#include <algorithm>
#include <map>
#include <memory>
#include <set>
#include <unordered_map>
#include <unordered_set>

#include "migrate/analyzers.h"
#include "migrate/ports.h"
#include "migrate/python_context.h"
#include "migrate/python_lexer.h"
#include "migrate/rules.h"
#include "migrate/text_util.h"

namespace oc::migrate {
namespace {

// Names and strings that show the project already runs on Ascend.
const char* NpuNameSignal(const std::string& q) {
  static const std::pair<const char*, const char*> kPrefixes[] = {
      {"torch_npu", "torch_npu"},
      {"torch.npu", "torch.npu"},
      {"torchair", "TorchAir graph mode"},
      {"mindspeed", "MindSpeed"},
      {"vllm_ascend", "vLLM-Ascend"},
      {"mindspore", "MindSpore"},
      {"mindie", "MindIE"},
      {"triton_ascend", "triton-ascend"}};
  for (const auto& [p, what] : kPrefixes)
    if (q == p || q.rfind(std::string(p) + ".", 0) == 0) return what;
  return nullptr;
}

const char* NpuBareName(const std::string& n) {
  static const std::pair<const char*, const char*> kNames[] = {
      {"is_torch_npu_available", "is_torch_npu_available()"},
      {"is_npu_available", "is_npu_available()"},
      {"transfer_to_npu", "transfer_to_npu"},
      {"NPU_Accelerator", "DeepSpeed NPU accelerator"},
      {"NPUPlatform", "vLLM NPU platform"},
      {"npu_fusion_attention", "torch_npu fused attention"}};
  for (const auto& [p, what] : kNames)
    if (n == p) return what;
  return nullptr;
}

const char* NpuStringSignal(const std::string& v) {
  if (v == "npu" || (v.rfind("npu:", 0) == 0 && v.size() > 4)) return "NPU device string";
  if (v == "hccl") return "HCCL backend";
  if (v == "ASCEND_RT_VISIBLE_DEVICES") return "ASCEND_RT_VISIBLE_DEVICES";
  if (v == "MULTI_NPU") return "accelerate MULTI_NPU";
  if (v == "npu-smi") return "npu-smi";
  if (v.rfind("HCCL_", 0) == 0 && v.size() > 5) return "HCCL settings";
  return nullptr;
}

struct Analyzer {
  std::string file;
  bool setup_py = false;
  std::vector<std::string> lines;
  std::vector<Token> t;
  std::unique_ptr<PyContext> ctx;
  std::map<std::string, std::string> alias;  // local name -> qualified
  // local name -> the usage of the import that bound it (an import behind
  // `if is_x_available():` makes every use of the name optional).
  std::map<std::string, std::pair<Usage, std::string>> alias_usage;
  std::unordered_set<std::string> seen;
  std::vector<std::pair<size_t, size_t>> triton_bodies;  // token ranges of @triton.jit bodies
  FileResult r;

  // The keyword argument or variable whose brackets hold token i, when its name says the
  // dependencies in it are optional (extras_require, optional_dependencies), else "".
  std::string EnclosingExtra(size_t i) const {
    int depth = 0;
    for (size_t k = i; k-- > 0;) {
      const Token& x = t[k];
      if (x.kind == Token::kNewline) break;
      if (x.kind != Token::kOp) continue;
      if (x.text == ")" || x.text == "]" || x.text == "}") ++depth;
      if (x.text == "(" || x.text == "[" || x.text == "{") {
        if (depth > 0) {
          --depth;
          continue;
        }
        // An enclosing bracket: NAME = [ ... or NAME ( ... or "key": [ ...
        if (k >= 2 && t[k - 1].text == "=" && t[k - 2].kind == Token::kName) {
          std::string n;
          for (char c : t[k - 2].text)
            n += static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
          if (n.find("extra") != std::string::npos || n.find("optional") != std::string::npos)
            return t[k - 2].text;
        }
      }
    }
    return "";
  }

  bool InTritonBody(size_t i) const {
    for (const auto& [a, b] : triton_bodies)
      if (i >= a && i < b) return true;
    return false;
  }

  void Signal(size_t i, const char* what) {
    if (!what) return;
    // Habana's collective library is also called HCCL: "hccl" in a Gaudi (HPU) file is not
    // an Ascend signal.
    if (std::string(what) == "HCCL backend" &&
        (file.find("hpu") != std::string::npos || file.find("habana") != std::string::npos ||
         file.find("gaudi") != std::string::npos))
      return;
    if (!r.npu.empty() && r.npu.back().line == t[i].line && r.npu.back().what == what) return;
    r.npu.push_back({file, t[i].line, what});
  }

  void Add(const Rule& rule, size_t i, const std::string& api) {
    const Token& at = t[i];
    // One finding per (line, rule, api): a set keeps this linear on big files.
    if (!seen.insert(std::to_string(at.line) + "\x1f" + rule.id + "\x1f" + api).second) return;
    Finding f;
    f.usage = ctx->UsageAt(i, &f.usage_why);
    f.file = file;
    f.line = f.end_line = at.line;
    f.column = at.column;
    f.snippet = at.line - 1 < static_cast<int>(lines.size()) ? Trim(lines[at.line - 1]) : "";
    f.rule = rule.id;
    f.api = api;
    f.branch = rule.branch;
    f.severity = rule.severity;
    f.counterpart = rule.counterpart;
    f.auto_migratable = rule.auto_migratable;
    f.message = rule.message;
    r.findings.push_back(std::move(f));
  }

  // The longest qualified-name rule that is q or a dotted prefix of it: q's prefixes,
  // longest first, looked up in a table built once.
  static const Rule* MatchQualified(const std::string& q) {
    static const std::unordered_map<std::string, const Rule*> by_pattern = [] {
      std::unordered_map<std::string, const Rule*> m;
      for (const auto& rule : Rules())
        if (rule.kind == Rule::kQualified) m.emplace(rule.pattern, &rule);
      return m;
    }();
    for (size_t end = q.size(); end != std::string::npos && end > 0;
         end = end == 0 ? std::string::npos : q.rfind('.', end - 1)) {
      auto it = by_pattern.find(q.substr(0, end));
      if (it != by_pattern.end()) return it->second;
      if (end == 0) break;
    }
    return nullptr;
  }

  // Rules by kind, so a token is compared with its own kind's rules only.
  static const std::vector<const Rule*>& RulesOf(Rule::Kind kind) {
    static const auto by_kind = [] {
      std::vector<std::vector<const Rule*>> v(Rule::kText + 1);
      for (const auto& rule : Rules()) v[rule.kind].push_back(&rule);
      return v;
    }();
    return by_kind[kind];
  }

  // NAME(.NAME)* from i; returns the index after it.
  size_t Chain(size_t i, std::vector<std::string>* names) const {
    names->push_back(t[i].text);
    size_t j = i + 1;
    while (j + 1 < t.size() && t[j].kind == Token::kOp && t[j].text == "." &&
           t[j + 1].kind == Token::kName) {
      names->push_back(t[j + 1].text);
      j += 2;
    }
    return j;
  }

  static std::string Join(const std::vector<std::string>& v, size_t from = 0) {
    std::string out;
    for (size_t k = from; k < v.size(); ++k) out += (out.empty() ? "" : ".") + v[k];
    return out;
  }

  // import a.b [as c], d ... / from a.b import c [as d], (e, f)
  size_t Import(size_t i) {
    size_t j = i;
    if (t[i].text == "import") {
      ++j;
      while (j < t.size() && t[j].kind != Token::kNewline) {
        if (t[j].kind != Token::kName) {
          ++j;
          continue;
        }
        std::vector<std::string> names;
        const size_t at = j;
        j = Chain(j, &names);
        std::string local = names[0], qualified = names[0];
        if (j + 1 < t.size() && t[j].text == "as" && t[j + 1].kind == Token::kName) {
          local = t[j + 1].text;
          qualified = Join(names);
          j += 2;
        }
        alias[local] = qualified;
        alias_usage[local] = {ctx->UsageAt(at, nullptr), ""};
        ctx->UsageAt(at, &alias_usage[local].second);
        r.modules.insert(Join(names));
        Signal(at, NpuNameSignal(Join(names)));
        if (const Rule* rule = MatchQualified(Join(names))) Add(*rule, at, Join(names));
      }
      return j;
    }
    // from ...
    ++j;
    std::string module;
    while (j < t.size() && t[j].kind == Token::kOp && t[j].text == ".") module += ".", ++j;
    std::vector<std::string> names;
    const size_t mod_at = j;
    if (j < t.size() && t[j].kind == Token::kName && t[j].text != "import") j = Chain(j, &names);
    module += Join(names);
    const bool relative = !module.empty() && module[0] == '.';
    if (!relative && !module.empty()) r.modules.insert(module);
    if (!relative) Signal(mod_at, NpuNameSignal(module));
    while (j < t.size() && t[j].text != "import" && t[j].kind != Token::kNewline) ++j;
    ++j;
    bool matched_module = false;
    while (j < t.size() && t[j].kind != Token::kNewline) {
      if (t[j].kind != Token::kName) {
        ++j;
        continue;
      }
      const size_t at = j;
      std::string name = t[j].text, local = name;
      ++j;
      if (j + 1 < t.size() && t[j].text == "as" && t[j + 1].kind == Token::kName) {
        local = t[j + 1].text;
        j += 2;
      }
      if (relative || module.empty()) continue;
      const std::string qualified = module + "." + name;
      alias[local] = qualified;
      alias_usage[local] = {ctx->UsageAt(at, nullptr), ""};
      ctx->UsageAt(at, &alias_usage[local].second);
      Signal(at, NpuBareName(name));
      if (const Rule* rule = MatchQualified(qualified)) {
        Add(*rule, at, qualified);
        matched_module = true;
      }
    }
    if (!matched_module && !relative && mod_at < t.size())
      if (const Rule* rule = MatchQualified(module)) Add(*rule, mod_at, module);
    return j;
  }

  void StringRules(size_t i) {
    const Token& s = t[i];
    if (s.docstring) return;
    Signal(i, NpuStringSignal(s.text));
    std::string kw;
    if (i >= 2 && t[i - 1].kind == Token::kOp && t[i - 1].text == "=" &&
        t[i - 2].kind == Token::kName)
      kw = t[i - 2].text;
    // "cuda" as a folder or file name (glob("csrc/cuda/*.cu"), join(root, "cuda")) and any
    // string in setup.py name paths, not devices.
    const bool path = setup_py || PathCall(ctx->EnclosingCall(i));
    for (const Rule::Kind kind : {Rule::kString, Rule::kKeyword})
      for (const Rule* r : RulesOf(kind)) {
        const Rule& rule = *r;
        if (rule.kind == Rule::kString) {
          if (rule.id == "device.string") {
            if (rule.pattern == "cuda" && !path && CudaDevicePrefix(s))
              Add(rule, i, "\"" + s.text + "\"");
            continue;
          }
          const bool prefix =
              !rule.pattern.empty() && (rule.pattern.back() == ':' || rule.pattern.back() == '_');
          const bool hit =
              prefix ? s.text.rfind(rule.pattern, 0) == 0 && s.text.size() > rule.pattern.size()
                     : s.text == rule.pattern;
          if (hit && !(path && rule.branch != Branch::kCustomKernel))
            Add(rule, i, "\"" + s.text + "\"");
        } else if (rule.kind == Rule::kKeyword && !kw.empty() &&
                   rule.pattern == kw + "=" + s.text) {
          Add(rule, i, kw + "=\"" + s.text + "\"");
        }
      }
  }

  // keyword=True / keyword=False (load_in_8bit=True).
  void KeywordConstant(size_t i) {
    if (i < 2 || t[i - 1].text != "=" || t[i - 2].kind != Token::kName) return;
    const std::string pattern = t[i - 2].text + "=" + t[i].text;
    for (const Rule* rule : RulesOf(Rule::kKeyword))
      if (rule->pattern == pattern) Add(*rule, i - 2, pattern);
  }

  void Run() {
    bool statement_start = true;
    for (size_t i = 0; i < t.size(); ++i) {
      const Token& k = t[i];
      if (k.kind == Token::kNewline) {
        statement_start = true;
        continue;
      }
      if (statement_start && k.kind == Token::kName && (k.text == "import" || k.text == "from") &&
          i + 1 < t.size() && t[i + 1].kind == Token::kName) {
        i = Import(i);
        statement_start = true;
        continue;
      }
      statement_start = false;
      if (k.kind == Token::kString) {
        StringRules(i);
        continue;
      }
      if (k.kind == Token::kOp && k.text == "." && i + 1 < t.size() &&
          t[i + 1].kind == Token::kName) {
        const Token& n = t[i + 1];
        const bool call = i + 2 < t.size() && t[i + 2].text == "(";
        // backward(), Trainer.train(), Lightning's fit(): the project trains.
        if (call && (n.text == "backward" || n.text == "train" || n.text == "fit")) r.trains = true;
        if ((n.text == "npu" && call) || n.text == "is_npu") Signal(i + 1, ".npu()");
        for (const Rule::Kind kind : {Rule::kMethod, Rule::kAttribute})
          for (const Rule* rule : RulesOf(kind))
            if (n.text == rule->pattern && (kind == Rule::kAttribute || call))
              Add(*rule, i + 1, "." + n.text + (call ? "()" : ""));
        Signal(i + 1, NpuBareName(n.text));
        ++i;
        continue;
      }
      if (k.kind == Token::kName && (k.text == "True" || k.text == "False")) {
        KeywordConstant(i);
        continue;
      }
      if (k.kind == Token::kName && (i == 0 || t[i - 1].text != ".")) {
        Signal(i, NpuBareName(k.text));
        std::vector<std::string> names;
        const size_t end = Chain(i, &names);
        auto it = alias.find(names[0]);
        if (it != alias.end()) {
          const std::string q = it->second + (names.size() > 1 ? "." + Join(names, 1) : "");
          r.names.insert(q);
          Signal(i, NpuNameSignal(q));
          if (q.rfind("torch.optim", 0) == 0 && q != "torch.optim") r.trains = true;
          // Inside a Triton kernel every tl.* call is the kernel itself: the kernel is one
          // record, not one finding per call.
          if (const Rule* rule = MatchQualified(q); rule && !InTritonBody(i)) {
            Add(*rule, i, q);
            // A name bound by an optional import is optional wherever it is used.
            const auto u = alias_usage.find(names[0]);
            if (u != alias_usage.end() && u->second.first == Usage::kOptional &&
                !r.findings.empty() && r.findings.back().line == k.line &&
                r.findings.back().usage == Usage::kRequired)
              r.findings.back().usage = Usage::kOptional,
              r.findings.back().usage_why = "imported optionally: " + u->second.second;
          }
          // Triton kernels: @triton.jit def name(...)
          if ((q == "triton.jit" || q == "triton.autotune" || q == "triton.heuristics") && i > 0 &&
              t[i - 1].text == "@" && q == "triton.jit")
            CountTriton(i, end);
          i = end - 1;
        }
      }
    }
  }

  // The decorated function's body decides: tl.dot, atomics or loops make it complex; its
  // name and the operations it uses say whether a torch op does the same.
  void CountTriton(size_t at, size_t from) {
    ++r.triton_kernels;
    TritonKernel k;
    k.file = file;
    k.usage = ctx->UsageAt(at, nullptr);
    size_t j = from;
    while (j < t.size() && t[j].text != "def") ++j;
    if (j + 1 >= t.size()) return;
    k.name = t[j + 1].text;
    k.line = t[j].line;
    const int start_col = t[j].column;
    size_t k_end = t.size();
    std::set<std::string> ops;
    for (size_t q = j + 1; q < t.size(); ++q) {
      if (t[q].kind == Token::kName && t[q].column <= start_col && t[q].line > t[j].line &&
          (q == 0 || t[q - 1].kind == Token::kNewline)) {
        k_end = q;
        break;  // back at the def's indentation: the function ended
      }
      if (t[q].kind != Token::kName) continue;
      const std::string& n = t[q].text;
      if (q > 0 && t[q - 1].text == ".") ops.insert(n);
      if (n == "dot" && q > 0 && t[q - 1].text == ".") k.reasons.push_back("tl.dot");
      if (n.rfind("atomic_", 0) == 0) k.reasons.push_back("atomics");
      if (n == "for" || n == "while") k.reasons.push_back("loops");
    }
    std::sort(k.reasons.begin(), k.reasons.end());
    k.reasons.erase(std::unique(k.reasons.begin(), k.reasons.end()), k.reasons.end());
    k.complex = !k.reasons.empty();
    k.lines = (k_end < t.size() ? t[k_end].line : static_cast<int>(lines.size())) - k.line;
    k.equivalent = TritonEquivalent(k.name, ops);
    if (k.complex) ++r.triton_complex;
    r.triton.push_back(std::move(k));
  }
};

}  // namespace

FileResult AnalyzePython(const std::string& file, const std::string& text, bool setup_py) {
  Analyzer a;
  a.file = file;
  a.setup_py = setup_py;
  a.lines = Lines(text);
  std::string error;
  if (!TokenizePython(text, &a.t, &error)) {
    a.r.error = error;
    return a.r;
  }
  a.ctx = std::make_unique<PyContext>(a.t);
  // Triton kernel bodies first, so calls inside them fold into the kernel record.
  for (size_t i = 1; i + 2 < a.t.size(); ++i)
    if (a.t[i - 1].text == "@" && a.t[i].kind == Token::kName && a.t[i + 1].text == "." &&
        a.t[i + 2].text == "jit" && (a.t[i].text == "triton" || a.t[i].text == "tl")) {
      size_t j = i;
      while (j < a.t.size() && a.t[j].text != "def") ++j;
      size_t e = j + 1;
      while (e < a.t.size() &&
             !(a.t[e].kind == Token::kName && a.t[e - 1].kind == Token::kNewline &&
               a.t[e].column <= a.t[j < a.t.size() ? j : i].column &&
               a.t[e].line > a.t[j < a.t.size() ? j : i].line))
        ++e;
      if (j < a.t.size()) a.triton_bodies.emplace_back(j, e);
    }
  for (const auto& l : a.lines) {
    const std::string s = Trim(l);
    if (!s.empty() && s[0] != '#') ++a.r.code_lines;
  }
  a.Run();
  if (setup_py) {
    // setup.py builds the CUDA extension: it is ported with the kernels (an Ascend C build),
    // not rewritten line by line.
    for (auto& f : a.r.findings)
      if (f.auto_migratable) {
        f.auto_migratable = false;
        f.counterpart += " (setup.py: ported with the extension's build)";
      }
    // install_requires and friends: each requirement string names a dependency; one inside
    // extras_require (or another "extra"/"optional" argument) is optional.
    std::set<std::pair<int, std::string>> seen_deps;
    for (size_t i = 0; i < a.t.size(); ++i) {
      const Token& tok = a.t[i];
      if (tok.kind != Token::kString || tok.docstring) continue;
      auto deps = AnalyzeRequirements(file, tok.text);
      for (auto& f : deps.findings) {
        if (!seen_deps.insert({tok.line, f.rule}).second) continue;
        f.line = f.end_line = tok.line;
        f.column = tok.column;
        f.snippet =
            tok.line - 1 < static_cast<int>(a.lines.size()) ? Trim(a.lines[tok.line - 1]) : "";
        if (const std::string extra = a.EnclosingExtra(i); !extra.empty())
          f.usage = Usage::kOptional, f.usage_why = "an optional dependency (" + extra + ")";
        a.r.findings.push_back(std::move(f));
      }
    }
  }
  return a.r;
}

}  // namespace oc::migrate
