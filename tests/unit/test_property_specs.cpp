// Property tests of the spec layer on thousands of generated specs (property_spec_text.hpp,
// property_spec_mutations.hpp):
//  - random valid specs, written in every layout the format allows, parse to exactly the problem they were
//    generated from, run to an ok result on the reference backend, and the reference's output equals an
//    independent naive scatter convolution written here;
//  - single mutations of them are refused with an InputError that points at the offending line and key;
//  - every input the fuzzers ever crashed or hung on (tests/data/specs/crashes/) and every hand-written fuzz
//    seed (tests/fuzz/corpus/) is either accepted or refused the documented way, in milliseconds.
#include <doctest/doctest.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "core/error.hpp"
#include "data/host_tensors.hpp"
#include "property_spec_mutations.hpp"
#include "property_spec_text.hpp"
#include "reference/reference_backend.hpp"
#include "reference/reference_conv.hpp"
#include "run/run_config.hpp"
#include "run/runner.hpp"
#include "spec/load.hpp"
#include "problem/problem_validation.hpp"
#include "test_seed.hpp"

using kbench::ConvProblem;
using kbench::InputError;
using kbench::Workload;
namespace property = kbench::testing::property;

namespace {

constexpr int kValidWorkloads = 2000;
constexpr int kInvalidSpecs = 3000;
constexpr std::int64_t kMaxFlops = 200'000;

// ---- an independent convolution: every input element scatters its products into the outputs it reaches ----

// Rank-3 view of a rank-1..3 size (missing leading dims are 1), so one loop nest serves every rank.
struct Extent3 {
  std::int64_t v[3] = {1, 1, 1};
  std::int64_t volume() const { return v[0] * v[1] * v[2]; }
};

Extent3 extent3(const kbench::Dims& dims, int rank, std::int64_t fill) {
  Extent3 e;
  for (int d = 0; d < 3; ++d) e.v[d] = fill;
  for (int d = 0; d < rank; ++d) e.v[3 - rank + d] = dims[d];
  return e;
}

std::vector<double> scatter_convolution(const ConvProblem& p, const kbench::data::HostTensors& t) {
  const int rank = p.spatial_rank;
  const Extent3 in = extent3(p.input, rank, 1), k = extent3(p.kernel, rank, 1), s = extent3(p.stride, rank, 1),
                dil = extent3(p.dilation, rank, 1), pad = extent3(p.pad_before, rank, 0);
  Extent3 out;
  for (int d = 0; d < rank; ++d) {
    const std::int64_t i = p.input[d], kk = p.kernel[d], st = p.stride[d], dl = p.dilation[d];
    const std::int64_t both_pads = p.pad_before[d] + p.pad_after[d];
    out.v[3 - rank + d] = p.op == kbench::OpKind::conv_transpose
                              ? (i - 1) * st - both_pads + dl * (kk - 1) + p.output_padding[d] + 1
                              : (i + both_pads - dl * (kk - 1) - 1) / st + 1;
  }
  const bool transposed = p.op == kbench::OpKind::conv_transpose;
  const std::int64_t cin_g = p.in_channels / p.groups, cout_g = p.out_channels / p.groups;
  std::vector<double> result(static_cast<std::size_t>(p.batch * p.out_channels * out.volume()), 0.0);

  for (std::int64_t n = 0; n < p.batch; ++n)
    for (std::int64_t ci = 0; ci < p.in_channels; ++ci)
      for (std::int64_t x0 = 0; x0 < in.v[0]; ++x0)
        for (std::int64_t x1 = 0; x1 < in.v[1]; ++x1)
          for (std::int64_t x2 = 0; x2 < in.v[2]; ++x2) {
            const double x = t.input[static_cast<std::size_t>(
                ((n * p.in_channels + ci) * in.v[0] + x0) * in.v[1] * in.v[2] + x1 * in.v[2] + x2)];
            const std::int64_t x_at[3] = {x0, x1, x2};
            const std::int64_t group = ci / cin_g;
            for (std::int64_t local = 0; local < cout_g; ++local) {
              const std::int64_t co = group * cout_g + local;
              for (std::int64_t t0 = 0; t0 < k.v[0]; ++t0)
                for (std::int64_t t1 = 0; t1 < k.v[1]; ++t1)
                  for (std::int64_t t2 = 0; t2 < k.v[2]; ++t2) {
                    const std::int64_t tap[3] = {t0, t1, t2};
                    std::int64_t o[3];
                    bool lands = true;
                    for (int d = 0; d < 3 && lands; ++d) {
                      if (transposed) {  // output o = x * stride - pad + tap * dilation
                        o[d] = x_at[d] * s.v[d] - pad.v[d] + tap[d] * dil.v[d];
                      } else {  // x = o * stride - pad + tap * dilation, solved for o
                        const std::int64_t shifted = x_at[d] + pad.v[d] - tap[d] * dil.v[d];
                        lands = shifted >= 0 && shifted % s.v[d] == 0;
                        o[d] = shifted / s.v[d];
                      }
                      lands = lands && o[d] >= 0 && o[d] < out.v[d];
                    }
                    if (!lands) continue;
                    // conv weight [C_out, C_in/g, k...]; transposed weight [C_in, C_out/g, k...]
                    const std::int64_t w_row = transposed ? ci * cout_g + local : co * cin_g + ci % cin_g;
                    const double w =
                        t.weight[static_cast<std::size_t>(((w_row * k.v[0] + t0) * k.v[1] + t1) * k.v[2] + t2)];
                    const std::int64_t o_flat =
                        ((n * p.out_channels + co) * out.v[0] + o[0]) * out.v[1] * out.v[2] + o[1] * out.v[2] + o[2];
                    result[static_cast<std::size_t>(o_flat)] += x * w;
                  }
            }
          }
  if (p.bias)
    for (std::size_t i = 0; i < result.size(); ++i)
      result[i] += t.bias[(i / static_cast<std::size_t>(out.volume())) % static_cast<std::size_t>(p.out_channels)];
  return result;
}

// ---- helpers ----

std::string input_error_of(const std::string& text, const std::string& origin) {
  try {
    kbench::parse_workloads(text, origin);
  } catch (const InputError& error) {
    return error.what();
  }
  return {};
}

struct ErrorLocation {
  int line = 0;
  int column = 0;
  std::string key_path;
};

// "ORIGIN:LINE:COL: KEY.PATH: ..." -> its parts; line 0 when the message does not have that shape.
ErrorLocation location_of(const std::string& message, const std::string& origin) {
  ErrorLocation location;
  if (!message.starts_with(origin + ":")) return location;
  std::istringstream rest(message.substr(origin.size() + 1));
  char colon1 = 0, colon2 = 0;
  if (!(rest >> location.line >> colon1 >> location.column >> colon2) || colon1 != ':' || colon2 != ':') return {};
  std::string tail;
  std::getline(rest, tail);
  const auto end = tail.find(": ", 1);
  location.key_path = tail.substr(1, end == std::string::npos ? std::string::npos : end - 1);
  return location;
}

kbench::RunConfig reference_run_config(std::uint64_t seed) {
  kbench::RunConfig config;
  config.backends = kbench::parse_backend_list("reference");
  config.seed = seed;
  config.measure.warmups = 0;
  config.measure.iterations = 1;
  config.peaks = *kbench::find_device("h100-sxm");
  return config;
}

std::string read_text(const std::filesystem::path& path) {
  std::ifstream stream(path, std::ios::binary);
  std::ostringstream text;
  text << stream.rdbuf();
  return text.str();
}

}  // namespace

