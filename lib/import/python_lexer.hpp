#pragma once
// Python source as logical lines of tokens: enough of Python's lexical rules to read KernelBench's
// problem files (names, integers, strings, operators, comments, docstrings, bracket and backslash
// continuation, indentation). Nothing is executed; a character it does not know is a ParseFailure.
#include <string>
#include <string_view>
#include <vector>

namespace kbench::import::python {

enum class TokenKind { name, number, string, op };

struct Token {
  TokenKind kind = TokenKind::op;
  std::string text;  // a string token holds its contents, quotes and prefix removed (escapes kept as written)
  int line = 1;
  int column = 1;
  bool is(std::string_view op) const { return (kind == TokenKind::op || kind == TokenKind::name) && text == op; }
};

// One logical line: a statement, with its indentation (columns, a tab to the next multiple of 8).
struct LogicalLine {
  int indent = 0;
  std::vector<Token> tokens;
  int line() const { return tokens.empty() ? 0 : tokens.front().line; }
};

// Throws ParseFailure (import/import_error.hpp) at the first thing it cannot read.
std::vector<LogicalLine> tokenize(std::string_view source);

}  // namespace kbench::import::python
