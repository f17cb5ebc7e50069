#include "import/python_eval.hpp"

#include <fmt/format.h>

#include <charconv>
#include <limits>

#include "import/import_error.hpp"

namespace kbench::import::python {

namespace {

using Kind = Value::Kind;

[[noreturn]] void fail(const Token& at, std::string what) { throw ParseFailure{at.line, at.column, std::move(what)}; }

// Bounds on what a hostile file can make the evaluator do: nesting (each level is a few stack frames,
// names defined through names included) and sequence sizes ((1,) * 64 * 64 * 64 ...).
constexpr int kMaxDepth = 200;
constexpr std::size_t kMaxSequence = 4096;
thread_local int evaluation_depth = 0;

struct DepthGuard {
  explicit DepthGuard(const Token& at) {
    if (++evaluation_depth > kMaxDepth) {
      --evaluation_depth;
      fail(at, fmt::format("expressions nested (or names defined through names) more than {} deep", kMaxDepth));
    }
  }
  ~DepthGuard() { --evaluation_depth; }
  DepthGuard(const DepthGuard&) = delete;
  DepthGuard& operator=(const DepthGuard&) = delete;
};

void check_size(const Token& at, std::size_t size) {
  if (size > kMaxSequence) fail(at, fmt::format("a sequence of {} items; expected at most {}", size, kMaxSequence));
}

bool is_open(const Token& t) { return t.kind == TokenKind::op && (t.text == "(" || t.text == "[" || t.text == "{"); }
bool is_close(const Token& t) { return t.kind == TokenKind::op && (t.text == ")" || t.text == "]" || t.text == "}"); }

// torch's dtype names, as torch.<name>.
std::optional<DType> torch_dtype(std::string_view name) {
  if (name == "float32" || name == "float") return DType::fp32;
  if (name == "float16" || name == "half") return DType::fp16;
  if (name == "bfloat16") return DType::bf16;
  return std::nullopt;
}

class Evaluator {
 public:
  Evaluator(const std::vector<Token>& tokens, std::size_t begin, std::size_t end, const Scope& scope)
      : t_(tokens), pos_(begin), end_(end), scope_(scope) {}

  Value whole() {
    if (pos_ >= end_) fail(last(), "an expression is missing here");
    Value v = tuple_or_expression(end_);
    if (pos_ < end_)
      fail(t_[pos_], fmt::format("cannot read '{}' here; expected the end of the expression", t_[pos_].text));
    return v;
  }

 private:
  const Token& last() const { return t_[end_ > 0 ? end_ - 1 : 0]; }
  bool at(std::string_view op) const { return pos_ < end_ && t_[pos_].kind == TokenKind::op && t_[pos_].text == op; }

  // "a, b" without brackets is a tuple, as on the right of `x = 1, 2`.
  Value tuple_or_expression(std::size_t end) {
    const Token& first = t_[pos_];
    Value v = expression();
    if (!at(",")) return v;
    Value tuple = Value::make(Kind::sequence, first.line, first.column);
    tuple.items.push_back(std::move(v));
    while (at(",")) {
      ++pos_;
      if (pos_ >= end) break;
      tuple.items.push_back(expression());
    }
    return tuple;
  }

  Value expression() {
    Value left = term();
    while (at("+") || at("-")) {
      const Token& op = t_[pos_++];
      left = arithmetic(op, left, term());
    }
    return left;
  }

  Value term() {
    Value left = factor();
    while (at("*") || at("//") || at("%") || at("/")) {
      const Token& op = t_[pos_++];
      if (op.text == "/") fail(op, "'/' is true division, which gives a float; expected integer arithmetic ('//')");
      left = arithmetic(op, left, factor());
    }
    return left;
  }

  Value factor() {
    const DepthGuard guard(t_[pos_ < end_ ? pos_ : end_ - 1]);
    if (at("-") || at("+")) {
      const Token& op = t_[pos_++];
      Value v = factor();
      if (v.kind != Kind::integer)
        fail(op, fmt::format("'{}' applied to {}; expected an integer", op.text, v.describe()));
      if (op.text == "-") {
        if (v.integer == std::numeric_limits<std::int64_t>::min()) fail(op, "integer overflow");
        v.integer = -v.integer;
      }
      return v;
    }
    Value base = primary();
    if (at("**")) {
      const Token& op = t_[pos_++];
      return arithmetic(op, base, factor());
    }
    return base;
  }

  static Value integer_at(std::int64_t v, const Token& where) {
    Value out = Value::make(Kind::integer, where.line, where.column);
    out.integer = v;
    return out;
  }

