// Ordering mistakes the emulation must catch (issue 42): each is planted in the fp16/bf16 GEMM kernels
// through their bodies' OrderingBug parameter (kernels/cuda/half_gemm/ordering_bug.hpp) and run under
// every emulation mode (emulation_modes.hpp); each must fail (an EmulationError or outputs outside the
// bound) in the modes named below, built to catch it, while the unchanged kernels pass every mode.
// So does a kernel that exits with a cp.async copy in flight.
#include <doctest/doctest.h>

#include <cstdint>
#include <vector>

#include "cuda/common/device_ops.cuh"
#include "emulation_modes.hpp"
#include "half_gemm_emulated.hpp"

namespace kbench {
namespace {

using emu_tests::EmulationMode;
using gpu::conv::half_gemm::OrderingBug;

enum class Outcome { correct, wrong_outputs, emulation_error };

const char* to_string(Outcome o) {
  return o == Outcome::correct ? "correct" : o == Outcome::wrong_outputs ? "wrong outputs" : "EmulationError";
}

// The first forward shape of the family (16 channels: 16-byte cp.async under NHWC; five chunks, so
// every stage of either pipeline is refilled) on one image (one block), in fp16 NHWC.
ConvProblem vector_load_shape() {
  ConvProblem p = emu_tests::forward_half_gemm_shapes().front();
  p.batch = 1;
  p.dtype = DType::fp16;
  p.layout = Layout::nhwc;
  REQUIRE(gpu::conv::half_gemm::make_half_gemm_params(p).vector_loads);
  return p;
}

// The GEMM (mma.sync, or wgmma) with `bug` planted, under `mode`.
template <OrderingBug kBug>
Outcome run_gemm(bool wgmma, const EmulationMode& mode) {
  const ConvProblem p = vector_load_shape();
  const gpu::conv::half_gemm::HalfGemmParams d = gpu::conv::half_gemm::make_half_gemm_params(p);
  const emu_tests::ScopedMode scope(mode);
  try {
    const emu_tests::TypedRun run =
        emu_tests::run_typed_sequence<DType::fp16>(p, 4200, [&](const auto* x, const auto* w, const auto* b, auto* y) {
          emu_tests::launch_half_gemm<DType::fp16, kBug>(d, x, w, b, y, wgmma);
        });
    return run.bound.failures == 0 ? Outcome::correct : Outcome::wrong_outputs;
  } catch (const emu::EmulationError& e) {
    MESSAGE(to_string(mode) << ": " << std::string(e.what()));
    return Outcome::emulation_error;
  }
}

// Whether the program runs in its default mode (ascending, copies at their wait). These tests run
// every mode themselves, so under ctest's other prefixes they pass at once rather than repeat it.
bool in_default_mode() {
  return emu::schedule() == emu::Schedule::ascending && emu::copy_landing() == emu::CopyLanding::at_wait;
}

// The outcome of `bug` in every mode, checked to fail in each mode `must_fail` names (and, as a
// record of what the other modes see, reported).
template <OrderingBug kBug>
void check_caught(bool wgmma, bool (*must_fail)(const EmulationMode&)) {
  if (!in_default_mode()) return;
  int caught = 0;
  for (const EmulationMode& mode : emu_tests::every_mode()) {
    const Outcome outcome = run_gemm<kBug>(wgmma, mode);
    CAPTURE(to_string(mode));
    CAPTURE(to_string(outcome));
    if (must_fail(mode)) CHECK(outcome != Outcome::correct);
    caught += outcome != Outcome::correct ? 1 : 0;
  }
  MESSAGE("caught in " << caught << " of " << emu_tests::every_mode().size() << " modes");
  CHECK(caught > 0);
}

bool at_issue(const EmulationMode& m) { return m.landing == emu::CopyLanding::at_issue; }
bool at_wait(const EmulationMode& m) { return m.landing == emu::CopyLanding::at_wait; }
bool every(const EmulationMode&) { return true; }
bool warp_ahead_at_issue(const EmulationMode& m) {
  return m.schedule == emu::Schedule::warp_ahead && m.landing == emu::CopyLanding::at_issue;
}

// Each thread copies 16 bytes of `src` into shared memory with cp.async and, unless `skip_wait`,
// waits for them before it exits.
void copy_then_exit(const float* src, bool skip_wait) {
  float* stage = reinterpret_cast<float*>(emu::shared_base());
  const int t = static_cast<int>(threadIdx.x);
  gpu::conv::cp_async_16(stage + 4 * t, src + 4 * t);
  gpu::conv::cp_async_commit();
  if (!skip_wait) gpu::conv::cp_async_wait<0>();
}

void run_copy_then_exit(bool skip_wait) {
  alignas(16) static unsigned char shared[64 * 16];
  alignas(16) static float src[64 * 4] = {};
  emu::clear_buffers();
  emu::allow_read(src, sizeof src);
  emu::launch(emu::Dim3{1}, emu::Dim3{64}, shared, sizeof shared, [&] { copy_then_exit(src, skip_wait); });
}

}  // namespace

TEST_SUITE("cuda_emulated") {
  TEST_CASE("emulated ordering: the unchanged fp16 GEMMs compute right in every emulation mode") {
    if (!in_default_mode()) return;
    for (const EmulationMode& mode : emu_tests::every_mode()) {
      CAPTURE(to_string(mode));
      CHECK(run_gemm<OrderingBug::none>(false, mode) == Outcome::correct);
      CHECK(run_gemm<OrderingBug::none>(true, mode) == Outcome::correct);
    }
  }

  TEST_CASE(
      "emulated ordering: wgmma.wait_group 2 refills a stage under products in flight, caught with early copies") {
    check_caught<OrderingBug::early_refill>(true, at_issue);
  }

  TEST_CASE("emulated ordering: wgmma products issued before their chunk landed, caught with late copies") {
    check_caught<OrderingBug::products_before_landing>(true, at_wait);
  }

  TEST_CASE("emulated ordering: no fence.proxy.async before the wgmma products, caught in every mode") {
    check_caught<OrderingBug::no_proxy_fence>(true, every);
  }

  TEST_CASE("emulated ordering: no block barrier before the wgmma products, caught in every mode") {
    check_caught<OrderingBug::no_barrier_before_products>(true, every);
  }

  TEST_CASE("emulated ordering: the mma.sync refill before the barrier that frees its stage, caught warp-ahead") {
    check_caught<OrderingBug::refill_before_barrier>(false, warp_ahead_at_issue);
  }

  TEST_CASE("emulated ordering: a thread that exits with a cp.async in flight fails in every mode") {
    if (!in_default_mode()) return;
    for (const EmulationMode& mode : emu_tests::every_mode()) {
      CAPTURE(to_string(mode));
      const emu_tests::ScopedMode scope(mode);
      CHECK_NOTHROW(run_copy_then_exit(false));
      CHECK_THROWS_AS(run_copy_then_exit(true), emu::EmulationError);
    }
  }
}

}  // namespace kbench
