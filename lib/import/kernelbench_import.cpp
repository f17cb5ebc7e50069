#include "import/kernelbench_import.hpp"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <filesystem>
#include <optional>

#include "import/python_eval.hpp"
#include "import/python_lexer.hpp"
#include "problem/problem_metrics.hpp"
#include "problem/problem_validation.hpp"

namespace kbench::import {

namespace {

using python::LogicalLine;
using python::Scope;
using python::Token;
using python::TokenKind;
using python::Value;
using Kind = Value::Kind;

[[noreturn]] void fail(const Token& at, std::string what) { throw ParseFailure{at.line, at.column, std::move(what)}; }

// A statement: a logical line, or the part of a one-line compound statement after its ':'.
struct Statement {
  const LogicalLine* line = nullptr;
  std::size_t begin = 0;  // first token
  const Token& first() const { return line->tokens[begin]; }
  std::size_t end() const { return line->tokens.size(); }
  bool starts_with(std::string_view word) const { return begin < end() && line->tokens[begin].is(word); }
};

// A def or class: its header line and the statements of its body (nested blocks left out: `nested` has
// their headers, so what they hold can be refused rather than silently skipped).
struct Block {
  const LogicalLine* header = nullptr;
  std::vector<Statement> body;
  std::vector<std::size_t> nested;  // indices into the file's lines
};

class Source {
 public:
  explicit Source(std::string_view text) : lines_(python::tokenize(text)) {}
  const std::vector<LogicalLine>& lines() const { return lines_; }

  // The first line after the block that line i opens.
  std::size_t block_end(std::size_t i) const {
    std::size_t j = i + 1;
    while (j < lines_.size() && lines_[j].indent > lines_[i].indent) ++j;
    return j;
  }

  // The header's ':' at bracket depth 0 (after a def's parameters and return annotation).
  static std::size_t header_colon(const LogicalLine& line) {
    int depth = 0;
    for (std::size_t k = 0; k < line.tokens.size(); ++k) {
      const Token& t = line.tokens[k];
      if (t.is("(") || t.is("[") || t.is("{")) ++depth;
      if (t.is(")") || t.is("]") || t.is("}")) --depth;
      if (depth == 0 && t.is(":")) return k;
    }
    fail(line.tokens.back(), "expected ':' at the end of this block header");
  }

  Block block(std::size_t i) const {
    Block b{&lines_[i], {}, {}};
    const std::size_t colon = header_colon(lines_[i]);
    if (colon + 1 < lines_[i].tokens.size()) {  // def f(): return x
      b.body.push_back({&lines_[i], colon + 1});
      return b;
    }
    const std::size_t end = block_end(i);
    if (i + 1 >= end) fail(lines_[i].tokens.front(), "this block has no body");
    const int indent = lines_[i + 1].indent;
    for (std::size_t j = i + 1; j < end; ++j) {
      if (lines_[j].indent < indent) fail(lines_[j].tokens.front(), "the indentation does not match the block's");
      if (lines_[j].indent > indent) continue;
      b.body.push_back({&lines_[j], 0});
      if (lines_[j].tokens.back().is(":") && block_end(j) > j + 1) b.nested.push_back(j);
    }
    return b;
  }

