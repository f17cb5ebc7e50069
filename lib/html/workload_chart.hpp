#pragma once
// One workload's times as inline SVG, on a log time axis: a row per plotted result (its median, a
// mark of class "median-mark" with data-result = its id, and its spread), a row per published
// record, and vertical lines at the floor's memory and compute terms for each math mode in use;
// the region below the lowest floor is shaded, since no implementation can be there.
#include <string>
#include <vector>

#include "html/page_model.hpp"

namespace kbench::html {

// `entries`: the plotted entries of this workload on this device, in table order.
std::string workload_svg(const PageModel& model, const WorkloadSummary& summary,
                         const std::vector<const PageEntry*>& entries);

}  // namespace kbench::html
