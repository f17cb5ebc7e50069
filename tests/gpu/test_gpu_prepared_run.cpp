// GpuPreparedRun's shared machinery, driven through a minimal backend whose "convolution" writes
// a constant (and, on request, scribbles on its input).
#include <doctest/doctest.h>

#include <chrono>
#include <cmath>
#include <thread>
#include <vector>

#include "data/host_tensors.hpp"
#include "runtime/cuda_handles.hpp"
#include "runtime/device_kernels.hpp"
#include "runtime/gpu_prepared_run.hpp"
#include "spin_kernel.hpp"

using namespace kbench::gpu;
using kbench::ConvProblem;
using kbench::Dims;

namespace {

class ConstantRun final : public GpuPreparedRun {
 public:
  ConstantRun(const ConvProblem& problem, bool clobber_input, std::int64_t spin_cycles = 0)
      : GpuPreparedRun(problem, 0), clobber_input_(clobber_input), spin_cycles_(spin_cycles) {}

  std::string implementation() const override { return "constant"; }
  kbench::MathMode math_used() const override { return kbench::MathMode::fp32; }

  std::vector<float> tensor(kbench::data::TensorRole role) const {
    using kbench::data::TensorRole;
    const float* data = role == TensorRole::input ? x() : role == TensorRole::weight ? w() : b();
    const std::int64_t count = role == TensorRole::input    ? problem().input_elements()
                               : role == TensorRole::weight ? problem().weight_elements()
                                                            : problem().bias_elements();
    return read_elements(data, count, {}, stream());
  }

 protected:
  void enqueue(cudaStream_t stream) override {
    if (spin_cycles_ > 0) testing::launch_spin(spin_cycles_, stream);
    fill_value(y(), problem().output_elements(), 1.5f, stream);
    if (clobber_input_) fill_value(const_cast<float*>(x()), 1, 7.0f, stream);
  }

 private:
  bool clobber_input_;
  std::int64_t spin_cycles_;
};

// A cheat: the expensive part goes to a stream of the backend's own, outside the stream it was given.
class OtherStreamRun final : public GpuPreparedRun {
 public:
  OtherStreamRun(const ConvProblem& problem, std::int64_t spin_cycles)
      : GpuPreparedRun(problem, 0), side_(make_stream()), spin_cycles_(spin_cycles) {}
  std::string implementation() const override { return "other_stream"; }
  kbench::MathMode math_used() const override { return kbench::MathMode::fp32; }

 protected:
  void enqueue(cudaStream_t stream) override {
    testing::launch_spin(spin_cycles_, side_.get());
    fill_value(y(), problem().output_elements(), 1.5f, stream);
  }

 private:
  CudaStream side_;
  std::int64_t spin_cycles_;
};

// Host time inside enqueue(): a launch, then the host busy for `host_ms` before the next launch (as a
// library's argument checks and plan lookups are). With `synchronises`, enqueue() also waits for the
// device, which a held stream cannot allow.
class SlowHostRun final : public GpuPreparedRun {
 public:
  SlowHostRun(const ConvProblem& problem, int host_ms, bool synchronises)
      : GpuPreparedRun(problem, 0), host_ms_(host_ms), synchronises_(synchronises) {
    set_block_timeout_ns(200'000'000);  // 0.2 s, so the deadlock case costs little
  }
  std::string implementation() const override { return "slow_host"; }
  kbench::MathMode math_used() const override { return kbench::MathMode::fp32; }

 protected:
  void enqueue(cudaStream_t stream) override {
    fill_value(y(), problem().output_elements(), 1.5f, stream);
    if (synchronises_) KBENCH_CUDA_CHECK(cudaStreamSynchronize(stream));
    std::this_thread::sleep_for(std::chrono::milliseconds(host_ms_));
    fill_value(y(), problem().output_elements(), 1.5f, stream);
  }

 private:
  int host_ms_;
  bool synchronises_;
};

ConvProblem small_problem() {
  ConvProblem p;
  p.batch = 2;
  p.in_channels = 3;
  p.out_channels = 4;
  p.input = Dims{{10, 12, 1}};
  p.kernel = Dims{{3, 3, 1}};
  p.bias = true;
  return p;
}

bool all_equal(const std::vector<float>& values, float expected) {
  for (const float v : values)
    if (!(v == expected)) return false;
  return true;
}

}  // namespace

TEST_CASE("fill_inputs puts data::seeded_value into x, w and b") {
  const ConvProblem p = small_problem();
  ConstantRun run(p, false);
  run.fill_inputs(99);
  using kbench::data::TensorRole;
  for (const TensorRole role : {TensorRole::input, TensorRole::weight, TensorRole::bias}) {
    const std::vector<float> got = run.tensor(role);
    const std::vector<float> expected = kbench::data::make_seeded(p, 99, role);
    CHECK(got == expected);
  }
  CHECK(run.inputs_unchanged());
}

