#pragma once
// Evaluates the small part of Python that KernelBench's problem files compute their shapes with:
// integers and + - * // % ** on them, True/False/None, strings, tuples and lists (indexing, + and * on
// them), names bound in a scope, torch dtypes (torch.float16) and tensor constructors
// (torch.randn(N, C, L) -> a shape). Anything else (a float, '/', a call it does not know) is a
// ParseFailure naming the token, never a guess.
#include <cstdint>
#include <functional>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "core/types.hpp"
#include "import/python_lexer.hpp"

namespace kbench::import::python {

struct Value {
  enum class Kind { integer, boolean, string, none, sequence, tensor, dtype };
  Kind kind = Kind::none;
  std::int64_t integer = 0;
  bool boolean = false;
  std::string text;                 // string
  std::vector<Value> items;         // sequence (tuple or list)
  std::vector<std::int64_t> shape;  // tensor
  DType dtype = DType::fp32;        // tensor, dtype
  int line = 0, column = 0;         // where it was written, for messages about its use

  static Value make(Kind kind, int line, int column) {
    Value v;
    v.kind = kind;
    v.line = line;
    v.column = column;
    return v;
  }
  std::string describe() const;  // "the integer 3", "the string 'same'", "a tuple of 2"
};

// Names visible to an expression: a function's parameters and locals, then the module's constants.
// A binding is evaluated when first used (so an unreadable constant nothing uses is no error).
class Scope {
 public:
  explicit Scope(const Scope* parent = nullptr) : parent_(parent) {}
  void bind_value(const std::string& name, Value value);
  void bind_expression(const std::string& name, std::vector<Token> tokens, const Scope* evaluated_in);
  bool has(const std::string& name) const;
  // The value of `name`, or nullopt if nothing binds it; `use` is the token using it (for messages).
  std::optional<Value> lookup(const std::string& name, const Token& use) const;

 private:
  struct Binding {
    std::vector<Token> tokens;
    const Scope* scope = nullptr;
    mutable std::optional<Value> value;
    mutable bool evaluating = false;
  };
  std::map<std::string, Binding> bindings_;
  const Scope* parent_;
};

// Evaluates tokens [begin, end) as one expression in `scope`; throws ParseFailure.
Value evaluate(const std::vector<Token>& tokens, std::size_t begin, std::size_t end, const Scope& scope);

// Index of the token closing the bracket opened at `open` (tokens[open] is '(' '[' or '{'); throws if none.
std::size_t matching_bracket(const std::vector<Token>& tokens, std::size_t open);

// Splits [begin, end) at commas outside brackets; an empty trailing part (a trailing comma) is dropped.
std::vector<std::pair<std::size_t, std::size_t>> split_commas(const std::vector<Token>& tokens, std::size_t begin,
                                                              std::size_t end);

}  // namespace kbench::import::python
