#include <fmt/format.h>

#include "html/escape.hpp"
#include "html/page_sections.hpp"
#include "report/facts.hpp"

namespace kbench::html {

std::string run_header_html(const PageModel& model, std::size_t document) {
  const HtmlSource& source = (*model.sources)[document];
  const RunReport& report = source.report;
  std::string out = fmt::format("<div class=\"run\" id=\"run-{}\"><h3>Run #{}: {}</h3>", document + 1, document + 1,
                                escape(source.name));
  if (report.interrupted)
    out += "<div class=\"banner\">Interrupted: the run stopped early; its results are partial.</div>";
  out += "<table class=\"facts\">";
  const auto row = [&](std::string_view label, std::string_view value) {
    out += fmt::format("<tr><th>{}</th><td>{}</td></tr>", escape(label), escape(value));
  };
  row("kbench", report.kbench_version);
  if (!report.started_at.empty()) row("started", report.started_at);
  if (!report.host.empty()) row("host", report.host);
  for (const report::Fact& fact : report::run_facts(report)) row(fact.label, fact.value);
  out += "</table></div>";
  return out;
}

}  // namespace kbench::html
