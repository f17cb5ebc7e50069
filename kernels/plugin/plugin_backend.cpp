#include "plugin/plugin_backend.hpp"

#include <sys/stat.h>

#include <algorithm>
#include <map>
#include <optional>
#include <stdexcept>
#include <string>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "plugin/plugin_host_run.hpp"
#include "plugin/plugin_instance.hpp"
#include "plugin/plugin_library.hpp"
#include "plugin/plugin_problem.hpp"
#include "problem/conv_pass.hpp"
#include "reference/host_memory.hpp"

#if defined(KBENCH_HAVE_CUDA)
#include "plugin/plugin_gpu_run.hpp"
#include "runtime/device_info.hpp"
#endif

namespace kbench::plugin {

namespace {

bool is_regular_file(const std::string& path) {
  struct stat st {};
  return ::stat(path.c_str(), &st) == 0 && S_ISREG(st.st_mode);
}

// Whether this process can run a CUDA plugin: a CUDA build and a usable device.
Support cuda_usable() {
#if defined(KBENCH_HAVE_CUDA)
  return gpu::cuda_status();
#else
  return Support::no("this kbench was built without CUDA (KBENCH_ENABLE_CUDA=OFF or no nvcc)");
#endif
}

double gib(double bytes) { return bytes / double(std::int64_t{1} << 30); }

class PluginBackend final : public Backend {
 public:
  std::string name() const override { return "plugin"; }
  std::string description() const override {
    return "your own convolution in a shared library implementing include/kbench/plugin.h (--backends "
           "plugin:PATH.so[:VARIANT]; host or CUDA memory; docs/backends.md)";
  }
  // Per backend, not per library: a host plugin is timed on the CPU clock anywhere, but runs with the CPU's
  // sampling settings and time budget only where no GPU is usable (as torch does).
  bool runs_on_cpu() const override { return !cuda_usable(); }
  // It needs a path, so only a run that names one includes it.
  bool selected_by_default() const override { return false; }
  // dlopen is always there; whether a given library loads is variant_available's question.
  Support available() const override { return Support::yes(); }

  // A library path that is not there is the command line's mistake, caught before anything runs.
  Support variant_usable(const std::string& text) const override {
    PluginSpec spec;
    if (Support s = parse_plugin_spec(text, is_regular_file, spec); !s) return s;
    if (!is_regular_file(spec.path)) return Support::no(fmt::format("plugin:{}: no such file '{}'", text, spec.path));
    return Support::yes();
  }

  // One that will not load here (dlopen's error, another ABI version, an entry point missing): unavailable.
  Support variant_available(const std::string& text) const override {
    PluginSpec spec;
    if (Support s = parse_plugin_spec(text, is_regular_file, spec); !s) return s;
    const Loaded& loaded = load(spec.path);
    return loaded.library ? Support::yes() : loaded.why;
  }

  Support supports(const ConvProblem& problem, const BackendOptions& options) const override {
    PluginChoice choice;
    if (Support s = choose(options.variant, choice); !s) return s;
    if (choice.library->info().memory == KBENCH_PLUGIN_MEMORY_CUDA_DEVICE)
      if (Support s = cuda_usable(); !s)
        return Support::no(fmt::format("plugin {} works on CUDA device memory, and no device is usable: {}",
                                       choice.library->info().name, s.reason));
    return plugin_supports(choice, to_plugin_problem(problem, options.math));
  }

  Support fits(const ConvProblem& problem, const BackendOptions& options) const override {
    PluginChoice choice;
    if (Support s = choose(options.variant, choice); !s) return s;
    const auto workspace =
        static_cast<std::int64_t>(plugin_workspace_bytes(choice, to_plugin_problem(problem, options.math)));
#if defined(KBENCH_HAVE_CUDA)
    if (choice.library->info().memory == KBENCH_PLUGIN_MEMORY_CUDA_DEVICE)
      return gpu::fits_in_device_memory(gpu::GpuPreparedRun::device_bytes_needed(problem, options.device) + workspace,
                                        options.device);
#endif
    const double bytes = static_cast<double>(bytes_per_element(problem.dtype)) *
                             static_cast<double>(problem.input_elements() + problem.weight_elements() +
                                                 problem.bias_elements() + problem.output_elements()) +
                         static_cast<double>(workspace);
    const std::optional<std::int64_t> free = reference::available_host_memory();
    if (!free || bytes <= static_cast<double>(*free)) return Support::yes();
    return Support::no(
        fmt::format("needs {:.2f} GiB of host memory (kbench's tensors and the plugin's workspace), "
                    "{:.2f} GiB available",
                    gib(bytes), gib(static_cast<double>(*free))));
  }

  BackendPlan plan(const ConvProblem& problem, const BackendOptions& options, const PlanDevice&) const override {
    BackendPlan out{supports(problem, options), {}, {}};
    if (!out.support) return out;
    PluginChoice choice;
    (void)choose(options.variant, choice);
    const auto workspace = plugin_workspace_bytes(choice, to_plugin_problem(problem, options.math));
    out.variants.push_back({options.variant, implementation_name(choice), plugin_properties(choice, workspace)});
    return out;
  }

  std::unique_ptr<PreparedRun> prepare(const ConvProblem& problem, const BackendOptions& options) override {
    if (Support s = supports(problem, options); !s) throw std::invalid_argument(s.reason);
    PluginChoice choice;
    (void)choose(options.variant, choice);
#if defined(KBENCH_HAVE_CUDA)
    if (choice.library->info().memory == KBENCH_PLUGIN_MEMORY_CUDA_DEVICE)
      return std::make_unique<PluginGpuRun>(choice, problem, options,
                                            plugin_workspace_bytes(choice, to_plugin_problem(problem, options.math)));
#endif
    return std::make_unique<PluginHostRun>(choice, problem, options);
  }

 private:
  // The library `plugin:TEXT` names (loaded once per path) and the variant to pass it, or why not.
  Support choose(const std::string& text, PluginChoice& choice) const {
    PluginSpec spec;
    if (Support s = parse_plugin_spec(text, is_regular_file, spec); !s) return s;
    const Loaded& loaded = load(spec.path);
    if (!loaded.library) return loaded.why;
    const PluginInfo& info = loaded.library->info();
    choice.library = loaded.library.get();
    if (spec.variant.empty()) {
      choice.variant = info.variants.empty() ? std::string() : info.variants.front();
      return Support::yes();
    }
    if (std::find(info.variants.begin(), info.variants.end(), spec.variant) == info.variants.end())
      return Support::no(fmt::format("plugin {} ('{}') has no variant '{}'; {}", info.name, spec.path, spec.variant,
                                     info.variants.empty() ? std::string("it declares none")
                                                           : fmt::format("known: {}", fmt::join(info.variants, ", "))));
    choice.variant = spec.variant;
    return Support::yes();
  }

  struct Loaded {
    std::unique_ptr<PluginLibrary> library;
    Support why;  // no, when library is null
  };

  const Loaded& load(const std::string& path) const {
    auto found = libraries_.find(path);
    if (found != libraries_.end()) return found->second;
    Loaded loaded;
    loaded.library = PluginLibrary::load(path, loaded.why);
    return libraries_.emplace(path, std::move(loaded)).first->second;
  }

  mutable std::map<std::string, Loaded> libraries_;  // by path as given; each loaded once per process
};

}  // namespace

std::unique_ptr<Backend> make_plugin_backend() { return std::make_unique<PluginBackend>(); }

}  // namespace kbench::plugin
