#pragma once
// A configurable in-memory backend for testing the runner, the measurement loop and the reports
// without a GPU. It computes the true convolution (via the reference) and can be told to misbehave
// in each of the ways a cheating or broken kernel might.
#include <algorithm>
#include <functional>
#include <limits>
#include <stdexcept>
#include <memory>
#include <new>
#include <string>
#include <vector>

#include "backend/backend.hpp"
#include "backend/unsupported_problem.hpp"
#include "core/half.hpp"
#include "data/host_tensors.hpp"
#include "reference/reference_conv.hpp"

namespace kbench::testing {

enum class Misbehaviour {
  none,
  leave_output_unwritten,  // never writes the output (poisoning must catch it)
  replay_first_output,     // returns the output of its first inputs forever (fresh seeds must catch it)
  modify_input,            // writes into its input (the checksum must catch it)
  wrong_values,            // off by 1e-2 relative everywhere
  throw_in_run,            // a failing library call
  throw_in_prepare,
  no_kernel_in_run,        // finds only when it runs that it cannot compute the problem
  bad_alloc_in_prepare,    // its host buffers do not fit after all
  rounds_before_bias,      // rounds the convolution to the dtype, then adds the bias and rounds again (cuDNN's
                           // legacy path, torch), whatever it declares
};

struct FakeBackendConfig {
  std::string name = "fake";
  Misbehaviour misbehaviour = Misbehaviour::none;
  bool available = true;
  bool supports = true;
  bool fits = true;
  bool on_cpu = false;  // runs_on_cpu(): its tensors are host memory
  std::vector<double> sample_seconds{0.001};  // cycled through by timed_run
  MathMode math_used = MathMode::fp32;
  std::vector<std::string> variants;
  std::vector<std::string> run_warnings;       // what the prepared run's warnings() says after timing
  std::vector<std::string> environment_notes;  // what the backend's environment_notes() says
  std::string unusable_variant;                // the one variant variant_usable() refuses
  std::string unavailable_variant;             // the one variant variant_available() says no to
  OutputRounding output_rounding = OutputRounding::once;  // what the prepared run declares
};

class FakeRun : public PreparedRun {
 public:
  FakeRun(const ConvProblem& problem, FakeBackendConfig config) : problem_(problem), config_(std::move(config)) {}
  std::string implementation() const override { return "fake_kernel"; }
  MathMode math_used() const override { return config_.math_used; }
  OutputRounding output_rounding() const override { return config_.output_rounding; }
  void fill_inputs(std::uint64_t seed) override {
    tensors_ = data::make_host_tensors(problem_, seed);
    pristine_input_ = tensors_.input;
    output_.assign(static_cast<std::size_t>(problem_.output_elements()), 0.0f);
  }
  void poison_output() override { std::fill(output_.begin(), output_.end(), std::numeric_limits<float>::quiet_NaN()); }
  void run() override {
    ++runs;
    if (config_.misbehaviour == Misbehaviour::throw_in_run) throw std::runtime_error("cudaErrorIllegalAddress (fake)");
    if (config_.misbehaviour == Misbehaviour::no_kernel_in_run)
      throw UnsupportedProblem("no fp16 kernel for this call on cpu (fake)");
    if (config_.misbehaviour == Misbehaviour::leave_output_unwritten) return;
    if (config_.misbehaviour == Misbehaviour::replay_first_output && !first_output_.empty()) {
      output_ = first_output_;
      return;
    }
    const auto exact = reference::convolve(problem_, tensors_);
    for (std::size_t i = 0; i < exact.size(); ++i)
      output_[i] =
          static_cast<float>(config_.misbehaviour == Misbehaviour::wrong_values ? exact[i] * 1.01 + 0.01 : exact[i]);
    if (config_.misbehaviour == Misbehaviour::rounds_before_bias && problem_.bias) {
      const auto spatial = static_cast<std::size_t>(problem_.output_spatial_volume());
      for (std::size_t i = 0; i < exact.size(); ++i) {
        const double bias = tensors_.bias[(i / spatial) % static_cast<std::size_t>(problem_.out_channels)];
        const float unbiased = round_to_dtype(problem_.dtype, static_cast<float>(exact[i] - bias));
        output_[i] = round_to_dtype(problem_.dtype, unbiased + static_cast<float>(bias));
      }
    }
    if (config_.misbehaviour == Misbehaviour::modify_input) tensors_.input[0] += 1.0f;
    if (first_output_.empty()) first_output_ = output_;
  }
  Sample timed_run(const TimingOptions&) override {
    run();
    const double s = config_.sample_seconds[samples_taken++ % config_.sample_seconds.size()];
    return {s, false};
  }
  std::vector<float> read_output(std::span<const std::int64_t> indices) override {
    if (indices.empty()) return output_;
    std::vector<float> out;
    for (auto i : indices) out.push_back(output_[static_cast<std::size_t>(i)]);
    return out;
  }
  bool inputs_unchanged() override { return tensors_.input == pristine_input_; }
  std::vector<std::string> warnings() const override {
    return samples_taken > 0 ? config_.run_warnings : std::vector<std::string>{};
  }

