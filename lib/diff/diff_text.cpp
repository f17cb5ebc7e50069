// The terminal form of `kbench diff`: who is compared with whom, then a table of the timed pairs
// with their verdicts, then everything that could not be timed against its partner, then the
// results that have no partner at all. Nothing is left out: a CI log is read when something broke.
#include <fmt/format.h>

#include <algorithm>
#include <ostream>
#include <string>
#include <vector>

#include "diff/diff_render.hpp"
#include "report/format.hpp"
#include "report/table.hpp"

namespace kbench::diff {

namespace {

using report::Align;
using report::Cell;
using report::Column;
using report::Tone;

constexpr std::size_t kWidth = 110;
constexpr std::string_view kIndent = "  ";

Tone tone_of(Verdict verdict) {
  switch (verdict) {
    case Verdict::faster: return Tone::good;
    case Verdict::slower: return Tone::bad;
    case Verdict::unclear: return Tone::warn;
    case Verdict::same: break;
  }
  return Tone::plain;
}

Tone tone_of(PairOutcome outcome) {
  switch (outcome) {
    case PairOutcome::broke: return Tone::bad;
    case PairOutcome::still_broken: return Tone::warn;
    case PairOutcome::fixed: return Tone::good;
    case PairOutcome::compared:
    case PairOutcome::not_compared: break;
  }
  return Tone::plain;
}

std::string run_line(std::string_view name, const std::string& source, const RunIdentity& run) {
  std::string line = fmt::format("{} {}", name, source);
  if (!run.started_at.empty()) line += " · " + run.started_at;
  if (!run.kbench_version.empty()) line += " · kbench " + run.kbench_version;
  // The commit only: the rest of the build line rarely differs between two runs worth diffing.
  if (const std::size_t end = run.build.find(" · "); !run.build.empty()) line += " · " + run.build.substr(0, end);
  return line;
}

void write_header(const DiffReport& report, const DiffSources& sources, std::ostream& out, bool color) {
  out << "kbench diff\n";
  out << kIndent << run_line("BASE", sources.base, report.base) << '\n';
  out << kIndent << kIndent << "device " << report.base.device << '\n';
  out << kIndent << run_line("NEW ", sources.current, report.current) << '\n';
  out << kIndent << kIndent << "device " << report.current.device << '\n';
  out << kIndent
      << fmt::format("verdicts: a median change of at least {}% and p < {} (Mann-Whitney U, two-sided)",
                     fmt::format("{:g}", report.options.threshold * 100), report.options.alpha)
      << '\n';
  if (report.model_differs || report.device_differs) {
    const std::string text =
        report.model_differs
            ? fmt::format("DEVICE MISMATCH: BASE ran on {}, NEW on {}; results are matched anyway",
                          report.base.peaks_name, report.current.peaks_name)
            : "DEVICE MISMATCH: the runs used different devices of the same model; results are matched anyway";
    out << (color ? report::paint(text, Tone::warn) : text) << '\n';
  }
  for (const std::string& note : report.notes) out << "note: " << note << '\n';
}

void write_compared(const DiffReport& report, std::ostream& out, bool color) {
  out << '\n';
  const DiffCounts counts = count_outcomes(report);
  if (counts.faster + counts.slower + counts.same + counts.unclear == 0) {
    out << kIndent << "no pair was timed in both runs\n";
    return;
  }
  report::Table table({{"workload", Align::left, true, 16},
                       {"backend", Align::left, true, 10},
                       {"math", Align::left, false, 4},
                       {"BASE", Align::right, false, 6},
                       {"NEW", Align::right, false, 6},
                       {"change", Align::right, false, 6},
                       {"p", Align::right, false, 5},
                       {"samples", Align::right, false, 7},
                       {"verdict", Align::left, false, 7}});
  std::vector<std::string> notes;
  for (const ResultPair& pair : report.pairs) {
    if (pair.outcome != PairOutcome::compared) continue;
    const TimingComparison& t = *pair.timing;
    table.add_row({{pair.key.workload},
                   {backend_label(pair.key)},
                   {std::string(to_string(pair.key.math))},
                   {report::format_duration(t.base_median_s)},
                   {report::format_duration(t.new_median_s)},
                   {format_change(t.change)},
                   {format_p_value(t.p_value)},
                   {fmt::format("{}/{}", t.base_count, t.new_count)},
                   {std::string(to_string(t.verdict)), tone_of(t.verdict)}});
    for (const std::string& note : pair.notes) notes.push_back(fmt::format("{}: {}", to_string(pair.key), note));
  }
  out << table.render(kWidth, color, kIndent).text;
  for (const std::string& note : notes) out << kIndent << "- " << note << '\n';
}

// One entry per pair: its outcome and key on a line, the two statuses (with their reasons, which
// are what a person acts on) wrapped below, never cut.
void write_uncompared(const DiffReport& report, std::ostream& out, bool color) {
  constexpr std::size_t kOutcomeWidth = 14;
  const std::vector<const ResultPair*> pairs = uncompared_by_urgency(report);
  if (!pairs.empty()) out << "\nnot timed in both runs\n";
  for (const ResultPair* entry : pairs) {
    const ResultPair& pair = *entry;
    const std::string outcome(to_string(pair.outcome));
    const std::string padded = outcome + std::string(kOutcomeWidth - std::min(kOutcomeWidth - 1, outcome.size()), ' ');
    out << kIndent << (color ? report::paint(padded, tone_of(pair.outcome)) : padded) << to_string(pair.key) << '\n';
    const std::string hang(kIndent.size() + kOutcomeWidth, ' ');
    for (const std::string& line : report::wrap_words(status_change_text(pair), kWidth - hang.size()))
      out << hang << line << '\n';
  }
}

void write_unmatched(std::string_view title, const std::vector<Result>& results, std::ostream& out) {
  if (results.empty()) return;
  out << '\n' << title << '\n';
  for (const Result& r : results) {
    std::string line = fmt::format("{}{}: {}", kIndent, to_string(key_of(r)), to_string(r.status));
    if (r.status == ResultStatus::ok && r.timing && !r.timing->samples_s.empty())
      line += fmt::format(", median {}", report::format_duration(r.timing->stats.median));
    if (!r.reason.empty()) line += fmt::format(" ({})", r.reason);
    out << line << '\n';
  }
}

}  // namespace

void write_diff_text(const DiffReport& report, const DiffSources& sources, std::ostream& out, bool color) {
  write_header(report, sources, out, color);
  write_compared(report, out, color);
  write_uncompared(report, out, color);
  write_unmatched("only in BASE (not in NEW)", report.only_in_base, out);
  write_unmatched("only in NEW (not in BASE)", report.only_in_current, out);
  out << '\n' << summary_line(count_outcomes(report)) << '\n' << exit_line(report) << '\n';
}

}  // namespace kbench::diff