TEST_SUITE("property") {
  TEST_CASE("random valid specs parse to their problem, run ok on the reference, and match a naive scatter") {
    property::Rng rng(kbench::testing::test_seed(20240601));
    kbench::Registry registry;
    registry.add(kbench::make_reference_backend());
    int workloads_checked = 0, documents = 0;
    while (workloads_checked < kValidWorkloads) {
      // One document of 1 to 3 workloads.
      std::vector<ConvProblem> problems;
      std::vector<property::SpecLines> lines;
      const auto count = std::min<std::int64_t>(property::uniform(rng, 1, 3), kValidWorkloads - workloads_checked);
      for (std::int64_t i = 0; i < count; ++i) {
        problems.push_back(property::random_valid_problem(rng, kMaxFlops));
        lines.push_back(property::spec_lines(problems.back(), "w" + std::to_string(workloads_checked + i), rng));
      }
      const std::string text = property::spec_document(lines, rng);
      const std::string origin = "valid-" + std::to_string(documents++) + ".yaml";
      INFO("spec:\n" << text);

      std::vector<Workload> workloads;
      REQUIRE_NOTHROW(workloads = kbench::parse_workloads(text, origin));
      REQUIRE(workloads.size() == problems.size());
      for (std::size_t i = 0; i < problems.size(); ++i) {
        CHECK(workloads[i].name == "w" + std::to_string(workloads_checked + static_cast<int>(i)));
        CHECK(workloads[i].problem == problems[i]);
        CHECK(workloads[i].source_file == origin);
      }

      const auto seed = static_cast<std::uint64_t>(documents);
      const kbench::RunReport report = kbench::run_workloads(workloads, registry, reference_run_config(seed));
      REQUIRE(report.results.size() == workloads.size());
      for (const kbench::Result& result : report.results) {
        INFO(result.workload << ": " << result.reason);
        CHECK(result.status == kbench::ResultStatus::ok);
        REQUIRE(result.verification.has_value());
        CHECK(result.verification->full);
        CHECK(result.timing.has_value());
      }

      for (const ConvProblem& problem : problems) {
        const auto tensors = kbench::data::make_host_tensors(problem, seed);
        const std::vector<double> expected = scatter_convolution(problem, tensors);
        const std::vector<double> got = kbench::reference::convolve(problem, tensors);
        REQUIRE(got.size() == expected.size());
        std::size_t mismatches = 0;
        for (std::size_t i = 0; i < got.size(); ++i)
          if (!(std::abs(got[i] - expected[i]) <= 1e-9 * (1 + std::abs(expected[i])))) ++mismatches;
        CHECK_MESSAGE(mismatches == 0, mismatches << " of " << got.size() << " outputs differ from the scatter");
      }
      workloads_checked += static_cast<int>(count);
    }
    MESSAGE(workloads_checked << " valid workloads in " << documents << " documents");
  }

  TEST_CASE("single mutations of valid specs are refused at the offending line and key") {
    property::Rng rng(kbench::testing::test_seed(97));
    for (int i = 0; i < kInvalidSpecs; ++i) {
      const ConvProblem problem = property::random_valid_problem(rng, kMaxFlops);
      const property::InvalidSpec spec =
          property::random_invalid_spec(problem, property::spec_lines(problem, "m" + std::to_string(i), rng), rng);
      const int comment_lines = static_cast<int>(property::uniform(rng, 0, 2));
      std::string text;
      for (int c = 0; c < comment_lines; ++c) text += "# comment line\n";
      text += property::block_mapping(spec.lines);
      const std::string origin = "specs/invalid-" + std::to_string(i) + ".yaml";
      INFO(spec.kind << ", spec:\n" << text);

      const std::string message = input_error_of(text, origin);
      INFO("message: " << message);
      REQUIRE_MESSAGE(!message.empty(), "accepted, or refused with something other than an InputError");
      const ErrorLocation where = location_of(message, origin);
      REQUIRE(where.line > 0);
      CHECK(where.key_path.starts_with(spec.blamed_key));
      const std::size_t key_index = spec.line_key.empty() ? 0 : property::index_of(spec.lines, spec.line_key);
      REQUIRE(key_index < spec.lines.size());
      CHECK(where.line == comment_lines + static_cast<int>(key_index) + 1);
      const auto line_length =
          static_cast<int>(spec.lines[key_index].key.size() + 2 + spec.lines[key_index].value.size());
      if (spec.at_key_column)
        CHECK(where.column == 1);
      else
        CHECK((where.column >= 1 && where.column <= line_length));
    }
  }

  TEST_CASE("past fuzzer findings and the fuzz seeds are accepted or refused with a located InputError, quickly") {
    const std::filesystem::path source(KBENCH_SOURCE_DIR);
    std::vector<std::filesystem::path> files;
    for (const auto* folder : {"tests/data/specs/crashes", "tests/fuzz/corpus"})
      for (const auto& entry : std::filesystem::directory_iterator(source / folder))
        if (entry.path().extension() == ".yaml") files.push_back(entry.path());
    std::sort(files.begin(), files.end());
    REQUIRE(files.size() >= 10);  // the hand-written seeds alone
    const kbench::DevicePeaks peaks = *kbench::find_device("h100-sxm");
    for (const auto& file : files) {
      const std::string origin = file.filename().string();
      INFO(file.string());
      const auto start = std::chrono::steady_clock::now();
      try {
        // What `kbench list` does with a spec: parse it, then derive metrics and floors for each workload.
        for (const Workload& workload : kbench::parse_workloads(read_text(file), origin)) {
          CHECK_FALSE(kbench::find_problem_issue(workload.problem).has_value());
          const kbench::WorkloadSummary summary = kbench::summarize_workload(workload, peaks);
          CHECK(std::isfinite(summary.metrics.flops));
          CHECK(summary.floor_fp32.floor_s > 0);
        }
      } catch (const InputError& error) {
        CHECK(location_of(error.what(), origin).line > 0);
      }
      // Generous for a sanitizer build: every file here takes milliseconds when nothing loops over a size.
      const std::chrono::duration<double> elapsed = std::chrono::steady_clock::now() - start;
      CHECK(elapsed.count() < 2.0);
    }
  }
}
