#pragma once
// Which passes of a convolution a workload times: a spec's `pass:` (one pass, or a list) and the
// `--passes` flag of run, compare and plan, which overrides it. One pass keeps the workload's name; two or
// more expand it into one workload per pass, named "<name>.<pass>" ("conv.backward_data"), in the order
// written, each remembering the name it came from (Workload::pass_origin) so --passes can redo it.
#include <array>
#include <string_view>
#include <vector>

#include "core/types.hpp"
#include "spec/did_you_mean.hpp"
#include "spec/workload.hpp"
#include "spec/yaml_reader.hpp"

namespace kbench {

inline constexpr std::array<std::string_view, 3> kPassNames = {"forward", "backward_data", "backward_weights"};

// What people write for a pass that parse_pass does not take, for "did you mean" (fprop, dgrad and
// wgrad are synonyms parse_pass accepts).
inline constexpr std::array<spec::KnownAlias, 9> kPassAliases = {{
    {"fwd", "forward"},
    {"backward_input", "backward_data"},
    {"grad_input", "backward_data"},
    {"bwd_data", "backward_data"},
    {"backward_weight", "backward_weights"},
    {"backward_filter", "backward_weights"},
    {"grad_weight", "backward_weights"},
    {"bwd_weights", "backward_weights"},
    {"bwd_filter", "backward_weights"},
}};

namespace spec {
// `pass:` as written: a pass name, or a non-empty list of distinct ones. Errors at the value's line.
std::vector<Pass> read_passes(const SpecReader& reader, const Located& where);
}  // namespace spec

// "--passes backward_data,backward_weights": throws InputError naming --passes for an unknown or repeated
// pass or an empty list.
std::vector<Pass> parse_passes_flag(std::string_view text);

// `workload` in each of `passes` (see above); an empty list leaves it as it is.
std::vector<Workload> expand_passes(const Workload& workload, const std::vector<Pass>& passes);

// --passes: every workload in exactly these passes instead of its spec's, each spec workload once
// (workloads a spec's list expanded are regrouped by the name they came from).
std::vector<Workload> with_passes(const std::vector<Workload>& workloads, const std::vector<Pass>& passes);

}  // namespace kbench
