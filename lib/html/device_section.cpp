#include <fmt/format.h>

#include <algorithm>

#include "html/escape.hpp"
#include "html/page_sections.hpp"
#include "html/roofline_chart.hpp"
#include "html/sweep_chart.hpp"
#include "html/workload_chart.hpp"
#include "problem/problem_metrics.hpp"
#include "report/facts.hpp"
#include "report/format.hpp"
#include "report/record_math.hpp"

namespace kbench::html {

namespace {

std::string peaks_line(const DevicePeaks& p) {
  std::string text = report::peak_rates_text(p, " · ");
  if (p.sms > 0) text += fmt::format(" · {} SMs", p.sms);
  return text;
}

std::string runs_of(const DeviceGroup& device) {
  std::string text;
  for (std::size_t d : device.documents) text += fmt::format("{}#{}", text.empty() ? "" : ", ", d + 1);
  return text;
}

// The report the workload's facts are read from: the first of the device's runs that has it.
const RunReport* report_with(const PageModel& model, const DeviceGroup& device, const std::string& workload) {
  for (std::size_t d : device.documents) {
    const RunReport& report = (*model.sources)[d].report;
    if (report.find_workload(workload)) return &report;
  }
  return nullptr;
}

// Timed results of the host's CPU: their medians and rates, said to be the CPU's, and never on a GPU's chart.
std::string host_list(const PageModel& model, const std::vector<const PageEntry*>& entries) {
  std::string items;
  const RunReport* report = nullptr;
  for (const PageEntry* e : entries) {
    const Result& r = *e->view.result;
    if (r.ran_on != ResultDevice::cpu || !e->view.timing) continue;
    report = &(*model.sources)[e->document].report;
    std::string text = fmt::format("{}: median {}", e->label, report::format_duration(e->view.timing->stats.median));
    if (e->view.achieved_flops) text += ", " + report::format_flop_rate(*e->view.achieved_flops);
    items += fmt::format("<li>{}</li>", escape(text));
  }
  if (items.empty()) return "";
  return fmt::format(
      "<p class=\"muted host-results\">On the host's CPU ({}), timed by the CPU clock; not set against this GPU's "
      "roofs:</p><ul class=\"host\">{}</ul>",
      escape(report::device_name(*report, ResultDevice::cpu)), items);
}

std::string untimed_list(const std::vector<const PageEntry*>& entries) {
  std::string items;
  for (const PageEntry* e : entries) {
    if (e->plotted) continue;
    if (e->view.result->ran_on == ResultDevice::cpu && e->view.timing) continue;  // in host_list
    const Result& r = *e->view.result;
    std::string text = fmt::format("{}: {}", e->label, to_string(r.status));
    if (r.status == ResultStatus::ok)
      text += r.timing ? " (timed, but no rate can be computed)" : " (verified, not timed)";
    if (!r.reason.empty()) text += ": " + r.reason;
    items += fmt::format("<li class=\"status-{}\">{}</li>", to_string(r.status), escape(text));
  }
  return items.empty() ? "" : "<p class=\"muted\">Not on the charts:</p><ul class=\"untimed\">" + items + "</ul>";
}

std::string workload_html(const PageModel& model, const DeviceGroup& device, const WorkloadSummary& summary,
                          std::size_t number) {
  const Workload& w = summary.workload;
  std::vector<const PageEntry*> all, plotted;
  for (const PageEntry* e : model.entries_of(device)) {
    if (e->view.result->workload != w.name) continue;
    all.push_back(e);
    if (e->plotted) plotted.push_back(e);
  }
  // The data beside the name, as the text report's title has it ("fp16 nhwc").
  std::string out = fmt::format("<section class=\"workload\"><h3>W{} · {} · {}</h3>", number, escape(w.name),
                                escape(data_text(w.problem)));
  if (!w.description.empty()) out += fmt::format("<p class=\"muted\">{}</p>", escape(w.description));
  if (const RunReport* report = report_with(model, device, w.name)) {
    out += "<table class=\"facts\">";
    for (const report::Fact& fact : report::workload_facts(*report, summary))
      out += fmt::format("<tr><th>{}</th><td>{}</td></tr>", escape(fact.label), escape(fact.value));
    out += "</table>";
  }
  out += workload_svg(model, summary, plotted);
  std::vector<const Result*> results;
  for (const PageEntry* e : all) results.push_back(e->view.result);
  if (const std::string note = report::record_math_note(w.records, results); !note.empty())
    out += fmt::format("<p class=\"muted\">Published records: {}.</p>", escape(note));
  out += host_list(model, all);
  out += untimed_list(all);
  out += "</section>";
  return out;
}

}  // namespace

// Only what this device's charts draw: the backends (runs) with a plotted result, the math shapes in use,
// and the published-record diamond where a workload has records.
std::string legend_html(const PageModel& model, const DeviceGroup& device) {
  std::vector<std::string> keys;
  bool fp32 = false, tf32 = false;
  for (const PageEntry* e : model.entries_of(device)) {
    if (!e->plotted) continue;
    const std::string key = model.palette_key(*e);
    if (std::find(keys.begin(), keys.end(), key) == keys.end()) keys.push_back(key);
    (e->view.result->math_used == MathMode::tf32 ? tf32 : fp32) = true;
  }
  bool records = false;
  for (const WorkloadSummary* w : model.workloads_of(device)) records = records || !w->workload.records.empty();
  if (keys.empty() && !records) return "";
  std::string out = "<div class=\"legend\">";
  for (const std::string& key : keys)
    out += fmt::format("<span><span class=\"swatch\" style=\"background:{}\"></span>{}</span>",
                       model.palette.color_of(key), escape(key));
  if (fp32) out += "<span><span class=\"swatch\" style=\"background:#777\"></span>fp32</span>";
  if (tf32) out += "<span><span class=\"swatch square\" style=\"background:#777\"></span>tf32</span>";
  if (records) out += "<span>◆ published record</span>";
  return out + "</div>";
}

std::string device_section_html(const PageModel& model, const DeviceGroup& device, std::size_t device_number) {
  std::string out = fmt::format("<section class=\"device\" id=\"device-{}\"><h2>Device {}: {}</h2>", device_number,
                                device_number, escape(device_title(device.peaks)));
  out += fmt::format("<p class=\"muted\">{} · runs {}</p>", escape(peaks_line(device.peaks)), runs_of(device));
  out += roofline_svg(model, device);
  out += legend_html(model, device);
  out +=
      "<p class=\"muted\">Each point is a verified, timed result at its workload's arithmetic intensity "
      "(W<i>n</i> below the axis); its height is the FLOP rate its median achieves. Below, per workload: "
      "each result's median (mark) and spread (bar) against the floor's memory and compute terms; nothing can "
      "run in the shaded region below the floor.</p>";
  const std::vector<const WorkloadSummary*> workloads = model.workloads_of(device);
  // A sweep along one axis reads best as a line: its points' times side by side, before the points one by one.
  for (const SweepGroup& sweep : find_sweeps(workloads))
    out +=
        fmt::format("<section class=\"sweep\"><h3>Sweep · {} along {}</h3>", escape(sweep.origin), escape(sweep.axis)) +
        sweep_svg(model, sweep, model.entries_of(device)) + "</section>";
  for (std::size_t w = 0; w < workloads.size(); ++w) out += workload_html(model, device, *workloads[w], w + 1);
  out += "</section>";
  return out;
}

}  // namespace kbench::html
