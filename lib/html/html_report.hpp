#pragma once
// `kbench report RESULTS.json... --html OUT.html`: one self-contained page (inline CSS and SVG, one
// inline script that checks the page, nothing fetched) with, per device, a roofline chart of every
// timed result; per workload, each result's median and spread against the floor's memory and
// compute terms beside the published records; the run settings on top and the full table below.
#include <ostream>
#include <string>
#include <vector>

#include "run/result.hpp"

namespace kbench::html {

struct HtmlSource {
  std::string name;  // shown as the run's title, e.g. the file it was read from
  RunReport report;
};

void write_html_report(const std::vector<HtmlSource>& sources, std::ostream& out);

}  // namespace kbench::html
