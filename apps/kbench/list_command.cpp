// `kbench list`: the backends this build has and whether each can run here (why not, first), this
// machine's GPU and CPU, the GPUs whose datasheet peaks are built in, then the workloads under the given
// paths (or ./workloads) with their sizes and floors. Works from any directory.
#include <filesystem>
#include <iostream>
#include <memory>

#include <fmt/format.h>

#include "commands.hpp"
#include "help_text.hpp"
#include "workload_flags.hpp"
#include "core/error.hpp"
#include "gpu_environment.hpp"
#include "io/input_file.hpp"
#include "problem/problem_metrics.hpp"
#include "report/format.hpp"
#include "run/run_metadata.hpp"
#include "run/runner.hpp"
#include "terminal.hpp"
#include "spec/load.hpp"

namespace kbench::cli {

namespace {

struct ListFlags {
  std::vector<std::string> paths;  // none: ./workloads where it is a directory, else no workloads
  std::string target = "h100-sxm";
  std::vector<std::string> axes;  // --axis KEY=V1,V2
  std::string python;             // --python: the torch backend's interpreter
};

// "  cudnn      unavailable: no NVIDIA driver on this machine — cuDNN 9 ...": the reason first, since it is
// what a reader acts on, the line wrapped under its text at the terminal's width.
void print_backend(const Backend& backend, std::size_t width) {
  const Support available = backend.available();
  const std::string head = fmt::format("  {:<10} ", backend.name());
  const std::string text = available ? "available: " + backend.description()
                                     : fmt::format("unavailable: {} — {}", available.reason, backend.description());
  const std::size_t hang = head.size() + 2;
  const std::size_t room = width > hang + 20 ? width - hang : 20;
  const std::vector<std::string> lines = report::wrap_words(text, room, width > head.size() + 20 ? width - head.size() : 20);
  for (std::size_t i = 0; i < lines.size(); ++i)
    fmt::print("{}{}\n", i == 0 ? head : std::string(hang, ' '), lines[i]);
}

int list(const ListFlags& flags) {
  const auto target = find_device(flags.target);
  if (!target) throw InputError(fmt::format("--target: unknown GPU '{}'", flags.target));
  const std::size_t width = terminal_width();

  // Backends and devices first: they answer "what can I run here" from any directory.
  Registry registry;
  register_backends(registry, flags.python);
  fmt::print("Backends:\n");
  for (const auto& backend : registry.all()) print_backend(*backend, width);

  const GpuEnvironment gpu = detect_gpu(0);
  fmt::print("\nThis machine: GPU {}; CPU {}\n", gpu.description, host_cpu_description());

  fmt::print("\nKnown GPUs (--target), datasheet peaks:\n");
  for (const auto& d : known_devices())
    fmt::print("  {:<10} {:<24} {:>10}  FP32 {:>13}  TF32 {:>13}  FP16/BF16 {:>13}  FP16 no-TC {:>13}\n", d.key, d.name,
               report::format_bandwidth(d.bandwidth_Bps), report::format_flop_rate(d.fp32_flops),
               report::format_flop_rate(d.tf32_flops), report::format_flop_rate(d.half_tensor_flops(DType::fp16)),
               report::format_flop_rate(d.fp16_vector_flops()));

  std::vector<std::string> paths = flags.paths;
  std::error_code ignored;
  if (paths.empty() && std::filesystem::is_directory("workloads", ignored)) paths.push_back("workloads");
  if (paths.empty()) {
    fmt::print("\nWorkloads: none here (give spec files or directories: kbench list my-conv.yaml)\n");
    return 0;
  }
  fmt::print("\nWorkloads (floors for {}, {}):\n", target->name, target->source);
  for (const auto& path : paths) {
    for (const auto& workload : with_axes(load_workloads(path), flags.axes)) {
      const auto summary = summarize_workload(workload, *target);
      // The forward pass's line as it always read; a backward pass names the gradient it computes.
      const std::string computes = workload.problem.pass == Pass::forward
                                       ? "out " + shape_string(output_shape(workload.problem))
                                       : "computes " + computed_text(workload.problem);
      fmt::print("  {}\n    {} · {}  {}\n    {} · {} · ", workload.name, describe(workload.problem),
                 data_text(workload.problem), computes,
                 report::format_quantity(summary.metrics.flops, "FLOP"),
                 report::format_quantity(summary.metrics.bytes(), "B"));
      if (workload.problem.dtype == DType::fp32)
        fmt::print("fp32 floor {} ({}) · tf32 floor {} ({})\n", report::format_duration(summary.floor_fp32.floor_s),
                   binding_text(summary.floor_fp32), report::format_duration(summary.floor_tf32.floor_s),
                   binding_text(summary.floor_tf32));
      else  // one math mode for half data (run/math_policy.hpp): one floor, at the dtype's tensor rate
        fmt::print("floor {} ({}; fp32 accumulation)\n", report::format_duration(summary.floor_fp32.floor_s),
                   binding_text(summary.floor_fp32));
    }
  }
  return 0;
}

}  // namespace

Command add_list_command(CLI::App& app) {
  auto flags = std::make_shared<ListFlags>();
  app.add_option("paths", flags->paths,
                 "Spec files or directories whose workloads to list (default: ./workloads where there is one)");
  app.add_option("--target", flags->target, "GPU whose datasheet floors are shown")->capture_default_str();
  app.add_option("--axis", flags->axes, "Sweep KEY over the values, e.g. batch=1,8,64 (repeatable), as `run` does");
  app.add_option("--python", flags->python,
                 "Python interpreter the torch backend embeds (default: $KBENCH_PYTHON, else python3 on PATH)");
  set_examples(app, {
                    "kbench list                        # backends, devices, and ./workloads where there is one",
                    "kbench list my-conv.yaml --target h100-pcie",
                });
  return {[flags] {
            for (const std::string& path : flags->paths)
              if (path != kStandardInputPath) io::check_input_path(path, "workload spec", true);
            for (const std::string& axis : flags->axes) (void)parse_axis_flag(axis);
          },
          [flags] { return list(*flags); }};
}

}  // namespace kbench::cli
