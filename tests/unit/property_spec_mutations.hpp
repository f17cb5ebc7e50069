#pragma once
// Invalid workload specs for the property tests: one mutation of a random valid spec (a zero or
// negative size, a value of the wrong type, a list of the wrong rank, groups not dividing the channels,
// output_padding too large, an empty output, an unknown, repeated or missing key, a number past every
// limit), or a spec built around one tensor too large to allocate. Each says which key the error must
// name and which line it must point at.
#include <cstdint>
#include <string>
#include <vector>

#include "property_spec_text.hpp"

namespace kbench::testing::property {

struct InvalidSpec {
  std::string kind;        // which mutation, for failure messages
  SpecLines lines;         // written with block_mapping, one key per line
  std::string blamed_key;  // the error's key path starts with this ("kernel" for "kernel[1]")
  // The error points at the line of the last `line_key` entry, or at the mapping's first line when empty.
  std::string line_key;
  bool at_key_column = false;  // about the key itself (column 1), not its value
};

inline std::size_t index_of(const SpecLines& lines, const std::string& key) {
  for (std::size_t i = lines.size(); i-- > 0;)
    if (lines[i].key == key) return i;
  return lines.size();
}

// Replaces the key's value, or adds the key at a random place.
inline void set_value(SpecLines& lines, const std::string& key, const std::string& value, Rng& rng) {
  if (const std::size_t i = index_of(lines, key); i < lines.size()) {
    lines[i].value = value;
    return;
  }
  const auto at = uniform(rng, 0, static_cast<std::int64_t>(lines.size()));
  lines.insert(lines.begin() + at, SpecLine{key, value});
}

inline InvalidSpec blame_value(std::string kind, SpecLines lines, const std::string& key) {
  return {std::move(kind), std::move(lines), key, key, false};
}

// `dims` written as a list, with entry `at` replaced by `text`.
inline std::string list_with(const std::vector<std::string>& items, std::size_t at, const std::string& text, Rng& rng) {
  std::vector<std::string> changed = items;
  changed[at] = text;
  return join_list(changed, rng);
}

inline std::vector<std::string> input_items(const ConvProblem& p) {
  std::vector<std::string> items{std::to_string(p.batch), std::to_string(p.in_channels)};
  for (const std::string& item : dims_items(p.input, p.spatial_rank)) items.push_back(item);
  return items;
}

// `bad` in place of one size: the whole value when the key takes a single integer, else one list entry.
inline InvalidSpec bad_size(const std::string& kind, const ConvProblem& p, SpecLines lines, const std::string& key,
                            const std::string& bad, Rng& rng) {
  const auto rank = static_cast<std::size_t>(p.spatial_rank);
  const auto entry = [&](std::size_t count) {
    return static_cast<std::size_t>(uniform(rng, 0, static_cast<std::int64_t>(count) - 1));
  };
  std::string value = bad;
  if (key == "input") {
    const auto items = input_items(p);
    value = list_with(items, entry(items.size()), bad, rng);
  } else if ((key == "kernel" || key == "stride" || key == "dilation") && coin(rng)) {
    const Dims& dims = key == "kernel" ? p.kernel : key == "stride" ? p.stride : p.dilation;
    value = list_with(dims_items(dims, p.spatial_rank), entry(rank), bad, rng);
  } else if (key == "padding" && coin(rng)) {
    std::vector<std::string> items;
    for (std::size_t d = 0; d < rank; ++d) items.push_back(std::to_string(p.pad_before[static_cast<int>(d)]));
    const std::size_t at = entry(rank);
    value = list_with(items, at, coin(rng) ? bad : "[" + (coin(rng) ? bad + ", 0" : "0, " + bad) + "]", rng);
  }
  set_value(lines, key, value, rng);
  return blame_value(kind, std::move(lines), key);
}

inline InvalidSpec non_positive(const ConvProblem& p, SpecLines lines, Rng& rng) {
  std::vector<std::string> keys{"input", "out_channels", "kernel", "stride", "dilation", "groups"};
  const std::string bad = pick(rng, std::vector<std::string>{"0", "-1", "-7", "-2147483648", "-9223372036854775808"});
  if (p.transposed() && coin(rng, 0.15) && bad != "0") {
    set_value(lines, "output_padding", bad, rng);
    return blame_value("negative output_padding", std::move(lines), "output_padding");
  }
  if (coin(rng, 0.2) && bad != "0") return bad_size("negative padding", p, std::move(lines), "padding", bad, rng);
  return bad_size("zero or negative size", p, std::move(lines), pick(rng, keys), bad, rng);
}

inline InvalidSpec too_large(const ConvProblem& p, SpecLines lines, Rng& rng) {
  const std::vector<std::string> keys{"input", "out_channels", "kernel", "stride", "dilation", "groups", "padding"};
  const std::string bad = pick(rng, std::vector<std::string>{"2147483648", "1099511627776", "99999999999999999999",
                                                             "9223372036854775808", "+3000000000"});
  return bad_size("value past 2^31-1", p, std::move(lines), pick(rng, keys), bad, rng);
}

inline InvalidSpec wrong_type(const ConvProblem& p, SpecLines lines, Rng& rng) {
  const std::vector<std::string> not_integers{"2.5", "\"3\"", "abc", "true", "{a: 1}", "", "1e3", "0x10", ".inf", "~"};
  struct Choice {
    std::string key;
    std::vector<std::string> values;
  };
  const std::vector<Choice> choices{
      {"out_channels", not_integers},
      {"groups", not_integers},
      {"kernel", not_integers},
      {"stride", not_integers},
      {"dilation", not_integers},
      {"padding", not_integers},
      {"output_padding", not_integers},  // on a conv any output_padding is refused, too
      {"input", {"abc", "2.5", "{a: 1}", "", "7"}},
      {"name", {"{a: 1}", "[x]", "", "has space", "-dash", "\"x/y\"", std::string(129, 'n')}},
      {"op", {"abc", "2.5", "true", "\"\"", "[conv]", "{a: 1}", "", "Conv", "conv2d", "deconv"}},
      {"dtype", {"fp8", "half", "float64", "1", "[fp32]", ""}},
      {"layout", {"nhcw", "NHWC", "channels_last", "1", "[nhwc]", ""}},
      {"bias", {"1", "yes", "\"true\"", "2.5", "[true]", "", "on"}},
      {"description", {"[a]", "{a: 1}", ""}},
      {"records",
       {"abc", "{a: 1}", "[1]", "[{ms: 1}]", "[{hardware: h, implementation: i, ms: -1, source: s}]",
        "[{hardware: h, implementation: i, ms: .nan, source: s}]",
        "[{hardware: h, implementation: i, time_ms: 1, source: s}]"}},
  };
  const Choice& choice = pick(rng, choices);
  const std::string& value = pick(rng, choice.values);
  if (choice.key == "input" && coin(rng)) {
    // A list of the right length with one entry of the wrong type, so the entry is what is refused.
    const std::string entry = pick(rng, std::vector<std::string>{"2.5", "a", "[1]", "\"3\"", "true", "{a: 1}", "~"});
    return bad_size("wrong type", p, std::move(lines), "input", entry, rng);
  }
  set_value(lines, choice.key, value, rng);
  return blame_value("wrong type", std::move(lines), choice.key);
}

inline InvalidSpec rank_mismatch(const ConvProblem& p, SpecLines lines, Rng& rng) {
  std::vector<std::string> keys{"kernel", "stride", "dilation", "padding", "input"};
  if (p.transposed()) keys.push_back("output_padding");
  const std::string key = pick(rng, keys);
  // `input` sets the rank the other lists are checked against: an input of another valid length (3
  // to 5 entries) is a problem of another rank, refused at whichever list then disagrees with it, or
  // not at all. So input's wrong lengths are those no rank has.
  const std::int64_t wanted = key == "input" ? p.spatial_rank + 2 : p.spatial_rank;
  std::int64_t length = wanted;
  while (length == wanted || (key == "input" && length >= 3 && length <= kMaxSpatialRank + 2))
    length = uniform(rng, 0, key == "input" ? 7 : 4);
  std::vector<std::string> items;
  for (std::int64_t i = 0; i < length; ++i) items.push_back(key == "padding" || key == "output_padding" ? "0" : "1");
  set_value(lines, key, join_list(items, rng), rng);
  return blame_value("rank mismatch", std::move(lines), key);
}

inline InvalidSpec groups_not_dividing(const ConvProblem& p, SpecLines lines, Rng& rng) {
  std::int64_t groups = 1;
  while (p.in_channels % groups == 0 && p.out_channels % groups == 0)
    groups = coin(rng) ? uniform(rng, 2, 13) : uniform(rng, 2, 2147483647);
  set_value(lines, "groups", std::to_string(groups), rng);
  return blame_value("groups not dividing", std::move(lines), "groups");
}

inline InvalidSpec bad_output_padding(const ConvProblem& p, SpecLines lines, Rng& rng) {
  if (!p.transposed()) {
    set_value(lines, "output_padding", std::to_string(uniform(rng, 0, 2)), rng);
    return blame_value("output_padding on a conv", std::move(lines), "output_padding");
  }
  // PyTorch: output_padding must be smaller than either stride or dilation.
  const auto d = static_cast<int>(uniform(rng, 0, p.spatial_rank - 1));
  Dims padding = p.output_padding;
  padding[d] = std::max(p.stride[d], p.dilation[d]) + uniform(rng, 0, 2);
  set_value(lines, "output_padding", join_list(dims_items(padding, p.spatial_rank), rng), rng);
  return blame_value("output_padding too large", std::move(lines), "output_padding");
}

inline std::string pairs_text(const Dims& before, const Dims& after, int rank, Rng& rng) {
  std::vector<std::string> items;
  for (int d = 0; d < rank; ++d)
    items.push_back("[" + std::to_string(before[d]) + ", " + std::to_string(after[d]) + "]");
  return join_list(items, rng);
}

// The output would have no element: a conv kernel wider than the padded input, or a transposed
// convolution cropped away entirely by its padding.
inline InvalidSpec empty_output(const ConvProblem& p, SpecLines lines, Rng& rng) {
  const auto d = static_cast<int>(uniform(rng, 0, p.spatial_rank - 1));
  if (!p.transposed()) {
    Dims kernel = p.kernel;
    kernel[d] = p.input[d] + p.pad_before[d] + p.pad_after[d] + uniform(rng, 1, 3);
    set_value(lines, "kernel", join_list(dims_items(kernel, p.spatial_rank), rng), rng);
    return blame_value("kernel wider than the padded input", std::move(lines), "kernel");
  }
  Dims before = p.pad_before, after = p.pad_after;
  const std::int64_t uncropped =
      (p.input[d] - 1) * p.stride[d] + p.dilation[d] * (p.kernel[d] - 1) + p.output_padding[d] + 1;
  before[d] = uncropped + uniform(rng, 0, 3);
  set_value(lines, "padding", pairs_text(before, after, p.spatial_rank, rng), rng);
  return blame_value("transposed output cropped to nothing", std::move(lines), "padding");
}

inline InvalidSpec unknown_key(SpecLines lines, Rng& rng) {
  const std::string key = pick(rng, std::vector<std::string>{"kernal", "strides", "foo", "kernel_size", "in_channels",
                                                             "Kernel", "bias_", "padding_mode", "x", "batch"});
  const auto at = uniform(rng, 0, static_cast<std::int64_t>(lines.size()));
  lines.insert(lines.begin() + at, SpecLine{key, "1"});
  return {"unknown key", std::move(lines), key, key, true};
}

inline InvalidSpec duplicate_key(SpecLines lines, Rng& rng) {
  const auto original = uniform(rng, 0, static_cast<std::int64_t>(lines.size()) - 1);
  const SpecLine copy = lines[static_cast<std::size_t>(original)];
  const auto at = uniform(rng, original + 1, static_cast<std::int64_t>(lines.size()));
  lines.insert(lines.begin() + at, copy);
  return {"duplicate key", std::move(lines), copy.key, copy.key, true};
}

inline InvalidSpec missing_key(SpecLines lines, Rng& rng) {
  const std::string key = pick(rng, std::vector<std::string>{"name", "op", "input", "out_channels", "kernel"});
  lines.erase(lines.begin() + static_cast<std::ptrdiff_t>(index_of(lines, key)));
  return {"missing required key", std::move(lines), key, "", true};
}

// A spec around one absurd size, valid in every other respect, so the size check is what refuses it.
inline InvalidSpec huge_tensor(Rng& rng) {
  const std::string op = coin(rng) ? "conv" : "conv_transpose";
  SpecLines lines{{"name", "huge"}, {"op", op}};
  InvalidSpec spec;
  switch (uniform(rng, 0, 4)) {
    case 0:  // input [2^20, 2^20, 2^10]: 2^50 elements
      lines.insert(lines.end(), {{"input", "[1048576, 1048576, 1024]"}, {"out_channels", "1"}, {"kernel", "1"}});
      spec = blame_value("input tensor past 2^40 elements", lines, "input");
      break;
    case 1:  // weight [2^20, 2^20, 2^10]
      lines.insert(lines.end(), {{"input", "[1, 1048576, 1024]"}, {"out_channels", "1048576"}, {"kernel", "1024"}});
      spec = blame_value("weight tensor past 2^40 elements", lines, "kernel");
      break;
    case 2:  // output [2^10, 2^20, 2^20]
      lines.insert(lines.end(), {{"input", "[1024, 1, 1048576]"}, {"out_channels", "1048576"}, {"kernel", "1"}});
      spec = blame_value("output tensor past 2^40 elements", lines, "out_channels");
      break;
    case 3:  // a transposed output extent near 2^62
      lines = {{"name", "huge"},      {"op", "conv_transpose"}, {"input", "[1, 1, 2147483647]"},
               {"out_channels", "1"}, {"kernel", "1"},          {"stride", "2147483647"}};
      spec = blame_value("transposed output extent past 2^31-1", lines, "stride");
      break;
    default:  // a conv output extent of 2^32-1 from padding alone
      lines = {{"name", "huge"},      {"op", "conv"},  {"input", "[1, 1, 1]"},
               {"out_channels", "1"}, {"kernel", "1"}, {"padding", "2147483647"}};
      spec = blame_value("conv output extent past 2^31-1", lines, "padding");
      break;
  }
  std::shuffle(spec.lines.begin(), spec.lines.end(), rng);
  return spec;
}

// One random invalid spec derived from the valid problem `p` written as `lines`.
inline InvalidSpec random_invalid_spec(const ConvProblem& p, const SpecLines& lines, Rng& rng) {
  switch (uniform(rng, 0, 10)) {
    case 0: return non_positive(p, lines, rng);
    case 1: return too_large(p, lines, rng);
    case 2:
    case 3: return wrong_type(p, lines, rng);
    case 4: return rank_mismatch(p, lines, rng);
    case 5: return groups_not_dividing(p, lines, rng);
    case 6: return bad_output_padding(p, lines, rng);
    case 7: return empty_output(p, lines, rng);
    case 8: return coin(rng) ? unknown_key(lines, rng) : duplicate_key(lines, rng);
    case 9: return missing_key(lines, rng);
    default: return huge_tensor(rng);
  }
}

}  // namespace kbench::testing::property
