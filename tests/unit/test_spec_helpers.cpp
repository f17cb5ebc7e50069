// The YAML-free building blocks of the spec layer: suggestions, YAML 1.2 scalar typing, and the
// problem rules every workload must satisfy (find_problem_issue), checked directly on ConvProblems.
#include <doctest/doctest.h>

#include <array>
#include <cmath>
#include <string_view>

#include "problem/problem_validation.hpp"
#include "headline_problems.hpp"
#include "spec/did_you_mean.hpp"
#include "spec/scalar_text.hpp"

using kbench::ConvProblem;
using kbench::OpKind;
using kbench::ProblemField;
namespace spec = kbench::spec;

namespace {

constexpr std::array<std::string_view, 4> kWords = {"stride", "padding", "output_padding", "dilation"};
constexpr std::array<spec::KnownAlias, 1> kAliases = {{{"kernel_size", "kernel"}}};

ConvProblem small_conv2d() {
  ConvProblem p;
  p.spatial_rank = 2;
  p.batch = 2;
  p.in_channels = 4;
  p.out_channels = 8;
  p.input = kbench::Dims{{8, 8, 1}};
  p.kernel = kbench::Dims{{3, 3, 1}};
  return p;
}

void check_issue(const ConvProblem& p, ProblemField field, int dim, std::string_view fragment) {
  const auto found = kbench::find_problem_issue(p);
  REQUIRE(found.has_value());
  CAPTURE(found->message);
  CHECK(found->field == field);
  CHECK(found->spatial_dim == dim);
  CHECK(found->message.find(fragment) != std::string::npos);
}

}  // namespace

