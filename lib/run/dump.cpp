#include "run/dump.hpp"

#include <filesystem>

#include <fmt/format.h>

#include "data/host_tensors.hpp"
#include "data/npy.hpp"
#include "problem/problem_metrics.hpp"
#include "run/atomic_file.hpp"

namespace kbench {

namespace {
// Dumps are for inspection: a tensor past this size is listed as skipped rather than written.
constexpr std::int64_t kMaxDumpBytes = std::int64_t{2} << 30;
}  // namespace

template <class Write>
void WorkloadDump::attempt(Write&& write) {
  if (!failure_.empty()) return;
  try {
    write();
  } catch (const std::exception& error) {  // OutputError, or filesystem_error from create_directories
    failure_ = error.what();
  }
}

WorkloadDump::WorkloadDump(std::string dir, const Workload& workload, std::uint64_t seed)
    : dir_(std::move(dir)), workload_(workload) {
  attempt([&] { std::filesystem::create_directories(dir_); });
  const ConvProblem& p = workload.problem;
  index_ = {{"workload", workload.name},
            {"seed", seed},
            {"layout",
             "row-major; weight as PyTorch: [C_out, C_in/groups, k...] for conv, "
             "[C_in, C_out/groups, k...] for conv_transpose"},
            {"files", nlohmann::json::array()},
            {"skipped", nlohmann::json::array()}};
  using data::TensorRole;
  const struct {
    const char* role;
    TensorRole tensor;
    std::int64_t elements;
    std::vector<std::int64_t> shape;
  } inputs[] = {{"x", TensorRole::input, p.input_elements(), input_shape(p)},
                {"weight", TensorRole::weight, p.weight_elements(), weight_shape(p)},
                {"bias", TensorRole::bias, p.bias_elements(), {p.bias_elements()}}};
  for (const auto& in : inputs) {
    if (in.elements == 0 || !fits(in.elements, 4, in.role)) continue;
    const auto values = data::make_seeded(p, seed, in.tensor);
    const std::string file = fmt::format("{}.{}.npy", workload.name, in.role);
    attempt([&] {
      data::write_npy((std::filesystem::path(dir_) / file).string(), values, in.shape);
      add_file(in.role, file, in.shape, "float32");
    });
  }
}

namespace {
std::string output_label(const Result& result) {
  return result.backend + (result.variant.empty() ? "" : "-" + result.variant);
}
}  // namespace

bool WorkloadDump::accepts_output(const Result& result, std::int64_t elements) {
  return fits(elements, 4, output_label(result));
}

void WorkloadDump::add_output(const Result& result, std::span<const float> output) {
  const std::string label = output_label(result);
  const std::string file = fmt::format("{}.{}.{}.out.npy", workload_.name, label, to_string(result.math_requested));
  attempt([&] {
    data::write_npy((std::filesystem::path(dir_) / file).string(), output, output_shape(workload_.problem));
    add_file("output:" + label + ":" + std::string(to_string(result.math_requested)), file,
             output_shape(workload_.problem), "float32");
  });
}

void WorkloadDump::add_reference(std::span<const double> output) {
  if (!fits(static_cast<std::int64_t>(output.size()), 8, "reference")) return;
  const std::string file = fmt::format("{}.reference.npy", workload_.name);
  attempt([&] {
    data::write_npy((std::filesystem::path(dir_) / file).string(), output, output_shape(workload_.problem));
    add_file("reference", file, output_shape(workload_.problem), "float64");
  });
}

void WorkloadDump::finish(RunReport& report) {
  const auto path = std::filesystem::path(dir_) / (workload_.name + ".index.json");
  attempt([&] { write_file_atomically(path.string(), index_.dump(2) + '\n'); });
  if (!failure_.empty()) {
    report.notes.push_back(fmt::format("--dump of {} is incomplete: {}", workload_.name, failure_));
    report.write_failures.push_back(failure_);
    return;
  }
  report.notes.push_back(
      fmt::format("dumped {} tensors of {} to {}", index_["files"].size(), workload_.name, path.string()));
}

bool WorkloadDump::fits(std::int64_t elements, std::int64_t element_bytes, const std::string& what) {
  if (elements * element_bytes <= kMaxDumpBytes) return true;
  index_["skipped"].push_back(fmt::format("{}: {:.2f} GB is over the {:.0f} GB dump limit", what,
                                          static_cast<double>(elements * element_bytes) / 1e9,
                                          static_cast<double>(kMaxDumpBytes) / 1e9));
  return false;
}

void WorkloadDump::add_file(const std::string& role, const std::string& file, const std::vector<std::int64_t>& shape,
                            const std::string& dtype) {
  index_["files"].push_back({{"role", role}, {"file", file}, {"shape", shape}, {"dtype", dtype}});
}

}  // namespace kbench
