#pragma once
// The cuDNN backend's graph-API variants, as typed after "cudnn:" and as a result's implementation names
// them (pure text, no cuDNN header; tests/gpu/test_cudnn_graph_host.cpp):
//   graph                                   cuDNN's heuristics choose the engine config (mode A, then FALLBACK)
//   engine/<index>[:<KNOB>=<value>,...]     one engine config: cuDNN's engine by its global index and its
//                                           knob choices, e.g. engine/12:TILEK=2,SPLIT_K_SLC=1
// Knob names are cudnn-frontend's KnobType_t names (knob_names.hpp), or KNOB_<type> for a type newer
// than that table; a name lists its knobs in type order, so one config has exactly one name.
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace kbench::gpu {

struct EngineConfigName {
  std::int64_t engine = 0;                                   // the engine's global index
  std::vector<std::pair<std::int64_t, std::int64_t>> knobs;  // (knob type, choice), by type
  bool operator==(const EngineConfigName&) const = default;
};

struct GraphVariant {
  std::optional<EngineConfigName> config;  // none: "graph", the heuristics' choice
  bool operator==(const GraphVariant&) const = default;
};

inline constexpr std::string_view kGraphVariantGrammar =
    "graph | engine/<global index>[:<KNOB>=<value>[,<KNOB>=<value>...]] (e.g. engine/12:TILEK=2,SPLIT_K_SLC=1)";

// Whether `variant` addresses the graph API: "graph", or anything that starts with "engine/" (any case),
// so that a malformed engine name is refused with the grammar, not as an unknown legacy algorithm.
bool is_graph_variant(std::string_view variant);

struct ParsedGraphVariant {
  std::optional<GraphVariant> variant;
  std::string error;  // when there is none: what is wrong, and the grammar
};
ParsedGraphVariant parse_graph_variant(std::string_view text);

std::string graph_variant_name(const GraphVariant& variant);  // "graph" or engine_config_name
std::string engine_config_name(const EngineConfigName& config);  // "engine/12:TILEK=2,SPLIT_K_SLC=1"
// The knobs alone, "TILEK=2,SPLIT_K_SLC=1" ("" without knobs), for a result's properties.
std::string knob_choices_text(const EngineConfigName& config);

std::string knob_name(std::int64_t type);                   // "TILEK"; "KNOB_<type>" for an unknown one
std::optional<std::int64_t> knob_type(std::string_view name);  // any case, KNOB_<type> too

}  // namespace kbench::gpu
