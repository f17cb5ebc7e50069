#pragma once
// kbench's ConvProblem as the plugin ABI's C struct (include/kbench/plugin.h), and the choices around it
// that need no plugin loaded: where `plugin:PATH[:VARIANT]` splits, and whether two ABI versions match.
// Pure functions, tested on the CPU (tests/unit/test_plugin_problem.cpp).
#include <cstdint>
#include <functional>
#include <string>
#include <string_view>

#include <kbench/plugin.h>

#include "core/support.hpp"
#include "core/types.hpp"
#include "problem/conv_problem.hpp"

namespace kbench::plugin {

// Every field of the C struct from the problem; `math` is the result's requested math mode.
kbench_plugin_problem_t to_plugin_problem(const ConvProblem& problem, MathMode math);

// What `--backends plugin:TEXT` names: the library's path and the variant after it (empty: the default).
struct PluginSpec {
  std::string path;
  std::string variant;
  friend bool operator==(const PluginSpec&, const PluginSpec&) = default;
};

// TEXT is a path, or PATH:VARIANT. A path may itself hold ':', so TEXT that names an existing file
// (`is_file`) is a path whole; otherwise the text after the last ':' is the variant, when that text has no
// '/' (else the ':' belongs to a directory name). Empty TEXT: Support::no saying how to name a plugin.
Support parse_plugin_spec(std::string_view text, const std::function<bool(const std::string&)>& is_file,
                          PluginSpec& spec);

// Yes when the plugin was built for the ABI kbench speaks; else no, naming both versions.
Support check_abi_version(std::uint32_t plugin_version, std::uint32_t kbench_version = KBENCH_PLUGIN_ABI_VERSION);

std::string_view memory_name(std::int32_t memory);  // "host", "cuda_device", or "unknown"

}  // namespace kbench::plugin