 private:
  std::vector<LogicalLine> lines_;
};

// The '=' of an assignment statement at depth 0, if it is one ("x = 1", "x: int = 1"; not "f(a=1)").
std::optional<std::size_t> assignment_equals(const Statement& s) {
  int depth = 0;
  for (std::size_t k = s.begin; k < s.end(); ++k) {
    const Token& t = s.line->tokens[k];
    if (t.is("(") || t.is("[") || t.is("{")) ++depth;
    if (t.is(")") || t.is("]") || t.is("}")) --depth;
    if (depth == 0 && t.is("=")) return k;
  }
  return std::nullopt;
}

// Binds the names on the left of `x = ...`, `x: int = ...` or `a, b = ...` (each a[k] of the right) in
// `scope`, evaluated there when used. Returns false if the target is not plain names (self.x = ...).
bool bind_assignment(const Statement& s, std::size_t equals, Scope& scope) {
  const auto& t = s.line->tokens;
  std::vector<Token> value(t.begin() + static_cast<std::ptrdiff_t>(equals) + 1, t.end());
  std::size_t target_end = equals;
  for (std::size_t k = s.begin; k < equals; ++k)
    if (t[k].is(":")) target_end = k;  // an annotation
  std::vector<std::string> names;
  for (std::size_t k = s.begin; k < target_end; ++k) {
    if (t[k].kind == TokenKind::name && (k + 1 == target_end || t[k + 1].is(",")))
      names.push_back(t[k].text);
    else if (!t[k].is(","))
      return false;
  }
  // Each name gets its own copy of the right side: bounded, so a hostile line cannot take gigabytes.
  if (names.size() > 64 || (names.size() > 1 && value.size() > 10000))
    fail(t[equals], "more than 64 names, or a right side of over 10000 tokens, assigned at once");
  if (names.size() == 1) {
    scope.bind_expression(names[0], std::move(value), &scope);
    return true;
  }
  for (std::size_t i = 0; i < names.size(); ++i) {  // a, b = v  ->  a = (v)[0], b = (v)[1]
    const Token& at = t[equals];
    std::vector<Token> item{{TokenKind::op, "(", at.line, at.column}};
    item.insert(item.end(), value.begin(), value.end());
    item.push_back({TokenKind::op, ")", at.line, at.column});
    item.push_back({TokenKind::op, "[", at.line, at.column});
    item.push_back({TokenKind::number, std::to_string(i), at.line, at.column});
    item.push_back({TokenKind::op, "]", at.line, at.column});
    scope.bind_expression(names[i], std::move(item), &scope);
  }
  return true;
}

// nn.Conv2d, torch.nn.ConvTranspose3d, Conv1d (imported by name): the rank and whether transposed.
struct ConvKind {
  int rank = 0;
  bool transposed = false;
  std::string written;  // "nn.Conv2d"
};

std::optional<ConvKind> conv_kind(const std::string& dotted) {
  const std::size_t dot = dotted.rfind('.');
  const std::string prefix = dot == std::string::npos ? "" : dotted.substr(0, dot);
  const std::string last = dot == std::string::npos ? dotted : dotted.substr(dot + 1);
  if (!prefix.empty() && prefix != "nn" && prefix != "torch.nn") return std::nullopt;
  for (const bool transposed : {false, true})
    for (int rank = 1; rank <= 3; ++rank)
      if (last == fmt::format("Conv{}{}d", transposed ? "Transpose" : "", rank))
        return ConvKind{rank, transposed, dotted};
  return std::nullopt;
}

// Any token that names a convolution module (Conv2d, LazyConv2d, ConvTranspose1d, Conv3d...).
const Token* mentions_conv(const LogicalLine& line, std::size_t begin = 0) {
  for (std::size_t k = begin; k < line.tokens.size(); ++k) {
    const Token& t = line.tokens[k];
    if (t.kind == TokenKind::name && (t.text.starts_with("Conv") || t.text.starts_with("LazyConv")) &&
        t.text.ends_with("d"))
      return &t;
  }
  return nullptr;
}

// A dotted name starting at k ("torch", ".", "nn", ".", "Conv2d"); returns it and the index after it.
std::pair<std::string, std::size_t> dotted_name(const std::vector<Token>& t, std::size_t k, std::size_t end) {
  std::string name;
  while (k < end && t[k].kind == TokenKind::name) {
    name += t[k].text;
    if (k + 2 < end && t[k + 1].is(".") && t[k + 2].kind == TokenKind::name) {
      name += ".";
      k += 2;
    } else {
      ++k;
      break;
    }
  }
  return {name, k};
}

struct ConvLayer {
  std::string attribute;  // self.<attribute>
  ConvKind kind;
  const LogicalLine* line = nullptr;
  std::size_t open = 0, close = 0;  // the call's parentheses
  bool used = false;
};

struct Argument {
  const Token* at = nullptr;
  Value value;
};

// PyTorch's signatures, in positional order (device and dtype are keyword-only in practice).
const std::vector<std::string>& signature(bool transposed) {
  static const std::vector<std::string> conv = {"in_channels",  "out_channels", "kernel_size", "stride",
                                                "padding",      "dilation",     "groups",      "bias",
                                                "padding_mode", "device",       "dtype"};
  static const std::vector<std::string> transpose = {"in_channels", "out_channels",   "kernel_size", "stride",
                                                     "padding",     "output_padding", "groups",      "bias",
                                                     "dilation",    "padding_mode",   "device",      "dtype"};
  return transposed ? transpose : conv;
}

class Importer {
 public:
  Importer(std::string_view text, std::string origin, std::string name)
      : source_(text), origin_(std::move(origin)), name_(std::move(name)) {}