  Value arithmetic(const Token& op, const Value& a, const Value& b) {
    const std::string& o = op.text;
    if (a.kind == Kind::sequence && b.kind == Kind::sequence && o == "+") {
      check_size(op, a.items.size() + b.items.size());
      Value out = a;
      out.items.insert(out.items.end(), b.items.begin(), b.items.end());
      return out;
    }
    if (a.kind == Kind::sequence && b.kind == Kind::integer && o == "*") {
      if (b.integer < 0 || b.integer > 64)
        fail(op, fmt::format("a sequence repeated {} times; expected 0 to 64", b.integer));
      check_size(op, a.items.size() * static_cast<std::size_t>(b.integer));
      Value out = a;
      out.items.clear();
      for (std::int64_t i = 0; i < b.integer; ++i) out.items.insert(out.items.end(), a.items.begin(), a.items.end());
      return out;
    }
    if (a.kind != Kind::integer || b.kind != Kind::integer)
      fail(op, fmt::format("'{}' between {} and {}; expected integers", o, a.describe(), b.describe()));
    const std::int64_t x = a.integer, y = b.integer;
    std::int64_t r = 0;
    bool overflow = false;
    if (o == "+") {
      overflow = __builtin_add_overflow(x, y, &r);
    } else if (o == "-") {
      overflow = __builtin_sub_overflow(x, y, &r);
    } else if (o == "*") {
      overflow = __builtin_mul_overflow(x, y, &r);
    } else if (o == "//" || o == "%") {
      if (y == 0) fail(op, "division by zero");
      if (x == std::numeric_limits<std::int64_t>::min() && y == -1) fail(op, "integer overflow");
      std::int64_t q = x / y, m = x % y;
      if (m != 0 && ((m < 0) != (y < 0))) {  // Python floors toward negative infinity
        --q;
        m += y;
      }
      r = o == "//" ? q : m;
    } else if (o == "**") {
      if (y < 0) fail(op, "a negative exponent gives a float; expected integer arithmetic");
      // 0, 1 and -1 never overflow, so their powers are not looped to a huge exponent; any other base
      // overflows within 63 steps.
      if (x == 0 || x == 1) {
        r = y == 0 ? 1 : x;
      } else if (x == -1) {
        r = y % 2 == 0 ? 1 : -1;
      } else {
        r = 1;
        for (std::int64_t i = 0; i < y && !overflow; ++i) overflow = __builtin_mul_overflow(r, x, &r);
      }
    } else {
      fail(op, fmt::format("operator '{}' is not read", o));
    }
    if (overflow) fail(op, "integer overflow");
    return integer_at(r, op);
  }

  Value primary() {
    if (pos_ >= end_) fail(last(), "an expression is missing after this");
    const Token& first = t_[pos_];
    Value v;
    std::string dotted;  // a name path not bound to a value: torch.randn, nn.Conv2d
    if (first.kind == TokenKind::number) {
      v = number(t_[pos_++]);
    } else if (first.kind == TokenKind::string) {
      v = Value::make(Kind::string, first.line, first.column);
      while (pos_ < end_ && t_[pos_].kind == TokenKind::string) v.text += t_[pos_++].text;  // "a" "b" is "ab"
    } else if (first.kind == TokenKind::name) {
      ++pos_;
      if (first.text == "True" || first.text == "False") {
        v = Value::make(Kind::boolean, first.line, first.column);
        v.boolean = first.text == "True";
      } else if (first.text == "None") {
        v = Value::make(Kind::none, first.line, first.column);
      } else if (auto bound = scope_.lookup(first.text, first))
        v = *bound;
      else
        dotted = first.text;
    } else if (first.is("(") || first.is("[")) {
      v = display(first);
    } else {
      fail(first, fmt::format("cannot read '{}' here; expected a value", first.text));
    }
    // Trailers: .name, (call), [index].
    while (pos_ < end_) {
      if (at(".")) {
        ++pos_;
        if (pos_ >= end_ || t_[pos_].kind != TokenKind::name) fail(t_[pos_ - 1], "expected a name after '.'");
        if (dotted.empty())
          fail(t_[pos_], fmt::format("cannot read the attribute '{}' of {}", t_[pos_].text, v.describe()));
        dotted += "." + t_[pos_++].text;
      } else if (at("(")) {
        if (dotted.empty()) fail(t_[pos_], fmt::format("{} is not something kbench import can call", v.describe()));
        v = call(dotted, first);
        dotted.clear();
      } else if (at("[")) {
        if (!dotted.empty()) break;
        v = index(v);
      } else {
        break;
      }
    }
    if (!dotted.empty()) v = named(dotted, first);
    return v;
  }

