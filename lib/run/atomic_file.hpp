#pragma once
#include <string>

namespace kbench {

// Writes PATH.tmp.<pid>, flushes it, then renames it over PATH: a reader (or an interrupted run)
// sees the old document or the new one, never half of one. Throws OutputError (naming PATH) on failure.
// For a destination that may not be a regular file, use io::write_output_file.
void write_file_atomically(const std::string& path, const std::string& content);

}  // namespace kbench
