// The statement structure of tokenized Python: which block each token sits in, so a finding
// can say whether the project runs without it (behind a flag, an import guard, in a test),
// and which call a string is an argument of (a path in glob() is not a device string).
#pragma once

#include <string>
#include <vector>

#include "migrate/finding.h"
#include "migrate/python_lexer.h"

namespace oc::migrate {

class PyContext {
 public:
  explicit PyContext(const std::vector<Token>& tokens);
  // kRequired, or kOptional / kAuxiliary with the reason ("if args.compile:").
  Usage UsageAt(size_t token, std::string* why) const;
  // The name of the function whose argument list holds `token` ("glob", "join"), or "".
  std::string EnclosingCall(size_t token) const;
  bool InFunction(size_t token) const;
  // The line after the module's header: shebang, encoding line, docstring and
  // `from __future__` imports, where a module-level import may go (0 = the top).
  int HeaderEndLine(const std::vector<std::string>& lines) const;

 private:
  struct Stmt {
    size_t begin = 0, end = 0;  // tokens [begin, end)
    int indent = 0;
    int parent = -1;  // the enclosing compound statement
    std::string keyword;
    Usage usage = Usage::kRequired;
    std::string why;
  };
  void Classify(int s);
  std::string Condition(const Stmt& s) const;  // the flag names of an if/elif/ternary, or ""
  const std::vector<Token>& t_;
  std::vector<Stmt> stmts_;
  std::vector<int> stmt_of_;  // token -> statement
};

// Device strings as CANN's migration tool rewrites them: "cuda", "cuda:0", and the prefix of
// formatted ones (f"cuda:{rank}", "cuda:{}".format(r), "cuda:%d" % r, "cuda:" + str(r)).
// Returns how many leading characters of the value are the "cuda" to replace (4), or 0.
size_t CudaDevicePrefix(const Token& string_token);

// Calls whose string arguments are paths or file names (glob, os.path.join, Path, open).
bool PathCall(const std::string& function_name);

}  // namespace oc::migrate
