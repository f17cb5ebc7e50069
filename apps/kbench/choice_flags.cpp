#include "choice_flags.hpp"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <string_view>

#include "spec/did_you_mean.hpp"

namespace kbench::cli {

CLI::Validator one_of(std::vector<std::string> values, std::vector<Confusion> confusions) {
  const std::string description = fmt::format("{{{}}}", fmt::join(values, ","));
  return CLI::Validator(
      [values, confusions](std::string& text) -> std::string {
        for (const std::string& v : values)
          if (v == text) return {};
        for (const Confusion& c : confusions)
          if (c.written == text) return fmt::format("'{}' is not one of {}: {}", text, fmt::join(values, ", "), c.explanation);
        const std::vector<std::string_view> candidates(values.begin(), values.end());
        return fmt::format("'{}' is not one of {}{}", text, fmt::join(values, ", "),
                           spec::did_you_mean_suffix(text, candidates));
      },
      description);
}

CLI::Validator math_mode_choice() {
  const std::string why =
      "--math chooses the arithmetic of fp32 data (fp32 strict, or tf32 tensor cores); half precision is "
      "the workload's data type: `dtype: {0}` in the spec (docs/workload-format.md) or --axis dtype={0}";
  return one_of({"fp32", "tf32"}, {{"fp16", fmt::format(fmt::runtime(why), "fp16")},
                                   {"bf16", fmt::format(fmt::runtime(why), "bf16")},
                                   {"half", fmt::format(fmt::runtime(why), "fp16")},
                                   {"fp64", "kbench times fp32, fp16 and bf16 data; fp64 is only its reference's accumulation"}});
}

}  // namespace kbench::cli
