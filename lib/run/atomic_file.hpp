#pragma once
#include <string>

namespace kbench {

// Writes PATH.tmp.<pid>, flushes it, then renames it over PATH: a reader (or an interrupted run)
// sees the old document or the new one, never half of one. Throws std::runtime_error on failure.
void write_file_atomically(const std::string& path, const std::string& content);

}  // namespace kbench
