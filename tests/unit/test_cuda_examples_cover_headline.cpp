// The seeds are far too large for compute-sanitizer, so gpu-check sanitizes our kernels on the
// examples (memcheck and racecheck over `cuda:all`). That only covers the seeds if every kernel a
// seed can run also runs on some example: the same family, with the same reduction order, A
// schedule and tensor-core instruction (GEMMs), store mode and instance (depthwise2d), instance
// (direct_tiled), fill blocks (transposed phases). This checks it, in both math modes.
#include <doctest/doctest.h>

#include <map>
#include <set>
#include <string>

#include "cuda/direct/direct_tiled_index.hpp"
#include "cuda/direct/direct_tiled_params.hpp"
#include "cuda/implicit_gemm/forward_gemm_choice.hpp"
#include "cuda/selection.hpp"
#include "problem/rank3.hpp"
#include "spec/load.hpp"

namespace kbench {
namespace {

namespace conv = gpu::conv;

const std::string kWorkloads = std::string(KBENCH_SOURCE_DIR) + "/workloads";

// What distinguishes one compiled kernel (or launch schedule) from another for the sanitizers.
std::string kernel_kind(const conv::KernelChoice& c, const ConvProblem& p) {
  std::string kind(conv::family_name(c.family));
  if (conv::is_implicit_gemm(c.family)) {
    const conv::igemm::GemmConvParams d = conv::forward_gemm_params(as_rank3(p), c);
    kind.append("/").append(conv::igemm::order_name(d.order));
    kind.append("/").append(conv::igemm::schedule_name(d.a_schedule));
    if (d.mma == conv::igemm::MmaKind::wgmma) kind += "/wgmma";
  }
  if (c.family == conv::Family::depthwise2d) {
    const ConvProblem p3 = as_rank3(p);
    kind.append("/k").append(std::to_string(p3.kernel[1]));
    if (p3.pad_before[2] != 0) kind.append("_centred");
    kind.append("/").append(
        conv::depthwise::store_mode_name(c.stores.value_or(conv::depthwise::StoreMode::split)));
  }
  if (c.family == conv::Family::direct_tiled) {
    const conv::direct_tiled::DirectTiledParams d = conv::direct_tiled::make_params(p).desc;
    kind.append("/instance ").append(std::to_string(conv::direct_tiled::instance_kernel(d)));
  }
  if (c.fill == conv::FillBlocks::none) kind += "/no_fill_blocks";
  return kind;
}

std::map<std::string, std::string> kinds_in(const std::string& path) {
  std::map<std::string, std::string> kinds;  // kind -> a workload that runs it
  for (const Workload& w : load_workloads(path))
    for (const MathMode math : {MathMode::fp32, MathMode::tf32})
      for (const conv::KernelChoice& c : conv::applicable_variants(w.problem, math))
        kinds.emplace(kernel_kind(c, w.problem), w.name);
  return kinds;
}

TEST_CASE("every kernel a seed can run also runs on an example, where the sanitizers reach it") {
  const std::map<std::string, std::string> seeds = kinds_in(kWorkloads + "/kernelbench/level1");
  const std::map<std::string, std::string> examples = kinds_in(kWorkloads + "/examples");
  CHECK(seeds.size() >= 25);  // the variants of four seeds, both maths: a wrong path would find none
  for (const auto& [kind, seed] : seeds) {
    CAPTURE(seed);
    CHECK_MESSAGE(examples.count(kind) == 1, kind);
  }
}

}  // namespace
}  // namespace kbench
