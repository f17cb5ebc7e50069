#include "interrupt.hpp"

#include <csignal>

namespace kbench::cli {

namespace {
std::atomic<bool> requested{false};

extern "C" void on_signal(int signal_number) {
  requested.store(true);
  std::signal(signal_number, SIG_DFL);  // a second Ctrl-C ends the process
}
}  // namespace

void install_interrupt_handlers() {
  std::signal(SIGINT, on_signal);
  std::signal(SIGTERM, on_signal);
}

const std::atomic<bool>& interrupt_requested() { return requested; }

}  // namespace kbench::cli
