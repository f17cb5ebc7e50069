#pragma once
#include <string>

namespace kbench::io {

// Writes a new file beside PATH (".NAME.tmp.XXXXXX", made with O_EXCL, so no leftover or other
// process's file is reused), flushes it, gives it PATH's mode (and owner, where allowed) when PATH
// exists, else 0666 less the umask, then renames it over PATH: a reader (or an interrupted run)
// sees the old document or the new one, never half of one, and `chmod 600` on a results file
// survives its rewrites. Throws OutputError (naming PATH) on failure. For a destination that may
// not be a regular file, use io::write_output_file, which decides whether a rename can replace it.
void write_file_atomically(const std::string& path, const std::string& content);

// As write_file_atomically, but a rename the file system refuses for this target although writing
// is allowed (PATH a mount point, EBUSY; EXDEV) returns false, the temporary removed, so the caller
// can write in place instead.
bool replace_file(const std::string& path, const std::string& content);

// The temporary name write_file_atomically uses for PATH's file name, before its random suffix: the
// name itself, shortened so the whole stays within the file system's limit on a name.
std::string temporary_name_prefix(const std::string& file_name, long name_max);

// Removes the temporary file a write_file_atomically in progress has made, if any. Async-signal-safe:
// for a signal handler that ends the process in the middle of a write.
void remove_pending_temporary_file() noexcept;

}  // namespace kbench::io
