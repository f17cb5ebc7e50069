#include "reference/reference_backend.hpp"

#include <fmt/format.h>

#include <bit>
#include <chrono>
#include <cmath>
#include <limits>
#include <optional>
#include <stdexcept>

#include "core/error.hpp"
#include "core/memory_budget.hpp"
#include "data/host_tensors.hpp"
#include "problem/conv_pass.hpp"
#include "problem/problem_validation.hpp"
#include "reference/host_memory.hpp"
#include "reference/parallel.hpp"
#include "reference/reference_conv.hpp"
#include "reference/round_once.hpp"

namespace kbench {

namespace {

// FNV-1a over 32-bit words (the floats' bit patterns), every operand tensor in turn. Order-sensitive, so
// a kernel that swaps or overwrites input elements changes it.
std::uint64_t tensor_checksum(const data::HostTensors& tensors) {
  std::uint64_t hash = 0xcbf29ce484222325ULL;
  for (const std::vector<float>* tensor : {&tensors.input, &tensors.weight, &tensors.bias, &tensors.grad_output}) {
    for (const float value : *tensor) hash = (hash ^ std::bit_cast<std::uint32_t>(value)) * 0x100000001b3ULL;
    hash = (hash ^ tensor->size()) * 0x100000001b3ULL;  // separates the tensors
  }
  return hash;
}

constexpr const char* kImplementation = "cpu_direct_fp64";

std::vector<std::pair<std::string, std::string>> reference_facts(const ConvProblem& problem,
                                                                 const BackendOptions& options) {
  std::vector<std::pair<std::string, std::string>> facts{{"accumulation", "fp64"},
                                                         {"threads", std::to_string(reference::worker_count())}};
  if (problem.dtype != DType::fp32)
    facts.emplace_back("output_rounding", fmt::format("the fp64 result rounded once to {}", to_string(problem.dtype)));
  if (problem.layout != Layout::nchw)
    facts.emplace_back("storage",
                       fmt::format("logical (nchw order) on the host; the {} layout changes nothing it computes",
                                   to_string(problem.layout)));
  if (options.math == MathMode::tf32)
    facts.emplace_back("math_note",
                       "tf32 requested; the CPU reference has no TF32 and computed fp32 inputs "
                       "with fp64 accumulation");
  return facts;
}

class ReferenceRun final : public PreparedRun {
 public:
  ReferenceRun(const ConvProblem& problem, const BackendOptions& options) : problem_(problem), options_(options) {}

  std::string implementation() const override { return kImplementation; }
  MathMode math_used() const override { return MathMode::fp32; }

  std::vector<std::pair<std::string, std::string>> properties() const override {
    return reference_facts(problem_, options_);
  }

  void fill_inputs(std::uint64_t seed) override {
    tensors_ = {};  // release the old inputs first: fits() counted one set, not two
    tensors_ = data::make_host_tensors(problem_, seed);
    checksum_ = tensor_checksum(tensors_);
    filled_ = true;
  }

  void poison_output() override {
    output_.assign(static_cast<std::size_t>(computed_elements(problem_)), std::numeric_limits<float>::quiet_NaN());
  }

  // In every dtype and layout: the inputs are the seeded values already rounded to the dtype, the sum is
  // fp64, and each output element is rounded once to the dtype (as a tensor of that dtype would hold it,
  // widened back to float, which is exact).
  void run() override {
    if (!filled_) throw std::logic_error("reference backend: run() before fill_inputs()");
    const std::vector<double> exact = reference::convolve(problem_, tensors_);
    output_.resize(exact.size());
    for (std::size_t i = 0; i < exact.size(); ++i)
      output_[i] = reference::round_once_to_dtype(problem_.dtype, exact[i]);
  }

  // A CPU computation this long is not sensitive to what the caches hold when it starts, so a cold
  // sample is timed exactly like a warm one: there is nothing worth flushing.
  Sample timed_run(const TimingOptions&) override {
    const auto start = std::chrono::steady_clock::now();
    run();
    const std::chrono::duration<double> elapsed = std::chrono::steady_clock::now() - start;
    return Sample{elapsed.count(), false};
  }

  std::vector<float> read_output(std::span<const std::int64_t> indices) override {
    if (output_.empty()) throw std::logic_error("reference backend: read_output() before run() or poison_output()");
    if (indices.empty()) return output_;
    std::vector<float> values;
    values.reserve(indices.size());
    for (const std::int64_t index : indices) {
      if (index < 0 || index >= static_cast<std::int64_t>(output_.size()))
        throw std::out_of_range(
            fmt::format("output index {} is outside the output's {} elements", index, output_.size()));
      values.push_back(output_[static_cast<std::size_t>(index)]);
    }
    return values;
  }

  bool inputs_unchanged() override { return filled_ && tensor_checksum(tensors_) == checksum_; }

 private:
  ConvProblem problem_;
  BackendOptions options_;
  // Logical (NCHW-order) values whatever problem_.layout says: the layout is a storage choice for
  // backends whose kernels care, and the reference's index arithmetic is the logical one.
  data::HostTensors tensors_;
  std::uint64_t checksum_ = 0;
  bool filled_ = false;
  std::vector<float> output_;
};

class ReferenceBackend final : public Backend {
 public:
  std::string name() const override { return "reference"; }
  std::string description() const override {
    return "CPU direct convolution, fp64 accumulation, multithreaded (what every backend is verified against)";
  }
  bool runs_on_cpu() const override { return true; }
  Support available() const override { return Support::yes(); }

  // Every dtype and layout: a layout only says how a backend stores its tensors, and the reference keeps
  // them in logical (nchw) order on the host, so what it computes, and read_output's indices, are the same.
  Support supports(const ConvProblem& problem, const BackendOptions&) const override {
    return validate_problem(problem);  // a tf32 request is served in fp32 (math_used says so)
  }

  Support fits(const ConvProblem& problem, const BackendOptions&) const override {
    // Inputs as fp32 (fp16/bf16 values widened: the reference does not store them narrower), the output once as fp64
    // (the accumulation) and once as fp32 (what read_output returns).
    double input_bytes = 0;
    for (const data::TensorRole role : data::roles_read(problem))
      input_bytes += 4.0 * static_cast<double>(data::role_elements(problem, role));
    HostMemoryNeed need;
    need.add("the inputs", input_bytes);
    need.add("the output as fp64 and fp32", 12.0 * static_cast<double>(computed_elements(problem)));
    // Where nothing can be read, the allocation decides.
    return host_memory_fits(need, reference::available_host_memory(), reference::available_host_memory_source());
  }

  // One kernel for every problem; the device does not matter.
  BackendPlan plan(const ConvProblem& problem, const BackendOptions& options, const PlanDevice&) const override {
    BackendPlan out{supports(problem, options), {}, {}};
    if (out.support) out.variants.push_back({"", kImplementation, reference_facts(problem, options)});
    return out;
  }

  std::unique_ptr<PreparedRun> prepare(const ConvProblem& problem, const BackendOptions& options) override {
    const Support supported = supports(problem, options);
    if (!supported) throw InputError("reference backend cannot run this problem: " + supported.reason);
    return std::make_unique<ReferenceRun>(problem, options);
  }
};

}  // namespace

std::unique_ptr<Backend> make_reference_backend() { return std::make_unique<ReferenceBackend>(); }

}  // namespace kbench
