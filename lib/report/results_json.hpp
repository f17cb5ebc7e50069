#pragma once
// The kbench.results/1 document (docs/json-schema.md, docs/kbench.results-1.schema.json), one
// to_json / from_json pair per type, written side by side so a field is added to both at once (and
// to the schema file and the docs page, which test_results_schema_docs.cpp checks against the writer).
// nlohmann finds them by ADL: `ordered_json j = problem;`, `document.get<ConvProblem>()`.
//
// to_json writes every key in the documented order. from_json refuses what the writer could not
// have written, naming its JSON path (report/json_value.hpp), and reads documents written before
// a key existed as the docs say. Derived keys (shapes, bytes.total, arithmetic intensity, passed,
// c_uniform, formula, achieved, headroom) are written and never read back: they follow from the rest.
#include <nlohmann/json.hpp>

#include "run/result.hpp"

namespace kbench {

// Enums, by the names their to_string gives.
void to_json(nlohmann::ordered_json& j, OpKind op);
void from_json(const nlohmann::ordered_json& j, OpKind& op);
void to_json(nlohmann::ordered_json& j, DType dtype);
void from_json(const nlohmann::ordered_json& j, DType& dtype);
void to_json(nlohmann::ordered_json& j, Layout layout);
void from_json(const nlohmann::ordered_json& j, Layout& layout);
void to_json(nlohmann::ordered_json& j, Pass pass);
void from_json(const nlohmann::ordered_json& j, Pass& pass);
void to_json(nlohmann::ordered_json& j, MathMode math);
void from_json(const nlohmann::ordered_json& j, MathMode& math);
void to_json(nlohmann::ordered_json& j, ComputeUnits units);
void from_json(const nlohmann::ordered_json& j, ComputeUnits& units);
void to_json(nlohmann::ordered_json& j, ResultStatus status);
void from_json(const nlohmann::ordered_json& j, ResultStatus& status);
void to_json(nlohmann::ordered_json& j, ResultDevice device);
void from_json(const nlohmann::ordered_json& j, ResultDevice& device);

// workloads[] (json_workload.cpp).
void to_json(nlohmann::ordered_json& j, const ConvProblem& problem);
void from_json(const nlohmann::ordered_json& j, ConvProblem& problem);
void to_json(nlohmann::ordered_json& j, const Floor& floor);
void from_json(const nlohmann::ordered_json& j, Floor& floor);
void to_json(nlohmann::ordered_json& j, const PublishedRecord& record);
void from_json(const nlohmann::ordered_json& j, PublishedRecord& record);
void to_json(nlohmann::ordered_json& j, const SweepValue& axis);
void from_json(const nlohmann::ordered_json& j, SweepValue& axis);
void to_json(nlohmann::ordered_json& j, const WorkloadSummary& summary);
void from_json(const nlohmann::ordered_json& j, WorkloadSummary& summary);

// results[] (json_result.cpp). A result's achieved and headroom need its workload: to_json writes
// them as null and the report's to_json fills them in.
void to_json(nlohmann::ordered_json& j, const Tolerance& tolerance);
void from_json(const nlohmann::ordered_json& j, Tolerance& tolerance);
void to_json(nlohmann::ordered_json& j, const ErrorBound& bound);
void from_json(const nlohmann::ordered_json& j, ErrorBound& bound);
void to_json(nlohmann::ordered_json& j, const Comparison& comparison);
void from_json(const nlohmann::ordered_json& j, Comparison& comparison);
void to_json(nlohmann::ordered_json& j, const Verification& verification);
void from_json(const nlohmann::ordered_json& j, Verification& verification);
void to_json(nlohmann::ordered_json& j, const Statistics& stats);
void from_json(const nlohmann::ordered_json& j, Statistics& stats);
void to_json(nlohmann::ordered_json& j, const Measurement& timing);
void from_json(const nlohmann::ordered_json& j, Measurement& timing);
void to_json(nlohmann::ordered_json& j, const Result& result);
void from_json(const nlohmann::ordered_json& j, Result& result);

// The document (json_report.cpp).
void to_json(nlohmann::ordered_json& j, const DevicePeaks& peaks);
void from_json(const nlohmann::ordered_json& j, DevicePeaks& peaks);
void to_json(nlohmann::ordered_json& j, const RunSettings& settings);
void from_json(const nlohmann::ordered_json& j, RunSettings& settings);
void to_json(nlohmann::ordered_json& j, const RunReport& report);
void from_json(const nlohmann::ordered_json& j, RunReport& report);

}  // namespace kbench