  Imported run() {
    read_module();
    if (!model_) throw ParseFailure{0, 0, "no `class Model(nn.Module)`; expected a KernelBench problem file"};
    read_model();
    const Value input = model_input();
    Scope init_scope(&module_scope_);
    bind_init_arguments(init_scope);
    read_init_body(init_scope);
    const std::vector<ConvLayer*> order = forward_order();

    Imported imported;
    std::vector<std::int64_t> shape = input.shape;
    for (ConvLayer* layer : order) {
      Workload w;
      w.name = order.size() == 1 ? name_ : fmt::format("{}-{}", name_, name_from_text(layer->attribute));
      w.problem = build_problem(*layer, init_scope, shape, input.dtype);
      shape = output_shape(w.problem);
      w.description =
          fmt::format("self.{} = {}(...) of the Model in {} (kbench import kernelbench); output [{}]", layer->attribute,
                      layer->kind.written, std::filesystem::path(origin_).filename().string(), fmt::join(shape, ", "));
      w.source_file = origin_;
      w.source_line = layer->line->line();
      imported.workloads.push_back(std::move(w));
    }
    return imported;
  }

 private:
  void read_module() {
    const auto& lines = source_.lines();
    for (std::size_t i = 0; i < lines.size(); i = source_.block_end(i)) {
      const LogicalLine& line = lines[i];
      const Token& first = line.tokens.front();
      if (line.indent != 0) fail(first, "unexpected indentation at the top level");
      if (first.is("class") && line.tokens.size() > 1) {
        if (line.tokens[1].is("Model")) model_ = i;
      } else if (first.is("def") && line.tokens.size() > 1) {
        if (line.tokens[1].is("get_inputs")) get_inputs_ = i;
        if (line.tokens[1].is("get_init_inputs")) get_init_inputs_ = i;
      } else if (!first.is("import") && !first.is("from") && !first.is("@")) {
        const Statement s{&line, 0};
        if (line.tokens.back().is(":")) continue;  // if/for/with at the top level: not read
        if (auto equals = assignment_equals(s)) (void)bind_assignment(s, *equals, module_scope_);
      }
    }
  }

  void read_model() {
    const Block model = source_.block(*model_);
    for (const Statement& s : model.body) {
      if (!s.starts_with("def") || s.begin + 1 >= s.end()) continue;
      const std::size_t index = static_cast<std::size_t>(s.line - source_.lines().data());
      if (s.line->tokens[1].is("__init__")) init_ = index;
      if (s.line->tokens[1].is("forward")) forward_ = index;
    }
    if (!init_) fail(model.header->tokens.front(), "class Model has no __init__");
    if (!forward_) fail(model.header->tokens.front(), "class Model has no forward");
  }

  // The statements of a function, its locals bound in `scope`; returns the `return` statement.
  std::optional<Statement> read_function(const Block& f, Scope& scope, bool refuse_conv) {
    for (std::size_t nested : f.nested)
      if (const Token* conv = mentions_conv(source_.lines()[nested]))
        fail(*conv, "a convolution inside an if/for/with block is not read; expected it directly in the function");
    for (const Statement& s : f.body) {
      if (s.starts_with("return")) return s;
      if (refuse_conv)
        if (const Token* conv = mentions_conv(*s.line, s.begin)) fail(*conv, "a convolution here is not read");
      if (auto equals = assignment_equals(s)) (void)bind_assignment(s, *equals, scope);
    }
    return std::nullopt;
  }

