#include "import/traced_import.hpp"

#include <filesystem>
#include <map>

#include <fmt/format.h>
#include <fmt/ranges.h>
#include <nlohmann/json.hpp>

#include "problem/conv_problem.hpp"
#include "problem/problem_validation.hpp"

namespace kbench::import {

namespace {

using nlohmann::json;

// A tracer's record that is not what it promises: its fault, not the user's file's.
struct Malformed {
  std::string what;
};

std::vector<std::int64_t> integers(const json& call, const char* key) {
  const json& value = call.at(key);
  if (!value.is_array()) throw Malformed{fmt::format("'{}' is not a list", key)};
  std::vector<std::int64_t> out;
  for (const json& item : value) {
    if (!item.is_number_integer()) throw Malformed{fmt::format("'{}' holds a non-integer", key)};
    out.push_back(item.get<std::int64_t>());
  }
  return out;
}

DType dtype_of(const std::string& torch_name, const std::string& what) {
  if (torch_name == "float32") return DType::fp32;
  if (torch_name == "float16") return DType::fp16;
  if (torch_name == "bfloat16") return DType::bf16;
  throw ParseFailure{0, 0, fmt::format("{}: its input is torch.{}; kbench benchmarks float32, float16 and bfloat16",
                                       what, torch_name)};
}

// One recorded call as the problem it computes; ParseFailure (at the call's line) where it cannot be one.
ConvProblem problem_of(const json& call, int line, const std::string& what) {
  const auto fail = [&](const std::string& message) { throw ParseFailure{line, 0, what + ": " + message}; };
  const std::string function = call.at("function").get<std::string>();
  const bool transposed = function.rfind("conv_transpose", 0) == 0;
  if (function.size() < 6 || function.back() != 'd') throw Malformed{"unknown function " + function};
  const int rank = function[function.size() - 2] - '0';
  if (rank < 1 || rank > kMaxSpatialRank) throw Malformed{"unknown function " + function};

  const std::vector<std::int64_t> input = integers(call, "input");
  const std::vector<std::int64_t> weight = integers(call, "weight");
  if (static_cast<int>(input.size()) != rank + 2)
    fail(fmt::format("its input is [{}]; expected a batched {}-D input [N, C, spatial...] (an unbatched input is "
                     "not read)",
                     fmt::join(input, ", "), rank + 2));
  if (static_cast<int>(weight.size()) != rank + 2) throw Malformed{"the weight's rank does not match " + function};
  // Past the rank, 1 or 0 as ConvProblem keeps them (`past`).
  const auto per_dim = [&](const char* key, std::int64_t past) {
    const std::vector<std::int64_t> values = integers(call, key);
    if (static_cast<int>(values.size()) != rank) throw Malformed{fmt::format("'{}' has not {} entries", key, rank)};
    Dims dims{{past, past, past}};
    for (int d = 0; d < rank; ++d) dims[d] = values[static_cast<std::size_t>(d)];
    return dims;
  };

  ConvProblem p;
  p.op = transposed ? OpKind::conv_transpose : OpKind::conv;
  p.spatial_rank = rank;
  p.batch = input[0];
  p.in_channels = input[1];
  for (int d = 0; d < rank; ++d) {
    p.input[d] = input[static_cast<std::size_t>(d) + 2];
    p.kernel[d] = weight[static_cast<std::size_t>(d) + 2];
  }
  p.groups = call.at("groups").get<std::int64_t>();
  if (p.groups < 1) fail(fmt::format("groups is {}; expected at least 1", p.groups));
  // conv weights are [C_out, C_in/g, k...], conv_transpose ones [C_in, C_out/g, k...] (PyTorch's).
  const std::int64_t weight_in = transposed ? weight[0] : weight[1] * p.groups;
  if (weight_in != p.in_channels)
    fail(fmt::format("its weight [{}] with groups {} takes {} input channels, its input [{}] has {}",
                     fmt::join(weight, ", "), p.groups, weight_in, fmt::join(input, ", "), p.in_channels));
  p.out_channels = transposed ? weight[1] * p.groups : weight[0];
  p.stride = per_dim("stride", 1);
  p.dilation = per_dim("dilation", 1);
  if (transposed) p.output_padding = per_dim("output_padding", 0);
  const json& padding = call.at("padding");
  if (padding.is_string()) {
    const std::string mode = padding.get<std::string>();
    if (transposed || (mode != "same" && mode != "valid"))
      fail(fmt::format("padding '{}'; expected integers{}", mode, transposed ? "" : ", 'same' or 'valid'"));
    for (int d = 0; d < rank && mode == "same"; ++d) {
      // PyTorch's 'same': the total dilation*(kernel-1), the odd one on the far side.
      const std::int64_t total = p.dilation[d] * (p.kernel[d] - 1);
      p.pad_before[d] = total / 2;
      p.pad_after[d] = total - total / 2;
    }
  } else {
    p.pad_before = p.pad_after = per_dim("padding", 0);
  }
  p.bias = call.at("bias").get<bool>();
  p.dtype = dtype_of(call.at("dtype").get<std::string>(), what);
  if (call.value("channels_last", false)) p.layout = Layout::nhwc;  // absent from older tracers: channels first
  if (const std::string weights = call.at("weight_dtype").get<std::string>(); weights != call.at("dtype"))
    fail(fmt::format("its weight is torch.{} and its input torch.{}; PyTorch computes one dtype",
                     weights, call.at("dtype").get<std::string>()));
  if (const auto issue = find_problem_issue(p)) fail(issue->message);
  return p;
}

Imported workloads_of(const json& doc, const std::string& origin, const std::string& name) {
  if (doc.contains("error")) {
    const json& error = doc.at("error");
    throw ParseFailure{error.value("line", 0), 0, error.at("message").get<std::string>()};
  }
  const json& calls = doc.at("calls");
  if (!calls.is_array()) throw Malformed{"'calls' is not a list"};
  if (calls.empty())
    throw ParseFailure{0, 0, "running the Model's forward on get_inputs() made no convolution call "
                             "(torch.nn.functional.convNd / conv_transposeNd)"};
  // "torch 2.5.1" or "kbench's torch stub"; older tracers wrote {"torch": VERSION}.
  const std::string runner = doc.contains("runner") ? doc.at("runner").get<std::string>()
                                                    : "torch " + doc.value("torch", std::string("?"));
  const std::string file = std::filesystem::path(origin).filename().string();
  std::map<std::string, int> uses;  // attribute -> calls so far: a layer applied twice gets -2
  Imported imported;
  for (const json& call : calls) {
    const std::string attribute = call.at("attribute").get<std::string>();
    const int line = call.value("line", 0);
    const bool module = call.value("module", false);
    const std::string what =
        module ? fmt::format("self.{}", attribute) : fmt::format("F.{} in forward", call.at("function").get<std::string>());
    Workload w;
    w.problem = problem_of(call, line, what);
    const int use = ++uses[attribute];
    std::string suffix = name_from_text(attribute) + (use > 1 ? fmt::format("-{}", use) : "");
    w.name = calls.size() == 1 ? name : fmt::format("{}-{}", name, suffix);
    std::vector<std::int64_t> output{w.problem.batch, w.problem.out_channels};
    for (int d = 0; d < w.problem.spatial_rank; ++d) output.push_back(w.problem.output_extent(d));
    w.description = fmt::format("{} of the Model in {} (kbench import kernelbench, run in {}); output [{}]", what, file,
                                runner, fmt::join(output, ", "));
    w.source_file = origin;
    w.source_line = line;
    imported.workloads.push_back(std::move(w));
  }
  return imported;
}

}  // namespace

ImportOutcome import_traced_calls(std::string_view text, const std::string& origin, const std::string& name) {
  try {
    return workloads_of(json::parse(text), origin, name);
  } catch (const ParseFailure& failure) {
    return ImportError{origin, failure.line, failure.column, failure.what};
  } catch (const Malformed& malformed) {
    return ImportError{origin, 0, 0, "kbench's KernelBench reader recorded a call it cannot read (" + malformed.what + ")"};
  } catch (const json::exception& e) {
    return ImportError{origin, 0, 0, fmt::format("kbench's KernelBench reader wrote what is not its JSON ({})", e.what())};
  }
}

}  // namespace kbench::import
