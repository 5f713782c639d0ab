#include "migrate/python_context.h"

#include <algorithm>
#include <cctype>

namespace oc::migrate {
namespace {

bool IsCompound(const std::string& k) {
  return k == "if" || k == "elif" || k == "else" || k == "try" || k == "except" || k == "finally" ||
         k == "def" || k == "class" || k == "with" || k == "for" || k == "while" || k == "async";
}

// Names that make a condition a switch the user sets: a flag, a config field, an
// availability check. `__name__ == "__main__"` is the main path, not a switch.
bool FlagLike(const std::string& n) {
  static const char* const kExact[] = {"compile", "args",     "opt",           "opts",
                                       "cfg",     "config",   "conf",          "flags",
                                       "FLAGS",   "hparams",  "environ",       "getenv",
                                       "options", "settings", "training_args", "is_compiling"};
  for (const char* e : kExact)
    if (n == e) return true;
  std::string l;
  for (char c : n) l += static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  for (const char* p : {"use_", "enable_", "with_", "has_", "do_", "is_"})
    if (l.rfind(p, 0) == 0 && l.size() > std::char_traits<char>::length(p)) return true;
  return l.find("compile") != std::string::npos || l.find("_available") != std::string::npos ||
         l.find("available_") != std::string::npos;
}

}  // namespace

PyContext::PyContext(const std::vector<Token>& t) : t_(t), stmt_of_(t.size(), -1) {
  std::vector<int> open;  // compound statements whose block may hold the next statement
  size_t i = 0;
  while (i < t.size()) {
    if (t[i].kind == Token::kNewline) {
      ++i;
      continue;
    }
    Stmt s;
    s.begin = i;
    s.indent = t[i].column;
    s.keyword = t[i].kind == Token::kName ? t[i].text : "";
    while (i < t.size() && t[i].kind != Token::kNewline) ++i;
    s.end = i;
    while (!open.empty() && stmts_[open.back()].indent >= s.indent) open.pop_back();
    s.parent = open.empty() ? -1 : open.back();
    const int id = static_cast<int>(stmts_.size());
    for (size_t k = s.begin; k < s.end; ++k) stmt_of_[k] = id;
    const bool compound = IsCompound(s.keyword);
    stmts_.push_back(std::move(s));
    if (compound) open.push_back(id);
  }
  for (int s = 0; s < static_cast<int>(stmts_.size()); ++s) Classify(s);
}

std::string PyContext::Condition(const Stmt& s) const {
  // if/elif: the condition; any statement: an inline `x if flag else y`. A loop's body is
  // the main path however its condition reads (`while is_running:`).
  if (s.keyword == "while" || s.keyword == "for" || s.keyword == "def" || s.keyword == "class" ||
      s.keyword == "async")
    return "";
  size_t from = s.begin, to = s.end;
  if (s.keyword == "if" || s.keyword == "elif" || s.keyword == "while") {
    from = s.begin + 1;
  } else {
    from = s.end;
    for (size_t k = s.begin + 1; k < s.end; ++k)
      if (t_[k].kind == Token::kName && t_[k].text == "if") {
        from = k + 1;
        break;
      }
    for (size_t k = from; k < s.end; ++k)
      if (t_[k].kind == Token::kName && t_[k].text == "else") {
        to = k;
        break;
      }
  }
  for (size_t k = from; k < to; ++k) {
    if (t_[k].kind == Token::kName && t_[k].text == "__name__") return "";
    if (t_[k].kind == Token::kOp && t_[k].text == ":" && s.keyword != "") break;
  }
  for (size_t k = from; k < to; ++k) {
    if (t_[k].kind == Token::kOp && t_[k].text == ":" &&
        (s.keyword == "if" || s.keyword == "elif" || s.keyword == "while"))
      break;
    if (t_[k].kind == Token::kName && FlagLike(t_[k].text)) {
      std::string cond;
      for (size_t c = from; c < to && c < from + 8; ++c) {
        if (t_[c].kind == Token::kOp && t_[c].text == ":") break;
        const bool glue = t_[c].text == "." || t_[c].text == "(" || t_[c].text == ")" ||
                          (c > from && (t_[c - 1].text == "." || t_[c - 1].text == "("));
        cond += (cond.empty() || glue ? "" : " ") + t_[c].text;
      }
      return cond;
    }
  }
  return "";
}

void PyContext::Classify(int id) {
  Stmt& s = stmts_[id];
  const Stmt* parent = s.parent >= 0 ? &stmts_[s.parent] : nullptr;
  if (parent && parent->usage != Usage::kRequired) {
    s.usage = parent->usage, s.why = parent->why;
    return;
  }
  if (s.keyword == "def" && s.begin + 1 < s.end && t_[s.begin + 1].text.rfind("test_", 0) == 0) {
    s.usage = Usage::kAuxiliary, s.why = "a test function";
    return;
  }
  // def maybe_compile(model) / _compile_denoiser(...): a function that exists to compile is
  // called when compiling was asked for.
  if (s.keyword == "def" && s.begin + 1 < s.end &&
      t_[s.begin + 1].text.find("compile") != std::string::npos) {
    s.usage = Usage::kOptional,
    s.why = "in " + t_[s.begin + 1].text + "(), which compiles on request";
    return;
  }
  std::string cond = Condition(s);
  if (cond.empty() && (s.keyword == "else" || s.keyword == "elif")) {
    // The chain's `if` decides for its else branches.
    for (int p = id - 1; p >= 0; --p) {
      const Stmt& q = stmts_[p];
      if (q.parent != s.parent || q.indent != s.indent) continue;
      if (q.keyword != "if" && q.keyword != "elif") break;
      cond = Condition(q);
      if (!cond.empty() || q.keyword == "if") break;
    }
  }
  if (!cond.empty()) {
    s.usage = Usage::kOptional, s.why = "behind a condition: if " + cond;
    return;
  }
  // try: ... except ImportError: the project runs without the module; the handler is the
  // fallback.
  auto guards_import = [&](const Stmt& e) {
    if (e.end == e.begin + 2) return true;  // bare `except:`
    for (size_t k = e.begin + 1; k < e.end; ++k)
      if (t_[k].text == "ImportError" || t_[k].text == "ModuleNotFoundError" ||
          t_[k].text == "Exception")
        return true;
    return false;
  };
  if (s.keyword == "try") {
    for (int n = id + 1; n < static_cast<int>(stmts_.size()); ++n) {
      const Stmt& q = stmts_[n];
      if (q.indent > s.indent) continue;
      if (q.indent < s.indent || q.keyword != "except") break;
      if (guards_import(q)) {
        s.usage = Usage::kOptional, s.why = "guarded by try/except ImportError";
        return;
      }
    }
  }
  if (s.keyword == "except" && guards_import(s)) {
    s.usage = Usage::kOptional, s.why = "in an except ImportError fallback";
  }
}

Usage PyContext::UsageAt(size_t i, std::string* why) const {
  if (i >= stmt_of_.size() || stmt_of_[i] < 0) return Usage::kRequired;
  const Stmt& s = stmts_[stmt_of_[i]];
  // A condition is evaluated whenever its statement runs: `torch.cuda.is_available()` in
  // `if torch.cuda.is_available():` has the enclosing block's usage, not the branch's.
  auto outer = [&]() {
    if (s.parent < 0) {
      if (why) why->clear();
      return Usage::kRequired;
    }
    if (why) *why = stmts_[s.parent].why;
    return stmts_[s.parent].usage;
  };
  if (s.keyword == "if" || s.keyword == "elif" || s.keyword == "while") {
    int depth = 0;
    for (size_t k = s.begin + 1; k < s.end && k <= i; ++k) {
      const std::string& x = t_[k].text;
      if (t_[k].kind != Token::kOp) continue;
      if (x == "(" || x == "[" || x == "{") ++depth;
      if (x == ")" || x == "]" || x == "}") --depth;
      if (x == ":" && depth == 0) {
        if (why) *why = s.why;
        return s.usage;  // the inline body after the colon
      }
    }
    return outer();
  }
  // `a if flag else b`: the flag itself is evaluated every time.
  for (size_t k = s.begin + 1; k < s.end; ++k)
    if (t_[k].kind == Token::kName && t_[k].text == "if") {
      size_t e = k + 1;
      while (e < s.end && !(t_[e].kind == Token::kName && t_[e].text == "else")) ++e;
      if (i > k && i < e && s.keyword != "for" && s.keyword != "def") return outer();
      break;
    }
  if (why) *why = s.why;
  return s.usage;
}

bool PyContext::InFunction(size_t i) const {
  if (i >= stmt_of_.size() || stmt_of_[i] < 0) return false;
  for (int p = stmts_[stmt_of_[i]].parent; p >= 0; p = stmts_[p].parent)
    if (stmts_[p].keyword == "def" || stmts_[p].keyword == "async") return true;
  return false;
}

std::string PyContext::EnclosingCall(size_t i) const {
  int depth = 0;
  for (size_t k = i; k-- > 0;) {
    const Token& x = t_[k];
    if (x.kind == Token::kNewline) return "";
    if (x.kind != Token::kOp) continue;
    if (x.text == ")" || x.text == "]" || x.text == "}") ++depth;
    if (x.text == "(" || x.text == "[" || x.text == "{") {
      if (depth == 0) {
        if (x.text != "(") return "";  // a list or dict literal: look through it
        return k > 0 && t_[k - 1].kind == Token::kName ? t_[k - 1].text : "";
      }
      --depth;
    }
  }
  return "";
}

int PyContext::HeaderEndLine(const std::vector<std::string>& lines) const {
  int line = 0;
  // Shebang and PEP 263 encoding lines are comments the tokenizer skipped.
  for (int k = 0; k < 2 && k < static_cast<int>(lines.size()); ++k) {
    const std::string& l = lines[k];
    if ((k == 0 && l.rfind("#!", 0) == 0) ||
        (l.rfind("#", 0) == 0 && l.find("coding") != std::string::npos))
      line = k + 1;
  }
  for (const Stmt& s : stmts_) {
    if (s.parent >= 0) continue;
    const Token& first = t_[s.begin];
    const bool docstring = first.kind == Token::kString && first.docstring && s.end == s.begin + 1;
    const bool future =
        s.keyword == "from" && s.begin + 1 < s.end && t_[s.begin + 1].text == "__future__";
    if (!docstring && !future) break;
    // The statement's last line: the next statement's line minus blank ones is not known
    // here, so use the line of the closing token (strings end where the next token starts).
    int last = t_[s.end - 1].line;
    if (docstring) {
      // A docstring spans as many lines as it holds newlines.
      last = first.line + static_cast<int>(std::count(first.text.begin(), first.text.end(), '\n'));
    }
    line = std::max(line, last);
  }
  return line;
}

// Calls whose string arguments are paths or file names, never device strings.
bool PathCall(const std::string& name) {
  static const char* const kPath[] = {
      "glob",    "iglob",         "join",    "Path",     "open",     "listdir",
      "exists",  "isdir",         "isfile",  "makedirs", "mkdir",    "walk",
      "rglob",   "relpath",       "abspath", "dirname",  "basename", "include_dirs",
      "sources", "find_packages", "copy",    "copytree", "rmtree",   "PurePath"};
  for (const char* p : kPath)
    if (name == p) return true;
  return false;
}

size_t CudaDevicePrefix(const Token& k) {
  if (k.kind != Token::kString || k.docstring) return 0;
  const std::string& v = k.text;
  if (v == "cuda") return 4;
  if (v.rfind("cuda:", 0) != 0) return 0;
  const std::string rest = v.substr(5);
  if (rest.empty()) return 4;  // "cuda:" + str(rank)
  if (rest.find_first_not_of("0123456789") == std::string::npos) return 4;
  // A formatted index: {rank}, {}, {0}, %d, %s, %i, and nothing else after it.
  const bool f = k.prefix.find_first_of("fF") != std::string::npos;
  if (rest[0] == '{' && rest.back() == '}' && rest.find('}') == rest.size() - 1) return 4;
  if (!f && (rest == "%d" || rest == "%s" || rest == "%i")) return 4;
  return 0;
}

}  // namespace oc::migrate
