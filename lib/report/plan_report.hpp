#pragma once
// `kbench plan`'s output (run/planner.hpp makes it): a text listing for people, a `kbench.plan/1`
// JSON document for tools.
#include <ostream>

#include "run/planner.hpp"

namespace kbench {

// Per workload, per backend and math: the kernel that runs and its facts, then the other variants
// `NAME:all` runs, then what is ruled out and why. `verbose`: every variant's facts, not the first's only.
void write_plan_text(const PlanReport& report, std::ostream& out, bool verbose);
void write_plan_json(const PlanReport& report, std::ostream& out);

}  // namespace kbench
