// kbench import miopen: MIOpenDriver command lines, every mapped flag, the ignored ones noted, the
// rest refused at their line and column.
#include <doctest/doctest.h>

#include <string>
#include <variant>

#include "import/miopen_import.hpp"
#include "import/spec_writer.hpp"
#include "problem/problem_metrics.hpp"
#include "spec/load.hpp"

using kbench::ConvProblem;
using kbench::Dims;
namespace import = kbench::import;

namespace {

import::Imported imported(const std::string& text){const auto outcome = import::import_miopen(text, "log.txt", "");
if (const auto* error = std::get_if<import::ImportError>(&outcome)) FAIL(error->message());
return std::get<import::Imported>(outcome);
}  // namespace

import::ImportError refused(const std::string& text){const auto outcome = import::import_miopen(text, "log.txt", "");
REQUIRE_MESSAGE(std::holds_alternative<import::ImportError>(outcome),
                (std::string("imported what should be refused: ") + text));
return std::get<import::ImportError>(outcome);
}

}  // namespace

TEST_SUITE("import miopen") {
  TEST_CASE("import miopen: a 2-D forward convolution, every flag mapped") {
    const auto result =
        imported("conv -n 16 -c 64 -H 56 -W 28 -k 128 -y 3 -x 5 -p 1 -q 2 -u 2 -v 1 -l 1 -j 2 -g 2 -F 1 -b 1\n");
    REQUIRE(result.workloads.size() == 1);
    const ConvProblem& p = result.workloads[0].problem;
    CHECK(p.op == kbench::OpKind::conv);
    CHECK(kbench::input_shape(p) == std::vector<std::int64_t>{16, 64, 56, 28});
    CHECK(p.out_channels == 128);
    CHECK(p.kernel == Dims{{3, 5, 1}});
    CHECK(p.pad_before == Dims{{1, 2, 0}});
    CHECK(p.pad_after == Dims{{1, 2, 0}});
    CHECK(p.stride == Dims{{2, 1, 1}});
    CHECK(p.dilation == Dims{{1, 2, 1}});
    CHECK(p.groups == 2);
    CHECK(p.bias);
    CHECK(result.workloads[0].name == "conv2d-n16-c64-56x28-k128-3x5-s2x1-p1x2-d1x2-g2-bias");
    CHECK(result.notes.empty());
    CHECK(result.workloads[0].count == 1);
  }

  TEST_CASE("import miopen: a logged line, long flags, 3-D, transposed with output padding, fp16 and bf16") {
    const auto result = imported(
        "MIOpen(HIP): Command [LogCmdConvolution] ./bin/MIOpenDriver conv --spatial_dim 3 -n 2 -c 8 -! 4 -H 6 -W 6 "
        "-k 16 -@ 1 -y 3 -x 3 -$ 0 -p 1 -q 1 -# 1 -u 1 -v 1 -^ 1 -l 1 -j 1 -t 1 -F 1\n"
        "# a comment\n\n"
        "convfp16 --batchsize=4 --in_channels 16 -H 8 -W 8 -k 8 -y 3 -x 3 -m trans -u 2 -v 2 -Y 1 -X 0 -F 1\n"
        "convbfp16 -n 1 -c 4 -H 8 -W 8 -k 4 -y 1 -x 1 -F 1 -V 0 -i 10\n");
    REQUIRE(result.workloads.size() == 3);
    const ConvProblem& conv3d = result.workloads[0].problem;
    CHECK(kbench::input_shape(conv3d) == std::vector<std::int64_t>{2, 8, 4, 6, 6});
    CHECK(conv3d.kernel == Dims{{1, 3, 3}});
    CHECK(conv3d.pad_before == Dims{{0, 1, 1}});
    CHECK(result.workloads[0].name == "conv3d-n2-c8-4x6x6-k16-1x3x3-p0x1x1");
    const ConvProblem& trans = result.workloads[1].problem;
    CHECK(trans.op == kbench::OpKind::conv_transpose);
    CHECK(trans.dtype == kbench::DType::fp16);
    CHECK(trans.output_padding == Dims{{1, 0, 0}});
    CHECK(kbench::output_shape(trans) == std::vector<std::int64_t>{4, 8, 18, 17});
    CHECK(result.workloads[1].name == "convtranspose2d-n4-c16-8x8-k8-3x3-s2-op1x0-fp16");
    CHECK(result.workloads[2].problem.dtype == kbench::DType::bf16);
    REQUIRE(result.notes.size() == 2);
    CHECK(result.notes[0] == "log.txt:1: ignored -t 1");
    CHECK(result.notes[1] == "log.txt:5: ignored -V 0, -i 10");
    CHECK(result.workloads[1].source_line == 4);
  }

  TEST_CASE("import miopen: MIOpenDriver's defaults, -F's passes as workloads, repeats counted") {
    const auto result = imported(
        "conv\n"  // every default: -n 100 -c 3 -H 32 -W 32 -k 32 -y 3 -x 3, all passes
        "conv -n 8 -c 4 -H 8 -W 8 -k 4 -F 2\n"
        "conv -n 8 -c 4 -H 8 -W 8 -k 4 -F 1\n"
        "conv -n 8 -c 4 -H 8 -W 8 -k 4 -F 1 -t 1\n"
        "pool -n 8\n");
    // -F 0: all three passes; -F 2: backward data alone; -F 1 twice: one forward workload, counted twice.
    REQUIRE(result.workloads.size() == 5);
    CHECK(result.workloads[0].problem.pass == kbench::Pass::forward);
    CHECK(result.workloads[1].problem.pass == kbench::Pass::backward_data);
    CHECK(result.workloads[1].name == result.workloads[0].name + ".backward_data");
    CHECK(result.workloads[2].problem.pass == kbench::Pass::backward_weights);
    CHECK(result.workloads[3].problem.pass == kbench::Pass::backward_data);
    CHECK(result.workloads[3].source_line == 2);
    CHECK(kbench::input_shape(result.workloads[0].problem) == std::vector<std::int64_t>{100, 3, 32, 32});
    CHECK(result.workloads[0].problem.out_channels == 32);
    CHECK(result.workloads[0].problem.kernel == Dims{{3, 3, 1}});
    CHECK_FALSE(result.workloads[0].problem.bias);
    CHECK(result.workloads[4].problem.pass == kbench::Pass::forward);
    CHECK(result.workloads[4].count == 2);
    CHECK(result.workloads[4].source_line == 3);
    const std::string notes = [&] {
      std::string all;
      for (const auto& n : result.notes) all += n + "\n";
      return all;
    }();
    CHECK(notes.find("-F") == std::string::npos);
    CHECK(notes.find("log.txt:5: MIOpenDriver pool: not a convolution") != std::string::npos);
  }

  TEST_CASE("import miopen: -I -f -O as layout, MIOpen's defaults and flag forms, other flags as the driver has them") {
    const auto result = imported(
        "convfp16 -n 8 -c 64 -H 14 -W 14 -k 64 -y 3 -x 3 -p 1 -q 1 -F 1 -I NHWC -f NHWC -O NHWC\n"
        "convbfp16 --spatial_dim 3 -n 2 -c 8 -! 4 -H 6 -W 6 -k 8 -@ 3 -F 1 --in_layout NDHWC --fil_layout=NDHWC "
        "--out_layout NDHWC\n"
        "conv -n 2 -c 4 -H 8 -W 8 -k 4 -F 1 -I NCHW -f NCHW -O NCHW -Z 0 -L 1 -U -1 -R -1 -T -1\n"
        "conv --spatial_dim 3 -n 2 -c 4 -! 3 -H 8 -W 8 -k 4 -F 1 -I NCDHW\n"
        "conv -n 2 -c 4 -H 8 -W 8 -k 4 -F 1 -b 3 -G 1 -C /tmp/cache -a bias.bin -d x.bin -D dy.bin\n");
    REQUIRE(result.workloads.size() == 5);
    CHECK(result.workloads[0].problem.layout == kbench::Layout::nhwc);
    CHECK(result.workloads[0].problem.dtype == kbench::DType::fp16);
    CHECK(result.workloads[0].name == "conv2d-n8-c64-14x14-k64-3x3-p1-fp16-nhwc");
    CHECK(result.workloads[1].problem.layout == kbench::Layout::nhwc);
    CHECK(result.workloads[1].problem.spatial_rank == 3);
    CHECK(result.workloads[1].name == "conv3d-n2-c8-4x6x6-k8-3x3x3-bf16-nhwc");
    CHECK(result.workloads[2].problem.layout == kbench::Layout::nchw);
    CHECK(result.workloads[2].name == "conv2d-n2-c4-8x8-k4-3x3");
    CHECK(result.workloads[3].problem.layout == kbench::Layout::nchw);  // -f and -O default to NCDHW in 3-D
    CHECK(result.workloads[4].problem.bias);  // the driver adds a bias for any -b but 0
    REQUIRE(result.notes.size() == 1);
    CHECK(result.notes[0] == "log.txt:5: ignored -G 1, -C /tmp/cache, -a bias.bin, -d x.bin, -D dy.bin");
    // What kbench run reads back: layout: nhwc in the written spec.
    const std::string text = import::write_spec(result.workloads);
    CHECK(text.find("  layout: nhwc\n") != std::string::npos);
    const auto back = kbench::parse_workloads(text, "back.yaml");
    REQUIRE(back.size() == 5);
    for (std::size_t i = 0; i < back.size(); ++i) CHECK(back[i].problem == result.workloads[i].problem);
  }

  TEST_CASE("import miopen: the written spec reads back as the same workloads") {
    const auto result = imported(
        "conv -n 2 -c 4 -H 9 -W 7 -k 8 -y 3 -x 1 -p 1 -q 0 -u 2 -v 1 -g 4 -b 1 -F 1\n"
        "conv -n 2 -c 4 -H 9 -W 7 -k 8 -y 3 -x 1 -p 1 -q 0 -u 2 -v 1 -g 4 -b 1 -F 1\n"
        "conv --spatial_dim 3 -n 1 -c 2 -! 3 -H 3 -W 3 -k 2 -@ 3 -m trans -# 2 -% 1 -F 1\n");
    const std::string text = import::write_spec(result.workloads);
    const auto back = kbench::parse_workloads(text, "back.yaml");
    REQUIRE(back.size() == result.workloads.size());
    for (std::size_t i = 0; i < back.size(); ++i) {
      CHECK(back[i].name == result.workloads[i].name);
      CHECK(back[i].problem == result.workloads[i].problem);
      CHECK(back[i].count == result.workloads[i].count);
      CHECK(back[i].description == result.workloads[i].description);
    }
    CHECK(back[0].count == 2);
  }

  TEST_CASE("import miopen: refusals at their line and column") {
    struct Case {
      std::string text;
      int line, column;
      std::string what;
    };
    const Case cases[] = {
        {"conv -n 16 -K 3\n", 1, 12, "unknown MIOpenDriver flag -K"},
        {"\nconv -n sixteen\n", 2, 6, "-n sixteen: expected an integer"},
        {"conv -n 0\n", 1, 6, "-n 0: expected an integer from 1"},
        {"conv -n 1 -n 2\n", 1, 11, "-n is given twice"},
        {"conv -n\n", 1, 6, "-n has no value"},
        {"conv n 16\n", 1, 6, "'n' is not a flag"},
        {"convolution -n 1\n", 1, 1, "not a MIOpenDriver convolution command"},
        {"x MIOpenDriver conv -m fft\n", 1, 21, "-m fft: expected conv or trans"},
        {"conv -! 4\n", 1, 6, "depth flag but the command is 2-D"},
        {"conv --spatial_dim 1\n", 1, 6, "--spatial_dim 1: expected 2 or 3"},
        {"conv -I NHWC\n", 1, 6,
         "-I NHWC and -f NCHW (MIOpen's default where -f is left out): the input and the weights in different "
         "layouts; kbench's `layout:` is one for input, weights and output"},
        {"conv -I NHWC -f NHWC\n", 1, 6, "-O NCHW (MIOpen's default where -O is left out): the input and the output"},
        {"conv -I NCHW -f NHWC -O NCHW\n", 1, 14, "-I NCHW and -f NHWC: the input and the weights"},
        {"conv --in_layout=NHWC --fil_layout=NHWC --out_layout=NCHW\n", 1, 41, "-O NCHW: the input and the output"},
        {"conv -I CHWN -f CHWN -O CHWN\n", 1, 6, "-I CHWN: MIOpen's CHWN is neither channels first nor"},
        {"conv -I NWHC\n", 1, 6, "-I NWHC: not a layout MIOpenDriver takes"},
        {"conv -I NDHWC -f NDHWC -O NDHWC\n", 1, 6, "-I NDHWC is a 3-D layout but the command is 2-D"},
        {"conv --spatial_dim 3 -f NHWC\n", 1, 22, "-f NHWC is a 2-D layout but the command is 3-D"},
        {"conv -Z 1 -L 4\n", 1, 6, "-Z 1 -L 4: MIOpen's vectorized layouts"},
        {"conv -L 8\n", 1, 6, "-Z 0 -L 8"},
        {"conv -U fp8\n", 1, 6, "-U fp8: a tensor cast type"},
        {"conv --wei_cast_type bf8\n", 1, 6, "--wei_cast_type bf8: a tensor cast type"},
        {"conv -z same\n", 1, 6, "-z same"},
        {"conv -Y 1\n", 1, 6, "only -m trans has"},
        {"conv -F 9\n", 1, 6, "-F 9: expected 0 to 7"},
        {"conv -b -1\n", 1, 6, "-b -1: expected an integer from 0"},
        {"conv -c 6 -g 4\n", 1, 1, "in_channels must be divisible by groups"},
        {"conv -H 2 -W 2 -y 5\n", 1, 1, "kernel size can't be greater"},
        {"conv -n 3000000000\n", 1, 6, "expected an integer from 1 to 2147483647"},
        {"# only a comment\n", 0, 0, "no MIOpenDriver convolution command"},
        {"", 0, 0, "no MIOpenDriver convolution command"},
        {"MIOpenDriver\n", 1, 1, "without a command"},
    };
    for (const Case& c : cases) {
      CAPTURE(c.text);
      const auto error = refused(c.text);
      CHECK(error.line == c.line);
      CHECK(error.column == c.column);
      CHECK_MESSAGE(error.what.find(c.what) != std::string::npos, error.what);
    }
  }
}