  // A name path that is no bound value: torch dtypes, else unknown.
  Value named(const std::string& dotted, const Token& at_token) {
    const std::size_t dot = dotted.rfind('.');
    if (dot != std::string::npos && dotted.substr(0, dot) == "torch")
      if (auto dtype = torch_dtype(dotted.substr(dot + 1))) {
        Value v = Value::make(Kind::dtype, at_token.line, at_token.column);
        v.dtype = *dtype;
        return v;
      }
    if (dot == std::string::npos)
      fail(at_token, fmt::format("'{}' is not defined (a module-level constant, a parameter or a local)", dotted));
    fail(at_token, fmt::format("cannot evaluate '{}'", dotted));
  }

  Value number(const Token& token) {
    std::string digits;
    for (char c : token.text)
      if (c != '_') digits += c;
    std::int64_t value = 0;
    const auto [end, error] = std::from_chars(digits.data(), digits.data() + digits.size(), value);
    if (error == std::errc::result_out_of_range) fail(token, fmt::format("the integer {} is too large", token.text));
    if (error != std::errc{} || end != digits.data() + digits.size() || (digits.size() > 1 && digits[0] == '0'))
      fail(token,
           fmt::format("'{}' is not a decimal integer (a float, or another base); expected an integer", token.text));
    return integer_at(value, token);
  }

  // (a), (a, b), (), [a, b], []
  Value display(const Token& open) {
    const std::size_t close = matching_bracket(t_, pos_);
    if (close >= end_) fail(open, "the bracket opened here is not closed inside the expression");
    const auto parts = split_commas(t_, pos_ + 1, close);
    const bool has_comma = [&] {
      for (std::size_t i = pos_ + 1, depth = 0; i < close; ++i) {
        if (is_open(t_[i])) ++depth;
        if (is_close(t_[i])) --depth;
        if (depth == 0 && t_[i].is(",")) return true;
      }
      return false;
    }();
    Value out = Value::make(Kind::sequence, open.line, open.column);
    if (open.is("(") && parts.size() == 1 && !has_comma) {
      out = Evaluator(t_, parts[0].first, parts[0].second, scope_).whole();
    } else {
      for (const auto& [b, e] : parts) out.items.push_back(Evaluator(t_, b, e, scope_).whole());
    }
    pos_ = close + 1;
    return out;
  }

  Value index(const Value& v) {
    const Token& open = t_[pos_];
    const std::size_t close = matching_bracket(t_, pos_);
    if (close >= end_) fail(open, "the bracket opened here is not closed inside the expression");
    const Value i = Evaluator(t_, pos_ + 1, close, scope_).whole();
    pos_ = close + 1;
    if (v.kind != Kind::sequence || i.kind != Kind::integer)
      fail(open,
           fmt::format("cannot index {} with {}; expected a tuple or list and an integer", v.describe(), i.describe()));
    const auto n = static_cast<std::int64_t>(v.items.size());
    const std::int64_t k = i.integer < 0 ? i.integer + n : i.integer;
    if (k < 0 || k >= n) fail(open, fmt::format("index {} is out of range for a sequence of {}", i.integer, n));
    return v.items[static_cast<std::size_t>(k)];
  }

  struct Arguments {
    std::vector<Value> positional;
    std::vector<std::pair<const Token*, Value>> keyword;
  };

  Arguments arguments() {
    const std::size_t close = matching_bracket(t_, pos_);
    if (close >= end_) fail(t_[pos_], "the bracket opened here is not closed inside the expression");
    Arguments args;
    for (const auto& [b, e] : split_commas(t_, pos_ + 1, close)) {
      if (t_[b].is("*") || t_[b].is("**"))
        fail(t_[b], "unpacking (*args, **kwargs) is not read; expected plain arguments");
      if (e - b >= 2 && t_[b].kind == TokenKind::name && t_[b + 1].is("="))
        args.keyword.emplace_back(&t_[b], Evaluator(t_, b + 2, e, scope_).whole());
      else
        args.positional.push_back(Evaluator(t_, b, e, scope_).whole());
    }
    pos_ = close + 1;
    return args;
  }

  Value call(const std::string& callee, const Token& at_token) {
    const Token& open = t_[pos_];
    Arguments args = arguments();
    const std::size_t dot = callee.rfind('.');
    const std::string last_part = dot == std::string::npos ? callee : callee.substr(dot + 1);
    const bool torch_call = dot != std::string::npos && callee.substr(0, dot) == "torch";
    if (torch_call && (last_part == "randn" || last_part == "rand" || last_part == "zeros" || last_part == "ones" ||
                       last_part == "empty"))
      return tensor(args, at_token);
    if (!torch_call && dot == std::string::npos && (last_part == "max" || last_part == "min") && args.keyword.empty() &&
        args.positional.size() >= 2) {
      Value best = args.positional[0];
      for (const Value& v : args.positional) {
        if (v.kind != Kind::integer) fail(open, fmt::format("{}() of {}; expected integers", last_part, v.describe()));
        if (last_part == "max" ? v.integer > best.integer : v.integer < best.integer) best = v;
      }
      return best;
    }
    if (callee == "int" && args.keyword.empty() && args.positional.size() == 1 &&
        args.positional[0].kind == Kind::integer)
      return args.positional[0];
    fail(at_token, fmt::format("cannot evaluate the call {}(...)", callee));
  }

