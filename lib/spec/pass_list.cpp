#include "spec/pass_list.hpp"

#include <algorithm>
#include <set>
#include <string>

#include <fmt/format.h>

#include "core/error.hpp"

namespace kbench {

namespace {

std::string unknown_pass_message(std::string_view text) {
  return fmt::format("unknown pass '{}'{}; expected forward, backward_data or backward_weights (or fprop, dgrad, "
                     "wgrad)",
                     text, spec::did_you_mean_suffix(text, kPassNames, kPassAliases));
}

}  // namespace

namespace spec {

std::vector<Pass> read_passes(const SpecReader& reader, const Located& where) {
  std::vector<Located> items;
  if (where.node.IsSequence()) {
    items = reader.read_sequence(where, "a list of passes");
    if (items.empty()) reader.fail(where, "got an empty list; expected at least one pass, e.g. pass: [forward]");
  } else {
    items.push_back(where);
  }
  std::vector<Pass> passes;
  for (const Located& item : items) {
    const std::string text = reader.read_text(item);
    const std::optional<Pass> pass = parse_pass(text);
    if (!pass) reader.fail(item, unknown_pass_message(text));
    if (std::find(passes.begin(), passes.end(), *pass) != passes.end())
      reader.fail(item, fmt::format("{} is listed twice; expected each pass once", to_string(*pass)));
    passes.push_back(*pass);
  }
  return passes;
}

}  // namespace spec

std::vector<Pass> parse_passes_flag(std::string_view text) {
  std::vector<Pass> passes;
  std::size_t start = 0;
  while (true) {
    const std::size_t comma = text.find(',', start);
    const std::string_view item = text.substr(start, comma == std::string_view::npos ? text.npos : comma - start);
    if (item.empty())
      throw InputError(fmt::format("--passes '{}': an empty entry; expected a comma-separated list such as "
                                   "backward_data,backward_weights",
                                   text));
    const std::optional<Pass> pass = parse_pass(item);
    if (!pass) throw InputError(fmt::format("--passes: {}", unknown_pass_message(item)));
    if (std::find(passes.begin(), passes.end(), *pass) != passes.end())
      throw InputError(fmt::format("--passes: {} is listed twice; expected each pass once", to_string(*pass)));
    passes.push_back(*pass);
    if (comma == std::string_view::npos) break;
    start = comma + 1;
  }
  return passes;
}

std::vector<Workload> expand_passes(const Workload& workload, const std::vector<Pass>& passes) {
  if (passes.empty()) return {workload};
  std::vector<Workload> expanded;
  for (const Pass pass : passes) {
    Workload w = workload;
    w.problem.pass = pass;
    if (passes.size() > 1) {
      w.pass_origin = workload.name;
      w.name = fmt::format("{}.{}", workload.name, to_string(pass));
    }
    expanded.push_back(std::move(w));
  }
  return expanded;
}

std::vector<Workload> with_passes(const std::vector<Workload>& workloads, const std::vector<Pass>& passes) {
  std::vector<Workload> result;
  std::set<std::string> origins_done;
  for (const Workload& workload : workloads) {
    Workload origin = workload;
    if (!workload.pass_origin.empty()) {
      if (!origins_done.insert(workload.pass_origin).second) continue;  // its sibling passes already redone
      origin.name = workload.pass_origin;
      origin.pass_origin.clear();
    }
    for (Workload& w : expand_passes(origin, passes)) result.push_back(std::move(w));
  }
  return result;
}

}  // namespace kbench
