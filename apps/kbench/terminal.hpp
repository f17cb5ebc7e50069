#pragma once
// What the terminal behind a stream takes and how wide it is. Colour and cursor escapes only on a
// terminal whose TERM names one that understands them (not `dumb`, as Emacs' shell and some CI consoles
// set, nor unset), and colour only without NO_COLOR (no-color.org). Width: $COLUMNS where it is a number
// (as `ls` and git read it), else the terminal's width when stdout is one, else 100 columns, the layout
// files and pipes get.
#include <cstddef>

namespace kbench::cli {

// FD is a terminal and $TERM is set and not "dumb".
bool terminal_takes_escapes(int fd);

// The text report on stdout may be coloured.
bool stdout_wants_color();

inline constexpr std::size_t kDefaultWidth = 100;
inline constexpr std::size_t kNarrowestWidth = 60;  // below this, tables cannot keep their numbers

std::size_t terminal_width();

}  // namespace kbench::cli
