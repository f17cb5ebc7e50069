#include "diff/verdict.hpp"

#include <cmath>
#include <vector>

#include "diff/mann_whitney.hpp"
#include "measure/statistics.hpp"

namespace kbench::diff {

std::string_view to_string(Verdict verdict) {
  switch (verdict) {
    case Verdict::faster: return "faster";
    case Verdict::slower: return "slower";
    case Verdict::same: return "same";
    case Verdict::unclear: return "unclear";
  }
  return "?";
}

std::optional<TimingComparison> compare_samples(std::span<const double> base_samples_s,
                                                std::span<const double> new_samples_s, const VerdictOptions& options) {
  if (base_samples_s.empty() || new_samples_s.empty()) return std::nullopt;
  TimingComparison c;
  c.base_count = static_cast<int>(base_samples_s.size());
  c.new_count = static_cast<int>(new_samples_s.size());
  c.base_median_s = summarize(base_samples_s).median;
  c.new_median_s = summarize(new_samples_s).median;
  if (!(c.base_median_s > 0) || !(c.new_median_s > 0)) return std::nullopt;
  c.change = c.new_median_s / c.base_median_s - 1;

  const RankTest test = mann_whitney_u(base_samples_s, new_samples_s);
  c.p_value = test.p_value;
  c.exact_p = test.exact;

  constexpr double kRelativeSlack = 1e-9;
  const bool big_enough = std::fabs(c.change) >= options.threshold * (1 - kRelativeSlack);
  if (!big_enough)
    c.verdict = Verdict::same;
  else if (c.p_value >= options.alpha)
    c.verdict = Verdict::unclear;
  else
    c.verdict = c.change > 0 ? Verdict::slower : Verdict::faster;
  return c;
}

}  // namespace kbench::diff
