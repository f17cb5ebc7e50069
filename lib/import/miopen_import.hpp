#pragma once
// MIOpenDriver command lines (as MIOpen logs them with MIOPEN_ENABLE_LOGGING_CMD): one per line,
// `[... MIOpenDriver] conv|convfp16|convbfp16 -n 16 -c 64 -H 56 -W 56 -k 64 -y 3 -x 3 -p 1 -q 1 ...`.
// Every flag that maps to the spec is mapped (MIOpenDriver's defaults for those left out); flags that
// only steer the driver (-t, -V, -i, ...) are noted as ignored; anything else is an ImportError at its
// line and column. -F's passes (1 forward, 2 backward data, 4 backward weights, 0 all) become one workload
// each, a backward one named NAME.<pass>; -I -f -O (NCHW/NCDHW or NHWC/NDHWC, the same for all three)
// the layout. Identical lines are one workload with a `count`.
#include <string>
#include <string_view>

#include "import/import_error.hpp"

namespace kbench::import {

// `origin` names the input in messages ("-" for stdin); each workload is named `prefix` + its shape
// ("conv2d-n16-c64-56x56-k64-3x3-p1").
ImportOutcome import_miopen(std::string_view text, const std::string& origin, const std::string& prefix);

}  // namespace kbench::import
