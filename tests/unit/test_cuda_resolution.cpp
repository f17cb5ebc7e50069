// One envelope question per result (selection.hpp's resolve_choice, registry.hpp's
// EnvelopeScope): resolving what a result runs, by default or forced, listing what `cuda:all` and
// `kbench plan` show, or the exhaustive search's candidates, evaluates each choice's envelope at most
// once, over every seed and example in both maths. The launch asks none (make_kernel_launch builds the
// resolved choice).
#include <doctest/doctest.h>

#include <map>
#include <string>
#include <vector>

#include "cuda/selection.hpp"
#include "spec/load.hpp"

namespace kbench {
namespace {

namespace conv = gpu::conv;

std::map<std::string, int>* evaluations = nullptr;

void count_evaluation(const conv::KernelChoice& c, const ConvProblem&) { ++(*evaluations)[conv::variant_name(c)]; }

// Counts the envelopes `resolve` evaluates; every choice's at most once.
template <class F>
void check_asks_once(const std::string& what, F&& resolve) {
  std::map<std::string, int> counts;
  evaluations = &counts;
  conv::envelope_evaluated = count_evaluation;
  resolve();
  conv::envelope_evaluated = nullptr;
  evaluations = nullptr;
  CHECK_FALSE(counts.empty());
  for (const auto& [choice, n] : counts) {
    CAPTURE(what);
    CAPTURE(choice);
    CHECK(n == 1);
  }
}

std::vector<Workload> every_workload() {
  std::vector<Workload> out;
  const std::string root = std::string(KBENCH_SOURCE_DIR) + "/workloads/";
  for (const char* dir : {"kernelbench/level1", "examples", "examples-half", "examples-backward"})
    for (Workload& w : load_workloads(root + dir)) out.push_back(std::move(w));
  return out;
}

}  // namespace

TEST_SUITE("cuda_selection") {
  TEST_CASE("resolution: one result evaluates each choice's envelope at most once") {
    const std::vector<Workload> workloads = every_workload();
    REQUIRE(workloads.size() >= 60);  // a wrong path would find none
    for (const Workload& w : workloads)
      for (const MathMode math : {MathMode::fp32, MathMode::tf32}) {
        const std::string what = w.name + (math == MathMode::tf32 ? " tf32" : " fp32");
        // The default, as prepare resolves it.
        check_asks_once(what + " default", [&] { (void)conv::resolve_choice(w.problem, math, ""); });
        // What `kbench plan` asks: the resolution, every variant, every family's reason.
        check_asks_once(what + " plan", [&] {
          const conv::EnvelopeScope scope;
          (void)conv::resolve_choice(w.problem, math, "");
          (void)conv::applicable_variants(w.problem, math);
          for (const conv::Family f : conv::kAllFamilies) (void)conv::family_envelope(f, w.problem, math);
        });
        // The exhaustive search's candidates.
        if (conv::problem_supported(w.problem))
          check_asks_once(what + " search", [&] { (void)conv::search_candidates(w.problem, math); });
        // Each variant forced.
        for (const conv::KernelChoice& c : conv::applicable_variants(w.problem, math)) {
          const std::string name = conv::variant_name(c);
          check_asks_once(what + " " + name, [&] {
            const conv::Resolution r = conv::resolve_choice(w.problem, math, name);
            CHECK(r.support.ok);
            CHECK(r.choice == c);
          });
        }
      }
  }

  TEST_CASE("resolution: the answer carries the choice the launch builds, or why there is none") {
    const std::vector<Workload> workloads = every_workload();
    for (const Workload& w : workloads) {
      CAPTURE(w.name);
      const conv::Resolution r = conv::resolve_choice(w.problem, MathMode::fp32, "");
      CHECK(r.support.ok == conv::problem_supported(w.problem).ok);
      if (r.support) CHECK(r.choice.family == conv::default_family(w.problem, MathMode::fp32));
    }
    const conv::Resolution unknown =
        conv::resolve_choice(workloads.front().problem, MathMode::fp32, "implicit_gemm_tf32/bogus");
    CHECK_FALSE(unknown.support.ok);
    CHECK(unknown.support.reason.starts_with("unknown cuda kernel variant 'implicit_gemm_tf32/bogus': "));
    const conv::Resolution forbidden = conv::resolve_choice(workloads.front().problem, MathMode::fp32, "implicit_gemm_tf32");
    CHECK_FALSE(forbidden.support.ok);
  }
}

}  // namespace kbench
