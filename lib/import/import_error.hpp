#pragma once
// What every importer returns: the workloads it read (and notes on what it read but ignored), or the
// one thing it could not read, named by file, line, column and what it was. Importers never guess: a
// construct they do not understand is an error, not a default.
#include <string>
#include <variant>
#include <vector>

#include "spec/workload.hpp"

namespace kbench::import {

struct ImportError {
  std::string file;
  int line = 0;    // 1-based; 0 when the error is about the file as a whole
  int column = 0;  // 1-based; 0 when unknown
  std::string what;

  // "file:line:col: what", as the spec reader's errors read.
  std::string message() const;
};

struct Imported {
  std::vector<Workload> workloads;
  std::vector<std::string> notes;  // flags or arguments read and ignored, "file:line: ..."
};

using ImportOutcome = std::variant<Imported, ImportError>;

// Inside the importers: thrown where the input cannot be read, caught at their boundary.
struct ParseFailure {
  int line = 0;
  int column = 0;
  std::string what;
};

// A workload name from free text (a file stem, a layer attribute): lower case, runs of anything
// outside [a-z0-9._] as one '-', trimmed, at most 100 characters; "workload" if nothing is left.
std::string name_from_text(std::string_view text);

}  // namespace kbench::import
