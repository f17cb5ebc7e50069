#include "html/html_report.hpp"

#include <fmt/format.h>

#include "html/assets.hpp"
#include "html/escape.hpp"
#include "html/page_model.hpp"
#include "html/page_sections.hpp"

namespace kbench::html {

void write_html_report(const std::vector<HtmlSource>& sources, std::ostream& out) {
  const PageModel model = build_page_model(sources);
  std::size_t results = 0, plotted = 0;
  for (const PageEntry& e : model.entries) {
    ++results;
    if (e.plotted) ++plotted;
  }
  out << "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
         "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n"
         "<title>kbench report</title>\n<style>"
      << stylesheet() << "</style>\n<script>" << error_trap_script() << "</script>\n</head>\n<body>\n";
  out << "<h1>kbench report</h1>\n";
  out << fmt::format("<p class=\"subtitle\">{} run{} · {} results, {} verified and timed · {} device{}</p>\n",
                     sources.size(), sources.size() == 1 ? "" : "s", results, plotted, model.devices.size(),
                     model.devices.size() == 1 ? "" : "s");
  out << "<section class=\"runs\">\n";
  for (std::size_t d = 0; d < sources.size(); ++d) out << run_header_html(model, d) << '\n';
  out << "</section>\n";
  for (std::size_t g = 0; g < model.devices.size(); ++g)
    out << device_section_html(model, model.devices[g], g + 1) << '\n';
  out << "<h2>All results</h2>\n" << results_table_html(model) << '\n';
  out << "<p class=\"muted\">Median, spread (in the table, the samples' standard deviation as a percentage of the "
         "median; on the charts, p10–p90 bars) and rates (SI prefixes: 593M is 593 million) come from verified runs "
         "only; ×floor = median / kbench's floor at the math mode used (GPU results only); err/checked = largest |error| against the "
         "fp64 reference / output elements compared (* = a sample of the output).</p>\n";
  out << "<div id=\"kbench-selfcheck\" data-status=\"pending\">Self-check did not run (scripts disabled?).</div>\n";
  out << "<script>" << self_check_script() << "</script>\n</body>\n</html>\n";
}

}  // namespace kbench::html
