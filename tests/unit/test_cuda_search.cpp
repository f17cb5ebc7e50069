// The cuda backend's exhaustive search (--algo exhaustive): which variants it times, how it picks,
// and what it reports. The timer is a fake here; on a device CudaPreparedRun times real runs.
#include <doctest/doctest.h>

#include <algorithm>
#include <map>
#include <stdexcept>
#include <string>

#include "cuda/selection.hpp"
#include "problem/problem_validation.hpp"
#include "headline_problems.hpp"

namespace kbench {
namespace {

namespace conv = gpu::conv;
using conv::Family;
using conv::KernelChoice;

std::vector<std::string> names(const std::vector<KernelChoice>& choices) {
  std::vector<std::string> out;
  for (const KernelChoice& c : choices) out.push_back(conv::variant_name(c));
  return out;
}

}  // namespace

TEST_SUITE("cuda_index") {
  TEST_CASE("exhaustive search candidates: every applicable variant but direct, direct when alone") {
    for (const MathMode math : {MathMode::fp32, MathMode::tf32}) {
      const std::vector<std::string> s76 = names(conv::search_candidates(testing::headline76(), math));
      CHECK(std::find(s76.begin(), s76.end(), "direct") == s76.end());
      CHECK(s76.size() + 1 == conv::applicable_variants(testing::headline76(), math).size());
      const std::string gemm = math == MathMode::tf32 ? "implicit_gemm_tf32" : "implicit_gemm_3xtf32";
      CHECK(std::find(s76.begin(), s76.end(), gemm) != s76.end());
      CHECK(std::find(s76.begin(), s76.end(), gemm + "/streamed_a") != s76.end());
      CHECK(std::find(s76.begin(), s76.end(), "implicit_gemm_ffma") != s76.end());
      // Problem 84: depthwise2d and the GEMMs (every group a 1 x 9 reduction: they apply, slowly).
      const std::vector<std::string> s84 = names(conv::search_candidates(testing::headline84(), math));
      CHECK(std::find(s84.begin(), s84.end(), "depthwise2d") != s84.end());
    }
    // A transposed convolution with a stride above 64 (phase masks are 64-bit): only direct serves it.
    ConvProblem wide = testing::headline77();
    wide.stride = Dims{{65, 2, 2}};
    REQUIRE(validate_problem(wide));
    const std::vector<KernelChoice> alone = conv::search_candidates(wide, MathMode::fp32);
    REQUIRE(alone.size() == 1);
    CHECK(alone[0].family == Family::direct);
  }

  TEST_CASE("exhaustive search: the fastest wins, failures are kept with their reason, ties go first") {
    const std::vector<KernelChoice> candidates = conv::search_candidates(testing::headline76(), MathMode::tf32);
    REQUIRE(candidates.size() >= 3);
    std::map<std::string, double> ms;
    for (std::size_t i = 0; i < candidates.size(); ++i)
      ms[conv::variant_name(candidates[i])] = 10.0 + static_cast<double>(i);
    const std::string fastest = conv::variant_name(candidates[2]);
    ms[fastest] = 3.5;
    const std::string broken = conv::variant_name(candidates[0]);
    const conv::SearchOutcome out = conv::pick_fastest(candidates, [&](const KernelChoice& c) {
      const std::string name = conv::variant_name(c);
      if (name == broken) throw std::runtime_error("launch failed: too many resources requested");
      return ms.at(name);
    });
    CHECK(conv::variant_name(out.best) == fastest);
    REQUIRE(out.times.size() == candidates.size());
    CHECK(out.times[0].ms < 0);
    CHECK(out.times[0].error.find("too many resources") != std::string::npos);
    CHECK(out.times[2].ms == doctest::Approx(3.5));
    const std::string summary = conv::search_summary(out);
    CHECK(summary.find(fastest + " 3.5 ms (chosen)") != std::string::npos);
    CHECK(summary.find(broken + " failed (launch failed") != std::string::npos);

    const conv::SearchOutcome tie = conv::pick_fastest(candidates, [](const KernelChoice&) { return 1.0; });
    CHECK(conv::variant_name(tie.best) == conv::variant_name(candidates[0]));
  }

  TEST_CASE("exhaustive search: nothing timed is an error naming every reason") {
    const std::vector<KernelChoice> candidates = conv::search_candidates(testing::headline50(), MathMode::fp32);
    try {
      conv::pick_fastest(candidates, [](const KernelChoice& c) -> double {
        throw std::runtime_error("no device for " + conv::variant_name(c));
      });
      FAIL("pick_fastest returned without any timing");
    } catch (const std::runtime_error& e) {
      const std::string what = e.what();
      CHECK(what.find("no variant could be timed") != std::string::npos);
      for (const KernelChoice& c : candidates)
        CHECK(what.find("no device for " + conv::variant_name(c)) != std::string::npos);
    }
  }

}  // TEST_SUITE

}  // namespace kbench
