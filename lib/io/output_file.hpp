#pragma once
// Where kbench writes (--output, --dump, --html): checked before any work starts, so a typo in a
// path costs an exit 2, not an hour of benchmarking; and written so that a destination that is not
// a regular file (/dev/stdout, a pipe, /dev/null) is written to, never replaced by a rename.
#include <string>
#include <string_view>

namespace kbench::io {

// PATH can be written as a file: an existing regular file or character device (/dev/null), a named
// pipe, or a new file in an existing directory kbench may create files in. Throws InputError
// "FLAG: PATH: REASON" otherwise (a directory, a missing or read-only parent directory, a block device).
// Creates nothing: the check must leave no trace when the run then stops for another reason.
void check_output_file(const std::string& path, std::string_view flag);

// PATH can hold files: an existing directory kbench may create files in, or a path whose nearest
// existing ancestor is one (the rest is created when the run writes). Throws InputError otherwise.
void check_output_directory(const std::string& path, std::string_view flag);

// True when PATH is a regular file (not a symbolic link) or does not exist: it can be rewritten
// atomically, again and again (a run's --output after every result). A pipe, a device or a link
// (/dev/stdout) is written once, at the end, in place.
bool is_rewritable_file(const std::string& path);

// Writes CONTENT to PATH: atomically (write_file_atomically) where is_rewritable_file, else in place,
// without blocking on a pipe nobody reads. Throws OutputError naming PATH.
void write_output_file(const std::string& path, const std::string& content);

}  // namespace kbench::io
