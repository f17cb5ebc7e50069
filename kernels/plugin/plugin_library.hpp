#pragma once
// One plugin shared library, opened with dlopen and its six entry points found with dlsym
// (include/kbench/plugin.h). Loading checks the ABI version before reading anything else the library
// defines, so a plugin built against another header is refused, not misread.
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include <kbench/plugin.h>

#include "core/support.hpp"

namespace kbench::plugin {

// The entry points, typed by the header's own declarations.
struct PluginEntryPoints {
  decltype(&kbench_plugin_abi_version) abi_version = nullptr;
  decltype(&kbench_plugin_info) info = nullptr;
  decltype(&kbench_plugin_supports) supports = nullptr;
  decltype(&kbench_plugin_workspace_size) workspace_size = nullptr;
  decltype(&kbench_plugin_prepare) prepare = nullptr;
  decltype(&kbench_plugin_run) run = nullptr;
  decltype(&kbench_plugin_release) release = nullptr;
};

// kbench_plugin_info_t copied into owned strings at load time.
struct PluginInfo {
  std::string name;
  std::string version;
  std::int32_t memory = KBENCH_PLUGIN_MEMORY_HOST;
  std::vector<std::string> variants;  // the first is the default; empty: none
};

class PluginLibrary {
 public:
  // The library at `path`, or nullptr with `why` set: dlopen's error, the missing symbol's name, both ABI
  // versions, or what is wrong with its info.
  static std::unique_ptr<PluginLibrary> load(const std::string& path, Support& why);

  const std::string& path() const { return path_; }
  const PluginInfo& info() const { return info_; }
  const PluginEntryPoints& calls() const { return calls_; }

 private:
  PluginLibrary() = default;
  // Never dlclose'd: a CUDA plugin's runtime registers exit handlers that must outlive the process's
  // last CUDA call, so the handle lives until the process ends.
  void* handle_ = nullptr;
  std::string path_;
  PluginInfo info_;
  PluginEntryPoints calls_;
};

}  // namespace kbench::plugin
