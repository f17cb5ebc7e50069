#pragma once
// SIGINT and SIGTERM, handled from the first instruction of main: a signal that lands while specs
// load, devices are probed or backends register ends kbench with 130 (docs/exit-codes.md), never by
// the signal itself. Until a command asks to stop gracefully, a signal ends the process at once
// (removing a temporary file being written). `run` and `compare` ask: their first signal asks the
// run to stop between results, and a second one ends the process at once.
// SIGPIPE is ignored: a reader that leaves early is a write error kbench reports (exit 3).
#include <atomic>

namespace kbench::cli {

void install_interrupt_handlers();
// From here on, the first SIGINT/SIGTERM only sets interrupt_requested().
void stop_gracefully_on_interrupt();
const std::atomic<bool>& interrupt_requested();

}  // namespace kbench::cli
