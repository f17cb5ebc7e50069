// kbench_emu_tests: doctest's main, plus --emu-schedule=ascending|descending|shuffled, the order in
// which each block's threads take their turns between barriers (Schedule in cuda_emu.hpp; default
// ascending). doctest ignores options it does not know, so the rest of the command line is its own.
#define DOCTEST_CONFIG_IMPLEMENT
#include <doctest/doctest.h>

#include <cstdio>
#include <string_view>

#include "cuda_emu.hpp"

int main(int argc, char** argv) {
  constexpr std::string_view kOption = "--emu-schedule=";
  for (int i = 1; i < argc; ++i) {
    const std::string_view arg = argv[i];
    if (!arg.starts_with(kOption)) continue;
    const std::string_view name = arg.substr(kOption.size());
    if (name == "ascending") {
      kbench::emu::set_schedule(kbench::emu::Schedule::ascending);
    } else if (name == "descending") {
      kbench::emu::set_schedule(kbench::emu::Schedule::descending);
    } else if (name == "shuffled") {
      kbench::emu::set_schedule(kbench::emu::Schedule::shuffled);
    } else {
      std::fprintf(stderr, "kbench_emu_tests: --emu-schedule takes ascending, descending or shuffled, not '%.*s'\n",
                   static_cast<int>(name.size()), name.data());
      return 2;
    }
  }
  doctest::Context context(argc, argv);
  return context.run();
}
