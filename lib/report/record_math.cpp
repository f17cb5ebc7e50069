#include "report/record_math.hpp"

#include <algorithm>
#include <set>

#include <fmt/format.h>

namespace kbench::report {

namespace {

std::string joined(const std::set<std::string>& parts) {
  std::string text;
  for (const std::string& part : parts) text += (text.empty() ? "" : ", ") + part;
  return text;
}

}  // namespace

std::string record_math_text(const PublishedRecord& record) {
  return record.math ? std::string(to_string(*record.math)) : "not stated";
}

std::string record_math_note(const std::vector<PublishedRecord>& records, const std::vector<const Result*>& results) {
  if (records.empty() || results.empty()) return {};
  std::set<std::string> ran;
  for (const Result* r : results) ran.insert(std::string(to_string(r->math_requested)));
  std::set<std::string> stated, unmatched;
  bool unstated = false;
  for (const PublishedRecord& record : records) {
    if (!record.math) {
      unstated = true;
      continue;
    }
    const std::string math(to_string(*record.math));
    stated.insert(math);
    if (!ran.contains(math)) unmatched.insert(math);
  }
  if (!unmatched.empty())
    return fmt::format(
        "the records ran under math {} and this run's results under {}: not the same arithmetic{}",
        joined(unmatched), joined(ran),
        unmatched.contains("tf32") ? " (TF32 rounds fp32 operands; --math tf32 runs kbench's beside them)" : "");
  if (unstated)
    return fmt::format("{} not say what math they ran under; this run's results: {}",
                       stated.empty() ? "the records do" : "some records do", joined(ran));
  return {};
}

}  // namespace kbench::report
