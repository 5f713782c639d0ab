// A Python tokenizer good enough for analysis: names, operators, numbers and string literals
// (all prefixes and quotes, triple-quoted, f-strings) with line and column; comments and
// line continuations skipped. Docstrings are strings like any other.
#pragma once

#include <string>
#include <string_view>
#include <vector>

namespace oc::migrate {

struct Token {
  enum Kind { kName, kOp, kNumber, kString, kNewline } kind = kOp;
  std::string text;          // names and operators as written; strings: the literal's value
  int line = 0, column = 0;  // 1-based
  bool docstring = false;    // a string that is a whole statement
  std::string prefix;        // strings: the prefix as written (f, rb, ...)
};

// Returns false (with `error`) on an unterminated string; tokens up to there are kept.
bool TokenizePython(std::string_view src, std::vector<Token>* tokens, std::string* error);

}  // namespace oc::migrate
