#include "diff/diff_render.hpp"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <cmath>
#include <vector>

#include "core/error.hpp"

namespace kbench::diff {

std::optional<DiffFormat> parse_diff_format(std::string_view text) {
  if (text == "text") return DiffFormat::text;
  if (text == "markdown" || text == "md") return DiffFormat::markdown;
  if (text == "json") return DiffFormat::json;
  return std::nullopt;
}

void write_diff(const DiffReport& report, const DiffSources& sources, DiffFormat format, std::ostream& out,
                bool color) {
  switch (format) {
    case DiffFormat::text: write_diff_text(report, sources, out, color); return;
    case DiffFormat::markdown: write_diff_markdown(report, sources, out); return;
    case DiffFormat::json:
      out << diff_to_json(report, sources).dump(2, ' ', false, nlohmann::ordered_json::error_handler_t::replace)
          << '\n';
      return;
  }
}

std::string format_change(double change) {
  if (!std::isfinite(change)) return "n/a";
  // Never "-0.0%": a change that rounds to nothing has no sign.
  const double percent = std::round(change * 1000) / 10;
  if (percent == 0) return "0.0%";
  return fmt::format("{:+.1f}%", percent);
}

std::string format_p_value(double p_value) {
  if (p_value < 0.001) return "<0.001";
  return fmt::format("{:.3f}", p_value);
}

std::string summary_line(const DiffCounts& c) {
  std::vector<std::string> parts;
  const auto add = [&](int n, std::string_view what) {
    if (n > 0) parts.push_back(fmt::format("{} {}", n, what));
  };
  add(c.faster, "faster");
  add(c.slower, "slower");
  add(c.same, "same");
  add(c.unclear, "unclear");
  add(c.broke, "broke");
  add(c.still_broken, "still broken");
  add(c.fixed, "fixed");
  add(c.not_compared, "not compared");
  add(c.only_in_base, "only in BASE");
  add(c.only_in_current, "only in NEW");
  if (parts.empty()) return "no results";
  return fmt::format("{}", fmt::join(parts, ", "));
}

std::string exit_line(const DiffReport& report) {
  const int code = diff_exit_code(report);
  const DiffCounts c = count_outcomes(report);
  if (code == exit_bad_input) return fmt::format("exit {}: no result of BASE matches a result of NEW", code);
  if (code == exit_result_failed) {
    std::vector<std::string> why;
    if (c.slower > 0) why.push_back(fmt::format("{} slower", c.slower));
    if (c.broke > 0) why.push_back(fmt::format("{} newly wrong or failed", c.broke));
    if (c.added_broken > 0) why.push_back(fmt::format("{} added and wrong or failed", c.added_broken));
    return fmt::format("exit {}: {}", code, fmt::join(why, ", "));
  }
  return fmt::format("exit {}: nothing slower, nothing newly wrong or failed", code);
}

std::string status_change_text(const ResultPair& pair) {
  if (pair.base.status == pair.current.status && pair.base.reason == pair.current.reason)
    return fmt::format("{} in both runs{}", to_string(pair.base.status),
                       pair.base.reason.empty() ? "" : fmt::format(" ({})", pair.base.reason));
  const auto side = [](std::string_view name, const Result& r) {
    std::string text = fmt::format("{} {}", name, to_string(r.status));
    if (!r.reason.empty()) text += fmt::format(" ({})", r.reason);
    return text;
  };
  return fmt::format("{} → {}", side("BASE", pair.base), side("NEW", pair.current));
}

std::vector<const ResultPair*> uncompared_by_urgency(const DiffReport& report) {
  const auto rank = [](PairOutcome outcome) {
    switch (outcome) {
      case PairOutcome::broke: return 0;
      case PairOutcome::fixed: return 1;
      case PairOutcome::still_broken: return 2;
      case PairOutcome::not_compared:
      case PairOutcome::compared: break;
    }
    return 3;
  };
  std::vector<const ResultPair*> pairs;
  for (const ResultPair& pair : report.pairs)
    if (pair.outcome != PairOutcome::compared) pairs.push_back(&pair);
  std::stable_sort(pairs.begin(), pairs.end(),
                   [&](const ResultPair* a, const ResultPair* b) { return rank(a->outcome) < rank(b->outcome); });
  return pairs;
}

}  // namespace kbench::diff
