#pragma once
// The one line `run` and `compare` end with on stderr: how many results came out of how many workloads,
// by status, and where the report went. A CI log read from the bottom says at once what the run did.
#include <cstddef>
#include <string>

#include "run/result.hpp"

namespace kbench::cli {

struct RunOutcome {
  std::size_t workloads_asked = 0;  // after sweeps and passes: what the run set out to do
  std::string report_destination;   // "in out.json (json)", "on stdout"
};

// "kbench: done: 6 results of 3 workloads: 4 ok, 1 skipped, 1 unavailable; report in out.json (json)";
// after Ctrl-C "kbench: interrupted after 5 of 23 workloads: ...".
std::string closing_line(const RunReport& report, const RunOutcome& outcome);

}  // namespace kbench::cli
