// `kbench diff --format json`: schema "kbench.diff/1" (docs/diff-and-reports.md). Every pair, every
// unmatched result and the device mismatch are in it; "exit_code" is the status the command returns.
#include <cmath>

#include "diff/diff_render.hpp"

namespace kbench::diff {

namespace {

using ojson = nlohmann::ordered_json;

ojson finite_or_null(double value) { return std::isfinite(value) ? ojson(value) : ojson(nullptr); }

ojson key_json(const ResultKey& key) {
  return {{"workload", key.workload},    {"backend", key.backend},        {"variant", key.variant},
          {"math", to_string(key.math)}, {"dtype", to_string(key.dtype)}, {"layout", to_string(key.layout)},
          {"pass", to_string(key.pass)}};
}

// One side of a pair, or an unmatched result: what ran and how it ended. A median only for a
// verified, timed result, as in every kbench report.
ojson side_json(const Result& r) {
  ojson side = {{"status", to_string(r.status)},
                {"reason", r.reason},
                {"implementation", r.implementation},
                {"math_used", to_string(r.math_used)}};
  const bool timed = r.status == ResultStatus::ok && r.timing && !r.timing->samples_s.empty();
  side["median_s"] = timed ? finite_or_null(r.timing->stats.median) : ojson(nullptr);
  side["samples"] = timed ? static_cast<int>(r.timing->samples_s.size()) : 0;
  return side;
}

ojson pair_json(const ResultPair& pair) {
  ojson out = key_json(pair.key);
  out["outcome"] = to_string(pair.outcome);
  out["verdict"] = pair.timing ? ojson(to_string(pair.timing->verdict)) : ojson(nullptr);
  out["change"] = pair.timing ? finite_or_null(pair.timing->change) : ojson(nullptr);
  out["p_value"] = pair.timing ? finite_or_null(pair.timing->p_value) : ojson(nullptr);
  out["exact_p"] = pair.timing ? ojson(pair.timing->exact_p) : ojson(nullptr);
  out["base"] = side_json(pair.base);
  out["new"] = side_json(pair.current);
  out["notes"] = pair.notes;
  return out;
}

ojson unmatched_json(const std::vector<Result>& results) {
  ojson out = ojson::array();
  for (const Result& r : results) {
    ojson entry = key_json(key_of(r));
    entry.update(side_json(r));
    out.push_back(entry);
  }
  return out;
}

ojson run_json(const std::string& source, const RunIdentity& run) {
  return {{"source", source},
          {"device", run.device},
          {"peaks_name", run.peaks_name},
          {"kbench_version", run.kbench_version},
          {"build", run.build},
          {"started_at", run.started_at},
          {"interrupted", run.interrupted}};
}

ojson counts_json(const DiffCounts& c) {
  return {{"faster", c.faster},
          {"slower", c.slower},
          {"same", c.same},
          {"unclear", c.unclear},
          {"broke", c.broke},
          {"still_broken", c.still_broken},
          {"fixed", c.fixed},
          {"not_compared", c.not_compared},
          {"only_in_base", c.only_in_base},
          {"only_in_new", c.only_in_current},
          {"added_broken", c.added_broken}};
}

}  // namespace

nlohmann::ordered_json diff_to_json(const DiffReport& report, const DiffSources& sources) {
  ojson pairs = ojson::array();
  for (const ResultPair& pair : report.pairs) pairs.push_back(pair_json(pair));
  ojson mismatch = nullptr;
  if (report.device_differs || report.model_differs)
    mismatch = {{"device_differs", report.device_differs}, {"model_differs", report.model_differs}};
  return {
      {"schema", kDiffSchemaId},
      {"threshold", report.options.threshold},
      {"alpha", report.options.alpha},
      {"base", run_json(sources.base, report.base)},
      {"new", run_json(sources.current, report.current)},
      {"device_mismatch", mismatch},
      {"notes", report.notes},
      {"pairs", pairs},
      {"only_in_base", unmatched_json(report.only_in_base)},
      {"only_in_new", unmatched_json(report.only_in_current)},
      {"summary", counts_json(count_outcomes(report))},
      {"exit_code", diff_exit_code(report)},
  };
}

}  // namespace kbench::diff
