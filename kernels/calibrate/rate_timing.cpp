#include "calibrate/rate_timing.hpp"

#include "runtime/cuda_handles.hpp"

namespace kbench::gpu {

std::vector<double> time_repetitions(const std::function<void(cudaStream_t)>& launch, int repetitions) {
  const CudaStream stream = make_stream();
  const CudaEvent start = make_timing_event();
  const CudaEvent stop = make_timing_event();
  launch(stream.get());  // warm-up: module load, clocks up
  KBENCH_CUDA_CHECK(cudaStreamSynchronize(stream.get()));
  std::vector<double> seconds;
  for (int r = 0; r < repetitions; ++r) {
    KBENCH_CUDA_CHECK(cudaEventRecord(start.get(), stream.get()));
    launch(stream.get());
    KBENCH_CUDA_CHECK(cudaEventRecord(stop.get(), stream.get()));
    KBENCH_CUDA_CHECK(cudaEventSynchronize(stop.get()));
    float ms = 0;
    KBENCH_CUDA_CHECK(cudaEventElapsedTime(&ms, start.get(), stop.get()));
    seconds.push_back(static_cast<double>(ms) * 1e-3);
  }
  return seconds;
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

int current_device_attribute(cudaDeviceAttr attr) {
  int device = 0;
  KBENCH_CUDA_CHECK(cudaGetDevice(&device));
  int value = 0;
  KBENCH_CUDA_CHECK(cudaDeviceGetAttribute(&value, attr, device));
  return value;
}

}  // namespace kbench::gpu
