// `pass:` in a spec and `--passes` (spec/pass_list.hpp): one pass keeps the name, a list expands into one
// workload per pass named NAME.PASS, --passes replaces the spec's passes; errors name the line and key.
#include <doctest/doctest.h>

#include <string>

#include "core/error.hpp"
#include "spec/load.hpp"
#include "spec/pass_list.hpp"

using namespace kbench;

namespace {

const std::string kConv = "name: t\nop: conv\ninput: [2, 4, 9, 9]\nout_channels: 6\nkernel: 3\n";

std::string error_of(const std::string& yaml) {
  try {
    parse_workloads(yaml, "spec.yaml");
  } catch (const InputError& error) {
    return error.what();
  }
  FAIL("expected an InputError for:\n" << yaml);
  return {};
}

std::vector<std::string> names(const std::vector<Workload>& workloads) {
  std::vector<std::string> out;
  for (const Workload& w : workloads) out.push_back(w.name);
  return out;
}

}  // namespace

TEST_SUITE("spec") {
  TEST_CASE("pass: forward by default, one pass keeps the name, synonyms read as the pass") {
    CHECK(parse_workloads(kConv, "s").front().problem.pass == Pass::forward);
    const auto one = parse_workloads(kConv + "pass: backward_data\n", "s");
    REQUIRE(one.size() == 1);
    CHECK(one.front().name == "t");
    CHECK(one.front().problem.pass == Pass::backward_data);
    CHECK(one.front().pass_origin.empty());
    CHECK(parse_workloads(kConv + "pass: wgrad\n", "s").front().problem.pass == Pass::backward_weights);
    CHECK(parse_workloads(kConv + "pass: [dgrad]\n", "s").front().name == "t");
  }

  TEST_CASE("pass: a list expands into one workload per pass, in order, named NAME.PASS") {
    const auto all = parse_workloads(kConv + "bias: true\npass: [backward_weights, forward, backward_data]\n", "s");
    CHECK(names(all) == std::vector<std::string>{"t.backward_weights", "t.forward", "t.backward_data"});
    CHECK(all[0].problem.pass == Pass::backward_weights);
    CHECK(all[1].problem.pass == Pass::forward);
    CHECK(all[2].problem.pass == Pass::backward_data);
    for (const Workload& w : all) {
      CHECK(w.pass_origin == "t");
      CHECK(w.problem.bias);
      CHECK(w.problem.out_channels == 6);
    }
  }

  TEST_CASE("pass: a sweep's points each expand, after the point's own suffix") {
    const auto all = parse_workloads(kConv + "pass: [forward, backward_data]\nsweep: {batch: [1, 8]}\n", "s");
    CHECK(names(all) == std::vector<std::string>{"t.batch-1.forward", "t.batch-1.backward_data", "t.batch-8.forward",
                                                 "t.batch-8.backward_data"});
    CHECK(all[3].problem.batch == 8);
  }

  TEST_CASE("pass: errors name the file, line and key, with a suggestion") {
    std::string e = error_of(kConv + "pass: backward_filter\n");
    CHECK(e.find("spec.yaml:6") != std::string::npos);
    CHECK(e.find("pass") != std::string::npos);
    CHECK(e.find("did you mean 'backward_weights'") != std::string::npos);
    e = error_of(kConv + "pass: [forward, backward_data, forward]\n");
    CHECK(e.find("forward is listed twice") != std::string::npos);
    CHECK(error_of(kConv + "pass: []\n").find("empty list") != std::string::npos);
    CHECK(error_of(kConv + "pass: {a: 1}\n").find("pass") != std::string::npos);
    e = error_of(kConv + "passes: [forward]\n");
    CHECK(e.find("did you mean 'pass'") != std::string::npos);
  }

  TEST_CASE("pass: an expanded name that collides with another workload's is refused") {
    const std::string two = "- " + std::string("name: t.forward\n  op: conv\n  input: [1, 1, 4]\n  out_channels: 1\n  kernel: 1\n") +
                            "- name: t\n  op: conv\n  input: [1, 1, 4]\n  out_channels: 1\n  kernel: 1\n  pass: [forward, "
                            "backward_data]\n";
    CHECK(error_of(two).find("duplicate workload name 't.forward'") != std::string::npos);
  }

  TEST_CASE("--passes replaces the spec's passes, each spec workload once") {
    const auto spec = parse_workloads(kConv + "pass: [forward, backward_data]\n", "s");
    const auto one = with_passes(spec, parse_passes_flag("backward_weights"));
    REQUIRE(one.size() == 1);
    CHECK(one.front().name == "t");
    CHECK(one.front().problem.pass == Pass::backward_weights);
    const auto plain = parse_workloads(kConv, "s");
    const auto two = with_passes(plain, parse_passes_flag("forward,wgrad"));
    CHECK(names(two) == std::vector<std::string>{"t.forward", "t.backward_weights"});
    CHECK(names(with_passes(two, parse_passes_flag("backward_data,forward"))) ==
          std::vector<std::string>{"t.backward_data", "t.forward"});
  }

  TEST_CASE("--passes: unknown, repeated and empty entries are refused naming the flag") {
    const auto message = [](const char* text) {
      try {
        parse_passes_flag(text);
      } catch (const InputError& e) {
        return std::string(e.what());
      }
      return std::string("(no error)");
    };
    CHECK(message("backwards").find("--passes") != std::string::npos);
    CHECK(message("forward,forward").find("listed twice") != std::string::npos);
    CHECK(message("forward,").find("empty entry") != std::string::npos);
    CHECK(message("").find("empty entry") != std::string::npos);
  }
}
