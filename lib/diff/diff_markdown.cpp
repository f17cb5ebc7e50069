// `kbench diff --format markdown`: a PR comment. The verdict summary comes first (what a reviewer
// reads), then the timed pairs as a pipe table, then status changes and unmatched results.
#include <fmt/format.h>

#include <ostream>
#include <string>
#include <vector>

#include "diff/diff_render.hpp"
#include "report/format.hpp"

namespace kbench::diff {

namespace {

// A '|' ends a table cell and a line break ends the row; '*', '_', '\' and '`' would start formatting.
std::string escape(std::string_view text) {
  std::string out;
  for (char c : text) {
    if (c == '\n' || c == '\r') {
      out += ' ';
      continue;
    }
    if (c == '|' || c == '*' || c == '_' || c == '\\' || c == '`') out += '\\';
    out += c;
  }
  return out;
}

std::string verdict_cell(Verdict verdict) {
  // Bold marks what needs a look; the word itself stays, so the table reads without styling.
  if (verdict == Verdict::slower || verdict == Verdict::faster) return fmt::format("**{}**", to_string(verdict));
  return std::string(to_string(verdict));
}

void write_compared(const DiffReport& report, std::ostream& out) {
  std::vector<std::string> notes;
  bool header_written = false;
  for (const ResultPair& pair : report.pairs) {
    if (pair.outcome != PairOutcome::compared) continue;
    if (!header_written) {
      out << "\n| workload | backend | math | BASE | NEW | change | p | samples | verdict |\n"
             "| --- | --- | --- | --: | --: | --: | --: | --: | --- |\n";
      header_written = true;
    }
    const TimingComparison& t = *pair.timing;
    out << fmt::format("| {} | {} | {} | {} | {} | {} | {} | {}/{} | {} |\n", escape(pair.key.workload),
                       escape(backend_label(pair.key)), to_string(pair.key.math),
                       report::format_duration(t.base_median_s), report::format_duration(t.new_median_s),
                       format_change(t.change), escape(format_p_value(t.p_value)), t.base_count, t.new_count,
                       verdict_cell(t.verdict));
    for (const std::string& note : pair.notes) notes.push_back(fmt::format("{}: {}", to_string(pair.key), note));
  }
  if (!header_written) out << "\nNo result was timed in both runs.\n";
  if (!notes.empty()) out << '\n';
  for (const std::string& note : notes) out << "- " << escape(note) << '\n';
}

void write_uncompared(const DiffReport& report, std::ostream& out) {
  const std::vector<const ResultPair*> pairs = uncompared_by_urgency(report);
  if (pairs.empty()) return;
  out << "\n### Not timed in both runs\n\n";
  for (const ResultPair* pair : pairs) {
    const bool alarm = pair->outcome == PairOutcome::broke;
    out << fmt::format("- {}{}{}: {}\n", alarm ? "**" : "", escape(to_string(pair->outcome)), alarm ? "**" : "",
                       escape(fmt::format("{}: {}", to_string(pair->key), status_change_text(*pair))));
  }
}

void write_unmatched(std::string_view title, const std::vector<Result>& results, std::ostream& out) {
  if (results.empty()) return;
  out << "\n### " << title << "\n\n";
  for (const Result& r : results) {
    std::string text = fmt::format("{}: {}", to_string(key_of(r)), to_string(r.status));
    if (!r.reason.empty()) text += fmt::format(" ({})", r.reason);
    out << "- " << escape(text) << '\n';
  }
}

}  // namespace

void write_diff_markdown(const DiffReport& report, const DiffSources& sources, std::ostream& out) {
  out << "## kbench diff\n\n";
  out << "**" << escape(summary_line(count_outcomes(report))) << "** (" << escape(exit_line(report)) << ")\n\n";
  out << "- BASE: " << escape(sources.base) << " · " << escape(report.base.device) << '\n';
  out << "- NEW: " << escape(sources.current) << " · " << escape(report.current.device) << '\n';
  out << fmt::format("- verdicts: a median change of at least {}% and p < {} (Mann-Whitney U, two-sided)\n",
                     fmt::format("{:g}", report.options.threshold * 100), report.options.alpha);
  if (report.model_differs)
    out << "- **device mismatch**: BASE ran on " << escape(report.base.peaks_name) << ", NEW on "
        << escape(report.current.peaks_name) << "; results are matched anyway\n";
  else if (report.device_differs)
    out << "- **device mismatch**: different devices of the same model; results are matched anyway\n";
  for (const std::string& note : report.notes) out << "- note: " << escape(note) << '\n';
  write_compared(report, out);
  write_uncompared(report, out);
  write_unmatched("Only in BASE", report.only_in_base, out);
  write_unmatched("Only in NEW", report.only_in_current, out);
}

}  // namespace kbench::diff