  // torch.randn(N, C, L), torch.randn((N, C, L)), with dtype= (device=, requires_grad= are ignored).
  Value tensor(const Arguments& args, const Token& at_token) {
    Value out = Value::make(Kind::tensor, at_token.line, at_token.column);
    std::vector<Value> dims = args.positional;
    if (dims.size() == 1 && dims[0].kind == Kind::sequence) dims = dims[0].items;
    for (const Value& d : dims) {
      if (d.kind != Kind::integer) fail(at_token, fmt::format("a tensor size is {}; expected integers", d.describe()));
      out.shape.push_back(d.integer);
    }
    for (const auto& [name, value] : args.keyword) {
      if (name->text == "dtype") {
        if (value.kind != Kind::dtype)
          fail(*name,
               fmt::format("dtype is {}; expected torch.float32, torch.float16 or torch.bfloat16", value.describe()));
        out.dtype = value.dtype;
      } else if (name->text != "device" && name->text != "requires_grad") {
        fail(*name, fmt::format("the keyword argument {}= of a tensor constructor is not read", name->text));
      }
    }
    return out;
  }

  const std::vector<Token>& t_;
  std::size_t pos_, end_;
  const Scope& scope_;
};

}  // namespace

std::string Value::describe() const {
  switch (kind) {
    case Kind::integer: return fmt::format("the integer {}", integer);
    case Kind::boolean: return boolean ? "True" : "False";
    case Kind::string: return fmt::format("the string '{}'", text);
    case Kind::none: return "None";
    case Kind::sequence: return fmt::format("a sequence of {}", items.size());
    case Kind::tensor: return "a tensor";
    case Kind::dtype: return fmt::format("the dtype {}", to_string(dtype));
  }
  return "a value";
}

void Scope::bind_value(const std::string& name, Value value) {
  Binding b;
  b.value = std::move(value);
  bindings_[name] = std::move(b);
}

void Scope::bind_expression(const std::string& name, std::vector<Token> tokens, const Scope* evaluated_in) {
  Binding b;
  b.tokens = std::move(tokens);
  b.scope = evaluated_in;
  bindings_[name] = std::move(b);
}

bool Scope::has(const std::string& name) const {
  return bindings_.count(name) > 0 || (parent_ != nullptr && parent_->has(name));
}

std::optional<Value> Scope::lookup(const std::string& name, const Token& use) const {
  const auto found = bindings_.find(name);
  if (found == bindings_.end()) return parent_ != nullptr ? parent_->lookup(name, use) : std::nullopt;
  const Binding& b = found->second;
  if (b.value) return b.value;
  if (b.evaluating) fail(use, fmt::format("'{}' is defined in terms of itself", name));
  b.evaluating = true;
  try {
    b.value = evaluate(b.tokens, 0, b.tokens.size(), *b.scope);
  } catch (...) {
    b.evaluating = false;
    throw;
  }
  b.evaluating = false;
  return b.value;
}

Value evaluate(const std::vector<Token>& tokens, std::size_t begin, std::size_t end, const Scope& scope) {
  if (begin >= end) {
    if (tokens.empty()) throw ParseFailure{0, 0, "an expression is missing"};
    fail(tokens[begin > 0 ? begin - 1 : 0], "an expression is missing after this");
  }
  const DepthGuard guard(tokens[begin]);
  return Evaluator(tokens, begin, end, scope).whole();
}

std::size_t matching_bracket(const std::vector<Token>& tokens, std::size_t open) {
  int depth = 0;
  for (std::size_t i = open; i < tokens.size(); ++i) {
    if (is_open(tokens[i])) ++depth;
    if (is_close(tokens[i]) && --depth == 0) return i;
  }
  fail(tokens[open], "this bracket is not closed");
}

std::vector<std::pair<std::size_t, std::size_t>> split_commas(const std::vector<Token>& tokens, std::size_t begin,
                                                              std::size_t end) {
  std::vector<std::pair<std::size_t, std::size_t>> parts;
  int depth = 0;
  std::size_t start = begin;
  for (std::size_t i = begin; i < end; ++i) {
    if (is_open(tokens[i])) ++depth;
    if (is_close(tokens[i])) --depth;
    if (depth == 0 && tokens[i].is(",")) {
      if (i == start) fail(tokens[i], "an empty entry before this ','");
      parts.emplace_back(start, i);
      start = i + 1;
    }
  }
  if (start < end) parts.emplace_back(start, end);
  return parts;
}

}  // namespace kbench::import::python
