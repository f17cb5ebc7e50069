#include <regex>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "core/error.hpp"
#include "workload_flags.hpp"

namespace kbench::cli {

namespace {

struct Filter {
  std::regex regex;
  bool negated = false;
};

Filter compile(const std::string& filter) {
  const bool negated = !filter.empty() && filter[0] == '-';
  const std::string pattern = negated ? filter.substr(1) : filter;
  try {
    return {std::regex(pattern, std::regex::ECMAScript), negated};
  } catch (const std::regex_error& e) {
    throw InputError(fmt::format("--filter '{}': not a regular expression: {}", filter, e.what()));
  }
}

}  // namespace

void check_filter(const std::string& filter) {
  if (!filter.empty()) (void)compile(filter);
}

std::vector<Workload> filter_workloads(std::vector<Workload> workloads, const std::string& filter) {
  if (filter.empty()) return workloads;
  const Filter f = compile(filter);
  std::vector<Workload> kept;
  for (Workload& w : workloads)
    if (std::regex_search(w.name, f.regex) != f.negated) kept.push_back(std::move(w));
  if (kept.empty()) {
    std::vector<std::string> names;
    for (std::size_t i = 0; i < workloads.size() && i < 5; ++i) names.push_back(workloads[i].name);
    throw InputError(fmt::format("--filter '{}': matches none of the {} workloads ({}{})", filter, workloads.size(),
                                 fmt::join(names, ", "), workloads.size() > names.size() ? ", ..." : ""));
  }
  return kept;
}

}  // namespace kbench::cli
