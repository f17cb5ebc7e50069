#include "plugin/plugin_library.hpp"

#include <dlfcn.h>

#include <utility>

#include <fmt/format.h>

#include "plugin/plugin_problem.hpp"

namespace kbench::plugin {

namespace {

// dlsym's result as the typed pointer; nullptr when the library does not define the symbol.
template <typename Function>
bool find_symbol(void* handle, const char* symbol, Function& out) {
  dlerror();
  void* address = dlsym(handle, symbol);
  if (dlerror() != nullptr || address == nullptr) return false;
  out = reinterpret_cast<Function>(address);
  return true;
}

// The info struct's fields made owned, or no with what is malformed.
Support copy_info(const kbench_plugin_info_t* raw, PluginInfo& info) {
  if (raw == nullptr) return Support::no("kbench_plugin_info() returned NULL");
  if (raw->name == nullptr || raw->name[0] == '\0') return Support::no("kbench_plugin_info() gives no name");
  if (raw->memory != KBENCH_PLUGIN_MEMORY_HOST && raw->memory != KBENCH_PLUGIN_MEMORY_CUDA_DEVICE)
    return Support::no(
        fmt::format("kbench_plugin_info() gives memory kind {}, neither host (0) nor cuda_device (1)", raw->memory));
  if (raw->variant_count < 0 || (raw->variant_count > 0 && raw->variants == nullptr))
    return Support::no(fmt::format("kbench_plugin_info() gives {} variants without their names", raw->variant_count));
  info.name = raw->name;
  info.version = raw->version != nullptr ? raw->version : "";
  info.memory = raw->memory;
  for (std::int32_t i = 0; i < raw->variant_count; ++i) {
    if (raw->variants[i] == nullptr || raw->variants[i][0] == '\0')
      return Support::no(fmt::format("kbench_plugin_info() gives an empty name for variant {}", i));
    info.variants.emplace_back(raw->variants[i]);
  }
  return Support::yes();
}

}  // namespace

std::unique_ptr<PluginLibrary> PluginLibrary::load(const std::string& path, Support& why) {
  // RTLD_NOW: a symbol the plugin itself needs and cannot resolve fails here, named by dlerror, not mid-run.
  void* handle = dlopen(path.c_str(), RTLD_NOW | RTLD_LOCAL);
  if (handle == nullptr) {
    const char* error = dlerror();
    why = Support::no(fmt::format("cannot load plugin '{}': {}", path, error ? error : "dlopen failed"));
    return nullptr;
  }
  std::unique_ptr<PluginLibrary> library(new PluginLibrary());
  library->path_ = path;
  PluginEntryPoints& c = library->calls_;
  // A library refused is closed again: nothing of it has run but its static initialisers.
  const auto reject = [&](std::string reason) {
    dlclose(handle);
    why = Support::no(std::move(reason));
    return nullptr;
  };
  const auto missing = [&](const char* symbol) {
    return reject(
        fmt::format("plugin '{}' does not define {} (include/kbench/plugin.h lists the entry points; "
                    "define each with KBENCH_PLUGIN_EXPORT)",
                    path, symbol));
  };
  if (!find_symbol(handle, "kbench_plugin_abi_version", c.abi_version)) return missing("kbench_plugin_abi_version");
  if (Support s = check_abi_version(c.abi_version()); !s)
    return reject(fmt::format("plugin '{}' cannot be used: {}", path, s.reason));
  if (!find_symbol(handle, "kbench_plugin_info", c.info)) return missing("kbench_plugin_info");
  if (!find_symbol(handle, "kbench_plugin_supports", c.supports)) return missing("kbench_plugin_supports");
  if (!find_symbol(handle, "kbench_plugin_workspace_size", c.workspace_size))
    return missing("kbench_plugin_workspace_size");
  if (!find_symbol(handle, "kbench_plugin_prepare", c.prepare)) return missing("kbench_plugin_prepare");
  if (!find_symbol(handle, "kbench_plugin_run", c.run)) return missing("kbench_plugin_run");
  if (!find_symbol(handle, "kbench_plugin_release", c.release)) return missing("kbench_plugin_release");
  if (Support s = copy_info(c.info(), library->info_); !s)
    return reject(fmt::format("plugin '{}': {}", path, s.reason));
  library->handle_ = handle;
  why = Support::yes();
  return library;
}

}  // namespace kbench::plugin
