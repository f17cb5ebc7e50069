#pragma once
// How wide the text output may be: $COLUMNS where it is a number (as `ls` and git read it), else the
// terminal's width when stdout is one, else 100 columns, the layout files and pipes get.
#include <cstddef>

namespace kbench::cli {

inline constexpr std::size_t kDefaultWidth = 100;
inline constexpr std::size_t kNarrowestWidth = 60;  // below this, tables cannot keep their numbers

std::size_t terminal_width();

}  // namespace kbench::cli
