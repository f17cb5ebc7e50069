#pragma once
// Text from a results file (workload names, reasons, device strings) goes into HTML and SVG as
// text, never as markup: every character that could open a tag, an entity or end an attribute
// value is escaped.
#include <string>
#include <string_view>

namespace kbench::html {

// &, <, >, " and ' as entities; valid in text and in a double- or single-quoted attribute value.
std::string escape(std::string_view text);

}  // namespace kbench::html
