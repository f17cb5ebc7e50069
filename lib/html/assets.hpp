#pragma once
// The page's inline stylesheet and scripts. Nothing is loaded from anywhere: the page must open
// from a CI artifact, an e-mail attachment or an air-gapped machine exactly as it was written.
#include <string_view>

namespace kbench::html {

std::string_view stylesheet();

// Runs first, in <head>: records every script error so the self-check can report it.
std::string_view error_trap_script();

// Runs last: checks that every result the table marks as plotted has exactly one roofline point
// and one median mark (and no other result has any), that each point was laid out by the browser,
// and that no script error occurred. It writes the outcome into #kbench-selfcheck as
// data-status="ok" or "fail" (with data-results and data-points), which headless tests read.
std::string_view self_check_script();

}  // namespace kbench::html