  // get_inputs(): exactly one tensor, [N, C, spatial...].
  Value model_input() {
    if (!get_inputs_) throw ParseFailure{0, 0, "no get_inputs(); expected it to return the input tensor"};
    Scope scope(&module_scope_);
    const Block f = source_.block(*get_inputs_);
    const auto ret = read_function(f, scope, true);
    if (!ret) fail(f.header->tokens.front(), "get_inputs() has no return statement");
    const Value v = python::evaluate(ret->line->tokens, ret->begin + 1, ret->end(), scope);
    const Token& at = ret->first();
    if (v.kind != Kind::sequence || v.items.size() != 1 || v.items[0].kind != Kind::tensor)
      fail(at, fmt::format("get_inputs() returns {}; expected a list of one tensor, e.g. [torch.randn(N, C, H, W)]",
                           v.describe()));
    return v.items[0];
  }

  // __init__'s parameters, bound to get_init_inputs()'s values, then to their defaults.
  void bind_init_arguments(Scope& init_scope) {
    std::vector<Value> values;
    const Token* values_at = nullptr;
    if (get_init_inputs_) {
      Scope scope(&module_scope_);
      const Block f = source_.block(*get_init_inputs_);
      const auto ret = read_function(f, scope, true);
      if (!ret) fail(f.header->tokens.front(), "get_init_inputs() has no return statement");
      const Value v = python::evaluate(ret->line->tokens, ret->begin + 1, ret->end(), scope);
      values_at = &ret->first();
      if (v.kind != Kind::sequence)
        fail(*values_at,
             fmt::format("get_init_inputs() returns {}; expected a list of Model's arguments", v.describe()));
      values = v.items;
    }
    const LogicalLine& header = source_.lines()[*init_];
    const auto& t = header.tokens;
    std::size_t open = 0;
    while (open < t.size() && !t[open].is("(")) ++open;
    if (open == t.size()) fail(t.front(), "expected the parameters of __init__");
    const std::size_t close = python::matching_bracket(t, open);
    std::size_t given = 0;
    bool first = true;
    for (const auto& [b, e] : python::split_commas(t, open + 1, close)) {
      if (first) {  // self
        first = false;
        continue;
      }
      if (t[b].is("/") || t[b].is("*")) {
        if (t[b].is("*") && e > b + 1) fail(t[b], "*args in __init__ is not read; expected named parameters");
        continue;
      }
      if (t[b].is("**")) fail(t[b], "**kwargs in __init__ is not read; expected named parameters");
      if (t[b].kind != TokenKind::name) fail(t[b], "expected a parameter name");
      std::optional<std::size_t> equals;
      for (std::size_t k = b; k < e; ++k)
        if (t[k].is("=")) {
          equals = k;
          break;
        }
      if (given < values.size()) {
        init_scope.bind_value(t[b].text, values[given++]);
      } else if (equals) {
        // Defaults are evaluated where the def is, in the module.
        init_scope.bind_value(t[b].text, python::evaluate(t, *equals + 1, e, module_scope_));
      } else {
        fail(t[b], fmt::format("Model.__init__ needs '{}' but get_init_inputs() gives {} value{}", t[b].text,
                               values.size(), values.size() == 1 ? "" : "s"));
      }
    }
    if (given < values.size())
      fail(values_at ? *values_at : t.front(),
           fmt::format("get_init_inputs() gives {} values but Model.__init__ takes {}", values.size(), given));
  }

