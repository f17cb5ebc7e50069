#include "import/miopen_import.hpp"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <array>
#include <charconv>
#include <map>
#include <optional>

#include "problem/problem_validation.hpp"

namespace kbench::import {

namespace {

// The flags that map, with MIOpenDriver's own defaults (conv_driver.hpp) for a command that leaves them out.
enum class Field {
  batch,
  in_channels,
  in_d,
  in_h,
  in_w,
  out_channels,
  fil_d,
  fil_h,
  fil_w,
  stride_d,
  stride_h,
  stride_w,
  pad_d,
  pad_h,
  pad_w,
  dil_d,
  dil_h,
  dil_w,
  groups,
  mode,
  opad_d,
  opad_h,
  opad_w,
  spatial_dim,
  forward,
  bias,
  in_layout,
  fil_layout,
  out_layout,
  pad_mode,
  pad_val,
  tensor_vect,
  vector_length,
  in_cast_type,
  wei_cast_type,
  out_cast_type,
};

struct Flag {
  char short_name;
  std::string_view long_name;
  Field field;
  std::string_view fallback;
};

constexpr std::array<Flag, 36> kFlags = {{
    {'n', "batchsize", Field::batch, "100"},
    {'c', "in_channels", Field::in_channels, "3"},
    {'!', "in_d", Field::in_d, "32"},
    {'H', "in_h", Field::in_h, "32"},
    {'W', "in_w", Field::in_w, "32"},
    {'k', "out_channels", Field::out_channels, "32"},
    {'@', "fil_d", Field::fil_d, "3"},
    {'y', "fil_h", Field::fil_h, "3"},
    {'x', "fil_w", Field::fil_w, "3"},
    {'#', "conv_stride_d", Field::stride_d, "1"},
    {'u', "conv_stride_h", Field::stride_h, "1"},
    {'v', "conv_stride_w", Field::stride_w, "1"},
    {'$', "pad_d", Field::pad_d, "0"},
    {'p', "pad_h", Field::pad_h, "0"},
    {'q', "pad_w", Field::pad_w, "0"},
    {'^', "dilation_d", Field::dil_d, "1"},
    {'l', "dilation_h", Field::dil_h, "1"},
    {'j', "dilation_w", Field::dil_w, "1"},
    {'g', "group_count", Field::groups, "1"},
    {'m', "mode", Field::mode, "conv"},
    {'%', "trans_output_pad_d", Field::opad_d, "0"},
    {'Y', "trans_output_pad_h", Field::opad_h, "0"},
    {'X', "trans_output_pad_w", Field::opad_w, "0"},
    {'_', "spatial_dim", Field::spatial_dim, "2"},
    {'F', "forw", Field::forward, "0"},
    {'b', "bias", Field::bias, "0"},
    {'I', "in_layout", Field::in_layout, ""},
    {'f', "fil_layout", Field::fil_layout, ""},
    {'O', "out_layout", Field::out_layout, ""},
    {'z', "pad_mode", Field::pad_mode, "default"},
    {'r', "pad_val", Field::pad_val, "0"},
    {'Z', "tensor_vect", Field::tensor_vect, "0"},
    {'L', "vector_length", Field::vector_length, "1"},
    {'U', "in_cast_type", Field::in_cast_type, "-1"},
    {'R', "wei_cast_type", Field::wei_cast_type, "-1"},
    {'T', "out_cast_type", Field::out_cast_type, "-1"},
}};

// Flags that steer the driver (timing, verification, iterations, search, data files, where buffers are
// allocated): read, noted, ignored. Names as conv_driver.hpp's AddCmdLineArgs spells them.
struct IgnoredFlag {
  char short_name;
  std::string_view long_name;
};
constexpr std::array<IgnoredFlag, 14> kIgnored = {{
    {'t', "time"},
    {'V', "verify"},
    {'C', "verification_cache"},
    {'i', "iter"},
    {'s', "search"},
    {'w', "wall"},
    {'P', "printconv"},
    {'S', "solution"},
    {'o', "dump_output"},
    {'d', "in_data"},
    {'e', "weights"},
    {'a', "in_bias"},
    {'D', "dout_data"},
    {'G', "gpualloc"},
}};

// MIOpenDriver's other commands: a log holds them too; they are skipped with a note.
constexpr std::array<std::string_view, 9> kOtherCommands = {"convint8", "convfp8", "convbfp8", "pool",   "bnorm",
                                                            "gemm",     "lrn",     "activ",    "softmax"};

struct Word {
  std::string_view text;
  int column;  // 1-based
};

std::vector<Word> split_words(std::string_view line) {
  std::vector<Word> words;
  std::size_t i = 0;
  while (i < line.size()) {
    while (i < line.size() && (line[i] == ' ' || line[i] == '\t' || line[i] == '\r')) ++i;
    const std::size_t start = i;
    while (i < line.size() && line[i] != ' ' && line[i] != '\t' && line[i] != '\r') ++i;
    if (i > start) words.push_back({line.substr(start, i - start), static_cast<int>(start) + 1});
  }
  return words;
}

struct Setting {
  std::string value;
  int column = 0;
  std::string written;  // "-p" or "--pad_h"
};

class LineReader {
 public:
  LineReader(int line, std::vector<Word> words) : line_(line), words_(std::move(words)) {}

