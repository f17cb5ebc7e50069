#pragma once
// Where kbench writes (--output, --dump, --html): checked before any work starts, so a typo in a
// path costs an exit 2, not an hour of benchmarking. The check and the write ask one function how
// a destination is written (plan_output), so a destination the check accepts is one the write can
// write: replaced atomically by a rename where a rename can replace it, else written in place
// (/dev/stdout, a pipe, /dev/null, a link, a mount point, a file with other hard links, a writable
// file in a directory that is not), never replaced by a rename that would break what it is.
#include <string>
#include <string_view>
#include <vector>

namespace kbench::io {

enum class WriteMode {
  replace,   // a new file beside it, renamed over it: readers see the old document or the new one
  in_place,  // opened and truncated, written once (at the end of a run)
};

struct OutputPlan {
  WriteMode mode = WriteMode::replace;
  std::string refusal;  // why PATH cannot be written at all; empty when it can
};

// How PATH would be written now, or why it cannot be. Creates nothing.
OutputPlan plan_output(const std::string& path);

// PATH can be written as a file (plan_output has no refusal). Throws InputError "FLAG: PATH: REASON"
// otherwise (a directory, a missing or read-only parent directory, a block device, a link whose
// target's directory is missing). Creates nothing: the check must leave no trace when the run then
// stops for another reason.
void check_output_file(const std::string& path, std::string_view flag);

// PATH is none of the files a command reads (the same file by device and inode, whatever the
// spelling or link that names it): an --output over a spec or results file given to the same
// command would replace it. Throws InputError "FLAG: PATH: it is the WHAT INPUT, ...".
void check_output_not_an_input(const std::string& path, std::string_view flag, const std::vector<std::string>& inputs,
                               std::string_view what);

// PATH can hold files: an existing directory kbench may create files in, or a path whose nearest
// existing ancestor is one (the rest is created when the run writes). Throws InputError otherwise.
void check_output_directory(const std::string& path, std::string_view flag);

// True when PATH is replaced by a rename (plan_output): it can be rewritten atomically, again and
// again (a run's --output during the run). Anything written in place is written once, at the end.
bool is_rewritable_file(const std::string& path);

// True when PATH names the file, pipe or terminal standard output already writes to (/dev/stdout,
// /dev/fd/1, or the file stdout was redirected to): a command then writes its document there once,
// and no text summary after it.
bool names_standard_output(const std::string& path);

// Writes CONTENT to PATH as plan_output says, without blocking on a pipe nobody reads. Throws
// OutputError naming PATH (a full disk, a broken pipe).
void write_output_file(const std::string& path, const std::string& content);

}  // namespace kbench::io
