#include "calibrate/rate_timing.hpp"

#include <chrono>

#include "runtime/cuda_handles.hpp"
#include "runtime/sm_clock_probe.hpp"

namespace kbench::gpu {

int warm_up(const std::function<void()>& launch_and_wait, const std::function<double()>& now_seconds,
            double min_seconds) {
  const double start = now_seconds();
  int launches = 0;
  do {
    launch_and_wait();
    ++launches;
  } while (now_seconds() - start < min_seconds);
  return launches;
}

TimedRepetitions time_repetitions(const std::function<void(cudaStream_t)>& launch, int repetitions) {
  const CudaStream stream = make_stream();
  const CudaEvent start = make_timing_event();
  const CudaEvent stop = make_timing_event();
  int device = 0;
  KBENCH_CUDA_CHECK(cudaGetDevice(&device));
  SmClockProbe probe(device);
  // Module load on the first launch, then the clocks up.
  (void)warm_up(
      [&] {
        launch(stream.get());
        KBENCH_CUDA_CHECK(cudaStreamSynchronize(stream.get()));
      },
      [] { return std::chrono::duration<double>(std::chrono::steady_clock::now().time_since_epoch()).count(); },
      kWarmUpSeconds);
  TimedRepetitions timed;
  std::vector<double>& seconds = timed.seconds;
  probe.start(stream.get());
  for (int r = 0; r < repetitions; ++r) {
    KBENCH_CUDA_CHECK(cudaEventRecord(start.get(), stream.get()));
    launch(stream.get());
    KBENCH_CUDA_CHECK(cudaEventRecord(stop.get(), stream.get()));
    KBENCH_CUDA_CHECK(cudaEventSynchronize(stop.get()));
    float ms = 0;
    KBENCH_CUDA_CHECK(cudaEventElapsedTime(&ms, start.get(), stop.get()));
    seconds.push_back(static_cast<double>(ms) * 1e-3);
  }
  probe.stop(stream.get());
  KBENCH_CUDA_CHECK(cudaStreamSynchronize(stream.get()));
  timed.clock_hz = probe.clock_hz();
  return timed;
}

RateMeasurement rates(double work, std::vector<double> seconds) {
  RateMeasurement m;
  m.repetitions = static_cast<int>(seconds.size());
  if (seconds.empty()) return m;
  std::sort(seconds.begin(), seconds.end());
  m.best = work / seconds.front();
  m.median = work / seconds[seconds.size() / 2];
  return m;
}

RateMeasurement rates(double work, const TimedRepetitions& timed) {
  RateMeasurement m = rates(work, timed.seconds);
  m.clock_hz = timed.clock_hz.value_or(0);
  return m;
}

int current_device_attribute(cudaDeviceAttr attr) {
  int device = 0;
  KBENCH_CUDA_CHECK(cudaGetDevice(&device));
  int value = 0;
  KBENCH_CUDA_CHECK(cudaDeviceGetAttribute(&value, attr, device));
  return value;
}

}  // namespace kbench::gpu
