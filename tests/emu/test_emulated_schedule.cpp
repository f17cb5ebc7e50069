// The emulation's thread schedules (cuda_emu.hpp, Schedule): a kernel that reads another thread's
// shared-memory write with no barrier between them computes right in one order and wrong in
// another, so running every emulation test under each order (ctest's descending. and shuffled.
// copies) finds a missing barrier; with the barrier, every order computes the same.
#include <doctest/doctest.h>

#include <cmath>
#include <vector>

namespace kbench {
namespace {

constexpr int kThreads = 128;

// Each thread stores its index + 1 in shared memory then, after a block barrier unless `barrier`
// is false, writes its own value plus its lower neighbour's.
void neighbour_sum(float* out, bool barrier) {
  float* slots = reinterpret_cast<float*>(emu::shared_base());
  const int t = static_cast<int>(threadIdx.x);
  slots[t] = static_cast<float>(t + 1);
  if (barrier) __syncthreads();
  out[t] = slots[t] + (t > 0 ? slots[t - 1] : 0.0f);
}

// The kernel's output under `schedule` (the schedule the tests run under is restored after).
std::vector<float> run(emu::Schedule schedule, bool barrier) {
  alignas(16) static unsigned char shared[kThreads * sizeof(float)];
  std::vector<float> out(kThreads, -1.0f);
  const emu::Schedule previous = emu::schedule();
  emu::set_schedule(schedule);
  emu::launch(emu::Dim3{1}, emu::Dim3{kThreads}, shared, sizeof shared, [&] { neighbour_sum(out.data(), barrier); });
  emu::set_schedule(previous);
  return out;
}

// How many outputs differ from 2t + 1 (1 for thread 0).
int wrong(const std::vector<float>& out) {
  int count = 0;
  for (int t = 0; t < kThreads; ++t) count += out[static_cast<std::size_t>(t)] == static_cast<float>(2 * t + 1) ? 0 : 1;
  return count;
}

}  // namespace

TEST_SUITE("cuda_emulated") {
  TEST_CASE(
      "emulated schedules: with the barrier every order computes the same, without, some order reads the poison") {
    for (const emu::Schedule s : {emu::Schedule::ascending, emu::Schedule::descending, emu::Schedule::shuffled})
      CHECK(wrong(run(s, true)) == 0);
    // The missing barrier: in ascending order each lower neighbour has had its turn (hidden); in
    // descending order none has (every thread but 0 reads NaN); shuffled, about half have not.
    CHECK(wrong(run(emu::Schedule::ascending, false)) == 0);
    const std::vector<float> descending = run(emu::Schedule::descending, false);
    CHECK(wrong(descending) == kThreads - 1);
    CHECK(std::isnan(descending[kThreads - 1]));
    const int shuffled = wrong(run(emu::Schedule::shuffled, false));
    CHECK(shuffled > kThreads / 4);
    CHECK(shuffled < kThreads - 1);
  }

}  // TEST_SUITE
}  // namespace kbench
