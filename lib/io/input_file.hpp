#pragma once
// Reading the files kbench is given (specs, results, peaks) without trusting what they are: a named
// pipe or a device given as a file would block the open or the read, or never end, and a huge file
// would be read whole into memory. Every refusal is an InputError naming the path.
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace kbench::io {

// Size limits of what each kind of input file is read for (docs/robustness.md, "Hostile inputs").
inline constexpr std::uintmax_t kMaxSpecBytes = std::uintmax_t{4} << 20;       // 4 MiB; the seeds are ~1 KiB
inline constexpr std::uintmax_t kMaxResultsBytes = std::uintmax_t{512} << 20;  // 512 MiB of results JSON
inline constexpr std::uintmax_t kMaxPeaksBytes = std::uintmax_t{1} << 20;      // 1 MiB; a peaks file is ~100 B

// What kind of file is at PATH, in words ("a named pipe (FIFO)", "a character device", ...), for
// messages; "a regular file" or "a directory" for those.
std::string describe_file_type(unsigned mode);

// The whole content of PATH, which must be a regular file (a link to one is fine) of at most
// max_bytes. `what` names the file's role in messages ("workload spec"). The file is opened without
// blocking and its type checked on the open descriptor, so a FIFO swapped in after a check still
// cannot block. Throws InputError "PATH: cannot open WHAT: REASON".
std::string read_input_file(const std::string& path, std::string_view what, std::uintmax_t max_bytes);

// Standard input read whole (a piped log must end); nullopt once it holds more than max_bytes, so each
// caller says what its limit is for.
std::optional<std::string> read_standard_input(std::uintmax_t max_bytes);

enum class PathKind { regular_file, directory };

// Checks, before any work, that PATH exists and is a regular file, or (when allow_directory) a
// directory; anything else (missing, a link loop, a FIFO, a device, a socket) is an InputError naming
// PATH and `what`. Returns which it is.
PathKind check_input_path(const std::string& path, std::string_view what, bool allow_directory);

}  // namespace kbench::io
