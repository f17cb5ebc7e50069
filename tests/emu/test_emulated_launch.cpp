// The emulation refuses a launch the device would refuse (cudaErrorInvalidConfiguration), so a launch
// whose grid or shared memory outgrows the hardware fails on the CPU first: the grid's y and z below
// 2^16, a block of 32 to 1,024 threads, at most 227 KB of dynamic shared memory.
#include <doctest/doctest.h>

#include <vector>

namespace kbench {
namespace {

// Counts the blocks that ran; each block's first thread counts.
int blocks_run(emu::Dim3 grid, emu::Dim3 block, std::size_t shared_bytes) {
  static std::vector<unsigned char> shared(300 * 1024);
  int blocks = 0;
  emu::launch(grid, block, shared.data(), shared_bytes, [&] {
    if (threadIdx.x == 0 && threadIdx.y == 0 && threadIdx.z == 0) ++blocks;
  });
  return blocks;
}

}  // namespace

TEST_SUITE("cuda_emulated") {
  TEST_CASE("emulated launches: the device's limits on the grid, the block and shared memory") {
    CHECK(blocks_run(emu::Dim3{2, 3, 4}, emu::Dim3{64}, 0) == 24);
    CHECK(blocks_run(emu::Dim3{1, 1, 1}, emu::Dim3{32}, 227 * 1024) == 1);
    CHECK_THROWS_AS(blocks_run(emu::Dim3{1, 65536, 1}, emu::Dim3{32}, 0), emu::EmulationError);
    CHECK_THROWS_AS(blocks_run(emu::Dim3{1, 1, 65536}, emu::Dim3{32}, 0), emu::EmulationError);
    CHECK_THROWS_AS(blocks_run(emu::Dim3{0, 1, 1}, emu::Dim3{32}, 0), emu::EmulationError);
    CHECK_THROWS_AS(blocks_run(emu::Dim3{1}, emu::Dim3{1056}, 0), emu::EmulationError);
    CHECK_THROWS_AS(blocks_run(emu::Dim3{1}, emu::Dim3{1, 1, 128}, 0), emu::EmulationError);
    CHECK_THROWS_AS(blocks_run(emu::Dim3{1}, emu::Dim3{32}, 227 * 1024 + 16), emu::EmulationError);
  }

}  // TEST_SUITE
}  // namespace kbench
