#pragma once
// One rule for every command that writes a document to --output (run, compare, diff, report, merge,
// import): the destination is checked before any work (io::check_output_file, and never one of the
// command's inputs); when it still fails once the work is done (a full disk, a reader that left),
// the document goes to standard output instead, the failure to stderr, and the command exits 3.
#include <string>
#include <string_view>

namespace kbench::cli {

// Writes DOCUMENT to PATH; true when written. Otherwise prints "kbench: error: REASON; the WHAT
// went to stdout instead" on stderr, DOCUMENT on stdout, and returns false.
bool write_document_or_stdout(const std::string& path, const std::string& document, std::string_view what);

}  // namespace kbench::cli
