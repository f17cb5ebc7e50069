// `kbench plan`'s listing and its kbench.plan/1 JSON document, from plans written by hand.
#include <doctest/doctest.h>

#include <sstream>
#include <string>

#include <nlohmann/json.hpp>

#include "report/plan_report.hpp"

namespace kbench {
namespace {

PlanReport sample_report() {
  PlanReport r;
  r.device = PlanDevice{"NVIDIA H200 SXM 141GB", 9, 0, 132, false};
  r.device_source = "--target h200; no device here";
  BackendPlan planned;
  planned.variants = {{"implicit_gemm_tf32",
                       "implicit_gemm_tf32/input_patch/96x256",
                       {{"gemm", "M 96 x N 774400 x K 363"}, {"smem_bytes", "107744"}}},
                      {"direct", "direct", {{"launches", "1"}}}};
  planned.ruled_out = {{"depthwise2d", "needs groups == in_channels == out_channels"},
                       {"implicit_gemm_tf32/wgmma", "wgmma needs a compute capability 9.0 device"}};
  r.entries.push_back({"conv-a", "conv2d 256x3x224x224 -> 96 k11 s4", "cuda", "", MathMode::tf32, planned});
  BackendPlan refused{Support::no("cudnn chooses what runs only when it prepares a problem on its device"), {}, {}};
  r.entries.push_back({"conv-a", "conv2d 256x3x224x224 -> 96 k11 s4", "cudnn", "", MathMode::tf32, refused});
  BackendPlan reference;
  reference.variants = {{"", "cpu_direct_fp64", {{"accumulation", "fp64"}}}};
  r.entries.push_back({"conv-b", "conv1d 1x4x16 -> 4 k3", "reference", "", MathMode::fp32, reference});
  return r;
}

std::string text_of(const PlanReport& r, bool verbose) {
  std::ostringstream out;
  write_plan_text(r, out, verbose);
  return out.str();
}

bool has(const std::string& text, const std::string& part) { return text.find(part) != std::string::npos; }

}  // namespace

TEST_SUITE("report") {
  TEST_CASE("plan text: the device, each workload once, the kernel that runs with its facts, the rest listed") {
    const std::string text = text_of(sample_report(), false);
    CHECK(text.starts_with(
        "Plans for NVIDIA H200 SXM 141GB (compute capability 9.0, 132 SMs; --target h200; no device here)\n"));
    CHECK(has(text, "\nconv-a  conv2d 256x3x224x224 -> 96 k11 s4\n"));
    CHECK(text.find("\nconv-a  ") == text.rfind("\nconv-a  "));  // one heading for its two backends
    CHECK(has(text, "  cuda tf32: implicit_gemm_tf32/input_patch/96x256 (cuda:implicit_gemm_tf32)\n"));
    CHECK(has(text, "      gemm        M 96 x N 774400 x K 363\n"));  // keys aligned to the longest
    CHECK(has(text, "    cuda:all also runs:\n      cuda:direct"));
    CHECK_FALSE(has(text, "      launches"));  // the others' facts only when verbose
    CHECK(has(text, "    ruled out:\n      depthwise2d               needs groups"));
    CHECK(has(text, "      implicit_gemm_tf32/wgmma  wgmma needs"));
    CHECK(has(text, "  cudnn tf32: not planned: cudnn chooses what runs only when it prepares"));
    CHECK(has(text, "  reference fp32: cpu_direct_fp64 (reference)\n      accumulation  fp64\n"));
    CHECK(has(text_of(sample_report(), true), "      launches  1\n"));
  }

  TEST_CASE("plan JSON: kbench.plan/1 with the device, and every entry's variants, facts and exclusions") {
    std::ostringstream out;
    write_plan_json(sample_report(), out);
    const nlohmann::json doc = nlohmann::json::parse(out.str());
    CHECK(doc["schema"] == "kbench.plan/1");
    CHECK(doc["device"]["compute_capability"] == "9.0");
    CHECK(doc["device"]["sms"] == 132);
    CHECK(doc["device"]["present"] == false);
    REQUIRE(doc["plans"].size() == 3);
    const nlohmann::json& cuda = doc["plans"][0];
    CHECK(cuda["workload"] == "conv-a");
    CHECK(cuda["math"] == "tf32");
    CHECK(cuda["planned"] == true);
    CHECK_FALSE(cuda.contains("reason"));
    REQUIRE(cuda["variants"].size() == 2);
    CHECK(cuda["variants"][0]["runs"] == true);
    CHECK(cuda["variants"][1]["runs"] == false);
    CHECK(cuda["variants"][0]["properties"]["smem_bytes"] == "107744");
    CHECK(cuda["ruled_out"][1]["variant"] == "implicit_gemm_tf32/wgmma");
    const nlohmann::json& cudnn = doc["plans"][1];
    CHECK(cudnn["planned"] == false);
    CHECK(cudnn["reason"].get<std::string>().starts_with("cudnn chooses"));
    CHECK(cudnn["variants"].empty());
  }

}  // TEST_SUITE

}  // namespace kbench
