// Device-side utilities: seeded fill, NaN fill, checksum, gather; discovery; memory check; clock probe.
#include <doctest/doctest.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstring>
#include <stdexcept>
#include <vector>

#include "data/counter_rng.hpp"
#include "runtime/cuda_check.hpp"
#include "runtime/cuda_handles.hpp"
#include "runtime/device_buffer.hpp"
#include "runtime/device_info.hpp"
#include "runtime/device_kernels.hpp"
#include "runtime/sm_clock_probe.hpp"
#include "spin_kernel.hpp"

using namespace kbench::gpu;
using kbench::data::TensorRole;

namespace {

void set_element(DeviceBuffer<float>& buffer, std::int64_t index, float value) {
  KBENCH_CUDA_CHECK(cudaMemcpy(buffer.data() + index, &value, sizeof value, cudaMemcpyHostToDevice));
}

}  // namespace

TEST_CASE("the device fill reproduces data::draw bit for bit, for every tensor role") {
  const CudaStream stream = make_stream();
  const std::int64_t count = 100'003;  // several blocks and a ragged end
  const float bound = 0.0721f;
  for (const TensorRole role : {TensorRole::input, TensorRole::weight, TensorRole::bias}) {
    CAPTURE(static_cast<int>(role));
    DeviceBuffer<float> buffer(count);
    fill_seeded(buffer.data(), count, 20240917, role, bound, stream.get());
    const std::vector<float> got = read_elements(buffer.data(), count, {}, stream.get());
    std::int64_t differing = 0;
    for (std::int64_t i = 0; i < count; ++i) {
      const float expected = kbench::data::draw(20240917, role, static_cast<std::uint64_t>(i), bound);
      if (std::memcmp(&got[static_cast<std::size_t>(i)], &expected, sizeof(float)) != 0) ++differing;
    }
    CHECK(differing == 0);
  }
}

TEST_CASE("the device fill uses 64-bit indices past 2^31 elements") {
  const std::int64_t count = (std::int64_t{1} << 31) + 4096;
  if (!fits_in_device_memory(count * 4 + (std::int64_t{1} << 30), 0)) {
    MESSAGE("skipped: needs ~9.6 GB of free device memory");
    return;
  }
  const CudaStream stream = make_stream();
  DeviceBuffer<float> buffer(count);
  fill_seeded(buffer.data(), count, 7, TensorRole::input, 1.0f, stream.get());
  const std::vector<std::int64_t> indices = {0, (std::int64_t{1} << 31) - 1, std::int64_t{1} << 31, count - 1};
  const std::vector<float> got = read_elements(buffer.data(), count, indices, stream.get());
  for (std::size_t j = 0; j < indices.size(); ++j)
    CHECK(got[j] == kbench::data::draw(7, TensorRole::input, static_cast<std::uint64_t>(indices[j]), 1.0f));
}

TEST_CASE("fill_value writes every element, NaN included") {
  const CudaStream stream = make_stream();
  DeviceBuffer<float> buffer(5'000);
  fill_value(buffer.data(), buffer.size(), std::nanf(""), stream.get());
  const std::vector<float> got = read_elements(buffer.data(), buffer.size(), {}, stream.get());
  CHECK(std::all_of(got.begin(), got.end(), [](float v) { return std::isnan(v); }));
}

TEST_CASE("the checksum changes when one element changes or two swap, and returns when restored") {
  const CudaStream stream = make_stream();
  const std::int64_t count = 70'001;
  DeviceBuffer<float> buffer(count);
  fill_seeded(buffer.data(), count, 3, TensorRole::weight, 0.5f, stream.get());
  const std::uint64_t original = checksum(buffer.data(), count, stream.get());
  CHECK(checksum(buffer.data(), count, stream.get()) == original);  // deterministic despite atomics

  const std::vector<float> values = read_elements(buffer.data(), count, {}, stream.get());
  set_element(buffer, 12'345, std::nextafter(values[12'345], 1.0f));  // one ulp
  CHECK(checksum(buffer.data(), count, stream.get()) != original);
  set_element(buffer, 12'345, values[12'345]);
  CHECK(checksum(buffer.data(), count, stream.get()) == original);

  set_element(buffer, 10, values[20]);
  set_element(buffer, 20, values[10]);
  CHECK(checksum(buffer.data(), count, stream.get()) != original);
}

