// Memory said before it runs out (core/memory_budget.hpp, reference/host_memory.hpp): what the machine
// has, read from /proc/meminfo and cgroup v1/v2 files (their texts parsed here, no machine needed), the
// test-only override, and the decisions with their figures, host and device.
#include <doctest/doctest.h>

#include <cstdlib>
#include <optional>
#include <stdexcept>
#include <string>

#include "reference/host_memory.hpp"
#include "core/memory_budget.hpp"

using namespace kbench;
using namespace kbench::reference;

namespace {

// Sets KBENCH_TEST_HOST_MEMORY_AVAILABLE for one scope.
struct ForcedHostMemory {
  explicit ForcedHostMemory(const char* value) { setenv(kHostMemoryTestVariable, value, 1); }
  ~ForcedHostMemory() { unsetenv(kHostMemoryTestVariable); }
};

}  // namespace

TEST_SUITE("memory budget") {
  TEST_CASE("memory budget: cgroup files parsed as the kernel writes them") {
    CHECK(parse_cgroup_bytes("8589934592\n") == std::int64_t{8589934592});
    CHECK_FALSE(parse_cgroup_bytes("max\n").has_value());                  // v2: no limit
    CHECK_FALSE(parse_cgroup_bytes("9223372036854771712\n").has_value());  // v1: no limit
    CHECK_FALSE(parse_cgroup_bytes("").has_value());
    CHECK_FALSE(parse_cgroup_bytes("-1").has_value());
    CHECK_FALSE(parse_cgroup_bytes("12 kB").has_value());

    const std::string stat = "anon 100\nfile 900\nactive_file 300\ninactive_file 600\ntotal_inactive_file 7\n";
    CHECK(parse_memory_stat(stat, "inactive_file") == 600);
    CHECK(parse_memory_stat(stat, "total_inactive_file") == 7);
    CHECK(parse_memory_stat(stat, "file") == 900);  // the whole key, not a suffix of another
    CHECK_FALSE(parse_memory_stat(stat, "shmem").has_value());

    const std::string v1 = "9:name=systemd:/\n4:memory:/process_api/a66d\n3:cpuset:/\n0::/\n";
    CHECK(cgroup_v1_memory_path(v1) == "/process_api/a66d");
    CHECK(cgroup_v2_path(v1) == "/");
    CHECK(cgroup_v1_memory_path("5:cpu,memory:/slurm/job_7\n") == "/slurm/job_7");
    CHECK_FALSE(cgroup_v1_memory_path("5:memoryx:/a\n0::/user.slice\n").has_value());
    CHECK(cgroup_v2_path("0::/user.slice/user-1000.slice/session-2.scope\n") ==
          "/user.slice/user-1000.slice/session-2.scope");
    CHECK_FALSE(cgroup_v2_path("4:memory:/a\n").has_value());
  }

  TEST_CASE("memory budget: a cgroup's headroom is its limit less its working set") {
    const std::int64_t gb = 1000000000;
    CHECK(cgroup_headroom(8 * gb, 5 * gb, 2 * gb) == 5 * gb);  // 2 GB of the 5 used is reclaimable cache
    CHECK(cgroup_headroom(8 * gb, 5 * gb, 0) == 3 * gb);
    CHECK(cgroup_headroom(8 * gb, 9 * gb, 0) == 0);      // over its limit: nothing left, never negative
    CHECK(cgroup_headroom(8 * gb, 1 * gb, 3 * gb) == 8 * gb);  // more cache than usage reads as none used
  }

  TEST_CASE("memory budget: the test-only override replaces the figure, and is refused when not bytes") {
    {
      ForcedHostMemory forced("6000000000");
      CHECK(available_host_memory() == std::int64_t{6000000000});
      CHECK(available_host_memory_source() == kHostMemoryTestVariable);
    }
    {
      ForcedHostMemory forced("6 GB");
      CHECK_THROWS_WITH_AS(available_host_memory(),
                           doctest::Contains("KBENCH_TEST_HOST_MEMORY_AVAILABLE=6 GB: expected a whole number of bytes"),
                           std::invalid_argument);
    }
    const auto here = available_host_memory();  // unset again: this machine's own figure
    if (here) CHECK(*here > 0);
  }

  TEST_CASE("memory budget: a host need over what is available is refused with every figure") {
    HostMemoryNeed need;
    need.add("reference's tensors", 8.5e9);
    need.add("the fp64 reference of the check", 8.4e9);
    need.add("nothing", 0);  // a zero part is left out of the message
    CHECK(need.total() == doctest::Approx(16.9e9));
    CHECK(host_memory_fits(need, std::int64_t{17000000000}, "MemAvailable"));
    CHECK(host_memory_fits(need, std::nullopt, "MemAvailable"));  // cannot tell: the allocation decides
    const Support refused = host_memory_fits(need, std::int64_t{6000000000}, "MemAvailable");
    CHECK_FALSE(refused);
    CHECK(refused.reason ==
          "needs 16.9 GB of host memory (8.5 GB for reference's tensors, 8.4 GB for the fp64 reference of the "
          "check), 6.0 GB available (MemAvailable)");
  }

  TEST_CASE("memory budget: device memory, free and total as the driver gives them") {
    CHECK(device_memory_fits(1000, 1000, 80000000000, 0));
    const Support refused = device_memory_fits(3200000000, 1100000000, 80000000000, 1);
    CHECK_FALSE(refused);
    CHECK(refused.reason == "needs 3.2 GB of device memory, 1.1 GB free on device 1 (of 80.0 GB)");
    CHECK(format_memory(512e6) == "512.0 MB");
    CHECK(format_memory(4096) == "4.1 KB");
    CHECK(format_memory(512) == "512 bytes");
  }

  TEST_CASE("memory budget: the peak resident set is known and grows with what is touched") {
    const auto before = peak_rss_bytes();
    REQUIRE(before.has_value());
    std::string block(std::size_t{64} << 20, 'x');  // 64 MiB, every page written
    const auto after = peak_rss_bytes();
    REQUIRE(after.has_value());
    CHECK(*after >= std::int64_t{64} << 20);
    CHECK(*after >= *before);
    CHECK(block.back() == 'x');
  }
}
