// `kbench plan`'s gathering (run/planner.hpp): every workload x request x math mode, in that order; a
// backend whose planning throws is not planned, with the error, and the others still are.
#include <doctest/doctest.h>

#include <stdexcept>
#include <string>
#include <vector>

#include <fmt/format.h>

#include "core/error.hpp"
#include "fake_backend.hpp"
#include "run/planner.hpp"

namespace kbench {
namespace {

// A fake that plans one kernel per math mode, or throws as a failing library call would.
class PlanningBackend final : public testing::FakeBackend {
 public:
  PlanningBackend(std::string name, bool throws) : FakeBackend(config(std::move(name))), throws_(throws) {}
  BackendPlan plan(const ConvProblem&, const BackendOptions& options, const PlanDevice& device) const override {
    if (throws_) throw std::runtime_error("CUDNN_STATUS_INTERNAL_ERROR (fake)");
    BackendPlan out;
    out.variants.push_back({options.variant, fmt::format("{}_kernel_{}", to_string(options.math), device.sms), {}});
    return out;
  }

 private:
  static testing::FakeBackendConfig config(std::string name) {
    testing::FakeBackendConfig c;
    c.name = std::move(name);
    return c;
  }
  bool throws_;
};

std::vector<Workload> two_workloads() {
  return {{"first", "", testing::small_problem(), {}, "a.yaml", 1},
          {"second", "", testing::small_problem(), {}, "a.yaml", 9}};
}

}  // namespace

TEST_SUITE("run") {
  TEST_CASE("planner: workloads x requests x math modes, a throwing backend not planned and the others planned") {
    Registry registry;
    registry.add(std::make_unique<PlanningBackend>("good", false));
    registry.add(std::make_unique<PlanningBackend>("broken", true));
    const PlanDevice device{"a GPU", 9, 0, 132, false};
    const std::vector<PlanEntry> entries =
        plan_workloads(two_workloads(), registry, {{"good", "k1", false}, {"broken", "", false}},
                       {MathMode::fp32, MathMode::tf32}, device, 0);
    REQUIRE(entries.size() == 8);
    CHECK(entries[0].workload == "first");
    CHECK(entries[0].backend == "good");
    CHECK(entries[0].variant == "k1");
    CHECK(entries[0].problem.starts_with("conv2d "));
    REQUIRE(entries[0].plan.support);
    CHECK(entries[0].plan.variants.front().variant == "k1");  // the request's variant reached the backend
    CHECK(entries[0].plan.variants.front().implementation == "fp32_kernel_132");
    CHECK(entries[1].plan.variants.front().implementation == "tf32_kernel_132");
    CHECK(entries[2].backend == "broken");
    CHECK_FALSE(entries[2].plan.support);
    CHECK(entries[2].plan.support.reason == "planning failed: CUDNN_STATUS_INTERNAL_ERROR (fake)");
    CHECK(entries[4].workload == "second");
    CHECK(entries[4].plan.support);
  }

  TEST_CASE("planner: an unknown backend is bad input, before anything is planned") {
    Registry registry;
    registry.add(std::make_unique<PlanningBackend>("good", false));
    CHECK_THROWS_WITH_AS(plan_workloads(two_workloads(), registry, {{"nope", "", false}}, {MathMode::fp32}, {}, 0),
                         "--backends: unknown backend 'nope'; known: good", InputError);
  }

  TEST_CASE("planner: a half workload is planned at math fp32 alone, as the runner runs it") {
    Registry registry;
    registry.add(std::make_unique<PlanningBackend>("good", false));
    std::vector<Workload> workloads = two_workloads();
    workloads[1].problem.dtype = DType::fp16;
    const std::vector<PlanEntry> entries = plan_workloads(
        workloads, registry, {{"good", "", false}}, {MathMode::fp32, MathMode::tf32}, {"a GPU", 9, 0, 132, false}, 0);
    REQUIRE(entries.size() == 3);
    CHECK(entries[2].workload == "second");
    CHECK(entries[2].math == MathMode::fp32);
    CHECK(entries[2].problem.ends_with(" · fp16 nchw"));
    CHECK(entries[0].problem.find("fp32") == std::string::npos);  // fp32 nchw reads as before
  }
}  // TEST_SUITE

}  // namespace kbench
