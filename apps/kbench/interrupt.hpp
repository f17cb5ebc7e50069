#pragma once
// SIGINT/SIGTERM ask the run to stop between results; a second signal ends the process at once.
#include <atomic>

namespace kbench::cli {

void install_interrupt_handlers();
const std::atomic<bool>& interrupt_requested();

}  // namespace kbench::cli
