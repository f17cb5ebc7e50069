// kbench_emu_tests: doctest's main, plus the emulation's mode (cuda_emu.hpp):
//   --emu-schedule=ascending|descending|shuffled|warp-ahead  the order in which each block's threads
//                                                             take their turns (default ascending);
//   --emu-copies=at-wait|at-issue                             when cp.async copies land (default at-wait).
// doctest ignores options it does not know, so the rest of the command line is its own.
#define DOCTEST_CONFIG_IMPLEMENT
#include <doctest/doctest.h>

#include <cstdio>
#include <string_view>

#include "cuda_emu.hpp"

namespace {

bool set_schedule(std::string_view name) {
  using kbench::emu::Schedule;
  if (name == "ascending") {
    kbench::emu::set_schedule(Schedule::ascending);
  } else if (name == "descending") {
    kbench::emu::set_schedule(Schedule::descending);
  } else if (name == "shuffled") {
    kbench::emu::set_schedule(Schedule::shuffled);
  } else if (name == "warp-ahead") {
    kbench::emu::set_schedule(Schedule::warp_ahead);
  } else {
    return false;
  }
  return true;
}

bool set_copy_landing(std::string_view name) {
  using kbench::emu::CopyLanding;
  if (name == "at-wait") {
    kbench::emu::set_copy_landing(CopyLanding::at_wait);
  } else if (name == "at-issue") {
    kbench::emu::set_copy_landing(CopyLanding::at_issue);
  } else {
    return false;
  }
  return true;
}

}  // namespace

int main(int argc, char** argv) {
  constexpr std::string_view kSchedule = "--emu-schedule=";
  constexpr std::string_view kCopies = "--emu-copies=";
  for (int i = 1; i < argc; ++i) {
    const std::string_view arg = argv[i];
    if (arg.starts_with(kSchedule) && !set_schedule(arg.substr(kSchedule.size()))) {
      std::fprintf(stderr,
                   "kbench_emu_tests: --emu-schedule takes ascending, descending, shuffled or warp-ahead, not '%s'\n",
                   argv[i] + kSchedule.size());
      return 2;
    }
    if (arg.starts_with(kCopies) && !set_copy_landing(arg.substr(kCopies.size()))) {
      std::fprintf(stderr, "kbench_emu_tests: --emu-copies takes at-wait or at-issue, not '%s'\n",
                   argv[i] + kCopies.size());
      return 2;
    }
  }
  doctest::Context context(argc, argv);
  return context.run();
}
