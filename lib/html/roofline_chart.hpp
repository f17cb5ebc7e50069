#pragma once
// The roofline of one device as inline SVG: arithmetic intensity (FLOP/byte) against achieved
// FLOP/s, both log-scaled; the memory roof (bandwidth × intensity) and the compute roof of each
// math mode in use; one point per plotted result (class "roofline-point", data-result = its id),
// coloured by backend, a circle for fp32 and a square for tf32.
#include <string>

#include "html/page_model.hpp"

namespace kbench::html {

std::string roofline_svg(const PageModel& model, const DeviceGroup& device);

}  // namespace kbench::html
