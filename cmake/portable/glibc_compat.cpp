// Portable builds only. The static libstdc++ of GCC 12 references arc4random (glibc 2.36) from
// std::random_device, even though kbench never calls it; that one symbol would stop the binary from
// loading on glibc 2.35 (Ubuntu 22.04, the usual CUDA image). Defining it here resolves the
// reference inside the executable, from getrandom (glibc 2.25).
#include <sys/random.h>

#include <cstdint>

extern "C" std::uint32_t arc4random() noexcept {
  std::uint32_t value = 0;
  while (getrandom(&value, sizeof value, 0) != static_cast<ssize_t>(sizeof value)) {
  }
  return value;
}