TEST_SUITE("spec") {
  TEST_CASE("spec edit distance counts a swap of neighbours as one edit") {
    CHECK(spec::edit_distance("", "") == 0);
    CHECK(spec::edit_distance("abc", "") == 3);
    CHECK(spec::edit_distance("stride", "stride") == 0);
    CHECK(spec::edit_distance("strdie", "stride") == 1);  // swap
    CHECK(spec::edit_distance("strid", "stride") == 1);   // deletion
    CHECK(spec::edit_distance("strxde", "stride") == 1);  // substitution
    CHECK(spec::edit_distance("kitten", "sitting") == 3);
  }

  TEST_CASE("spec did-you-mean: typos, aliases, prefixes, and nothing for unrelated words") {
    CHECK(spec::closest_match("strdie", kWords) == "stride");
    CHECK(spec::closest_match("STRIDE", kWords) == "stride");
    CHECK(spec::closest_match("dialation", kWords) == "dilation");
    CHECK(spec::closest_match("output_pad", kWords) == "output_padding");
    CHECK(spec::closest_match("kernel_size", kWords, kAliases) == "kernel");
    CHECK_FALSE(spec::closest_match("colour", kWords).has_value());
    CHECK_FALSE(spec::closest_match("s", kWords).has_value());
    CHECK(spec::did_you_mean_suffix("paddin", kWords) == " (did you mean 'padding'?)");
    CHECK(spec::did_you_mean_suffix("zzz", kWords).empty());
  }

  TEST_CASE("spec scalars are typed by the YAML 1.2 core schema") {
    using spec::ScalarKind;
    CHECK(spec::classify_scalar("12", false) == ScalarKind::integer);
    CHECK(spec::classify_scalar("-3", false) == ScalarKind::integer);
    CHECK(spec::classify_scalar("+7", false) == ScalarKind::integer);
    CHECK(spec::classify_scalar("12", true) == ScalarKind::text);
    CHECK(spec::classify_scalar("2.0", false) == ScalarKind::floating);
    CHECK(spec::classify_scalar("1e3", false) == ScalarKind::floating);
    CHECK(spec::classify_scalar(".5", false) == ScalarKind::floating);
    CHECK(spec::classify_scalar("-.inf", false) == ScalarKind::floating);
    CHECK(spec::classify_scalar(".NaN", false) == ScalarKind::floating);
    CHECK(spec::classify_scalar("true", false) == ScalarKind::boolean);
    CHECK(spec::classify_scalar("FALSE", false) == ScalarKind::boolean);
    CHECK(spec::classify_scalar("yes", false) == ScalarKind::text);
    CHECK(spec::classify_scalar("~", false) == ScalarKind::null);
    CHECK(spec::classify_scalar("", false) == ScalarKind::null);
    CHECK(spec::classify_scalar("0x10", false) == ScalarKind::text);
    CHECK(spec::classify_scalar("1.2.3", false) == ScalarKind::text);
    CHECK(spec::classify_scalar("e5", false) == ScalarKind::text);
    CHECK(spec::classify_scalar(".", false) == ScalarKind::text);
  }

  TEST_CASE("spec integer and number parsing: exact values, overflow, special floats") {
    CHECK(spec::parse_integer_text("2147483647") == 2147483647);
    CHECK(spec::parse_integer_text("+5") == 5);
    CHECK(spec::parse_integer_text("-9223372036854775808") == INT64_MIN);
    CHECK_FALSE(spec::parse_integer_text("9223372036854775808").has_value());
    CHECK(spec::is_integer_text("9223372036854775808"));
    CHECK_FALSE(spec::parse_integer_text("3.0").has_value());
    CHECK(spec::parse_number_text("2.25") == 2.25);
    CHECK(spec::parse_number_text("+.5") == 0.5);
    CHECK(spec::parse_number_text("-1.5e2") == -150.0);
    CHECK(spec::parse_number_text("7") == 7.0);
    CHECK(std::isinf(*spec::parse_number_text("1e999")));
    CHECK(std::isinf(*spec::parse_number_text(".inf")));
    CHECK(std::isnan(*spec::parse_number_text(".nan")));
    CHECK_FALSE(spec::parse_number_text("fast").has_value());
    CHECK(spec::describe_scalar("2.0", false) == "the float 2.0");
    CHECK(spec::describe_scalar("3", true) == "the string \"3\"");
    CHECK(spec::describe_scalar("true", false) == "true (a boolean)");
  }

  TEST_CASE("spec problem rules: valid problems pass") {
    CHECK_FALSE(kbench::find_problem_issue(kbench::testing::headline77()).has_value());
    CHECK_FALSE(kbench::find_problem_issue(small_conv2d()).has_value());
  }

  TEST_CASE("spec problem rules: each rule names its field and dimension") {
    ConvProblem p = small_conv2d();
    p.spatial_rank = 4;
    check_issue(p, ProblemField::spatial_rank, -1, "expected 1 to 3");

    p = small_conv2d();
    p.batch = 0;
    check_issue(p, ProblemField::batch, -1, "got 0");

    p = small_conv2d();
    p.stride[1] = 0;
    check_issue(p, ProblemField::stride, 1, "got 0");

    p = small_conv2d();
    p.pad_after[0] = -1;
    check_issue(p, ProblemField::padding, 0, "negative padding -1 is not supported");

    p = small_conv2d();
    p.groups = 3;
    check_issue(p, ProblemField::groups, -1, "in_channels must be divisible by groups");

    p = small_conv2d();
    p.in_channels = 12;
    p.groups = 3;
    check_issue(p, ProblemField::groups, -1, "out_channels must be divisible by groups");

    p = small_conv2d();
    p.output_padding[0] = 1;
    check_issue(p, ProblemField::output_padding, 0, "only with op: conv_transpose");

    p = kbench::testing::headline77();
    p.output_padding[2] = 2;  // stride 2, dilation 2: at most 1
    check_issue(p, ProblemField::output_padding, 2, "output padding must be smaller than either stride or dilation");
    p.output_padding[2] = 1;
    CHECK_FALSE(kbench::find_problem_issue(p).has_value());

    p = small_conv2d();
    p.dilation[1] = 4;  // span 9 > 8
    check_issue(p, ProblemField::kernel, 1, "kernel size can't be greater than actual input size");
    p.pad_before[1] = 1;  // padded input 9 == span: output 1, fine
    CHECK_FALSE(kbench::find_problem_issue(p).has_value());

    p = kbench::testing::headline77();
    p.input[0] = 1;
    p.pad_before[0] = p.pad_after[0] = 3;  // 0 - 6 + 4 + 0 + 1 = -1
    check_issue(p, ProblemField::padding, 0, "calculated output size -1 in spatial dim 0 is too small");
  }

  TEST_CASE("spec problem rules: sizes that would overflow or exhaust memory are refused") {
    ConvProblem p = small_conv2d();
    p.input[0] = kbench::kMaxProblemDimension + 1;
    check_issue(p, ProblemField::input, 0, "expected an integer from 1 to 2147483647");

    // Every factor at the limit: the element count overflows 64 bits and must still be refused.
    p = small_conv2d();
    p.batch = p.in_channels = kbench::kMaxProblemDimension;
    p.input = kbench::Dims{{kbench::kMaxProblemDimension, kbench::kMaxProblemDimension, 1}};
    p.groups = 1;
    check_issue(p, ProblemField::input, -1, "would have more than 2^63 elements");

    // A conv's output grows past the per-dimension limit only through padding: 8 + 2 * (2^31-1) - 3 + 1.
    p = small_conv2d();
    p.pad_before[0] = p.pad_after[0] = kbench::kMaxProblemDimension;
    check_issue(p, ProblemField::padding, 0, "calculated output size 4294967300 in spatial dim 0 is too large");
  }
}
