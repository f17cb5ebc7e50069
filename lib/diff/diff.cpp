#include "diff/diff.hpp"

#include <fmt/format.h>

#include <cmath>

#include "core/error.hpp"
#include "diff/mann_whitney.hpp"

namespace kbench::diff {

std::string_view to_string(PairOutcome outcome) {
  switch (outcome) {
    case PairOutcome::compared: return "compared";
    case PairOutcome::broke: return "broke";
    case PairOutcome::still_broken: return "still broken";
    case PairOutcome::fixed: return "fixed";
    case PairOutcome::not_compared: return "not compared";
  }
  return "?";
}

namespace {

bool is_broken(const Result& result) {
  return result.status == ResultStatus::wrong || result.status == ResultStatus::failed;
}

// Samples a verdict may use: only those of a verified result (a wrong kernel's time means nothing).
const std::vector<double>* timed_samples(const Result& result) {
  if (result.status != ResultStatus::ok || !result.timing || result.timing->samples_s.empty()) return nullptr;
  return &result.timing->samples_s;
}

RunIdentity identity_of(const RunReport& report) {
  return {report.device, report.peaks.name, report.kbench_version, report.build, report.started_at, report.interrupted};
}

// The smallest two-sided p-value the exact test can give for these sizes: when even complete
// separation of the samples is not significant, no verdict was ever possible.
double smallest_possible_p(int n1, int n2) { return std::min(1.0, 2 * exact_u_cdf(0, n1, n2)); }

std::vector<std::string> pair_notes(const ResultPair& pair, const VerdictOptions& options) {
  std::vector<std::string> notes;
  const Result& b = pair.base;
  const Result& c = pair.current;
  if (!b.implementation.empty() && !c.implementation.empty() && b.implementation != c.implementation)
    notes.push_back(fmt::format("implementation changed: {} → {}", b.implementation, c.implementation));
  if (b.status == ResultStatus::ok && c.status == ResultStatus::ok && b.math_used != c.math_used)
    notes.push_back(fmt::format("math used changed: {} → {}", to_string(b.math_used), to_string(c.math_used)));
  if (pair.timing && pair.timing->verdict == Verdict::unclear) {
    const int n1 = pair.timing->base_count;
    const int n2 = pair.timing->new_count;
    // The exact distribution is cheap only for small sizes; larger ones can always reach alpha.
    if (n1 * n2 <= kExactLimitProduct && smallest_possible_p(n1, n2) >= options.alpha)
      notes.push_back(fmt::format("{} vs {} samples: too few for the rank test to reach p < {} however far apart", n1,
                                  n2, options.alpha));
  }
  for (const std::string& warning : c.warnings) notes.push_back("NEW: " + warning);
  return notes;
}

ResultPair make_pair(const Result& base, const Result& current, const VerdictOptions& options) {
  ResultPair pair;
  pair.key = key_of(base);
  pair.base = base;
  pair.current = current;
  if (is_broken(current))
    pair.outcome = is_broken(base) ? PairOutcome::still_broken : PairOutcome::broke;
  else if (is_broken(base) && current.status == ResultStatus::ok)
    pair.outcome = PairOutcome::fixed;
  else if (const auto* b = timed_samples(base), *c = timed_samples(current); b && c)
    pair.timing = compare_samples(*b, *c, options);
  if (pair.timing) pair.outcome = PairOutcome::compared;
  pair.notes = pair_notes(pair, options);
  return pair;
}

std::vector<std::string> run_notes(const RunReport& base, const RunReport& current) {
  std::vector<std::string> notes;
  const auto l2 = [](const RunSettings& s) {
    return s.measure.timing.cold ? "L2 flushed before each sample" : "warm L2";
  };
  const auto launch = [](const RunSettings& s) {
    return s.measure.timing.graph ? "CUDA graph replay" : "stream launches";
  };
  if (base.settings.measure.timing.cold != current.settings.measure.timing.cold)
    notes.push_back(fmt::format("timing differs: BASE {}, NEW {}", l2(base.settings), l2(current.settings)));
  if (base.settings.measure.timing.graph != current.settings.measure.timing.graph)
    notes.push_back(fmt::format("timing differs: BASE {}, NEW {}", launch(base.settings), launch(current.settings)));
  if (base.interrupted) notes.push_back("BASE was interrupted: it holds only the results that finished");
  if (current.interrupted) notes.push_back("NEW was interrupted: it holds only the results that finished");
  return notes;
}

}  // namespace

DiffReport diff_reports(const RunReport& base, const RunReport& current, const VerdictOptions& options) {
  if (!(options.threshold >= 0) || !std::isfinite(options.threshold))
    throw InputError(fmt::format("--threshold must be a non-negative percentage, got {}", options.threshold * 100));
  if (!(options.alpha > 0 && options.alpha < 1))
    throw InputError(fmt::format("--alpha must be between 0 and 1, got {}", options.alpha));

  DiffReport report;
  report.options = options;
  report.base = identity_of(base);
  report.current = identity_of(current);
  report.device_differs = base.device != current.device;
  report.model_differs = base.peaks.name != current.peaks.name;
  report.notes = run_notes(base, current);

  std::vector<bool> taken(current.results.size(), false);
  for (const Result& b : base.results) {
    const ResultKey key = key_of(b);
    bool matched = false;
    for (std::size_t i = 0; i < current.results.size() && !matched; ++i) {
      if (taken[i] || !(key_of(current.results[i]) == key)) continue;
      taken[i] = true;
      matched = true;
      report.pairs.push_back(make_pair(b, current.results[i], options));
    }
    if (!matched) report.only_in_base.push_back(b);
  }
  for (std::size_t i = 0; i < current.results.size(); ++i)
    if (!taken[i]) report.only_in_current.push_back(current.results[i]);
  return report;
}

DiffCounts count_outcomes(const DiffReport& report) {
  DiffCounts counts;
  for (const ResultPair& pair : report.pairs) {
    switch (pair.outcome) {
      case PairOutcome::compared:
        switch (pair.timing->verdict) {
          case Verdict::faster: ++counts.faster; break;
          case Verdict::slower: ++counts.slower; break;
          case Verdict::same: ++counts.same; break;
          case Verdict::unclear: ++counts.unclear; break;
        }
        break;
      case PairOutcome::broke: ++counts.broke; break;
      case PairOutcome::still_broken: ++counts.still_broken; break;
      case PairOutcome::fixed: ++counts.fixed; break;
      case PairOutcome::not_compared: ++counts.not_compared; break;
    }
  }
  counts.only_in_base = static_cast<int>(report.only_in_base.size());
  counts.only_in_current = static_cast<int>(report.only_in_current.size());
  for (const Result& added : report.only_in_current)
    if (is_broken(added)) ++counts.added_broken;
  return counts;
}

int diff_exit_code(const DiffReport& report) {
  if (report.pairs.empty()) return exit_bad_input;
  const DiffCounts counts = count_outcomes(report);
  if (counts.slower > 0 || counts.broke > 0 || counts.added_broken > 0) return exit_result_failed;
  return exit_ok;
}

}  // namespace kbench::diff
