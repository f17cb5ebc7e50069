// libFuzzer target: arbitrary bytes into the spec parser. A spec is either accepted or refused with a
// located kbench::InputError; anything else (another exception, a sanitizer report, a hang) is a bug.
#include <cstddef>
#include <cstdint>

#include "fuzz_support.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const auto workloads = kbench::fuzz::parse_or_refuse(data, size);
  if (workloads) kbench::fuzz::require(!workloads->empty(), "a spec was accepted with no workload in it");
  return 0;
}