TEST_CASE("read_elements gathers the requested indices in order and rejects indices outside the buffer") {
  const CudaStream stream = make_stream();
  const std::int64_t count = 1'000;
  DeviceBuffer<float> buffer(count);
  fill_seeded(buffer.data(), count, 11, TensorRole::input, 1.0f, stream.get());
  const std::vector<float> all = read_elements(buffer.data(), count, {}, stream.get());
  const std::vector<std::int64_t> indices = {999, 0, 500, 0};
  const std::vector<float> got = read_elements(buffer.data(), count, indices, stream.get());
  REQUIRE(got.size() == 4);
  for (std::size_t j = 0; j < indices.size(); ++j) CHECK(got[j] == all[static_cast<std::size_t>(indices[j])]);
  const std::vector<std::int64_t> bad = {3, 1'000};
  CHECK_THROWS_AS(read_elements(buffer.data(), count, bad, stream.get()), std::out_of_range);
}

TEST_CASE("device discovery reports the attributes kbench's floors use") {
  const std::vector<DeviceInfo> devices = list_devices();
  REQUIRE_FALSE(devices.empty());
  const DeviceInfo& d = devices.front();
  MESSAGE(d.name << ", cc " << d.cc_major << "." << d.cc_minor << ", " << d.sms << " SMs, L2 " << d.l2_bytes
                 << " B, clock " << d.sm_clock_khz << " kHz, memory clock " << d.memory_clock_khz << " kHz x "
                 << d.bus_width_bits << " bits = " << d.theoretical_bandwidth_Bps / 1e12 << " TB/s, uuid " << d.uuid);
  CHECK(d.index == 0);
  CHECK_FALSE(d.name.empty());
  CHECK(d.uuid.rfind("GPU-", 0) == 0);
  CHECK(d.uuid.size() == 40);
  CHECK(d.sms > 0);
  CHECK(d.l2_bytes > 0);
  CHECK(d.sm_clock_khz > 0);
  CHECK(d.theoretical_bandwidth_Bps > 1e11);
  CHECK(d.free_bytes > 0);
  CHECK(d.free_bytes <= d.memory_bytes);
}

TEST_CASE("fits_in_device_memory answers with the numbers") {
  CHECK(fits_in_device_memory(1 << 20, 0).ok);
  const kbench::Support s = fits_in_device_memory(std::int64_t{1} << 50, 0);
  CHECK_FALSE(s.ok);
  CHECK(s.reason.rfind("needs 1125899.9 GB, ", 0) == 0);
  CHECK(s.reason.find("free on device 0") != std::string::npos);
}

TEST_CASE("the SM clock probe measures a plausible clock across a busy interval") {
  int device = 0;
  KBENCH_CUDA_CHECK(cudaGetDevice(&device));
  SmClockProbe probe(device);
  const CudaStream stream = make_stream();
  REQUIRE(probe.max_clock_hz() > 0);
  // An idle GPU sits near a sixth of its boost clock and takes a while to ramp: keep every SM busy
  // for at least 200 ms of wall time first, then probe ~10 ms of spinning (far above the 20 us minimum).
  const auto warm_until = std::chrono::steady_clock::now() + std::chrono::milliseconds(200);
  while (std::chrono::steady_clock::now() < warm_until) {
    testing::launch_spin(2'000'000, stream.get());
    KBENCH_CUDA_CHECK(cudaStreamSynchronize(stream.get()));
  }
  probe.start(stream.get());
  testing::launch_spin(20'000'000, stream.get());
  probe.stop(stream.get());
  KBENCH_CUDA_CHECK(cudaStreamSynchronize(stream.get()));
  const auto clock = probe.clock_hz();
  REQUIRE(clock.has_value());
  MESSAGE("SM clock " << *clock / 1e6 << " MHz, max " << probe.max_clock_hz() / 1e6 << " MHz");
  CHECK(*clock > 0.2 * probe.max_clock_hz());
  CHECK(*clock < 1.05 * probe.max_clock_hz());
}
