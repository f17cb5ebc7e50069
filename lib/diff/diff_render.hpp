#pragma once
// The three ways a DiffReport is shown: a terminal table (text), a PR comment (markdown) and a
// document for bots (json, schema "kbench.diff/1", described in docs/diff-and-reports.md).
// Renderers only format: every verdict is already in the DiffReport.
#include <nlohmann/json.hpp>
#include <optional>
#include <ostream>
#include <string>
#include <string_view>
#include <vector>

#include "diff/diff.hpp"

namespace kbench::diff {

enum class DiffFormat { text, markdown, json };
std::optional<DiffFormat> parse_diff_format(std::string_view text);  // "text", "markdown" ("md"), "json"

inline constexpr std::string_view kDiffSchemaId = "kbench.diff/1";

struct DiffSources {
  std::string base;     // how BASE is named in the output, e.g. its path
  std::string current;  // NEW
};

void write_diff(const DiffReport& report, const DiffSources& sources, DiffFormat format, std::ostream& out,
                bool color = false);

void write_diff_text(const DiffReport& report, const DiffSources& sources, std::ostream& out, bool color);
void write_diff_markdown(const DiffReport& report, const DiffSources& sources, std::ostream& out);
nlohmann::ordered_json diff_to_json(const DiffReport& report, const DiffSources& sources);

// Shared wording, so the three formats agree.
std::string format_change(double change);    // "+5.0%", "-30.0%"
std::string format_p_value(double p_value);  // "0.012", "<0.001"
// "3 faster, 1 slower, 12 same, 1 unclear; 1 broke; 2 only in BASE" (zero counts left out).
std::string summary_line(const DiffCounts& counts);
// "exit 1: something is slower or newly wrong/failed" and the like.
std::string exit_line(const DiffReport& report);
// "BASE ok → NEW wrong (reason)" for a pair whose statuses decide its outcome; "skipped in both
// runs (reason)" when nothing changed.
std::string status_change_text(const ResultPair& pair);
// The pairs that were not compared, most urgent first: broke, fixed, still broken, not compared.
std::vector<const ResultPair*> uncompared_by_urgency(const DiffReport& report);

}  // namespace kbench::diff
