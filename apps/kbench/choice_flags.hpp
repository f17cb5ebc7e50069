#pragma once
// A flag whose value is one of a few words (--math, --format, --algo): CLI11's IsMember, with the
// nearest word suggested ("'jsn' is not one of text, json, ...; did you mean 'json'?") and, where a
// value is a common confusion with something else, what was meant (--math fp16: the spec's dtype).
#include <string>
#include <vector>

#include <CLI/CLI.hpp>

namespace kbench::cli {

struct Confusion {
  std::string written;      // "fp16"
  std::string explanation;  // "fp16 is a data type: a spec's `dtype: fp16`, ..."
};

CLI::Validator one_of(std::vector<std::string> values, std::vector<Confusion> confusions = {});

// --math's values, and why fp16/bf16 are not among them (a workload's dtype says that).
CLI::Validator math_mode_choice();

}  // namespace kbench::cli