  [[noreturn]] void fail(int column, std::string what) const { throw ParseFailure{line_, column, std::move(what)}; }

  // Reads the flags after the command; ignored ones go to `notes`.
  void read_flags(std::size_t first, std::vector<std::string>& ignored) {
    for (std::size_t i = first; i < words_.size(); ++i) {
      const Word& w = words_[i];
      std::string_view name, value;
      bool has_value = false;
      if (w.text.starts_with("--")) {
        name = w.text.substr(2);
        if (const std::size_t eq = name.find('='); eq != std::string_view::npos) {
          value = name.substr(eq + 1);
          name = name.substr(0, eq);
          has_value = true;
        }
      } else if (w.text.size() == 2 && w.text[0] == '-') {
        name = w.text.substr(1);
      } else {
        fail(w.column, fmt::format("'{}' is not a flag; expected -X VALUE or --name VALUE", w.text));
      }
      if (!has_value) {
        if (i + 1 >= words_.size()) fail(w.column, fmt::format("{} has no value", w.text));
        value = words_[++i].text;
      }
      const Flag* flag = nullptr;
      for (const Flag& f : kFlags)
        if (name.size() == 1 ? name[0] == f.short_name : name == f.long_name) flag = &f;
      if (flag != nullptr) {
        if (settings_.count(flag->field))
          fail(w.column, fmt::format("{} is given twice (as {} before)", w.text, settings_[flag->field].written));
        settings_[flag->field] = Setting{std::string(value), w.column, std::string(w.text)};
        continue;
      }
      bool known = false;
      for (const IgnoredFlag& f : kIgnored)
        known = known || (name.size() == 1 ? name[0] == f.short_name : name == f.long_name);
      if (!known)
        fail(w.column, fmt::format("unknown MIOpenDriver flag {}; kbench import maps the problem's flags (-n -c -H -W "
                                   "-! -k -y -x -@ -u -v -# -p -q -$ -l -j -^ -g -m -Y -X -% -_ -F -b -I -f -O -z "
                                   "-r -Z -L -U -R -T) and ignores -t -V -C -i -s -w -P -S -o -d -e -a -D -G",
                                   w.text));
      ignored.push_back(fmt::format("{} {}", w.text, value));
    }
  }

  bool given(Field field) const { return settings_.count(field) > 0; }

  const Setting* find(Field field) const {
    const auto found = settings_.find(field);
    return found == settings_.end() ? nullptr : &found->second;
  }

  std::string text(Field field) const {
    if (const Setting* s = find(field)) return s->value;
    for (const Flag& f : kFlags)
      if (f.field == field) return std::string(f.fallback);
    return "";
  }

  std::int64_t integer(Field field, std::int64_t min) const {
    const std::string value = text(field);
    std::int64_t v = 0;
    const auto [end, error] = std::from_chars(value.data(), value.data() + value.size(), v);
    if (error != std::errc{} || end != value.data() + value.size() || v < min || v > kMaxProblemDimension) {
      const Setting* s = find(field);
      fail(s ? s->column : 0, fmt::format("{} {}: expected an integer from {} to {}", s ? s->written : "flag", value,
                                          min, kMaxProblemDimension));
    }
    return v;
  }

  int column(Field field) const {
    const Setting* s = find(field);
    return s ? s->column : 1;
  }

