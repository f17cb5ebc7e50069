#pragma once
// `kbench diff BASE NEW`: results of two runs matched by ResultKey, each pair given an outcome,
// nothing dropped. Unmatched results, status changes and a device mismatch are listed beside the
// timing verdicts; the renderers (diff_render.hpp) and the exit status only read this structure.
#include <optional>
#include <string>
#include <vector>

#include "diff/result_key.hpp"
#include "diff/verdict.hpp"
#include "run/result.hpp"

namespace kbench::diff {

enum class PairOutcome {
  compared,      // verified and timed in both runs: `timing` holds the verdict
  broke,         // wrong or failed in NEW, not in BASE
  still_broken,  // wrong or failed in both
  fixed,         // wrong or failed in BASE, verified in NEW
  not_compared,  // no timing on one side (unavailable, unsupported, skipped, verified but not timed)
};
std::string_view to_string(PairOutcome outcome);

struct ResultPair {
  ResultKey key;
  Result base;
  Result current;  // NEW
  PairOutcome outcome = PairOutcome::not_compared;
  std::optional<TimingComparison> timing;  // set exactly when outcome is compared
  // What a reader should know beside the verdict: another implementation ran, another math mode
  // was used, too few samples for any verdict, a warning on the NEW result.
  std::vector<std::string> notes;
};

// The run a document describes, as far as the diff shows it.
struct RunIdentity {
  std::string device;      // RunReport::device
  std::string peaks_name;  // the GPU model the floors are for
  std::string kbench_version;
  std::string build;  // RunReport::build: the commit and build the numbers came from
  std::string started_at;
  bool interrupted = false;
};

struct DiffReport {
  VerdictOptions options;
  RunIdentity base;
  RunIdentity current;
  // The documents disagree on the device. Results are matched all the same; a reader decides
  // whether a comparison across devices means anything.
  bool device_differs = false;          // RunReport::device (name, index, UUID of the card)
  bool model_differs = false;           // peaks.name: another GPU model altogether
  std::vector<ResultPair> pairs;        // in BASE order
  std::vector<Result> only_in_base;     // removed, or not run this time
  std::vector<Result> only_in_current;  // added
  std::vector<std::string> notes;       // timing settings that differ, interrupted runs
};

// The k-th result with a key in BASE is matched with the k-th result with that key in NEW, so a
// document that repeats a key (two runs concatenated) still pairs up in order.
DiffReport diff_reports(const RunReport& base, const RunReport& current, const VerdictOptions& options);

struct DiffCounts {
  int faster = 0, slower = 0, same = 0, unclear = 0;
  int broke = 0, still_broken = 0, fixed = 0, not_compared = 0;
  int only_in_base = 0, only_in_current = 0;
  int added_broken = 0;  // among only_in_current: wrong or failed
};
DiffCounts count_outcomes(const DiffReport& report);

// The documented contract (docs/exit-codes.md, `kbench diff`):
//   0 nothing slower and nothing newly wrong or failed;
//   1 something slower, or wrong/failed in NEW and not in BASE (a pair that broke, or an added
//     result that is wrong or failed);
//   2 nothing to compare: no result of BASE matches one of NEW (unreadable documents also give 2,
//     through InputError, before a DiffReport exists).
int diff_exit_code(const DiffReport& report);

}  // namespace kbench::diff
