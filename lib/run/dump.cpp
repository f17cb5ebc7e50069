#include "run/dump.hpp"

#include <filesystem>

#include <fmt/format.h>

#include "data/host_tensors.hpp"
#include "data/npy.hpp"
#include "io/atomic_file.hpp"
#include "problem/conv_pass.hpp"
#include "problem/memory_layout.hpp"
#include "run/dump_tensor.hpp"

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
            {"dtype", to_string(p.dtype)},
            {"layout", to_string(p.layout)},
            {"layout_note",
             "each file's shape is its memory shape, C order: nchw as PyTorch ([N, C, spatial...], weight "
             "[C_out, C_in/groups, k...] for conv, [C_in, C_out/groups, k...] for conv_transpose); nhwc moves "
             "dim 1 last ([N, spatial..., C], weight [C_out, k..., C_in/groups] for conv, [C_in, k..., "
             "C_out/groups] for conv_transpose); bias [C_out]; logical_shape is the PyTorch shape. The "
             "reference is fp64 in the same memory layout, so it lines up with every output element for element. "
             "A backward pass's gradients have their forward tensor's shapes: grad_output the output's, its "
             "computed grad_input the input's, grad_weight the weight's and grad_bias the bias's"},
            {"pass", to_string(p.pass)},
            {"files", nlohmann::json::array()},
            {"skipped", nlohmann::json::array()}};
  for (const data::TensorRole tensor : data::roles_read(p)) {
    // The input keeps the name `x` dumps have always given it; the other roles are autograd's names.
    const std::string role = tensor == data::TensorRole::input ? "x" : data::role_name(tensor);
    const Operand operand = data::role_operand(tensor);
    const std::int64_t elements = data::role_elements(p, tensor);
    if (elements == 0 || !fits(elements, bytes_per_element(p.dtype), role)) continue;
    const auto values = data::make_seeded(p, seed, tensor);
    const std::string file = fmt::format("{}.{}.npy", workload.name, role);
    attempt([&] {
      const std::string dtype = write_dump_tensor((std::filesystem::path(dir_) / file).string(), p, operand, values);
      add_file(role, file, operand, dtype);
    });
  }
}

namespace {

std::string output_label(const Result& result) {
  return result.backend + (result.variant.empty() ? "" : "-" + result.variant);
}

// The pieces of a pass's computed tensor (problem/conv_pass.hpp), each a tensor of its own in the dump:
// a backward_weights result is grad_weight then grad_bias.
struct ComputedPart {
  std::string suffix;  // "" for the main tensor, "grad_bias" for the second
  Operand operand;     // whose shape and layout it has
  std::size_t offset = 0, count = 0;
};

std::vector<ComputedPart> computed_parts(const ConvProblem& p) {
  std::vector<ComputedPart> parts;
  std::size_t offset = 0;
  for (const Operand operand : computed_operands(p)) {
    const auto count = static_cast<std::size_t>(operand_elements(p, operand));
    parts.push_back({parts.empty() ? "" : "grad_bias", operand, offset, count});
    offset += count;
  }
  return parts;
}

std::string with_suffix(const std::string& text, const std::string& suffix, char separator) {
  return suffix.empty() ? text : text + separator + suffix;
}

}  // namespace


bool WorkloadDump::within_limit(std::int64_t elements) const {
  return elements * bytes_per_element(workload_.problem.dtype) <= kMaxDumpBytes;
}

bool WorkloadDump::accepts_output(const Result& result, std::int64_t elements) {
  return fits(elements, bytes_per_element(workload_.problem.dtype), output_label(result));
}

void WorkloadDump::add_output(const Result& result, std::span<const float> output) {
  const std::string label = output_label(result);
  const std::string math(to_string(result.math_requested));
  for (const ComputedPart& part : computed_parts(workload_.problem)) {
    const std::string file =
        fmt::format("{}.{}.{}.out{}.npy", workload_.name, label, math, with_suffix("", part.suffix, '.'));
    attempt([&] {
      const std::string dtype = write_dump_tensor((std::filesystem::path(dir_) / file).string(), workload_.problem,
                                                  part.operand, output.subspan(part.offset, part.count));
      add_file(with_suffix("output:" + label + ":" + math, part.suffix, ':'), file, part.operand, dtype);
    });
  }
}

void WorkloadDump::add_reference(std::span<const double> output) {
  if (!fits(static_cast<std::int64_t>(output.size()), 8, "reference")) return;
  for (const ComputedPart& part : computed_parts(workload_.problem)) {
    const std::string file = fmt::format("{}.reference{}.npy", workload_.name, with_suffix("", part.suffix, '.'));
    attempt([&] {
      // fp64 (the exact sum, not rounded to the dtype: what outputs are verified against), in the memory
      // layout of the outputs beside it.
      const ConvProblem& p = workload_.problem;
      const std::vector<double> memory = to_memory_order(p, part.operand, output.subspan(part.offset, part.count));
      data::write_npy((std::filesystem::path(dir_) / file).string(), std::span<const double>(memory),
                      memory_shape(p, part.operand));
      add_file(with_suffix("reference", part.suffix, ':'), file, part.operand, "float64");
    });
  }
}

void WorkloadDump::finish(RunReport& report) {
  const auto path = std::filesystem::path(dir_) / (workload_.name + ".index.json");
  attempt([&] { io::write_file_atomically(path.string(), index_.dump(2) + '\n'); });
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

void WorkloadDump::add_file(const std::string& role, const std::string& file, Operand operand,
                            const std::string& dtype) {
  const ConvProblem& p = workload_.problem;
  index_["files"].push_back({{"role", role},
                             {"file", file},
                             {"shape", memory_shape(p, operand)},
                             {"dtype", dtype},
                             {"layout", to_string(p.layout)},  // bias has one axis: the same in both
                             {"logical_shape", logical_shape(p, operand)}});
}

}  // namespace kbench
