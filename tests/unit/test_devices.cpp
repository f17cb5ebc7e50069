// --devices: the selection parsed and checked against the devices present, the children's shards
// (which partition the run's own shard), and their command lines, all without a GPU or a process.
#include <doctest/doctest.h>

#include <set>
#include <string>
#include <vector>

#include "core/error.hpp"
#include "run/devices.hpp"

using kbench::Shard;

namespace {

std::string refusal(const std::string& text) {
  try {
    (void)kbench::parse_devices(text, 1023);
  } catch (const kbench::InputError& e) {
    return e.what();
  }
  return "";
}

std::string resolve_refusal(const std::string& text, const std::vector<int>& present) {
  try {
    (void)kbench::resolve_devices(kbench::parse_devices(text, 1023), present, "no CUDA in this build");
  } catch (const kbench::InputError& e) {
    return e.what();
  }
  return "";
}

}  // namespace

TEST_SUITE("devices") {
  TEST_CASE("devices: all, or distinct indices, anything else naming the flag") {
    CHECK(kbench::parse_devices("all", 1023).all);
    CHECK(kbench::parse_devices("0,2", 1023).indices == std::vector<int>{0, 2});
    CHECK(kbench::parse_devices("3", 1023).indices == std::vector<int>{3});
    for (const char* bad : {"", ",", "0,", "a", "-1", "1024", "0,0", "+1", " 1", "1.0", "0,,1", "ALL", "9999999"}) {
      CAPTURE(bad);
      CHECK(refusal(bad).starts_with("--devices: got '"));
    }
    CHECK(refusal("0,0").find("device 0 is listed twice") != std::string::npos);
  }

  TEST_CASE("devices: without a GPU, all finds none and says so, one index runs as today") {
    CHECK(resolve_refusal("all", {}) ==
          "--devices all: no CUDA device found (no CUDA in this build); expected a machine with a GPU, or no "
          "--devices");
    CHECK(kbench::resolve_devices(kbench::parse_devices("0", 1023), {}, "none") == std::vector<int>{0});
    CHECK(resolve_refusal("0,1", {}).starts_with("--devices 0,1: no CUDA device found"));
    CHECK(kbench::resolve_devices(kbench::parse_devices("all", 1023), {0, 1, 2}, "") == std::vector<int>{0, 1, 2});
    CHECK(kbench::resolve_devices(kbench::parse_devices("2,0", 1023), {0, 1, 2}, "") == std::vector<int>{2, 0});
    CHECK(resolve_refusal("0,5", {0, 1}) == "--devices: there is no device 5 here; the devices are 0,1");
  }

  TEST_CASE("devices: the children's shards partition the run's shard") {
    for (const Shard run : {Shard{1, 1}, Shard{2, 3}}) {
      for (int children = 1; children <= 4; ++children) {
        std::multiset<std::size_t> dealt;
        for (int i = 0; i < children; ++i) {
          const Shard s = kbench::child_shard(run, i, children);
          for (std::size_t item = 0; item < 240; ++item)
            if (s.selects(item)) dealt.insert(item);
        }
        std::multiset<std::size_t> expected;
        for (std::size_t item = 0; item < 240; ++item)
          if (run.selects(item)) expected.insert(item);
        CAPTURE(run.text());
        CAPTURE(children);
        CHECK(dealt == expected);  // every item of the run's shard once, none of another shard
      }
    }
    CHECK(kbench::child_shard(Shard{2, 3}, 1, 2) == Shard{5, 6});
    CHECK_THROWS_AS((void)kbench::child_shard(Shard{1, 5000}, 0, 3), kbench::InputError);
  }

  TEST_CASE("devices: a child's command line replaces the flags the parent decides, in every spelling") {
    const std::vector<std::string> argv = {
        "kbench", "run", "w.yaml",      "--devices", "all",  "--format", "markdown", "--output=r", "-o",        "r2",
        "--seed", "5",   "--shard=1/2", "--math",    "tf32", "--device", "0",        "--",         "--odd.yaml"};
    const auto child = kbench::child_arguments(argv, 3, Shard{3, 4}, 42, "/tmp/x/device-3.json");
    const std::vector<std::string> expected = {"kbench",   "run",       "w.yaml",  "--math",   "tf32",
                                               "--device", "3",         "--shard", "3/4",      "--seed",
                                               "42",       "--format",  "json",    "--output", "/tmp/x/device-3.json",
                                               "--",       "--odd.yaml"};
    CHECK(child == expected);
    CHECK(kbench::child_arguments({"kbench", "compare", "a.yaml", "--devices=0,1"}, 1, Shard{2, 2}, 7, "o.json") ==
          std::vector<std::string>{"kbench", "compare", "a.yaml", "--device", "1", "--shard", "2/2", "--seed", "7",
                                   "--format", "json", "--output", "o.json"});
  }
}
