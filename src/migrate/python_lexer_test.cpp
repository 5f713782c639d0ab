// Unit tests of migrate/python_lexer.h: the token streams (kind, text, line, column) of small
// Python snippets: names, operators, numbers, strings with every prefix and quote, docstrings,
// comments, brackets and line continuations, and unterminated strings.
#include "migrate/python_lexer.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

namespace oc::migrate {
namespace {

// A token as "K:text@line:column", K one of N (name), O (op), 9 (number), S (string), ;
// (newline), so a whole stream compares in one assertion.
std::string Show(const Token& t) {
  const char* kinds = "NO9S;";
  return std::string(1, kinds[t.kind]) + ":" + t.text + "@" + std::to_string(t.line) + ":" +
         std::to_string(t.column);
}

std::vector<std::string> Lex(const std::string& src) {
  std::vector<Token> tokens;
  std::string error;
  EXPECT_TRUE(TokenizePython(src, &tokens, &error)) << error;
  std::vector<std::string> out;
  for (const auto& t : tokens) out.push_back(Show(t));
  return out;
}

std::vector<Token> Tokens(const std::string& src) {
  std::vector<Token> tokens;
  std::string error;
  EXPECT_TRUE(TokenizePython(src, &tokens, &error)) << error;
  return tokens;
}

TEST(PythonLexer, AssignmentWithACall) {
  EXPECT_EQ(Lex("x = foo(1, 'a')"),
            (std::vector<std::string>{"N:x@1:1", "O:=@1:3", "N:foo@1:5", "O:(@1:8", "9:1@1:9",
                                      "O:,@1:10", "S:a@1:12", "O:)@1:15"}));
}

TEST(PythonLexer, NewlinesEndStatementsButBlankAndCommentLinesDoNot) {
  EXPECT_EQ(Lex("a  # comment\n\n# only a comment\n   \nb\n"),
            (std::vector<std::string>{"N:a@1:1", ";:@1:13", "N:b@5:1", ";:@5:2"}));
}

TEST(PythonLexer, NoNewlineTokenInsideBrackets) {
  EXPECT_EQ(Lex("f(1,\n  [2,\n   3])\ny\n"),
            (std::vector<std::string>{"N:f@1:1", "O:(@1:2", "9:1@1:3", "O:,@1:4", "O:[@2:3",
                                      "9:2@2:4", "O:,@2:5", "9:3@3:4", "O:]@3:5", "O:)@3:6",
                                      ";:@3:7", "N:y@4:1", ";:@4:2"}));
}

TEST(PythonLexer, BackslashContinuationJoinsLines) {
  EXPECT_EQ(Lex("x = 1 + \\\n    2\n"), (std::vector<std::string>{"N:x@1:1", "O:=@1:3", "9:1@1:5",
                                                                  "O:+@1:7", "9:2@2:5", ";:@2:6"}));
}

TEST(PythonLexer, CrlfLineEndsLexLikeLf) {
  // The same tokens on the same lines (the newline token's column counts the '\r').
  EXPECT_EQ(Lex("a = 1\r\nb = 'x'\r\n"),
            (std::vector<std::string>{"N:a@1:1", "O:=@1:3", "9:1@1:5", ";:@1:7", "N:b@2:1",
                                      "O:=@2:3", "S:x@2:5", ";:@2:9"}));
}

TEST(PythonLexer, TwoCharacterOperatorsAreOneToken) {
  std::vector<std::string> ops;
  for (const auto& t : Tokens("a == b != c <= d >= e ** f // g -> h := i << j >> k = l < m"))
    if (t.kind == Token::kOp) ops.push_back(t.text);
  EXPECT_EQ(ops, (std::vector<std::string>{"==", "!=", "<=", ">=", "**", "//", "->", ":=", "<<",
                                           ">>", "=", "<"}));
}

TEST(PythonLexer, NumbersInTheirForms) {
  std::vector<std::string> numbers;
  for (const auto& t : Tokens("a = [0x1F, 1_000, 3.14, .5, 10j, 7]"))
    if (t.kind == Token::kNumber) numbers.push_back(t.text);
  EXPECT_EQ(numbers, (std::vector<std::string>{"0x1F", "1_000", "3.14", ".5", "10j", "7"}));
}

// An exponent with a sign ("1e-5", "2.5E+3") is one NUMBER token in Python (the lexer once
// stopped at the sign); in hex a sign is an operator.
TEST(PythonLexer, SignedExponentIsOneNumber) {
  EXPECT_EQ(Lex("lr = 1e-5"), (std::vector<std::string>{"N:lr@1:1", "O:=@1:4", "9:1e-5@1:6"}));
  EXPECT_EQ(Lex("0xe-1")[0], "9:0xe@1:1");
}

TEST(PythonLexer, StringPrefixesAndQuotes) {
  const auto t = Tokens("a = rb'\\d' + f\"cuda:{r}\" + u'x' + B\"y\" + 'z'");
  std::vector<std::string> got;
  for (const auto& k : t)
    if (k.kind == Token::kString) got.push_back(k.prefix + "|" + k.text);
  // Raw strings keep their backslashes; the prefix is kept as written.
  EXPECT_EQ(got, (std::vector<std::string>{"rb|\\d", "f|cuda:{r}", "u|x", "B|y", "|z"}));
}

TEST(PythonLexer, EscapedQuotesStayInsideTheString) {
  const auto t = Tokens("s = \"a\\\"b\" + 'it\\'s'");
  ASSERT_EQ(t.size(), 5u);
  EXPECT_EQ(t[2].kind, Token::kString);
  EXPECT_EQ(t[2].text, "a\"b");
  EXPECT_EQ(t[4].text, "it's");
}

TEST(PythonLexer, NamesThatStartLikePrefixesAreNames) {
  // b, rb, f and fr are names when no quote follows.
  EXPECT_EQ(Lex("b = rb + f(fr)"),
            (std::vector<std::string>{"N:b@1:1", "O:=@1:3", "N:rb@1:5", "O:+@1:8", "N:f@1:10",
                                      "O:(@1:11", "N:fr@1:12", "O:)@1:14"}));
}

TEST(PythonLexer, TripleQuotedStringSpansLines) {
  const auto t = Tokens("s = '''one\ntwo \"x\"\n'''\nnext\n");
  ASSERT_EQ(t.size(), 6u);
  EXPECT_EQ(t[2].kind, Token::kString);
  EXPECT_EQ(t[2].text, "one\ntwo \"x\"\n");
  EXPECT_EQ(t[2].line, 1);
  EXPECT_EQ(t[3].kind, Token::kNewline);
  EXPECT_EQ(t[4].text, "next");
  EXPECT_EQ(t[4].line, 4);
}

TEST(PythonLexer, DocstringsAreStringsThatStartAStatement) {
  const auto t =
      Tokens("\"\"\"Module.\"\"\"\ndef f():\n    \"\"\"Function.\"\"\"\n    return \"v\"\n");
  std::vector<std::pair<std::string, bool>> strings;
  for (const auto& k : t)
    if (k.kind == Token::kString) strings.emplace_back(k.text, k.docstring);
  EXPECT_EQ(strings, (std::vector<std::pair<std::string, bool>>{
                         {"Module.", true}, {"Function.", true}, {"v", false}}));
}

TEST(PythonLexer, CommentsProduceNothingEvenWithQuotes) {
  EXPECT_EQ(Lex("x = 1  # a 'quote' and \"cuda\"\n"),
            (std::vector<std::string>{"N:x@1:1", "O:=@1:3", "9:1@1:5", ";:@1:30"}));
}

TEST(PythonLexer, HashInsideAStringIsNotAComment) {
  const auto t = Tokens("c = '#fff'  # colour\n");
  ASSERT_EQ(t.size(), 4u);
  EXPECT_EQ(t[2].text, "#fff");
}

TEST(PythonLexer, NonAsciiIdentifiersAreNames) {
  const auto t = Tokens("caf\xc3\xa9 = 1");
  ASSERT_EQ(t.size(), 3u);
  EXPECT_EQ(t[0].kind, Token::kName);
  EXPECT_EQ(t[0].text, "caf\xc3\xa9");
}

TEST(PythonLexer, UnterminatedStringFailsKeepingEarlierTokens) {
  std::vector<Token> tokens;
  std::string error;
  EXPECT_FALSE(TokenizePython("ok = 1\nx = \"abc\ny = 2\n", &tokens, &error));
  EXPECT_EQ(error, "unterminated string starting at line 2");
  ASSERT_EQ(tokens.size(), 6u);
  EXPECT_EQ(tokens[4].text, "x");
  EXPECT_EQ(tokens[5].text, "=");

  tokens.clear();
  EXPECT_FALSE(TokenizePython("doc = '''never closed\n\n", &tokens, &error));
  EXPECT_EQ(error, "unterminated string starting at line 1");
}

TEST(PythonLexer, EmptySourceHasNoTokens) {
  EXPECT_TRUE(Lex("").empty());
  EXPECT_TRUE(Lex("\n\n# nothing\n").empty());
}

}  // namespace
}  // namespace oc::migrate