  void read_init_body(Scope& init_scope) {
    const Block init = source_.block(*init_);
    for (std::size_t nested : init.nested)
      if (const Token* conv = mentions_conv(source_.lines()[nested]))
        fail(*conv,
             "a convolution inside an if/for/with block is not read; expected `self.NAME = nn.ConvNd(...)` "
             "directly in __init__");
    for (const Statement& s : init.body) {
      const auto& t = s.line->tokens;
      const auto equals = assignment_equals(s);
      const bool self_target = equals && *equals == s.begin + 3 && t[s.begin].is("self") && t[s.begin + 1].is(".") &&
                               t[s.begin + 2].kind == TokenKind::name;
      if (self_target) {
        const auto [callee, after] = dotted_name(t, *equals + 1, s.end());
        if (auto kind = conv_kind(callee); kind && after < s.end() && t[after].is("(")) {
          const std::size_t close = python::matching_bracket(t, after);
          if (close + 1 != s.end()) fail(t[close + 1], "expected nothing after the convolution's call");
          layers_.push_back(ConvLayer{t[s.begin + 2].text, *kind, s.line, after, close});
          continue;
        }
      }
      if (const Token* conv = mentions_conv(*s.line, s.begin))
        fail(*conv, fmt::format("cannot read this '{}'; expected `self.NAME = nn.ConvNd(...)` or "
                                "`self.NAME = nn.ConvTransposeNd(...)` (N = 1, 2, 3) directly in __init__",
                                conv->text));
      if (equals && !self_target) (void)bind_assignment(s, *equals, init_scope);
    }
    if (layers_.empty())
      fail(source_.lines()[*init_].tokens.front(), "Model.__init__ builds no nn.ConvNd or nn.ConvTransposeNd");
  }

  ConvLayer* layer_named(const Token& name) {
    for (ConvLayer& layer : layers_)
      if (layer.attribute == name.text) return &layer;
    fail(name, fmt::format("self.{} is not a convolution built in __init__; kbench import reads a forward that "
                           "applies convolutions only",
                           name.text));
  }

  // `self.a(self.b(x))` -> [b, a] applied to x; also a bare `x`.
  std::vector<ConvLayer*> applications(const std::vector<Token>& t, std::size_t b, std::size_t e, std::string& var) {
    if (e == b + 1 && t[b].kind == TokenKind::name) {
      var = t[b].text;
      return {};
    }
    if (e > b + 4 && t[b].is("self") && t[b + 1].is(".") && t[b + 2].kind == TokenKind::name && t[b + 3].is("(") &&
        python::matching_bracket(t, b + 3) == e - 1) {
      auto inner = applications(t, b + 4, e - 1, var);
      inner.push_back(layer_named(t[b + 2]));
      return inner;
    }
    fail(t[b < e ? b : b - 1],
         "forward does something other than apply the convolutions one after another; kbench "
         "import reads `x = self.conv(x)` steps and `return self.conv(x)`");
  }

  // The layers in the order forward applies them, each to the previous one's output.
  std::vector<ConvLayer*> forward_order() {
    const Block f = source_.block(*forward_);
    const auto& header = f.header->tokens;
    // def forward(self, x): the model's one input
    std::size_t open = 0;
    while (open < header.size() && !header[open].is("(")) ++open;
    const auto params = python::split_commas(header, open + 1, python::matching_bracket(header, open));
    if (params.size() != 2 || header[params[1].first].kind != TokenKind::name)
      fail(header.front(), "forward takes other than one input; expected def forward(self, x)");
    std::string current = header[params[1].first].text;
    for (std::size_t nested : f.nested)
      fail(source_.lines()[nested].tokens.front(), "forward: a block here is not read");
    std::vector<ConvLayer*> order;
    for (const Statement& s : f.body) {
      const auto& t = s.line->tokens;
      if (s.end() == s.begin + 1 && t[s.begin].kind == TokenKind::string) continue;  // the docstring
      std::string var;
      std::vector<ConvLayer*> applied;
      std::string target;
      if (s.starts_with("return")) {
        applied = applications(t, s.begin + 1, s.end(), var);
      } else if (auto equals = assignment_equals(s);
                 equals && *equals == s.begin + 1 && t[s.begin].kind == TokenKind::name) {
        applied = applications(t, *equals + 1, s.end(), var);
        target = t[s.begin].text;
      } else {
        fail(s.first(), "forward: cannot read this statement; expected `x = self.conv(x)` or `return self.conv(x)`");
      }
      if (var != current)
        fail(s.first(), fmt::format("forward applies a layer to '{}' where the last result is '{}'; kbench import "
                                    "reads one chain of convolutions",
                                    var, current));
      for (ConvLayer* layer : applied) {
        if (layer->used) fail(s.first(), fmt::format("forward applies self.{} twice; not read", layer->attribute));
        layer->used = true;
        order.push_back(layer);
      }
      if (s.starts_with("return")) {
        if (order.empty()) fail(s.first(), "forward returns before applying any convolution");
        return order;
      }
      current = target;
    }
    fail(f.header->tokens.front(), "forward has no return statement");
  }

