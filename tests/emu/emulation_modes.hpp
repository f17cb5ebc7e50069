#pragma once
// The emulation's modes (cuda_emu.hpp: a Schedule and a CopyLanding), for tests that run a kernel
// under a mode of their own rather than the one the test program was started in.
#include <string>
#include <vector>

namespace kbench::emu_tests {

struct EmulationMode {
  emu::Schedule schedule = emu::Schedule::ascending;
  emu::CopyLanding landing = emu::CopyLanding::at_wait;
};

inline std::string to_string(const EmulationMode& mode) {
  const char* schedules[] = {"ascending", "descending", "shuffled", "warp-ahead"};
  return std::string(schedules[static_cast<int>(mode.schedule)]) +
         (mode.landing == emu::CopyLanding::at_wait ? ", copies at wait" : ", copies at issue");
}

// Every schedule with every landing.
inline std::vector<EmulationMode> every_mode() {
  std::vector<EmulationMode> modes;
  for (const emu::CopyLanding landing : {emu::CopyLanding::at_wait, emu::CopyLanding::at_issue})
    for (const emu::Schedule schedule :
         {emu::Schedule::ascending, emu::Schedule::descending, emu::Schedule::shuffled, emu::Schedule::warp_ahead})
      modes.push_back(EmulationMode{schedule, landing});
  return modes;
}

// Sets `mode` for the launches in its scope, and restores the program's mode after.
class ScopedMode {
 public:
  explicit ScopedMode(const EmulationMode& mode) {
    emu::set_schedule(mode.schedule);
    emu::set_copy_landing(mode.landing);
  }
  ~ScopedMode() {
    emu::set_schedule(previous_.schedule);
    emu::set_copy_landing(previous_.landing);
  }
  ScopedMode(const ScopedMode&) = delete;
  ScopedMode& operator=(const ScopedMode&) = delete;

 private:
  EmulationMode previous_{emu::schedule(), emu::copy_landing()};
};

}  // namespace kbench::emu_tests
