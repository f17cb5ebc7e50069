#pragma once
// What a stream's terminal takes: colour and cursor escapes only on a terminal whose TERM names
// one that understands them (not `dumb`, as Emacs' shell and some CI consoles set, nor unset), and
// colour only without NO_COLOR (no-color.org).
namespace kbench::cli {

// FD is a terminal and $TERM is set and not "dumb".
bool terminal_takes_escapes(int fd);

// The text report on stdout may be coloured.
bool stdout_wants_color();

}  // namespace kbench::cli
