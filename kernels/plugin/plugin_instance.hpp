#pragma once
// A loaded plugin asked about one problem: its workspace, and its prepared state (prepare on
// construction, release on destruction) that run() executes. Errors the plugin reports become
// exceptions carrying its message, which the runner records as the result's reason.
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include <kbench/plugin.h>

#include "core/support.hpp"
#include "plugin/plugin_library.hpp"

namespace kbench::plugin {

// Which library, and the variant passed to it: the one named, else the plugin's first, else "".
struct PluginChoice {
  const PluginLibrary* library = nullptr;
  std::string variant;
};

// What a result's `implementation` shows: "NAME VERSION", then the variant when there is one.
std::string implementation_name(const PluginChoice& choice);
// What every plugin result records: its name, version, variant, path, memory kind and ABI version.
std::vector<std::pair<std::string, std::string>> plugin_properties(const PluginChoice& choice,
                                                                   std::uint64_t workspace_bytes);

// The plugin's answer to kbench_plugin_supports, with its reason.
Support plugin_supports(const PluginChoice& choice, const kbench_plugin_problem_t& problem);
// kbench_plugin_workspace_size; throws std::runtime_error with the plugin's message when it fails.
std::uint64_t plugin_workspace_bytes(const PluginChoice& choice, const kbench_plugin_problem_t& problem);

class PluginInstance {
 public:
  // kbench_plugin_prepare; throws std::runtime_error with the plugin's message when it fails.
  PluginInstance(const PluginChoice& choice, const kbench_plugin_problem_t& problem);
  ~PluginInstance();
  PluginInstance(const PluginInstance&) = delete;
  PluginInstance& operator=(const PluginInstance&) = delete;

  // kbench_plugin_run; throws std::runtime_error with the plugin's message when it fails.
  void run(const kbench_plugin_tensors_t& tensors);

 private:
  PluginChoice choice_;
  void* state_ = nullptr;
};

}  // namespace kbench::plugin
