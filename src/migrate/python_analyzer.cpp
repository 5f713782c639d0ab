// Python: tokens, imports resolved to qualified names, then the rules. Comments never
// produce findings; strings only when they are device or backend strings.
#include <algorithm>
#include <map>
#include <unordered_set>

#include "migrate/analyzers.h"
#include "migrate/python_lexer.h"
#include "migrate/rules.h"
#include "migrate/text_util.h"

namespace oc::migrate {
namespace {

struct Analyzer {
  std::string file;
  std::vector<std::string> lines;
  std::vector<Token> t;
  std::map<std::string, std::string> alias;  // local name -> qualified
  std::unordered_set<std::string> seen;
  FileResult r;

  void Add(const Rule& rule, const Token& at, const std::string& api) {
    // One finding per (line, rule, api): a set keeps this linear on big files.
    if (!seen.insert(std::to_string(at.line) + "\x1f" + rule.id + "\x1f" + api).second) return;
    Finding f;
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

  const Rule* MatchQualified(const std::string& q) const {
    const Rule* best = nullptr;
    for (const auto& rule : Rules())
      if (rule.kind == Rule::kQualified &&
          (q == rule.pattern || q.rfind(rule.pattern + ".", 0) == 0) &&
          (!best || rule.pattern.size() > best->pattern.size()))
        best = &rule;
    return best;
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
        r.modules.insert(Join(names));
        if (const Rule* rule = MatchQualified(Join(names))) Add(*rule, t[at], Join(names));
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
      if (const Rule* rule = MatchQualified(qualified)) {
        Add(*rule, t[at], qualified);
        matched_module = true;
      }
    }
    if (!matched_module && !relative && mod_at < t.size())
      if (const Rule* rule = MatchQualified(module)) Add(*rule, t[mod_at], module);
    return j;
  }

  void StringRules(size_t i) {
    const Token& s = t[i];
    if (s.docstring) return;
    std::string kw;
    if (i >= 2 && t[i - 1].kind == Token::kOp && t[i - 1].text == "=" &&
        t[i - 2].kind == Token::kName)
      kw = t[i - 2].text;
    for (const auto& rule : Rules()) {
      if (rule.kind == Rule::kString) {
        const bool prefix =
            !rule.pattern.empty() && (rule.pattern.back() == ':' || rule.pattern.back() == '_');
        const bool hit =
            prefix ? s.text.rfind(rule.pattern, 0) == 0 && s.text.size() > rule.pattern.size()
                   : s.text == rule.pattern;
        // "cuda:0", "cuda:1": the digits after the colon
        if (hit &&
            (rule.pattern != "cuda:" || std::all_of(s.text.begin() + 5, s.text.end(), ::isdigit)))
          Add(rule, s, "\"" + s.text + "\"");
      } else if (rule.kind == Rule::kKeyword && !kw.empty() && rule.pattern == kw + "=" + s.text) {
        Add(rule, s, kw + "=\"" + s.text + "\"");
      }
    }
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
        for (const auto& rule : Rules())
          if ((rule.kind == Rule::kMethod && call && n.text == rule.pattern) ||
              (rule.kind == Rule::kAttribute && n.text == rule.pattern))
            Add(rule, n, "." + n.text + (call ? "()" : ""));
        ++i;
        continue;
      }
      if (k.kind == Token::kName && (i == 0 || t[i - 1].text != ".")) {
        std::vector<std::string> names;
        const size_t end = Chain(i, &names);
        auto it = alias.find(names[0]);
        if (it != alias.end()) {
          const std::string q = it->second + (names.size() > 1 ? "." + Join(names, 1) : "");
          r.names.insert(q);
          if (q.rfind("torch.optim", 0) == 0 && q != "torch.optim") r.trains = true;
          if (const Rule* rule = MatchQualified(q)) Add(*rule, k, q);
          // Triton kernels: @triton.jit def name(...)
          if (q == "triton.jit" && i > 0 && t[i - 1].text == "@") CountTriton(end);
          i = end - 1;
        }
      }
    }
  }

  // The decorated function's body decides: tl.dot, atomics or loops make it complex.
  void CountTriton(size_t from) {
    ++r.triton_kernels;
    size_t j = from;
    while (j < t.size() && t[j].text != "def") ++j;
    const int start_col = j < t.size() ? t[j].column : 0;
    bool complex = false;
    for (size_t k = j + 1; k < t.size(); ++k) {
      if (t[k].kind == Token::kName && t[k].column <= start_col && t[k].line > t[j].line &&
          (k == 0 || t[k - 1].kind == Token::kNewline))
        break;  // back at the def's indentation: the function ended
      if (t[k].kind == Token::kName && (t[k].text == "dot" || t[k].text.rfind("atomic_", 0) == 0 ||
                                        t[k].text == "for" || t[k].text == "while"))
        complex = true;
    }
    if (complex) ++r.triton_complex;
  }
};

}  // namespace

FileResult AnalyzePython(const std::string& file, const std::string& text, bool setup_py) {
  Analyzer a;
  a.file = file;
  a.lines = Lines(text);
  std::string error;
  if (!TokenizePython(text, &a.t, &error)) {
    a.r.error = error;
    return a.r;
  }
  for (const auto& l : a.lines) {
    const std::string s = Trim(l);
    if (!s.empty() && s[0] != '#') ++a.r.code_lines;
  }
  a.Run();
  if (setup_py) {
    // install_requires and friends: requirement strings name the dependencies.
    std::string reqs;
    for (const auto& tok : a.t)
      if (tok.kind == Token::kString) reqs += tok.text + "\n";
    auto deps = AnalyzeRequirements(file, reqs);
    for (auto& f : deps.findings) {
      for (const auto& tok : a.t)
        if (tok.kind == Token::kString && tok.text.find(f.api) != std::string::npos) {
          f.line = f.end_line = tok.line;
          f.column = tok.column;
          f.snippet =
              tok.line - 1 < static_cast<int>(a.lines.size()) ? Trim(a.lines[tok.line - 1]) : "";
          break;
        }
      a.r.findings.push_back(std::move(f));
    }
  }
  return a.r;
}

}  // namespace oc::migrate
