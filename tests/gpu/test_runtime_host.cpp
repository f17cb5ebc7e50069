// The GPU runtime's pure logic: clock estimates, flush sizing, peak derivation, byte formatting,
// and what cuda_status() says on this machine. Runs without a device.
#include <doctest/doctest.h>

#include <cstdint>
#include <vector>

#include "calibrate/rate_timing.hpp"
#include "runtime/cuda_check.hpp"
#include "runtime/derived_peaks.hpp"
#include "runtime/device_info.hpp"
#include "runtime/l2_flusher.hpp"
#include "runtime/sm_clock_probe.hpp"

using namespace kbench::gpu;

namespace {

DeviceInfo hopper_like(const std::string& name) {
  DeviceInfo info;
  info.name = name;
  info.cc_major = 9;
  info.cc_minor = 0;
  info.sms = 132;
  info.l2_bytes = 50 << 20;
  info.sm_clock_khz = 1'980'000;
  info.memory_clock_khz = 2'619'000;
  info.bus_width_bits = 5120;
  info.theoretical_bandwidth_Bps = 2.0 * 2'619'000e3 * 5120 / 8;
  return info;
}

}  // namespace

TEST_SUITE("host") {
  TEST_CASE("the SM clock is cycles over nanoseconds, and unknown when a stamp is missing or the interval short") {
    const auto clock = clock_from_stamps(1'000, 5'000, 101'000, 5'000 + 198'000, 20'000);
    REQUIRE(clock.has_value());
    CHECK(*clock == doctest::Approx(1.98e9));
    CHECK_FALSE(clock_from_stamps(0, 5'000, 101'000, 203'000, 20'000).has_value());      // no block on SM 0
    CHECK_FALSE(clock_from_stamps(1'000, 5'000, 11'000, 25'000, 20'000).has_value());    // 10 us < 20 us
    CHECK_FALSE(clock_from_stamps(101'000, 5'000, 1'000, 203'000, 20'000).has_value());  // time went backwards
  }

  TEST_CASE("the clock comes from whichever SMs were stamped at both ends, as their median") {
    std::vector<std::uint64_t> stamps(4 * 8, 0);
    const auto stamp = [&](int sm, std::uint64_t start_ns, std::uint64_t start_cycles, std::uint64_t stop_ns,
                           std::uint64_t stop_cycles) {
      const auto s = static_cast<std::size_t>(4 * sm);
      stamps[s] = start_ns;
      stamps[s + 1] = start_cycles;
      stamps[s + 2] = stop_ns;
      stamps[s + 3] = stop_cycles;
    };
    CHECK_FALSE(clock_from_sm_stamps(stamps, 20'000).has_value());  // nothing stamped
    stamp(0, 1'000, 5'000, 0, 0);                                   // SM 0: a start, no stop
    stamp(3, 0, 0, 101'000, 900'000);                               // SM 3: a stop, no start
    CHECK_FALSE(clock_from_sm_stamps(stamps, 20'000).has_value());
    // SMs 5, 6, 7 (none of them SM 0): counters of their own, clocks 1.9, 1.98 and 2.0 GHz.
    stamp(5, 1'000, 70'000, 101'000, 70'000 + 190'000);
    stamp(6, 2'000, 10, 102'000, 10 + 198'000);
    stamp(7, 1'000, 1'000'000, 101'000, 1'000'000 + 200'000);
    const auto clock = clock_from_sm_stamps(stamps, 20'000);
    REQUIRE(clock.has_value());
    CHECK(*clock == doctest::Approx(1.98e9));
  }

  TEST_CASE("a refused persisting-L2 reset is a warning, a lost context an error") {
    CHECK(classify_persisting_reset(cudaSuccess) == PersistingResetOutcome::done);
    CHECK(classify_persisting_reset(cudaErrorNotSupported) == PersistingResetOutcome::not_supported);
    for (cudaError_t e : {cudaErrorUnknown, cudaErrorNotPermitted, cudaErrorInvalidValue, cudaErrorSystemNotReady})
      CHECK(classify_persisting_reset(e) == PersistingResetOutcome::refused);
    for (cudaError_t e : {cudaErrorIllegalAddress, cudaErrorLaunchFailure, cudaErrorECCUncorrectable})
      CHECK(classify_persisting_reset(e) == PersistingResetOutcome::fatal);
  }

  TEST_CASE("calibration warms the device for 200 ms of wall time before it times a rate") {
    double now = 0;
    int launches = 0;
    // Each launch takes 30 ms by the fake clock: 7 launches reach 210 ms.
    const int counted = warm_up([&] { ++launches, now += 0.030; }, [&] { return now; }, kWarmUpSeconds);
    CHECK(kWarmUpSeconds >= 0.2);
    CHECK(counted == 7);
    CHECK(launches == 7);
    CHECK(now >= kWarmUpSeconds);
    // A single slow launch is enough, and there is always at least one (the module load).
    now = 0;
    CHECK(warm_up([&] { now += 5.0; }, [&] { return now; }, kWarmUpSeconds) == 1);
    CHECK(warm_up([] {}, [] { return 0.0; }, 0.0) == 1);
  }

  TEST_CASE("the L2 flush writes twice the L2, and never less than KernelBench's 256 MiB") {
    CHECK(L2Flusher::flush_bytes(50 << 20) == (std::int64_t{256} << 20));
    CHECK(L2Flusher::flush_bytes(60'000'000) == (std::int64_t{256} << 20));
    CHECK(L2Flusher::flush_bytes(std::int64_t{200} << 20) == (std::int64_t{400} << 20));
  }

  TEST_CASE("peaks of an unknown Hopper part are derived from its attributes") {
    const kbench::DevicePeaks peaks = datasheet_or_derived_peaks(hopper_like("Prototype GPU (X1)"));
    CHECK(peaks.source == "derived from device attributes");
    CHECK(peaks.key == "prototype-gpu-x1");
    CHECK(peaks.fp32_flops == doctest::Approx(132.0 * 128 * 2 * 1.98e9));
    CHECK(peaks.tf32_flops == doctest::Approx(132.0 * 2048 * 1.98e9));
    CHECK(peaks.bandwidth_Bps == doctest::Approx(3.352e12).epsilon(1e-3));
    CHECK(peaks.sms == 132);
    CHECK(peaks.l2_bytes == doctest::Approx(50 << 20));
  }

  TEST_CASE("a device the table knows gets its datasheet row") {
    const kbench::DevicePeaks peaks = datasheet_or_derived_peaks(hopper_like("NVIDIA H200"));
    CHECK(peaks.source == "datasheet");
    CHECK(peaks.key == "h200");
  }

  TEST_CASE("per-SM rates follow the architecture; an unknown one says so") {
    CHECK(arch_rates(8, 0).fp32_lanes == 64);
    CHECK(arch_rates(8, 6).fp32_lanes == 128);
    CHECK(arch_rates(7, 0).tf32_flops_per_clock == 0);
    DeviceInfo volta = hopper_like("Old GPU");
    volta.cc_major = 7;
    CHECK(derived_peaks(volta).tf32_flops == doctest::Approx(derived_peaks(volta).fp32_flops));
    DeviceInfo future = hopper_like("Future GPU");
    future.cc_major = 99;
    CHECK_FALSE(arch_rates(99, 0).known);
    CHECK(derived_peaks(future).source.find("unknown architecture") != std::string::npos);
  }

  TEST_CASE("byte counts print in decimal units") {
    CHECK(format_bytes(14'300'000'000) == "14.3 GB");
    CHECK(format_bytes(96'000'000) == "96.0 MB");
    CHECK(format_bytes(512) == "512 bytes");
  }

  TEST_CASE("cuda_status and list_devices agree, and a missing device is a reason, not a crash") {
    const kbench::Support status = cuda_status();
    const std::vector<DeviceInfo> devices = list_devices();
    if (status) {
      CHECK_FALSE(devices.empty());
    } else {
      // The three reasons the probe gives (device_info.cpp, why_no_device): no driver, a driver too old, no device.
      const bool known_reason = status.reason.rfind("no NVIDIA driver on this machine", 0) == 0 ||
                                status.reason.rfind("the NVIDIA driver is too old: ", 0) == 0 ||
                                status.reason.rfind("no CUDA device found: ", 0) == 0;
      CHECK_MESSAGE(known_reason, status.reason);
      CHECK(devices.empty());
    }
  }

  TEST_CASE("a kernel fault is remembered: later work says it cannot run, and why") {
    ContextFaultLog log;  // not the process's: the other cases must not see this fault
    CHECK(context_usable(log));
    log.record(cudaErrorMemoryAllocation, "cudaMalloc failed: out of memory");  // not sticky: forgotten
    CHECK(context_usable(log));
    log.record(cudaErrorIllegalAddress, "kernel.cu:10: cudaStreamSynchronize failed: cudaErrorIllegalAddress");
    log.record(cudaErrorLaunchFailure, "a later error");  // the first sticky one is the cause
    const kbench::Support s = context_usable(log);
    CHECK_FALSE(s);
    CHECK(s.reason.find("kernel.cu:10") != std::string::npos);
    CHECK(s.reason.find("later error") == std::string::npos);
    for (cudaError_t e : {cudaErrorIllegalAddress, cudaErrorMisalignedAddress, cudaErrorIllegalInstruction,
                          cudaErrorLaunchFailure, cudaErrorAssert, cudaErrorHardwareStackError,
                          cudaErrorECCUncorrectable, cudaErrorContained, cudaErrorNvlinkUncorrectable})
      CHECK(is_sticky_error(e));
    for (cudaError_t e : {cudaSuccess, cudaErrorInvalidValue, cudaErrorMemoryAllocation, cudaErrorNoDevice,
                          cudaErrorInvalidConfiguration, cudaErrorNoKernelImageForDevice})
      CHECK_FALSE(is_sticky_error(e));
  }
}