  int runs = 0;
  std::size_t samples_taken = 0;

 private:
  ConvProblem problem_;
  FakeBackendConfig config_;
  data::HostTensors tensors_;
  std::vector<float> pristine_input_;
  std::vector<float> output_;
  std::vector<float> first_output_;
};

class FakeBackend : public Backend {
 public:
  explicit FakeBackend(FakeBackendConfig config) : config_(std::move(config)) {}
  std::string name() const override { return config_.name; }
  std::string description() const override { return "test double"; }
  bool runs_on_cpu() const override { return config_.on_cpu; }
  Support available() const override { return config_.available ? Support::yes() : Support::no("fake: no device"); }
  Support supports(const ConvProblem&, const BackendOptions&) const override {
    return config_.supports ? Support::yes() : Support::no("fake: cannot do that");
  }
  Support fits(const ConvProblem&, const BackendOptions&) const override {
    return config_.fits ? Support::yes() : Support::no("fake: needs 2 GB, 1 GB free");
  }
  Support variant_usable(const std::string& variant) const override {
    if (variant.empty() || variant != config_.unusable_variant) return Support::yes();
    return Support::no(config_.name + ": no such thing as '" + variant + "'");
  }
  Support variant_available(const std::string& variant) const override {
    if (variant != config_.unavailable_variant) return Support::yes();
    return Support::no(config_.name + ": '" + variant + "' does not load here");
  }
  std::vector<std::string> variants(const ConvProblem&, const BackendOptions&) const override {
    return config_.variants;
  }
  std::unique_ptr<PreparedRun> prepare(const ConvProblem& problem, const BackendOptions&) override {
    if (config_.misbehaviour == Misbehaviour::throw_in_prepare) throw std::runtime_error("out of memory (fake)");
    if (config_.misbehaviour == Misbehaviour::bad_alloc_in_prepare) throw std::bad_alloc();
    return std::make_unique<FakeRun>(problem, config_);
  }
  std::vector<std::string> environment_notes() const override { return config_.environment_notes; }

 private:
  FakeBackendConfig config_;
};

// A small grouped, padded, strided conv2d with bias: every code path of the verifier matters on it.
inline ConvProblem small_problem() {
  ConvProblem p;
  p.spatial_rank = 2;
  p.batch = 2;
  p.in_channels = 4;
  p.out_channels = 6;
  p.groups = 2;
  p.input = Dims{{9, 11, 1}};
  p.kernel = Dims{{3, 3, 1}};
  p.stride = Dims{{2, 1, 1}};
  p.pad_before = p.pad_after = Dims{{1, 1, 0}};
  p.bias = true;
  return p;
}

}  // namespace kbench::testing
