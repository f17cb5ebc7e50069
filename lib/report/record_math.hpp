#pragma once
// Published records beside this run's results, by math: a record ran under some math (TF32 allowed or
// not, `math:` in the spec), and a report sets it beside results of the same math or says that it is
// not. KernelBench's fp32 records ran with PyTorch's defaults, TF32 allowed for cuDNN convolutions:
// beside `--math fp32` results they compare other arithmetic.
#include <string>
#include <vector>

#include "run/result.hpp"
#include "spec/workload.hpp"

namespace kbench::report {

// "tf32", "fp32", or "not stated".
std::string record_math_text(const PublishedRecord& record);

// One line for a workload's records against its results here (by the math each result asked for):
// empty when there are no records or results, or when every record's math is among the results'.
// Otherwise it names the records' math and the results', so a reader does not take a TF32 record for
// an fp32 one.
std::string record_math_note(const std::vector<PublishedRecord>& records, const std::vector<const Result*>& results);

}  // namespace kbench::report
