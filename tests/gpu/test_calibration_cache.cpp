// The calibration cache: JSON per device UUID under $XDG_CACHE_HOME/kbench. Runs without a device.
#include <doctest/doctest.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <optional>
#include <string>

#include "calibrate/calibration.hpp"
#include "core/error.hpp"

using namespace kbench::gpu;

namespace {

// Points XDG_CACHE_HOME at a fresh directory for one test and restores it afterwards.
class ScopedCacheHome {
 public:
  ScopedCacheHome() {
    if (const char* old = std::getenv("XDG_CACHE_HOME")) previous_ = old;
    char pattern[] = "/tmp/kbench-cache-test-XXXXXX";
    REQUIRE(mkdtemp(pattern) != nullptr);
    dir_ = pattern;
    setenv("XDG_CACHE_HOME", dir_.c_str(), 1);
  }
  ~ScopedCacheHome() {
    if (previous_)
      setenv("XDG_CACHE_HOME", previous_->c_str(), 1);
    else
      unsetenv("XDG_CACHE_HOME");
    std::error_code ignored;
    std::filesystem::remove_all(dir_, ignored);
  }
  const std::filesystem::path& dir() const { return dir_; }

 private:
  std::optional<std::string> previous_;
  std::filesystem::path dir_;
};

kbench::DevicePeaks measured() {
  kbench::DevicePeaks peaks;
  peaks.name = "NVIDIA H200";
  peaks.key = "h200";
  peaks.source = "measured (kbench calibrate)";
  peaks.bandwidth_Bps = 4.31e12;
  peaks.fp32_flops = 6.1e13;
  peaks.tf32_flops = 3.3e14;
  peaks.fp16_tensor_flops = 6.6e14;
  peaks.bf16_tensor_flops = 6.5e14;
  peaks.sms = 132;
  peaks.l2_bytes = 62914560;
  return peaks;
}

const std::string kUuid = "GPU-0123abcd-0000-1111-2222-333344445555";

}  // namespace

TEST_SUITE("host") {
  TEST_CASE("a saved calibration loads back for the same device name and UUID only") {
    const ScopedCacheHome home;
    const std::filesystem::path path = save_calibration(measured(), kUuid);
    CHECK(path == home.dir() / "kbench" / ("calibration-" + kUuid + ".json"));
    CHECK(std::filesystem::exists(path));

    const auto loaded = load_calibration("NVIDIA H200", kUuid);
    REQUIRE(loaded.has_value());
    CHECK(loaded->name == "NVIDIA H200");
    CHECK(loaded->key == "h200");
    CHECK(loaded->source == "measured (kbench calibrate)");
    CHECK(loaded->bandwidth_Bps == doctest::Approx(4.31e12));
    CHECK(loaded->fp32_flops == doctest::Approx(6.1e13));
    CHECK(loaded->tf32_flops == doctest::Approx(3.3e14));
    CHECK(loaded->fp16_tensor_flops == doctest::Approx(6.6e14));
    CHECK(loaded->bf16_tensor_flops == doctest::Approx(6.5e14));
    CHECK(loaded->sms == 132);
    CHECK(loaded->l2_bytes == doctest::Approx(62914560));

    CHECK_FALSE(load_calibration("NVIDIA H100 80GB HBM3", kUuid).has_value());
    CHECK_FALSE(load_calibration("NVIDIA H200", "GPU-ffffffff-0000-1111-2222-333344445555").has_value());
  }

  TEST_CASE("a calibration saved before the half rates were measured loads with them unknown") {
    const ScopedCacheHome home;
    const std::filesystem::path path = calibration_path(kUuid);
    std::filesystem::create_directories(path.parent_path());
    std::ofstream(path) << R"({"format": 1, "name": "NVIDIA H200", "uuid": ")" << kUuid
                        << R"(", "bandwidth_Bps": 4e12, "fp32_flops": 6e13, "tf32_flops": 3e14, "sms": 132,)"
                        << R"( "l2_bytes": 1})";
    const auto loaded = load_calibration("NVIDIA H200", kUuid);
    REQUIRE(loaded.has_value());
    CHECK(loaded->fp16_tensor_flops == 0);
    CHECK(loaded->half_tensor_flops(kbench::DType::bf16) == doctest::Approx(6e14));  // twice TF32
  }

  TEST_CASE("a damaged calibration file is an error naming the file") {
    const ScopedCacheHome home;
    const std::filesystem::path path = calibration_path(kUuid);
    std::filesystem::create_directories(path.parent_path());
    std::ofstream(path) << "{ not json";
    CHECK_THROWS_AS(load_calibration("NVIDIA H200", kUuid), kbench::InputError);

    std::ofstream(path) << R"({"format": 1, "name": "NVIDIA H200", "uuid": ")" << kUuid
                        << R"(", "bandwidth_Bps": 0, "fp32_flops": 1, "tf32_flops": 1, "sms": 1, "l2_bytes": 1})";
    try {
      (void)load_calibration("NVIDIA H200", kUuid);
      FAIL("expected InputError");
    } catch (const kbench::InputError& e) {
      CHECK(std::string(e.what()).find("bandwidth_Bps") != std::string::npos);
      CHECK(std::string(e.what()).find(path.string()) != std::string::npos);
    }
  }

  TEST_CASE("a UUID is kept to file-safe characters in the file name") {
    const ScopedCacheHome home;
    CHECK(calibration_path("GPU-ab/../cd").filename() == "calibration-GPU-ab____cd.json");
  }
}