  ConvProblem build_problem(const ConvLayer& layer, const Scope& scope, const std::vector<std::int64_t>& input,
                            DType dtype) {
    const auto& t = layer.line->tokens;
    const Token& call = t[layer.open];
    const std::string what = fmt::format("{}(...)", layer.kind.written);
    const std::vector<std::string>& names = signature(layer.kind.transposed);
    std::map<std::string, Argument> args;
    std::size_t positional = 0;
    for (const auto& [b, e] : python::split_commas(t, layer.open + 1, layer.close)) {
      if (t[b].is("*") || t[b].is("**"))
        fail(t[b], "unpacking (*args, **kwargs) is not read; expected plain arguments");
      std::string key;
      std::size_t value_begin = b;
      if (e - b >= 2 && t[b].kind == TokenKind::name && t[b + 1].is("=")) {
        key = t[b].text;
        value_begin = b + 2;
        if (std::find(names.begin(), names.end(), key) == names.end())
          fail(t[b], fmt::format("{} has no argument '{}'; expected one of: {}", what, key, fmt::join(names, ", ")));
      } else {
        if (positional >= names.size())
          fail(t[b], fmt::format("{} takes at most {} positional arguments", what, names.size()));
        key = names[positional++];
      }
      if (args.count(key)) fail(t[b], fmt::format("{} is given '{}' twice", what, key));
      args[key] = Argument{&t[value_begin], python::evaluate(t, value_begin, e, scope)};
    }
    for (const char* required : {"in_channels", "out_channels", "kernel_size"})
      if (!args.count(required)) fail(call, fmt::format("{} is missing '{}'", what, required));

    const int rank = layer.kind.rank;
    const auto integer = [&](const std::string& key, std::int64_t min, std::int64_t fallback) -> std::int64_t {
      const auto found = args.find(key);
      if (found == args.end()) return fallback;
      const Value& v = found->second.value;
      if (v.kind != Kind::integer || v.integer < min || v.integer > kMaxProblemDimension)
        fail(*found->second.at, fmt::format("{} {}: got {}; expected an integer from {} to {}", what, key, v.describe(),
                                            min, kMaxProblemDimension));
      return v.integer;
    };
    const auto per_dim = [&](const std::string& key, std::int64_t min, std::int64_t fallback) {
      Dims dims{{fallback, fallback, fallback}};  // past the rank too: 1 or 0, as ConvProblem keeps them
      const auto found = args.find(key);
      if (found == args.end()) return dims;
      const Value& v = found->second.value;
      const auto check = [&](const Value& item) {
        if (item.kind != Kind::integer || item.integer < min || item.integer > kMaxProblemDimension)
          fail(*found->second.at, fmt::format("{} {}: got {}; expected an integer from {} to {} or a tuple of {}", what,
                                              key, item.describe(), min, kMaxProblemDimension, rank));
        return item.integer;
      };
      if (v.kind == Kind::sequence) {
        if (static_cast<int>(v.items.size()) != rank)
          fail(*found->second.at, fmt::format("{} {}: got {}; expected one integer or a tuple of {} (one per spatial "
                                              "dim)",
                                              what, key, v.describe(), rank));
        for (int d = 0; d < rank; ++d) dims[d] = check(v.items[static_cast<std::size_t>(d)]);
      } else {
        const std::int64_t value = check(v);
        for (int d = 0; d < rank; ++d) dims[d] = value;
      }
      return dims;
    };

    ConvProblem p;
    p.op = layer.kind.transposed ? OpKind::conv_transpose : OpKind::conv;
    p.spatial_rank = rank;
    if (static_cast<int>(input.size()) != rank + 2)
      fail(call,
           fmt::format("{} takes a {}-D input [N, C, spatial...] but its input is [{}] (an unbatched input is not "
                       "read)",
                       what, rank + 2, fmt::join(input, ", ")));
    for (std::int64_t size : input)
      if (size < 1 || size > kMaxProblemDimension)
        fail(call, fmt::format("{}: its input [{}] has a size outside 1 to {}", what, fmt::join(input, ", "),
                               kMaxProblemDimension));
    p.batch = input[0];
    p.in_channels = integer("in_channels", 1, 1);
    if (p.in_channels != input[1])
      fail(*args["in_channels"].at, fmt::format("{}: in_channels is {} but its input [{}] has {} channels", what,
                                                p.in_channels, fmt::join(input, ", "), input[1]));
    for (int d = 0; d < rank; ++d) p.input[d] = input[static_cast<std::size_t>(d) + 2];
    p.out_channels = integer("out_channels", 1, 1);
    p.kernel = per_dim("kernel_size", 1, 1);
    p.stride = per_dim("stride", 1, 1);
    p.dilation = per_dim("dilation", 1, 1);
    p.groups = integer("groups", 1, 1);
    if (p.transposed()) p.output_padding = per_dim("output_padding", 0, 0);

    if (auto padding = args.find("padding"); padding != args.end() && padding->second.value.kind == Kind::string) {
      const std::string& mode = padding->second.value.text;
      if (p.transposed() || (mode != "same" && mode != "valid"))
        fail(*padding->second.at, fmt::format("{} padding: got the string '{}'; expected an integer, a tuple{}", what,
                                              mode, p.transposed() ? "" : ", 'same' or 'valid'"));
      for (int d = 0; d < rank && mode == "same"; ++d) {
        if (p.stride[d] != 1)
          fail(*padding->second.at, fmt::format("{}: padding='same' is not supported for strided convolutions "
                                                "(PyTorch's rule)",
                                                what));
        // PyTorch's 'same': the total dilation*(kernel-1), the odd one on the far side.
        const std::int64_t total = p.dilation[d] * (p.kernel[d] - 1);
        p.pad_before[d] = total / 2;
        p.pad_after[d] = total - total / 2;
      }
    } else {
      p.pad_before = p.pad_after = per_dim("padding", 0, 0);
    }

    if (auto bias = args.find("bias"); bias != args.end()) {
      if (bias->second.value.kind != Kind::boolean)
        fail(*bias->second.at,
             fmt::format("{} bias: got {}; expected True or False", what, bias->second.value.describe()));
      p.bias = bias->second.value.boolean;
    } else {
      p.bias = true;  // PyTorch's default
    }
    if (auto mode = args.find("padding_mode"); mode != args.end()) {
      const Value& v = mode->second.value;
      if (v.kind != Kind::string || v.text != "zeros")
        fail(*mode->second.at, fmt::format("{} padding_mode: got {}; expected 'zeros' (kbench pads with zeros only)",
                                           what, v.describe()));
    }
    p.dtype = dtype;
    if (auto d = args.find("dtype"); d != args.end() && d->second.value.kind != Kind::none) {
      if (d->second.value.kind != Kind::dtype || d->second.value.dtype != dtype)
        fail(*d->second.at, fmt::format("{} dtype: got {}; expected the input's dtype {}", what,
                                        d->second.value.describe(), to_string(dtype)));
    }
    if (const auto issue = find_problem_issue(p)) fail(call, fmt::format("{}: {}", what, issue->message));
    return p;
  }

  Source source_;
  std::string origin_, name_;
  Scope module_scope_;
  std::optional<std::size_t> model_, init_, forward_, get_inputs_, get_init_inputs_;
  std::vector<ConvLayer> layers_;
};

}  // namespace

ImportOutcome import_kernelbench(std::string_view source, const std::string& origin, const std::string& name) {
  try {
    return Importer(source, origin, name).run();
  } catch (const ParseFailure& failure) {
    return ImportError{origin, failure.line, failure.column, failure.what};
  }
}

}  // namespace kbench::import