TEST_CASE("poison, run and read back: NaN everywhere, then the backend's values everywhere") {
  const ConvProblem p = small_problem();
  ConstantRun run(p, false);
  run.fill_inputs(1);
  run.poison_output();
  const std::vector<float> poisoned = run.read_output({});
  REQUIRE(poisoned.size() == static_cast<std::size_t>(p.output_elements()));
  for (const float v : poisoned) REQUIRE(std::isnan(v));
  run.run();
  CHECK(all_equal(run.read_output({}), 1.5f));
  const std::vector<std::int64_t> some = {0, p.output_elements() - 1};
  CHECK(run.read_output(some) == std::vector<float>{1.5f, 1.5f});
}

TEST_CASE("inputs_unchanged catches a backend that writes its input") {
  ConstantRun run(small_problem(), true);
  run.fill_inputs(1);
  CHECK(run.inputs_unchanged());
  run.run();
  CHECK_FALSE(run.inputs_unchanged());
}

TEST_CASE("timed runs: cold, hot and graph replay all time the execution and leave its result") {
  // ~0.5 ms of spinning at ~2 GHz, so the event time is well above its resolution.
  ConstantRun run(small_problem(), false, 1'000'000);
  run.fill_inputs(1);
  for (const bool graph : {false, true}) {
    for (const bool cold : {true, false}) {
      CAPTURE(graph);
      CAPTURE(cold);
      run.poison_output();
      const kbench::Sample sample = run.timed_run({cold, graph});
      MESSAGE("graph " << graph << ", cold " << cold << ": " << sample.seconds * 1e3 << " ms, throttled "
                       << sample.throttled);
      CHECK(sample.seconds > 1e-4);
      CHECK(sample.seconds < 0.1);
      CHECK(all_equal(run.read_output({}), 1.5f));
    }
  }
  CHECK(run.inputs_unchanged());
}

TEST_CASE("work a backend pushes to another stream is inside the timed interval") {
  const std::int64_t spin = 1'000'000;  // ~0.5 ms at ~2 GHz
  ConstantRun honest(small_problem(), false, spin);
  OtherStreamRun cheat(small_problem(), spin);
  honest.fill_inputs(1);
  cheat.fill_inputs(1);
  const double honest_s = honest.timed_run({false, false}).seconds;
  const double cheat_s = cheat.timed_run({false, false}).seconds;
  MESSAGE("same stream " << honest_s * 1e3 << " ms, other stream " << cheat_s * 1e3 << " ms");
  CHECK(cheat_s > 0.5 * honest_s);
}

TEST_CASE("host time inside enqueue is not device time: the stream is held until the stop event is queued") {
  SlowHostRun run(small_problem(), 20, false);
  run.fill_inputs(1);
  for (const bool cold : {true, false}) {
    CAPTURE(cold);
    run.poison_output();
    const double seconds = run.timed_run({cold, false}).seconds;
    MESSAGE("two tiny fills 20 ms apart on the host: " << seconds * 1e3 << " ms of device time");
    CHECK(seconds < 0.005);
    CHECK(all_equal(run.read_output({}), 1.5f));
  }
  CHECK(run.warnings().empty());
}

TEST_CASE("an enqueue that waits for the device is timed without the held stream, and says so") {
  SlowHostRun run(small_problem(), 1, true);
  run.fill_inputs(1);
  run.poison_output();
  const auto t0 = std::chrono::steady_clock::now();
  const kbench::Sample first = run.timed_run({true, false});
  const kbench::Sample second = run.timed_run({true, false});
  const double wall_s = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  MESSAGE("samples " << first.seconds * 1e3 << " and " << second.seconds * 1e3 << " ms, " << wall_s
                     << " s of wall time");
  CHECK(wall_s < 2.0);  // one timeout of 0.2 s, not one per sample
  CHECK(first.seconds < 0.1);
  CHECK(all_equal(run.read_output({}), 1.5f));
  REQUIRE(run.warnings().size() == 1);
  CHECK(run.warnings()[0].find("waits for the device") != std::string::npos);
}

TEST_CASE("device_bytes_needed counts the tensors and the L2 flush buffer") {
  const ConvProblem p = small_problem();
  const std::int64_t tensors = 4 * (p.input_elements() + p.weight_elements() + p.bias_elements() + p.output_elements());
  CHECK(GpuPreparedRun::device_bytes_needed(p, 0) >= tensors + (std::int64_t{256} << 20));
}
