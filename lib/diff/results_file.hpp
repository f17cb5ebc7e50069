#pragma once
// Reading a kbench.results/1 file for `kbench diff` and `kbench report`: every way it can be
// unusable (missing, not a regular file, too large, unreadable, not JSON, another schema, a missing
// key) is an InputError that names the file, so the commands exit 2 with a message a person can act on.
#include <string>

#include "run/result.hpp"

namespace kbench {

RunReport load_results_file(const std::string& path);

// The same for text already read; `origin` starts every message (a path, or "<fuzz>").
RunReport parse_results_text(const std::string& text, const std::string& origin);

}  // namespace kbench