 private:
  int line_;
  std::vector<Word> words_;
  std::map<Field, Setting> settings_;
};

std::string dims_name(const Dims& dims, int rank) {
  bool uniform = true;
  for (int d = 1; d < rank; ++d) uniform = uniform && dims[d] == dims[0];
  return uniform ? fmt::format("{}", dims[0]) : fmt::format("{}", fmt::join(dims.v, dims.v + rank, "x"));
}

bool all_are(const Dims& dims, int rank, std::int64_t v) {
  for (int d = 0; d < rank; ++d)
    if (dims[d] != v) return false;
  return true;
}

// conv2d-n16-c64-56x56-k64-3x3 [-s2] [-p1] [-d2] [-g32] [-op1] [-bias] [-fp16] [-nhwc]
std::string shape_name(const ConvProblem& p) {
  const int r = p.spatial_rank;
  std::string name =
      fmt::format("{}{}d-n{}-c{}-{}-k{}-{}", p.transposed() ? "convtranspose" : "conv", r, p.batch, p.in_channels,
                  fmt::join(p.input.v, p.input.v + r, "x"), p.out_channels, fmt::join(p.kernel.v, p.kernel.v + r, "x"));
  if (!all_are(p.stride, r, 1)) name += "-s" + dims_name(p.stride, r);
  if (!all_are(p.pad_before, r, 0)) name += "-p" + dims_name(p.pad_before, r);
  if (!all_are(p.dilation, r, 1)) name += "-d" + dims_name(p.dilation, r);
  if (p.groups != 1) name += fmt::format("-g{}", p.groups);
  if (p.transposed() && !all_are(p.output_padding, r, 0)) name += "-op" + dims_name(p.output_padding, r);
  if (p.bias) name += "-bias";
  if (p.dtype != DType::fp32) name += fmt::format("-{}", to_string(p.dtype));
  if (p.layout != Layout::nchw) name += fmt::format("-{}", to_string(p.layout));
  return name;
}

// -I -f -O: MIOpen's layouts of the input, the weights and the output, each NCHW (2-D) or NCDHW (3-D)
// where left out (conv_driver.hpp's ParseCmdLineArgs), so `-I NHWC` alone is a mixed command. kbench's
// `layout:` holds for all three tensors: channels first (NCHW, NCDHW) or last (NHWC, NDHWC).
Layout layout_of(const LineReader& r, int rank) {
  struct Tensor {
    Field field;
    std::string_view flag, what;
    std::string value;
    bool channels_last = false;
  };
  const std::string_view fallback = rank == 2 ? "NCHW" : "NCDHW";
  std::array<Tensor, 3> tensors{{{Field::in_layout, "-I", "input", "", false},
                                 {Field::fil_layout, "-f", "weights", "", false},
                                 {Field::out_layout, "-O", "output", "", false}}};
  for (Tensor& t : tensors) {
    const Setting* s = r.find(t.field);
    t.value = s ? s->value : std::string(fallback);
    const std::string written = s ? fmt::format("{} {}", s->written, s->value) : "";
    if (t.value == "CHWN")
      r.fail(s->column, fmt::format("{}: MIOpen's CHWN is neither channels first nor channels last, the two layouts "
                                    "kbench runs; expected {}",
                                    written, rank == 2 ? "NCHW or NHWC" : "NCDHW or NDHWC"));
    const bool known = t.value == "NCHW" || t.value == "NHWC" || t.value == "NCDHW" || t.value == "NDHWC";
    if (!known)
      r.fail(s->column, fmt::format("{}: not a layout MIOpenDriver takes; expected NCHW, NHWC (2-D), NCDHW or NDHWC "
                                    "(3-D)",
                                    written));
    if (static_cast<int>(t.value.size()) != rank + 2)
      r.fail(s->column, fmt::format("{} is a {}-D layout but the command is {}-D (--spatial_dim {}); expected {}",
                                    written, t.value.size() - 2, rank, rank,
                                    rank == 2 ? "NCHW or NHWC" : "NCDHW or NDHWC"));
    t.channels_last = t.value.back() == 'C';
  }
  for (const Tensor& t : tensors) {
    if (t.channels_last == tensors[0].channels_last) continue;
    // Named at a flag the line gives: the one that differs, else the input's.
    const Setting* s = r.find(t.field);
    const Setting* at = s ? s : r.find(tensors[0].field);
    const auto said = [&](const Tensor& x) {
      return r.find(x.field) ? fmt::format("{} {}", x.flag, x.value)
                             : fmt::format("{} {} (MIOpen's default where {} is left out)", x.flag, x.value, x.flag);
    };
    r.fail(at->column, fmt::format("{} and {}: the {} and the {} in different layouts; kbench's `layout:` is one for "
                                   "input, weights and output, so expected -I, -f and -O all channels first (NCHW / "
                                   "NCDHW) or all channels last (NHWC / NDHWC)",
                                   said(tensors[0]), said(t), tensors[0].what, t.what));
  }
  return tensors[0].channels_last ? Layout::nhwc : Layout::nchw;
}

struct Parsed {
  std::optional<ConvProblem> problem;  // nullopt: a line skipped, with its note
  std::string note;
  std::vector<Pass> passes;  // what -F asks for, forward first
};

// -F's bits: 1 forward, 2 backward data, 4 backward weights; 0 every pass.
std::vector<Pass> passes_of(std::int64_t f) {
  if (f == 0) f = 7;
  std::vector<Pass> passes;
  if (f & 1) passes.push_back(Pass::forward);
  if (f & 2) passes.push_back(Pass::backward_data);
  if (f & 4) passes.push_back(Pass::backward_weights);
  return passes;
}

Parsed parse_line(int line_number, std::string_view line, std::vector<std::string>& ignored) {
  // "MIOpen(HIP): Command [LogCmdConvolution] ./bin/MIOpenDriver conv -n ...": what follows the driver.
  std::string_view command_text = line;
  if (const std::size_t at = line.find("MIOpenDriver"); at != std::string_view::npos) {
    const std::size_t after = line.find_first_of(" \t", at);
    command_text = after == std::string_view::npos ? std::string_view{} : line.substr(after);
  }
  std::vector<Word> words = split_words(command_text);
  if (words.empty())
    throw ParseFailure{line_number, 1, "MIOpenDriver without a command; expected conv, convfp16 or convbfp16"};
  const int offset = static_cast<int>(command_text.data() - line.data());  // columns count from the line's start
  for (Word& w : words) w.column += offset;
  const Word command = words.front();
  DType dtype = DType::fp32;
  if (command.text == "convfp16") {
    dtype = DType::fp16;
  } else if (command.text == "convbfp16") {
    dtype = DType::bf16;
  } else if (command.text != "conv") {
    for (std::string_view other : kOtherCommands)
      if (command.text == other)
        return {std::nullopt, fmt::format("MIOpenDriver {}: not a convolution kbench runs; skipped", command.text)};
    throw ParseFailure{line_number, command.column,
                       fmt::format("'{}' is not a MIOpenDriver convolution command; expected conv, convfp16 or "
                                   "convbfp16",
                                   command.text)};
  }
  LineReader r(line_number, std::move(words));
  r.read_flags(1, ignored);

  const std::int64_t forward = r.integer(Field::forward, 0);
  if (forward > 7)
    r.fail(r.column(Field::forward),
           fmt::format("-F {}: expected 0 to 7 (1 forward, 2 backward data, 4 backward weights; 0 all)", forward));

  const std::string mode = r.text(Field::mode);
  if (mode != "conv" && mode != "trans")
    r.fail(r.column(Field::mode), fmt::format("-m {}: expected conv or trans", mode));
  if (r.text(Field::tensor_vect) != "0" || r.text(Field::vector_length) != "1")
    r.fail(r.column(r.given(Field::tensor_vect) && r.text(Field::tensor_vect) != "0" ? Field::tensor_vect
                                                                                     : Field::vector_length),
           fmt::format("-Z {} -L {}: MIOpen's vectorized layouts (NCHWc4, NCHWc8, for int8) are not a layout kbench "
                       "runs; expected -Z 0 -L 1",
                       r.text(Field::tensor_vect), r.text(Field::vector_length)));
  for (const Field cast : {Field::in_cast_type, Field::wei_cast_type, Field::out_cast_type})
    if (const Setting* s = r.find(cast); s && s->value != "-1")
      r.fail(s->column, fmt::format("{} {}: a tensor cast type (MIOpen's fp8 casts) is not reproduced; expected -1 "
                                    "(none) with the command's own type (conv, convfp16, convbfp16)",
                                    s->written, s->value));
  if (r.text(Field::pad_mode) != "default")
    r.fail(r.column(Field::pad_mode), fmt::format("-z {}: MIOpen's padding modes are not reproduced; expected -z "
                                                  "default with the pads given by -p -q -$",
                                                  r.text(Field::pad_mode)));
  if (r.integer(Field::pad_val, 0) != 0)
    r.fail(r.column(Field::pad_val), "-r: a padding value other than 0 is not a convolution kbench runs");
  const std::int64_t bias = r.integer(Field::bias, 0);  // MIOpen adds a bias for any -b but 0

  const std::int64_t rank = r.integer(Field::spatial_dim, 1);
  if (rank != 2 && rank != 3)
    r.fail(r.column(Field::spatial_dim), fmt::format("--spatial_dim {}: expected 2 or 3", rank));
  if (rank == 2)
    for (const Field depth : {Field::in_d, Field::fil_d, Field::stride_d, Field::pad_d, Field::dil_d, Field::opad_d})
      if (const Setting* s = r.find(depth))
        r.fail(s->column,
               fmt::format("{} is a depth flag but the command is 2-D; expected --spatial_dim 3 with it", s->written));

  ConvProblem p;
  p.op = mode == "trans" ? OpKind::conv_transpose : OpKind::conv;
  p.dtype = dtype;
  p.spatial_rank = static_cast<int>(rank);
  p.batch = r.integer(Field::batch, 1);
  p.in_channels = r.integer(Field::in_channels, 1);
  p.out_channels = r.integer(Field::out_channels, 1);
  p.groups = r.integer(Field::groups, 1);
  p.bias = bias != 0;
  const auto dims = [&](Field d, Field h, Field w, std::int64_t min) {
    Dims out;
    if (rank == 3)
      out = Dims{{r.integer(d, min), r.integer(h, min), r.integer(w, min)}};
    else
      out = Dims{{r.integer(h, min), r.integer(w, min), min == 0 ? 0 : 1}};
    return out;
  };
  p.input = dims(Field::in_d, Field::in_h, Field::in_w, 1);
  p.kernel = dims(Field::fil_d, Field::fil_h, Field::fil_w, 1);
  p.stride = dims(Field::stride_d, Field::stride_h, Field::stride_w, 1);
  p.dilation = dims(Field::dil_d, Field::dil_h, Field::dil_w, 1);
  p.pad_before = p.pad_after = dims(Field::pad_d, Field::pad_h, Field::pad_w, 0);
  p.layout = layout_of(r, p.spatial_rank);
  if (p.transposed()) {
    p.output_padding = dims(Field::opad_d, Field::opad_h, Field::opad_w, 0);
  } else {
    for (const Field opad : {Field::opad_d, Field::opad_h, Field::opad_w})
      if (const Setting* s = r.find(opad); s && s->value != "0")
        r.fail(s->column, fmt::format("{} is an output padding, which only -m trans has", s->written));
  }
  if (const auto issue = find_problem_issue(p)) r.fail(command.column, issue->message);
  return {p, "", passes_of(forward)};
}

}  // namespace

ImportOutcome import_miopen(std::string_view text, const std::string& origin, const std::string& prefix) {
  Imported imported;
  std::map<std::string, std::size_t> by_name;
  int line_number = 0;
  try {
    std::size_t start = 0;
    while (start <= text.size()) {
      const std::size_t end = std::min(text.find('\n', start), text.size());
      const std::string_view line = text.substr(start, end - start);
      start = end + 1;
      ++line_number;
      const std::vector<Word> words = split_words(line);
      if (words.empty() || words.front().text.starts_with("#")) continue;
      std::vector<std::string> ignored;
      const Parsed parsed = parse_line(line_number, line, ignored);
      const std::string where = fmt::format("{}:{}", origin, line_number);
      if (!parsed.problem) {
        imported.notes.push_back(fmt::format("{}: {}", where, parsed.note));
        continue;
      }
      if (!ignored.empty()) imported.notes.push_back(fmt::format("{}: ignored {}", where, fmt::join(ignored, ", ")));
      // One workload per pass -F asks for; a backward pass's name says which (NAME.backward_data).
      for (const Pass pass : parsed.passes) {
        std::string name = prefix + shape_name(*parsed.problem);
        if (pass != Pass::forward) name += fmt::format(".{}", to_string(pass));
        if (const auto seen = by_name.find(name); seen != by_name.end()) {
          ++imported.workloads[seen->second].count;
          continue;
        }
        Workload w;
        w.name = name;
        w.problem = *parsed.problem;
        w.problem.pass = pass;
        std::string command(line.substr(line.find_first_not_of(" \t")));
        if (command.size() > 160) command = command.substr(0, 157) + "...";
        w.description = fmt::format("MIOpenDriver command from {}: {}", where, command);
        w.source_file = origin;
        w.source_line = line_number;
        by_name.emplace(name, imported.workloads.size());
        imported.workloads.push_back(std::move(w));
      }
    }
  } catch (const ParseFailure& failure) {
    return ImportError{origin, failure.line, failure.column, failure.what};
  }
  if (imported.workloads.empty())
    return ImportError{origin, 0, 0, "no MIOpenDriver convolution command (conv, convfp16, convbfp16) to import"};
  return imported;
}

}  // namespace kbench::import
