#include "plugin/plugin_instance.hpp"

#include <array>
#include <stdexcept>

#include <fmt/format.h>

#include "plugin/plugin_problem.hpp"

namespace kbench::plugin {

namespace {

// Room for the plugin's reason or error, NUL-terminated whatever the plugin wrote.
struct Message {
  std::array<char, 2048> text{};
  char* data() { return text.data(); }
  std::size_t size() const { return text.size(); }
  std::string str() {
    text.back() = '\0';
    return text.data();
  }
};

std::string failure(const PluginChoice& choice, const char* call, int status, Message& message) {
  std::string said = message.str();
  if (said.empty()) said = fmt::format("it returned {} without a message", status);
  return fmt::format("plugin {}: {} failed: {}", choice.library->info().name, call, said);
}

}  // namespace

std::string implementation_name(const PluginChoice& choice) {
  const PluginInfo& info = choice.library->info();
  std::string name = info.version.empty() ? info.name : info.name + " " + info.version;
  if (!choice.variant.empty()) name += " " + choice.variant;
  return name;
}

std::vector<std::pair<std::string, std::string>> plugin_properties(const PluginChoice& choice,
                                                                   std::uint64_t workspace_bytes) {
  const PluginInfo& info = choice.library->info();
  std::vector<std::pair<std::string, std::string>> props{
      {"plugin_name", info.name},
      {"plugin_version", info.version},
      {"plugin_path", choice.library->path()},
      {"plugin_memory", std::string(memory_name(info.memory))},
      {"plugin_abi_version", std::to_string(KBENCH_PLUGIN_ABI_VERSION)},
      {"workspace_bytes", std::to_string(workspace_bytes)},
  };
  if (!choice.variant.empty()) props.emplace_back("plugin_variant", choice.variant);
  return props;
}

Support plugin_supports(const PluginChoice& choice, const kbench_plugin_problem_t& problem) {
  Message message;
  const int status = choice.library->calls().supports(&problem, choice.variant.c_str(), message.data(), message.size());
  if (status == KBENCH_PLUGIN_OK) return Support::yes();
  const std::string reason = message.str();
  if (status == KBENCH_PLUGIN_UNSUPPORTED)
    return Support::no(fmt::format("plugin {}: {}", choice.library->info().name,
                                   reason.empty() ? std::string("says no, without a reason") : reason));
  return Support::no(failure(choice, "kbench_plugin_supports", status, message));
}

std::uint64_t plugin_workspace_bytes(const PluginChoice& choice, const kbench_plugin_problem_t& problem) {
  Message message;
  std::uint64_t bytes = 0;
  const int status =
      choice.library->calls().workspace_size(&problem, choice.variant.c_str(), &bytes, message.data(), message.size());
  if (status != KBENCH_PLUGIN_OK)
    throw std::runtime_error(failure(choice, "kbench_plugin_workspace_size", status, message));
  return bytes;
}

PluginInstance::PluginInstance(const PluginChoice& choice, const kbench_plugin_problem_t& problem) : choice_(choice) {
  Message message;
  const int status =
      choice.library->calls().prepare(&problem, choice.variant.c_str(), &state_, message.data(), message.size());
  if (status != KBENCH_PLUGIN_OK) throw std::runtime_error(failure(choice, "kbench_plugin_prepare", status, message));
}

PluginInstance::~PluginInstance() { choice_.library->calls().release(state_); }

void PluginInstance::run(const kbench_plugin_tensors_t& tensors) {
  Message message;
  const int status = choice_.library->calls().run(state_, &tensors, message.data(), message.size());
  if (status != KBENCH_PLUGIN_OK) throw std::runtime_error(failure(choice_, "kbench_plugin_run", status, message));
}

}  // namespace kbench::plugin
