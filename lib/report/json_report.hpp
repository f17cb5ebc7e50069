#pragma once
// The machine-readable report, schema "kbench.results/1" (docs/json-schema.md,
// docs/kbench.results-1.schema.json), and its inverse for `kbench diff`, `merge` and `report`.
#include <nlohmann/json.hpp>
#include <string_view>

#include "run/result.hpp"

namespace kbench {

inline constexpr std::string_view kResultsSchemaId = "kbench.results/1";

// The document, keys in a fixed, readable order. Non-finite numbers (a NaN in a wrong output, a
// floor against a zero peak) are written as null, since JSON has no NaN.
nlohmann::ordered_json report_to_json(const RunReport& report);

// The report a document describes, read by the from_json pairs of report/results_json.hpp.
// Derived fields (shapes, arithmetic intensity, achieved rates, headroom, passed) are not read back:
// they follow from the rest. Unknown keys are ignored; the order of a result's properties is kept
// (hence an ordered_json). Throws InputError naming the JSON path of the first missing or mistyped
// key, or a schema other than kbench.results/1.
RunReport read_json_report(const nlohmann::ordered_json& document);

}  // namespace kbench
