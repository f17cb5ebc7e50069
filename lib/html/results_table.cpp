#include <fmt/format.h>

#include "html/escape.hpp"
#include "html/page_sections.hpp"
#include "report/result_view.hpp"

namespace kbench::html {

std::string results_table_html(const PageModel& model) {
  const bool several = model.sources->size() > 1;
  const std::vector<report::Column> columns = report::result_columns();
  std::string out = "<table class=\"results\"><thead><tr>";
  if (several) out += "<th>run</th>";
  out += "<th>workload</th><th>ran on</th>";
  for (const report::Column& c : columns) out += fmt::format("<th>{}</th>", escape(c.header));
  out += "<th>chart</th></tr></thead><tbody>";

  for (const PageEntry& e : model.entries) {
    const Result& r = *e.view.result;
    out += fmt::format("<tr data-result=\"{}\" data-plotted=\"{}\">", e.id, e.plotted ? 1 : 0);
    if (several) out += fmt::format("<td>#{}</td>", e.document + 1);
    out += fmt::format("<td>{}</td><td title=\"{}\">{}</td>", escape(r.workload),
                       escape(report::device_name((*model.sources)[e.document].report, r.ran_on)),
                       r.ran_on == ResultDevice::cpu ? "CPU" : "GPU");
    const report::ResultRow row = report::result_row(e.view);
    for (std::size_t c = 0; c < row.cells.size(); ++c) {
      const bool status_cell = columns[c].header == "status";
      const std::string css = status_cell ? fmt::format(" class=\"status-{}\"", to_string(r.status))
                              : columns[c].align == report::Align::right ? std::string(" class=\"num\"")
                                                                         : std::string();
      out += fmt::format("<td{}>{}</td>", css, escape(row.cells[c].text));
    }
    if (row.tail)  // status and reason in place of the numbers, as in the text report
      out += fmt::format("<td colspan=\"{}\" class=\"status-{}\">{}</td>", columns.size() - row.cells.size(),
                         to_string(r.status), escape(row.tail->text));
    out += fmt::format("<td>{}</td></tr>", e.plotted ? "●" : "");
  }
  out += "</tbody></table>";
  return out;
}

}  // namespace kbench::html
