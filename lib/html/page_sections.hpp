#pragma once
// The parts of the HTML page, each a fragment of markup: what each run was (header), a device's
// roofline and its workloads, and the full results table. html_report.cpp puts them in order.
#include <cstddef>
#include <string>

#include "html/page_model.hpp"

namespace kbench::html {

// One box per input document: its source, version, time, host and report::run_facts.
std::string run_header_html(const PageModel& model, std::size_t document);

// "Device N": the peaks, the roofline, a legend, then per workload its facts, its time chart and
// the results of it that are not on the charts (with their status and reason).
std::string device_section_html(const PageModel& model, const DeviceGroup& device, std::size_t device_number);

// Every result of every document, with the columns of the text report; each row carries
// data-result (its id) and data-plotted ("1" when it has chart marks), which the self-check reads.
std::string results_table_html(const PageModel& model);

// The backend colours and the math-mode shapes.
std::string legend_html(const PageModel& model, const DeviceGroup& device);

}  // namespace kbench::html
