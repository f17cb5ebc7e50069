#pragma once
// Where the randomised tests start their generators. A test writes test_seed(its own constant):
//   - KBENCH_TEST_SEED unset (CI, ctest): the constant itself, so every run draws the same shapes
//     and a failure reproduces as it is;
//   - KBENCH_TEST_SEED=N: a stream of its own for each N and each constant, so a soak
//     (scripts/soak-tests.sh) walks N to draw many more shapes than one run does, and a failure
//     found that way reproduces with the same N.
// The CPU can run the kernels' index arithmetic and, under emulation, the kernels themselves far more
// often than a GPU session allows: the soak is how the rare shape that breaks one is found first.
#include <cerrno>
#include <cstdint>
#include <cstdlib>
#include <stdexcept>
#include <string>

#include "data/counter_rng.hpp"

namespace kbench::testing {

// The value of KBENCH_TEST_SEED, or nothing when unset; anything but a whole decimal number is an
// error naming the variable (a typo must not silently rerun the default shapes).
inline bool soak_seed(std::uint64_t& out) {
  const char* text = std::getenv("KBENCH_TEST_SEED");
  if (text == nullptr || *text == '\0') return false;
  char* end = nullptr;
  errno = 0;
  const unsigned long long value = std::strtoull(text, &end, 10);
  if (errno != 0 || *end != '\0' || *text == '-' || *text == '+')
    throw std::invalid_argument(std::string("KBENCH_TEST_SEED must be a whole decimal number, not '") + text + "'");
  out = value;
  return true;
}

// splitmix64 (a step of its golden-ratio counter, then kbench's finaliser): neighbouring inputs give
// unrelated outputs, so seeds N and N + 1 (and two tests' constants under one N) start unrelated
// streams.
inline std::uint64_t splitmix64(std::uint64_t x) { return data::mix64(x + 0x9e3779b97f4a7c15ull); }

inline std::uint64_t test_seed(std::uint64_t base) {
  std::uint64_t soak = 0;
  if (!soak_seed(soak)) return base;
  return splitmix64(splitmix64(soak) ^ base);
}

}  // namespace kbench::testing
