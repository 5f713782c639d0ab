#include "migrate/python_lexer.h"

#include <cctype>
#include <cstring>

namespace oc::migrate {

bool TokenizePython(std::string_view s, std::vector<Token>* out, std::string* error) {
  int line = 1;
  size_t line_start = 0, i = 0;
  int depth = 0;  // brackets: newlines inside them do not end a statement
  bool statement_start = true;
  auto col = [&](size_t pos) { return static_cast<int>(pos - line_start) + 1; };
  auto push = [&](Token::Kind k, std::string text, int l, int c) {
    out->push_back(Token{k, std::move(text), l, c, false, ""});
    statement_start = false;
  };
  while (i < s.size()) {
    const char c = s[i];
    if (c == '\n') {
      if (depth == 0 && !out->empty() && out->back().kind != Token::kNewline)
        out->push_back(Token{Token::kNewline, "", line, col(i), false, ""}), statement_start = true;
      ++line;
      line_start = ++i;
      continue;
    }
    if (c == '#') {
      while (i < s.size() && s[i] != '\n') ++i;
      continue;
    }
    if (c == '\\' && i + 1 < s.size() && (s[i + 1] == '\n' || s[i + 1] == '\r')) {
      i += s[i + 1] == '\r' && i + 2 < s.size() && s[i + 2] == '\n' ? 3 : 2;
      ++line;
      line_start = i;
      continue;
    }
    if (std::isspace(static_cast<unsigned char>(c))) {
      ++i;
      continue;
    }
    // String prefixes: r, b, u, f and combinations, then a quote.
    size_t p = i;
    while (p < s.size() && p - i < 3 && std::strchr("rRbBuUfF", s[p]) && s[p] != '\0') ++p;
    if (p < s.size() && (s[p] == '\'' || s[p] == '"') &&
        (p == i || std::isalpha(static_cast<unsigned char>(s[i])))) {
      const std::string_view prefix = s.substr(i, p - i);
      const bool raw = prefix.find_first_of("rR") != std::string_view::npos;
      const char q = s[p];
      const bool triple = p + 2 < s.size() && s[p + 1] == q && s[p + 2] == q;
      const int l0 = line, c0 = col(i);
      const bool was_start = statement_start;
      size_t j = p + (triple ? 3 : 1);
      std::string value;
      bool closed = false;
      while (j < s.size()) {
        if (s[j] == '\\' && !raw && j + 1 < s.size()) {
          value += s[j + 1];
          if (s[j + 1] == '\n') ++line, line_start = j + 2;
          j += 2;
          continue;
        }
        if (s[j] == '\\' && raw && j + 1 < s.size()) {
          value += s[j];
          value += s[j + 1];
          j += 2;
          continue;
        }
        if (triple ? (s.compare(j, 3, std::string(3, q)) == 0) : s[j] == q) {
          j += triple ? 3 : 1;
          closed = true;
          break;
        }
        if (s[j] == '\n') {
          if (!triple) break;
          ++line;
          line_start = j + 1;
        }
        value += s[j++];
      }
      if (!closed) {
        *error = "unterminated string starting at line " + std::to_string(l0);
        return false;
      }
      push(Token::kString, std::move(value), l0, c0);
      out->back().docstring = was_start;
      out->back().prefix = std::string(prefix);
      i = j;
      continue;
    }
    if (std::isalpha(static_cast<unsigned char>(c)) || c == '_' ||
        static_cast<unsigned char>(c) >= 0x80) {
      size_t j = i;
      while (j < s.size() && (std::isalnum(static_cast<unsigned char>(s[j])) || s[j] == '_' ||
                              static_cast<unsigned char>(s[j]) >= 0x80))
        ++j;
      push(Token::kName, std::string(s.substr(i, j - i)), line, col(i));
      i = j;
      continue;
    }
    if (std::isdigit(static_cast<unsigned char>(c)) ||
        (c == '.' && i + 1 < s.size() && std::isdigit(static_cast<unsigned char>(s[i + 1])))) {
      size_t j = i;
      // A sign belongs to the number right after a decimal exponent (1e-5), not in hex.
      const bool hex = s.size() > i + 1 && s[i] == '0' && (s[i + 1] == 'x' || s[i + 1] == 'X');
      while (j < s.size()) {
        const char d = s[j];
        const bool sign =
            (d == '+' || d == '-') && !hex && j > i && (s[j - 1] == 'e' || s[j - 1] == 'E');
        if (!(std::isalnum(static_cast<unsigned char>(d)) || d == '.' || d == '_' || sign)) break;
        ++j;
      }
      push(Token::kNumber, std::string(s.substr(i, j - i)), line, col(i));
      i = j;
      continue;
    }
    if (c == '(' || c == '[' || c == '{') ++depth;
    if ((c == ')' || c == ']' || c == '}') && depth > 0) --depth;
    // Two-character operators the analysis cares about.
    static const char* kOps2[] = {"==", "!=", "<=", ">=", "**", "//", "->", ":=", "<<", ">>"};
    std::string op(1, c);
    for (const char* o : kOps2)
      if (s.compare(i, 2, o) == 0) op = o;
    push(Token::kOp, op, line, col(i));
    i += op.size();
  }
  return true;
}

}  // namespace oc::migrate
