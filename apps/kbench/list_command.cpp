// `kbench list`: workloads under the given paths with their sizes and floors, the backends this
// build has and whether each can run here, and the GPUs whose datasheet peaks are built in.
#include <iostream>
#include <memory>

#include <fmt/format.h>

#include "commands.hpp"
#include "workload_flags.hpp"
#include "core/error.hpp"
#include "gpu_environment.hpp"
#include "io/input_file.hpp"
#include "problem/problem_metrics.hpp"
#include "report/format.hpp"
#include "run/runner.hpp"
#include "spec/load.hpp"

namespace kbench::cli {

namespace {

struct ListFlags {
  std::vector<std::string> paths{"workloads"};
  std::string target = "h100-sxm";
  std::vector<std::string> axes;  // --axis KEY=V1,V2
  std::string python;             // --python: the torch backend's interpreter
};

int list(const ListFlags& flags) {
  const auto target = find_device(flags.target);
  if (!target) throw InputError(fmt::format("--target: unknown GPU '{}'", flags.target));

  fmt::print("Workloads (floors for {}, {}):\n", target->name, target->source);
  for (const auto& path : flags.paths) {
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

  Registry registry;
  register_backends(registry, flags.python);
  fmt::print("\nBackends:\n");
  for (const auto& backend : registry.all()) {
    const Support available = backend->available();
    fmt::print("  {:<10} {:<12} {}\n", backend->name(), available ? "available" : "unavailable",
               available ? backend->description() : backend->description() + " — " + available.reason);
  }

  fmt::print("\nKnown GPUs (--target), datasheet peaks:\n");
  for (const auto& d : known_devices())
    fmt::print("  {:<10} {:<24} {:>10}  FP32 {:>13}  TF32 {:>13}  FP16/BF16 {:>13}  FP16 no-TC {:>13}\n", d.key, d.name,
               report::format_bandwidth(d.bandwidth_Bps), report::format_flop_rate(d.fp32_flops),
               report::format_flop_rate(d.tf32_flops), report::format_flop_rate(d.half_tensor_flops(DType::fp16)),
               report::format_flop_rate(d.fp16_vector_flops()));
  return 0;
}

}  // namespace

Command add_list_command(CLI::App& app) {
  auto flags = std::make_shared<ListFlags>();
  app.add_option("paths", flags->paths, "Spec files or directories")->capture_default_str();
  app.add_option("--target", flags->target, "GPU whose datasheet floors are shown")->capture_default_str();
  app.add_option("--axis", flags->axes, "Sweep KEY over the values, e.g. batch=1,8,64 (repeatable), as `run` does");
  app.add_option("--python", flags->python,
                 "Python interpreter the torch backend embeds (default: $KBENCH_PYTHON, else python3 on PATH)");
  return {[flags] {
            for (const std::string& path : flags->paths) io::check_input_path(path, "workload spec", true);
            for (const std::string& axis : flags->axes) (void)parse_axis_flag(axis);
          },
          [flags] { return list(*flags); }};
}

}  // namespace kbench::cli
