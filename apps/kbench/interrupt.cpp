#include "interrupt.hpp"

#include <unistd.h>

#include <csignal>

#include "core/error.hpp"
#include "io/atomic_file.hpp"

namespace kbench::cli {

namespace {
std::atomic<bool> requested{false};
std::atomic<bool> graceful{false};

extern "C" void on_signal(int) {
  if (graceful.load() && !requested.exchange(true)) return;  // the run stops between results
  // Only async-signal-safe calls from here on.
  kbench::io::remove_pending_temporary_file();
  static constexpr char kMessage[] = "kbench: interrupted\n";
  (void)!::write(STDERR_FILENO, kMessage, sizeof kMessage - 1);
  ::_exit(exit_interrupted);
}

void handle(int signal_number) {
  struct sigaction action {};
  action.sa_handler = on_signal;
  sigemptyset(&action.sa_mask);
  action.sa_flags = SA_RESTART;
  ::sigaction(signal_number, &action, nullptr);
}
}  // namespace

void install_interrupt_handlers() {
  handle(SIGINT);
  handle(SIGTERM);
  std::signal(SIGPIPE, SIG_IGN);
  // A mask inherited from the parent must not hold them back (nor one already pending) until the run.
  sigset_t ours;
  sigemptyset(&ours);
  sigaddset(&ours, SIGINT);
  sigaddset(&ours, SIGTERM);
  ::sigprocmask(SIG_UNBLOCK, &ours, nullptr);
}

void stop_gracefully_on_interrupt() { graceful.store(true); }

const std::atomic<bool>& interrupt_requested() { return requested; }

}  // namespace kbench::cli
