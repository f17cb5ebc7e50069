#include "import/python_lexer.hpp"

#include <fmt/format.h>

#include <array>
#include <cctype>

#include "import/import_error.hpp"

namespace kbench::import::python {

namespace {

bool is_name_start(char c) { return std::isalpha(static_cast<unsigned char>(c)) || c == '_'; }
bool is_name_char(char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_'; }

// Longest first, so "**" is not read as two "*".
constexpr std::array<std::string_view, 23> kOperators = {
    "**=", "//=", "->", "**", "//", "==", "!=", "<=", ">=", "+=", "-=", "*=",
    "/=",  ":=",  "+",  "-",  "*",  "/",  "%",  "(",  ")",  "[",  "]",
};
constexpr std::string_view kSingleOperators = "{},:.;@=<>~&|^";

// Deeper nesting is no problem file's; it would only make the evaluator's recursion deep.
constexpr int kMaxBracketDepth = 100;

class Lexer {
 public:
  explicit Lexer(std::string_view source) : src_(source) {}

  std::vector<LogicalLine> run() {
    while (pos_ < src_.size()) {
      if (at_line_start_) {
        read_indent();
        continue;
      }
      const char c = src_[pos_];
      if (c == '#') {
        while (pos_ < src_.size() && src_[pos_] != '\n') ++pos_;
      } else if (c == '\n') {
        newline();
      } else if (c == ' ' || c == '\t' || c == '\r' || c == '\f') {
        advance();
      } else if (c == '\\' && pos_ + 1 < src_.size() && (src_[pos_ + 1] == '\n' || src_[pos_ + 1] == '\r')) {
        advance();  // a backslash continuation: the next physical line carries on this logical line
        if (src_[pos_] == '\r') advance();
        if (pos_ < src_.size() && src_[pos_] == '\n') advance_line();
      } else if (string_prefix_length() >= 0) {
        read_string();
      } else if (is_name_start(c)) {
        read_name();
      } else if (std::isdigit(static_cast<unsigned char>(c)) ||
                 (c == '.' && pos_ + 1 < src_.size() && std::isdigit(static_cast<unsigned char>(src_[pos_ + 1])))) {
        read_number();
      } else {
        read_operator();
      }
    }
    if (depth_ > 0) fail(open_line_, open_column_, "a bracket opened here is never closed");
    end_line();
    return std::move(lines_);
  }

 private:
  [[noreturn]] static void fail(int line, int column, std::string what) {
    throw ParseFailure{line, column, std::move(what)};
  }

  void advance() {
    ++pos_;
    ++column_;
  }
  void advance_line() {
    ++pos_;
    ++line_;
    column_ = 1;
  }

  void read_indent() {
    int indent = 0;
    while (pos_ < src_.size() && (src_[pos_] == ' ' || src_[pos_] == '\t' || src_[pos_] == '\f')) {
      indent = src_[pos_] == '\t' ? (indent / 8 + 1) * 8 : indent + 1;
      advance();
    }
    current_.indent = indent;
    at_line_start_ = false;
  }

  void newline() {
    advance_line();
    if (depth_ > 0) return;  // inside brackets a line break is only white space
    end_line();
    at_line_start_ = true;
  }

  void end_line() {
    if (!current_.tokens.empty()) lines_.push_back(std::move(current_));
    current_ = LogicalLine{};
  }

  void push(TokenKind kind, std::string text, int line, int column) {
    current_.tokens.push_back(Token{kind, std::move(text), line, column});
  }

  // Length of a string prefix (r, b, u, f and their pairs) before a quote at pos_, or -1.
  int string_prefix_length() const {
    std::size_t p = pos_;
    while (p < src_.size() && p - pos_ < 2 && std::string_view("rRbBuUfF").find(src_[p]) != std::string_view::npos) ++p;
    if (p < src_.size() && (src_[p] == '\'' || src_[p] == '"')) return static_cast<int>(p - pos_);
    return -1;
  }

  void read_string() {
    const int line = line_, column = column_;
    for (int n = string_prefix_length(); n > 0; --n) advance();
    const char quote = src_[pos_];
    const bool triple = src_.substr(pos_, 3) == std::string(3, quote);
    for (int i = 0; i < (triple ? 3 : 1); ++i) advance();
    std::string text;
    while (true) {
      if (pos_ >= src_.size()) fail(line, column, "a string that starts here is never closed");
      const char c = src_[pos_];
      if (c == '\\' && pos_ + 1 < src_.size()) {
        text += c;
        advance();
        text += src_[pos_];
        if (src_[pos_] == '\n')
          advance_line();
        else
          advance();
        continue;
      }
      if (c == quote && (!triple || src_.substr(pos_, 3) == std::string(3, quote))) {
        for (int i = 0; i < (triple ? 3 : 1); ++i) advance();
        break;
      }
      if (c == '\n') {
        if (!triple) fail(line, column, "a string that starts here is never closed on its line");
        text += c;
        advance_line();
        continue;
      }
      text += c;
      advance();
    }
    push(TokenKind::string, std::move(text), line, column);
  }

  void read_name() {
    const int column = column_;
    const std::size_t start = pos_;
    while (pos_ < src_.size() && is_name_char(src_[pos_])) advance();
    push(TokenKind::name, std::string(src_.substr(start, pos_ - start)), line_, column);
  }

  // Integers, floats and their spellings ("1_000", "0x10", "2.", "1e-5", "3j"); evaluation decides what
  // a number may be.
  void read_number() {
    const int column = column_;
    const std::size_t start = pos_;
    while (pos_ < src_.size()) {
      const char c = src_[pos_];
      const bool exponent_sign = (c == '+' || c == '-') && pos_ > start &&
                                 (src_[pos_ - 1] == 'e' || src_[pos_ - 1] == 'E') &&
                                 !(src_.substr(start, 2) == "0x" || src_.substr(start, 2) == "0X");
      if (!(is_name_char(c) || c == '.' || exponent_sign)) break;
      advance();
    }
    push(TokenKind::number, std::string(src_.substr(start, pos_ - start)), line_, column);
  }

  void read_operator() {
    const int column = column_;
    for (std::string_view op : kOperators) {
      if (src_.substr(pos_, op.size()) != op) continue;
      for (std::size_t i = 0; i < op.size(); ++i) advance();
      track_bracket(op, column);
      push(TokenKind::op, std::string(op), line_, column);
      return;
    }
    const char c = src_[pos_];
    if (kSingleOperators.find(c) == std::string_view::npos)
      fail(line_, column, fmt::format("unexpected character '{}'", c));
    advance();
    track_bracket(std::string_view(&c, 1), column);
    push(TokenKind::op, std::string(1, c), line_, column);
  }

  void track_bracket(std::string_view op, int column) {
    if (op == "(" || op == "[" || op == "{") {
      if (depth_ >= kMaxBracketDepth)
        fail(line_, column, fmt::format("brackets nested more than {} deep", kMaxBracketDepth));
      if (depth_++ == 0) {
        open_line_ = line_;
        open_column_ = column;
      }
    } else if (op == ")" || op == "]" || op == "}") {
      if (depth_ == 0) fail(line_, column, fmt::format("'{}' closes a bracket that was never opened", op));
      --depth_;
    }
  }

  std::string_view src_;
  std::size_t pos_ = 0;
  int line_ = 1, column_ = 1;
  int depth_ = 0, open_line_ = 0, open_column_ = 0;
  bool at_line_start_ = true;
  LogicalLine current_;
  std::vector<LogicalLine> lines_;
};

}  // namespace

std::vector<LogicalLine> tokenize(std::string_view source) { return Lexer(source).run(); }

}  // namespace kbench::import::python
