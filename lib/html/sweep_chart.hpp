#pragma once
// A sweep drawn as line charts along its axis: the workloads of one sweep (same Workload::sweep_origin)
// whose points differ in exactly one axis, each point a position on x in the order the run lists them.
// Two panels share that x axis: the median time of each series (backend, variant, math mode asked
// for, run) with the floor of each math mode in use as a dashed line, and each series' ×floor
// (median / floor, 1 = at the floor). A point is a mark of class "sweep-point" with data-result =
// its result's id; a series that has no plotted result at a point leaves a gap there.
#include <string>
#include <vector>

#include "html/page_model.hpp"

namespace kbench::html {

struct SweepGroup {
  std::string origin;                          // the swept workload's own name
  std::string axis;                            // the one key that varies
  std::vector<const WorkloadSummary*> points;  // in order of first appearance
};

// The sweeps among `workloads`: two or more points of one origin, varying along exactly one axis
// (a sweep over two axes has no single line to draw, and its points are shown one by one as before).
std::vector<SweepGroup> find_sweeps(const std::vector<const WorkloadSummary*>& workloads);

// `entries`: the device's entries (plotted or not; only plotted ones are drawn).
std::string sweep_svg(const PageModel& model, const SweepGroup& sweep, const std::vector<const PageEntry*>& entries);

}  // namespace kbench::html
