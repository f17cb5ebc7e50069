// The cuda backend's kernel families: envelopes and the default choice per problem and math mode.
#include <doctest/doctest.h>

#include <algorithm>
#include <random>
#include <string>

#include "cuda/selection.hpp"
#include "headline_problems.hpp"
#include "test_cuda_index_support.hpp"
#include "test_seed.hpp"

namespace kbench {
namespace {

using gpu::conv::Family;
using testing::headline50;
using testing::headline76;
using testing::headline77;
using testing::headline84;

bool lists(const std::vector<Family>& v, Family f) { return std::find(v.begin(), v.end(), f) != v.end(); }

}  // namespace

TEST_SUITE("cuda_index") {
  TEST_CASE("family names round-trip") {
    for (const Family f : gpu::conv::kAllFamilies) CHECK(gpu::conv::parse_family(gpu::conv::family_name(f)) == f);
    CHECK_FALSE(gpu::conv::parse_family("winograd").has_value());
    CHECK(gpu::conv::family_math(Family::implicit_gemm_tf32) == MathMode::tf32);
    CHECK(gpu::conv::family_math(Family::implicit_gemm_3xtf32) == MathMode::fp32);
    CHECK(gpu::conv::family_math(Family::transposed_phase_ffma) == MathMode::fp32);
    CHECK(gpu::conv::family_math(Family::direct) == MathMode::fp32);
  }

  TEST_CASE("defaults for the four headline problems, per math mode") {
    CHECK(gpu::conv::default_family(headline84(), MathMode::fp32) == Family::depthwise2d);
    CHECK(gpu::conv::default_family(headline84(), MathMode::tf32) == Family::depthwise2d);
    CHECK(gpu::conv::default_family(headline76(), MathMode::fp32) == Family::implicit_gemm_3xtf32);
    CHECK(gpu::conv::default_family(headline76(), MathMode::tf32) == Family::implicit_gemm_tf32);
    CHECK(gpu::conv::default_family(headline50(), MathMode::fp32) == Family::implicit_gemm_3xtf32);
    CHECK(gpu::conv::default_family(headline50(), MathMode::tf32) == Family::implicit_gemm_tf32);
    CHECK(gpu::conv::default_family(headline77(), MathMode::fp32) == Family::transposed_phase_3xtf32);
    CHECK(gpu::conv::default_family(headline77(), MathMode::tf32) == Family::transposed_phase_tf32);
    // Problem 50's reduction (3 channels x 121 taps) takes the few-channel k table; 76's 64 channels take blocks.
    CHECK(gpu::conv::forward_gemm_ordered(as_rank3(headline50())).desc.order ==
          gpu::conv::igemm::KOrder::input_patch);
    CHECK(gpu::conv::forward_gemm_ordered(as_rank3(headline76())).desc.order ==
          gpu::conv::igemm::KOrder::channel_blocks);
    // 76: 11.2 M GEMM columns (87,382 blocks of 128) over an input of 2^31 + elements: 64-bit offsets.
    CHECK(gpu::conv::forward_gemm_ordered(as_rank3(headline76())).desc.columns == 64 * 174758);
  }

  TEST_CASE("depthwise2d row stores: the realigned variant where rows are 2 mod 4 floats, refused elsewhere") {
    using gpu::conv::KernelChoice;
    const KernelChoice realigned{.family = Family::depthwise2d, .stores = gpu::conv::depthwise::StoreMode::realigned};
    CHECK(gpu::conv::variant_name(realigned) == "depthwise2d/realigned_stores");
    const std::optional<KernelChoice> back = gpu::conv::parse_variant("depthwise2d/realigned_stores");
    REQUIRE(back.has_value());
    CHECK(back->stores == gpu::conv::depthwise::StoreMode::realigned);
    CHECK(gpu::conv::choice_envelope(realigned, headline84(), MathMode::fp32));  // rows of 510
    std::vector<std::string> names;
    for (const KernelChoice& c : gpu::conv::applicable_variants(headline84(), MathMode::fp32))
      names.push_back(gpu::conv::variant_name(c));
    CHECK(std::find(names.begin(), names.end(), "depthwise2d") != names.end());
    CHECK(std::find(names.begin(), names.end(), "depthwise2d/realigned_stores") != names.end());
    ConvProblem aligned = headline84();
    aligned.pad_before = aligned.pad_after = Dims{{1, 1, 0}};  // rows of 512: already 16-byte stores
    const Support same = gpu::conv::choice_envelope(realigned, aligned, MathMode::fp32);
    CHECK_FALSE(same);
    CHECK(same.reason.find("2 mod 4") != std::string::npos);
    const KernelChoice on_gemm{.family = Family::implicit_gemm_tf32,
                               .stores = gpu::conv::depthwise::StoreMode::realigned};
    CHECK_FALSE(gpu::conv::choice_envelope(on_gemm, headline76(), MathMode::tf32));
    CHECK_FALSE(gpu::conv::parse_variant("depthwise2d/realigned_stores/split_stores"));
  }

  TEST_CASE("depthwise2d bulk copies: variants on problem 84 and wherever 16-byte copies fit, never the default") {
    using gpu::conv::KernelChoice;
    namespace dw = gpu::conv::depthwise;
    const KernelChoice bulk{.family = Family::depthwise2d, .stores = dw::StoreMode::bulk};
    const KernelChoice piped{.family = Family::depthwise2d, .stores = dw::StoreMode::bulk_pipelined};
    CHECK(gpu::conv::variant_name(bulk) == "depthwise2d/bulk_copies");
    CHECK(gpu::conv::variant_name(piped) == "depthwise2d/bulk_pipelined");
    for (const dw::StoreMode m : {dw::StoreMode::bulk, dw::StoreMode::bulk_pipelined}) {
      const std::optional<KernelChoice> back =
          gpu::conv::parse_variant(std::string("depthwise2d/") + dw::store_mode_name(m));
      REQUIRE(back.has_value());
      CHECK(back->stores == m);
    }
    CHECK(gpu::conv::choice_envelope(bulk, headline84(), MathMode::fp32));
    CHECK(gpu::conv::choice_envelope(bulk, headline84(), MathMode::tf32));
    CHECK(gpu::conv::choice_envelope(piped, headline84(), MathMode::fp32));
    CHECK(gpu::conv::depthwise_bulk_params(headline84(), dw::StoreMode::bulk_pipelined).tiling.stages == 2);
    std::vector<std::string> names;
    for (const KernelChoice& c : gpu::conv::applicable_variants(headline84(), MathMode::fp32))
      names.push_back(gpu::conv::variant_name(c));
    CHECK(std::count(names.begin(), names.end(), "depthwise2d/bulk_copies") == 1);
    CHECK(std::count(names.begin(), names.end(), "depthwise2d/bulk_pipelined") == 1);
    CHECK(gpu::conv::default_family(headline84(), MathMode::fp32) == Family::depthwise2d);  // a GPU run decides
    // Outside: an output plane of 7 x 510 floats is not a multiple of 16 bytes (depthwise2d takes it).
    ConvProblem odd_plane = headline84();
    odd_plane.batch = 1;
    odd_plane.input = Dims{{9, 512, 1}};
    CHECK(gpu::conv::family_envelope(Family::depthwise2d, odd_plane, MathMode::fp32));
    const Support refused = gpu::conv::choice_envelope(bulk, odd_plane, MathMode::fp32);
    CHECK_FALSE(refused);
    CHECK(refused.reason.find("bulk_copies") != std::string::npos);
    CHECK(gpu::conv::choice_envelope(piped, odd_plane, MathMode::fp32).reason.find("bulk_pipelined") !=
          std::string::npos);
    // Outside depthwise2d's own envelope (stride 2) it is refused for that reason first.
    ConvProblem strided = headline84();
    strided.stride = Dims{{2, 2, 1}};
    CHECK(gpu::conv::choice_envelope(bulk, strided, MathMode::fp32).reason.find("stride") != std::string::npos);
  }

  TEST_CASE("variants: the default first, those driving Hopper's asynchronous units (bulk copies, wgmma) last") {
    // A kernel fault poisons the process's context: `cuda:all` records the plain kernels first.
    using gpu::conv::KernelChoice;
    for (const auto& [problem, math] : {std::pair{headline84(), MathMode::fp32}, std::pair{headline50(), MathMode::tf32},
                                        std::pair{headline50(), MathMode::fp32}}) {
      const std::vector<KernelChoice> variants = gpu::conv::applicable_variants(problem, math);
      REQUIRE_FALSE(variants.empty());
      CHECK(variants.front().family == gpu::conv::default_family(problem, math));
      CHECK_FALSE(gpu::conv::uses_async_units(variants.front()));
      const auto first_async = std::find_if(variants.begin(), variants.end(), gpu::conv::uses_async_units);
      CHECK(first_async != variants.end());  // each has at least one (bulk copies; wgmma)
      CHECK(std::all_of(first_async, variants.end(), gpu::conv::uses_async_units));
      CHECK(first_async - variants.begin() > 1);  // plain variants besides the default come before them
    }
  }

  TEST_CASE(
      "direct_tiled: the convolutions a GEMM does not pay for, outside depthwise2d, and which one is the default") {
    using gpu::conv::default_family;
    using gpu::conv::family_envelope;
    // MobileNet's stride-2 depthwise 3x3 on 112x112: outside depthwise2d, the shared-memory kernel's.
    ConvProblem mobile = headline84();
    mobile.batch = 8;
    mobile.in_channels = mobile.out_channels = mobile.groups = 32;
    mobile.input = Dims{{112, 112, 1}};
    mobile.stride = Dims{{2, 2, 1}};
    mobile.pad_before = mobile.pad_after = Dims{{1, 1, 0}};
    CHECK_FALSE(family_envelope(Family::depthwise2d, mobile, MathMode::fp32));
    for (const MathMode math : {MathMode::fp32, MathMode::tf32})
      CHECK(default_family(mobile, math) == Family::direct_tiled);
    // Problem 84 stays on the register kernel, with the tiled one listed as a variant to compare.
    CHECK(family_envelope(Family::direct_tiled, headline84(), MathMode::fp32));
    CHECK(default_family(headline84(), MathMode::fp32) == Family::depthwise2d);
    std::vector<std::string> names;
    for (const gpu::conv::KernelChoice& c : gpu::conv::applicable_variants(headline84(), MathMode::fp32))
      names.push_back(gpu::conv::variant_name(c));
    CHECK(std::find(names.begin(), names.end(), "direct_tiled") != names.end());
    // Rows that are not 16-byte multiples, dilation, rectangular kernels: tiled.
    ConvProblem odd = headline84();
    odd.input[1] = 509;
    odd.dilation = Dims{{2, 1, 1}};
    odd.kernel = Dims{{3, 5, 1}};
    CHECK(default_family(odd, MathMode::fp32) == Family::direct_tiled);
    // ResNeXt's groups of 4 channels (4 output channels per group: too few for the GEMM's M).
    ConvProblem resnext = mobile;
    resnext.in_channels = resnext.out_channels = 128;
    resnext.stride = Dims{{1, 1, 1}};
    CHECK(default_family(resnext, MathMode::tf32) == Family::direct_tiled);
    // A multiplier of 8 on 9 taps fills the GEMM's M: the GEMM stays the default; tiled is a variant.
    ConvProblem wide = mobile;
    wide.out_channels = 8 * wide.in_channels;
    CHECK(default_family(wide, MathMode::tf32) == Family::implicit_gemm_tf32);
    CHECK(family_envelope(Family::direct_tiled, wide, MathMode::tf32));
    // 1-D depthwise (3 taps: no GEMM even at multiplier 8) and 3-D depthwise.
    ConvProblem line = headline76();
    line.in_channels = line.groups = 64;
    line.out_channels = 8 * 64;
    line.input[0] = 4096;
    CHECK(default_family(line, MathMode::tf32) == Family::direct_tiled);
    ConvProblem video = mobile;
    video.spatial_rank = 3;
    video.input = Dims{{8, 28, 28}};
    video.kernel = Dims{{3, 3, 3}};
    video.stride = Dims{{1, 1, 1}};
    video.pad_before = video.pad_after = Dims{{1, 1, 1}};
    CHECK(default_family(video, MathMode::fp32) == Family::direct_tiled);
    // Dense layers with many channels: their windows do not fit (and the GEMM is the default anyway).
    const Support dense = family_envelope(Family::direct_tiled, headline50(), MathMode::fp32);
    CHECK_FALSE(dense);
    CHECK(dense.reason.find("48 KB") != std::string::npos);
  }

  TEST_CASE("direct_tiled: transposed convolutions with few output channels per group, beside the phase GEMMs") {
    using gpu::conv::default_family;
    using gpu::conv::family_envelope;
    // A depthwise upsampler (FCN's learned bilinear x2: kernel 4, stride 2, padding 1): too few output
    // channels per group for the phase GEMMs, which ran it on `direct` before.
    ConvProblem upsample;
    upsample.op = OpKind::conv_transpose;
    upsample.spatial_rank = 2;
    upsample.batch = 8;
    upsample.in_channels = upsample.out_channels = upsample.groups = 21;
    upsample.input = Dims{{64, 64, 1}};
    upsample.kernel = Dims{{4, 4, 1}};
    upsample.stride = Dims{{2, 2, 1}};
    upsample.pad_before = upsample.pad_after = Dims{{1, 1, 0}};
    for (const MathMode math : {MathMode::fp32, MathMode::tf32})
      CHECK(default_family(upsample, math) == Family::direct_tiled);
    // Eight output channels per group and a reduction of 2 channels x 2 x 2 taps: the phase GEMM
    // stays the default, the tiled kernel a variant.
    ConvProblem grouped = upsample;
    grouped.groups = 4;
    grouped.in_channels = 8;
    grouped.out_channels = 32;
    CHECK(default_family(grouped, MathMode::tf32) == Family::transposed_phase_tf32);
    CHECK(family_envelope(Family::direct_tiled, grouped, MathMode::tf32));
    // A depth multiplier of 8 fills the phase GEMMs' M, but each output gathers 1 channel x 2 x 2
    // taps: a reduction of 4, too short for a GEMM's chunks. Forward, 16 taps would have been enough.
    ConvProblem multiplied = upsample;
    multiplied.out_channels = 8 * multiplied.in_channels;
    CHECK(gpu::conv::phase_reduction_length(multiplied) == 4);
    CHECK(default_family(multiplied, MathMode::tf32) == Family::direct_tiled);
    ConvProblem forward = multiplied;
    forward.op = OpKind::conv;
    CHECK(gpu::conv::phase_reduction_length(forward) == 16);
    CHECK(default_family(forward, MathMode::tf32) == Family::implicit_gemm_tf32);
    // Problem 77: 32 channels x at most 2 x 2 x 2 taps a phase (stride 2, dilation 2: tap period 1, so
    // all 3 taps of a dimension land on the same phase: 27).
    CHECK(gpu::conv::phase_reduction_length(headline77()) == 32 * 27);
    // Seed 77 (32 input channels, 27 taps): its windows and weights exceed 48 KB.
    const Support s77 = family_envelope(Family::direct_tiled, headline77(), MathMode::fp32);
    CHECK_FALSE(s77);
    CHECK(default_family(headline77(), MathMode::fp32) == Family::transposed_phase_3xtf32);
  }

  TEST_CASE("envelopes: math, op and shape limits") {
    CHECK_FALSE(gpu::conv::family_envelope(Family::implicit_gemm_tf32, headline76(), MathMode::fp32));
    CHECK(gpu::conv::family_envelope(Family::implicit_gemm_3xtf32, headline76(), MathMode::fp32));
    CHECK(gpu::conv::family_envelope(Family::implicit_gemm_ffma, headline76(), MathMode::tf32));
    CHECK_FALSE(gpu::conv::family_envelope(Family::implicit_gemm_ffma, headline77(), MathMode::fp32));
    CHECK_FALSE(gpu::conv::family_envelope(Family::transposed_phase_ffma, headline76(), MathMode::fp32));
    CHECK_FALSE(gpu::conv::family_envelope(Family::depthwise2d, headline50(), MathMode::fp32));

    ConvProblem p = headline84();
    p.input[1] = 510;  // rows no longer 16-byte aligned
    const Support s = gpu::conv::family_envelope(Family::depthwise2d, p, MathMode::fp32);
    CHECK_FALSE(s);
    CHECK(s.reason.find("multiple of 4") != std::string::npos);
    p = headline84();
    p.stride[0] = 2;
    CHECK_FALSE(gpu::conv::family_envelope(Family::depthwise2d, p, MathMode::fp32));
    p = headline84();
    p.pad_before[1] = 2;  // neither 0 nor (k-1)/2
    CHECK_FALSE(gpu::conv::family_envelope(Family::depthwise2d, p, MathMode::fp32));
    p = headline84();
    p.pad_before = p.pad_after = Dims{{1, 1, 0}};
    CHECK(gpu::conv::family_envelope(Family::depthwise2d, p, MathMode::fp32));

    // fp16 (once refused by the whole backend): direct takes every dtype, the fp32 GEMMs refuse it.
    ConvProblem half = headline50();
    half.dtype = DType::fp16;
    CHECK(gpu::conv::problem_supported(half));
    CHECK(gpu::conv::family_envelope(Family::direct, half, MathMode::fp32));
    CHECK_FALSE(gpu::conv::family_envelope(Family::implicit_gemm_3xtf32, half, MathMode::fp32));
    ConvProblem bad = headline50();
    bad.groups = 2;  // does not divide 3 input channels
    CHECK_FALSE(gpu::conv::problem_supported(bad));
  }

  TEST_CASE("a short reduction onto many output channels: the GEMM where the shared-memory kernel cannot go") {
    using gpu::conv::default_family;
    using gpu::conv::family_envelope;
    // Transposed 4 -> 256, kernel 4, stride 4: one tap a phase, so a reduction of 4 (no GEMM pays
    // for it), but 256 output channels' weights exceed direct_tiled's 48 KB. The phase GEMM still
    // beats `direct` (found by review: this fell to `direct` once the reduction counted one phase).
    ConvProblem up;
    up.op = OpKind::conv_transpose;
    up.spatial_rank = 2;
    up.batch = 4;
    up.in_channels = 4;
    up.out_channels = 256;
    up.input = Dims{{64, 64, 1}};
    up.kernel = Dims{{4, 4, 1}};
    up.stride = Dims{{4, 4, 1}};
    REQUIRE_FALSE(gpu::conv::gemm_worthwhile(up));
    REQUIRE_FALSE(family_envelope(Family::direct_tiled, up, MathMode::fp32));
    CHECK(default_family(up, MathMode::fp32) == Family::transposed_phase_3xtf32);
    CHECK(default_family(up, MathMode::tf32) == Family::transposed_phase_tf32);
    // Forward, a 1x1 from 4 channels to 4,096: the implicit GEMM.
    ConvProblem wide;
    wide.spatial_rank = 2;
    wide.in_channels = 4;
    wide.out_channels = 4096;
    wide.input = Dims{{32, 32, 1}};
    REQUIRE_FALSE(gpu::conv::gemm_worthwhile(wide));
    REQUIRE_FALSE(family_envelope(Family::direct_tiled, wide, MathMode::fp32));
    CHECK(default_family(wide, MathMode::tf32) == Family::implicit_gemm_tf32);
  }

  TEST_CASE("long kernels take a GEMM while its tap list or table fits in shared memory (found by kbench plan)") {
    namespace ig = gpu::conv::igemm;
    using gpu::conv::KernelChoice;
    const auto line = [](std::int64_t cin, std::int64_t taps) {
      ConvProblem p;
      p.spatial_rank = 1;
      p.batch = 8;
      p.in_channels = cin;
      p.out_channels = 64;
      p.input = Dims{{100000, 1, 1}};
      p.kernel = Dims{{taps, 1, 1}};
      return p;
    };
    // 64 channels x 2,048 taps: channel blocks with a 32 KB tap list (once refused past 1,024 taps).
    const ConvProblem wide = line(64, 2048);
    CHECK(gpu::conv::default_family(wide, MathMode::fp32) == Family::implicit_gemm_3xtf32);
    CHECK(gpu::conv::forward_gemm_params(as_rank3(wide), KernelChoice{Family::implicit_gemm_3xtf32}).order ==
          ig::KOrder::channel_blocks);
    // 2 channels x 1,536 taps (3,072 rows, past the preferred k table) on a row of 100,000: the input
    // patch would copy whole rows of it, and channel blocks would be 7/8 zero rows: the k table (72 KB
    // of 24-byte rows), which leaves room for two blocks per SM; at 2,048 taps (96 KB) it would not:
    // channel blocks, and a forced k_table.
    const ConvProblem few = line(2, 1536);
    CHECK(gpu::conv::default_family(few, MathMode::tf32) == Family::implicit_gemm_tf32);
    CHECK(gpu::conv::forward_gemm_ordered(as_rank3(few)).desc.order == ig::KOrder::k_table);
    const ConvProblem fewer_blocks = line(2, 2048);
    CHECK(gpu::conv::forward_gemm_ordered(as_rank3(fewer_blocks)).desc.order == ig::KOrder::channel_blocks);
    CHECK(gpu::conv::choice_envelope(KernelChoice{.family = Family::implicit_gemm_tf32, .order = ig::KOrder::k_table},
                                     fewer_blocks, MathMode::tf32));
    // 3 channels x 31 x 31 taps (2,883 rows) on 128 x 128 images: the input_patch order, not channel
    // blocks 13/16 of whose rows would be zeros.
    ConvProblem image;
    image.batch = 8;
    image.in_channels = 3;
    image.out_channels = 64;
    image.input = Dims{{128, 128, 1}};
    image.kernel = Dims{{31, 31, 1}};
    CHECK(gpu::conv::forward_gemm_ordered(as_rank3(image)).desc.order == ig::KOrder::input_patch);
    CHECK(gpu::conv::default_family(image, MathMode::tf32) == Family::implicit_gemm_tf32);
    // Past the block's shared memory: 16,384 taps of 16 bytes (256 KB) as a tap list, 32,768 rows as a
    // k table: refused, saying why; the problem still runs (direct).
    const ConvProblem longest = line(64, 16384);
    const Support blocks = gpu::conv::family_envelope(Family::implicit_gemm_3xtf32, longest, MathMode::fp32);
    CHECK_FALSE(blocks);
    CHECK(blocks.reason.find("shared memory") != std::string::npos);
    const Support table =
        gpu::conv::choice_envelope(KernelChoice{.family = Family::implicit_gemm_tf32, .order = ig::KOrder::k_table},
                                   line(2, 16384), MathMode::tf32);
    CHECK_FALSE(table);
    CHECK(table.reason.find("shared memory") != std::string::npos);
    CHECK(gpu::conv::default_family(longest, MathMode::fp32) == Family::direct);
  }

  TEST_CASE("direct_tiled in passes: many input channels, fewer than 8 output channels per group") {
    using gpu::conv::default_family;
    using gpu::conv::family_envelope;
    // A regression head (64 -> 1, 3x3) and pix2pix's last layer (transposed 128 -> 3, kernel 4,
    // stride 2): their stacks exceed 48 KB; they ran on `direct` before.
    ConvProblem head = headline50();
    head.batch = 16;
    head.in_channels = 64;
    head.out_channels = 1;
    head.input = Dims{{256, 256, 1}};
    head.kernel = Dims{{3, 3, 1}};
    head.stride = Dims{{1, 1, 1}};
    head.pad_before = head.pad_after = Dims{{1, 1, 0}};
    head.bias = true;
    for (const MathMode math : {MathMode::fp32, MathMode::tf32})
      CHECK(default_family(head, math) == Family::direct_tiled);
    ConvProblem pix2pix = head;
    pix2pix.op = OpKind::conv_transpose;
    pix2pix.in_channels = 128;
    pix2pix.out_channels = 3;
    pix2pix.input = Dims{{128, 128, 1}};
    pix2pix.kernel = Dims{{4, 4, 1}};
    pix2pix.stride = Dims{{2, 2, 1}};
    CHECK(default_family(pix2pix, MathMode::fp32) == Family::direct_tiled);
    // The seeds' dense layers (8 or more output channels per group) stay outside: no new variant.
    for (const ConvProblem& p : {headline50(), headline76(), headline77()})
      CHECK_FALSE(family_envelope(Family::direct_tiled, p, MathMode::fp32));
  }

  TEST_CASE("dimensions of 2^30 or more, which a spec allows: direct only, forward and transposed") {
    for (const OpKind op : {OpKind::conv, OpKind::conv_transpose}) {
      ConvProblem line;
      line.op = op;
      line.spatial_rank = 1;
      line.in_channels = line.out_channels = 8;
      line.input = Dims{{(std::int64_t{1} << 30) + 100, 1, 1}};
      line.kernel = Dims{{3, 1, 1}};
      const std::string op_name{to_string(op)};
      CAPTURE(op_name);
      CHECK(gpu::conv::problem_supported(line));
      for (const MathMode math : {MathMode::fp32, MathMode::tf32}) {
        CHECK(gpu::conv::applicable_families(line, math) == std::vector<Family>{Family::direct});
        CHECK(gpu::conv::default_family(line, math) == Family::direct);
      }
      const Support gemm = gpu::conv::family_envelope(
          op == OpKind::conv ? Family::implicit_gemm_ffma : Family::transposed_phase_ffma, line, MathMode::fp32);
      CHECK(gemm.reason.find("2^30") != std::string::npos);
      // Just below: the fast paths take it again.
      line.input[0] = (std::int64_t{1} << 30) - 100;
      CHECK(gpu::conv::default_family(line, MathMode::fp32) != Family::direct);
    }
  }

  TEST_CASE("every valid random problem has direct, and its default family is in its envelope") {
    std::mt19937_64 rng(kbench::testing::test_seed(7));
    for (int trial = 0; trial < 300; ++trial) {
      const OpKind op = trial % 2 == 0 ? OpKind::conv : OpKind::conv_transpose;
      const ConvProblem p = test::random_problem(rng, op);
      for (const MathMode math : {MathMode::fp32, MathMode::tf32}) {
        const std::vector<Family> families = gpu::conv::applicable_families(p, math);
        CHECK(lists(families, Family::direct));
        const Family chosen = gpu::conv::default_family(p, math);
        CHECK(lists(families, chosen));
        if (math == MathMode::fp32) CHECK(gpu::conv::family_math(chosen) == MathMode::fp32);
        CHECK(lists(families, op == OpKind::conv ? Family::implicit_gemm_ffma : Family::transposed_phase_ffma));
      }
    }
  }

  TEST_CASE("fp16 and bf16: the tensor-core GEMM for the seeds' convolutions in both layouts, their own kernels elsewhere") {
    for (const DType dtype : {DType::fp16, DType::bf16})
      for (const Layout layout : {Layout::nhwc, Layout::nchw})
        for (const MathMode math : {MathMode::fp32, MathMode::tf32}) {
          CAPTURE(to_string(dtype));
          CAPTURE(to_string(layout));
          const auto as = [&](ConvProblem p) {
            p.dtype = dtype;
            p.layout = layout;
            return p;
          };
          CHECK(gpu::conv::default_family(as(headline50()), math) == Family::implicit_gemm_half);
          CHECK(gpu::conv::default_family(as(headline76()), math) == Family::implicit_gemm_half);
          // Depthwise (a GEMM of one output channel): its channels-last kernel, NCHW the shared-memory one.
          CHECK(gpu::conv::default_family(as(headline84()), math) ==
                (layout == Layout::nhwc ? Family::depthwise_nhwc : Family::direct_tiled));
          // Transposed: the half GEMM by phases, in both layouts.
          CHECK(gpu::conv::default_family(as(headline77()), math) == Family::transposed_phase_half);
          const std::vector<Family> families = gpu::conv::applicable_families(as(headline76()), math);
          CHECK(families == std::vector<Family>{Family::direct, Family::implicit_gemm_half});
        }
  }

  TEST_CASE("dtypes and layouts: each family refuses the ones it does not implement, with the reason") {
    ConvProblem p = headline76();
    CHECK_FALSE(gpu::conv::family_envelope(Family::implicit_gemm_half, p, MathMode::fp32).ok);
    CHECK(gpu::conv::family_envelope(Family::implicit_gemm_half, p, MathMode::fp32).reason ==
          "implicit_gemm_half: does not compute fp32 tensors");
    p.layout = Layout::nhwc;
    CHECK(gpu::conv::family_envelope(Family::implicit_gemm_3xtf32, p, MathMode::fp32).reason ==
          "implicit_gemm_3xtf32: does not read nhwc tensors");
    CHECK(gpu::conv::default_family(p, MathMode::fp32) == Family::direct);  // fp32 NHWC: direct only
    CHECK(gpu::conv::applicable_families(p, MathMode::tf32) == std::vector<Family>{Family::direct});
    p.dtype = DType::bf16;
    CHECK(gpu::conv::family_envelope(Family::depthwise2d, p, MathMode::fp32).reason ==
          "depthwise2d: does not compute bf16 tensors");
    CHECK(gpu::conv::problem_supported(p).ok);
    ConvProblem t = headline77();
    t.dtype = DType::fp16;
    CHECK(gpu::conv::family_envelope(Family::implicit_gemm_half, t, MathMode::fp32).reason ==
          "implicit_gemm_half: forward convolutions only");
    CHECK(gpu::conv::family_envelope(Family::transposed_phase_half, headline76(), MathMode::fp32).reason ==
          "transposed_phase_half: does not compute fp32 tensors");
    ConvProblem forward = headline76();
    forward.dtype = DType::bf16;
    CHECK(gpu::conv::family_envelope(Family::transposed_phase_half, forward, MathMode::fp32).reason ==
          "transposed_phase_half: transposed convolutions only");
    t.stride[0] = 65;
    CHECK(gpu::conv::family_envelope(Family::transposed_phase_half, t, MathMode::fp32).reason ==
          "transposed_phase_half: stride above 64");
  }

  TEST_CASE("direct_tiled in fp16/bf16: NCHW depthwise and few channels, stride-1 transposed as it is") {
    ConvProblem p = headline84();
    p.dtype = DType::bf16;
    CHECK(gpu::conv::default_family(p, MathMode::fp32) == Family::direct_tiled);
    // Stride-1 transposed: no forward rewrite for 16-bit weights (it is fp32 NCHW), run as transposed.
    ConvProblem t = p;
    t.op = OpKind::conv_transpose;
    t.pad_before = t.pad_after = Dims{{1, 1, 0}};
    CHECK_FALSE(gpu::conv::forward_problem_for(Family::direct_tiled, t).has_value());
    t.dtype = DType::fp32;
    CHECK(gpu::conv::forward_problem_for(Family::direct_tiled, t).has_value());
    t.dtype = DType::fp16;
    CHECK(gpu::conv::default_family(t, MathMode::fp32) == Family::direct_tiled);
    // Channels last: not direct_tiled's (its windows are rows of a plane).
    p.layout = Layout::nhwc;
    p.in_channels = p.out_channels = p.groups = 3;  // not depthwise_nhwc's either (16-byte vectors)
    CHECK(gpu::conv::family_envelope(Family::direct_tiled, p, MathMode::fp32).reason ==
          "direct_tiled: does not read nhwc tensors");
    CHECK(gpu::conv::default_family(p, MathMode::fp32) == Family::direct);
  }

  TEST_CASE("transposed_phase_half: fp16/bf16 transposed problems where a GEMM pays, else the generic kernel") {
    ConvProblem t = headline77();
    t.dtype = DType::fp16;
    t.layout = Layout::nhwc;
    CHECK(gpu::conv::default_family(t, MathMode::fp32) == Family::transposed_phase_half);
    CHECK(gpu::conv::applicable_families(t, MathMode::fp32) ==
          std::vector<Family>{Family::direct, Family::transposed_phase_half});
    // A stride-1 transposed convolution is one phase of every tap.
    t.stride = t.dilation = Dims{{1, 1, 1}};
    CHECK(gpu::conv::default_family(t, MathMode::fp32) == Family::transposed_phase_half);
    // Under 8 output channels per group the GEMM's M is mostly padding: the shared-memory direct
    // kernel in NCHW, the generic one in NHWC.
    t.out_channels = 4;
    CHECK(gpu::conv::default_family(t, MathMode::fp32) == Family::direct);
    t.layout = Layout::nchw;
    CHECK(gpu::conv::default_family(t, MathMode::fp32) == Family::direct_tiled);
    // The backward_data pass of a forward half convolution is a transposed one: the phase GEMMs too.
    ConvProblem f = headline76();
    f.dtype = DType::bf16;
    f.layout = Layout::nhwc;
    f.pass = Pass::backward_data;
    CHECK(gpu::conv::default_family(f, MathMode::fp32) == Family::transposed_phase_half);
  }

  TEST_CASE("depthwise_nhwc: channels-last depthwise problems in every dtype, its envelope's reasons, the default") {
    using gpu::conv::default_family;
    using gpu::conv::family_envelope;
    const auto as = [](ConvProblem p, DType dtype, Layout layout = Layout::nhwc) {
      p.dtype = dtype;
      p.layout = layout;
      return p;
    };
    const auto reason = [](const ConvProblem& p) {
      return family_envelope(Family::depthwise_nhwc, p, MathMode::fp32).reason;
    };
    // Problem 84 in each dtype, both maths: the default, beside direct (and for halves the GEMM, M = 1).
    for (const DType dtype : {DType::fp16, DType::bf16, DType::fp32})
      for (const MathMode math : {MathMode::fp32, MathMode::tf32}) {
        CAPTURE(to_string(dtype));
        const ConvProblem p = as(headline84(), dtype);
        CHECK(default_family(p, math) == Family::depthwise_nhwc);
        const std::vector<Family> families = gpu::conv::applicable_families(p, math);
        CHECK(lists(families, Family::direct));
        CHECK(lists(families, Family::depthwise_nhwc));
        CHECK(gpu::conv::applicable_variants(p, math).front().family == Family::depthwise_nhwc);
      }
    // Channels first: refused for the layout; depthwise2d keeps fp32 NCHW.
    CHECK(reason(as(headline84(), DType::fp16, Layout::nchw)) == "depthwise_nhwc: does not read nchw tensors");
    CHECK(default_family(headline84(), MathMode::fp32) == Family::depthwise2d);
    // Strides, dilation, asymmetric padding, bias, rectangular kernels, 1-D and 3-D: all inside.
    ConvProblem mobile = as(headline84(), DType::bf16);
    mobile.batch = 8;
    mobile.in_channels = mobile.out_channels = mobile.groups = 32;
    mobile.input = Dims{{112, 111, 1}};
    mobile.stride = Dims{{2, 2, 1}};
    mobile.dilation = Dims{{1, 2, 1}};
    mobile.kernel = Dims{{3, 5, 1}};
    mobile.pad_before = Dims{{1, 0, 0}};
    mobile.pad_after = Dims{{2, 3, 0}};
    mobile.bias = true;
    CHECK(default_family(mobile, MathMode::fp32) == Family::depthwise_nhwc);
    ConvProblem line = mobile;
    line.spatial_rank = 1;
    line.input = Dims{{4096, 1, 1}};
    line.kernel = Dims{{7, 1, 1}};
    CHECK(default_family(line, MathMode::fp32) == Family::depthwise_nhwc);
    ConvProblem video = as(mobile, DType::fp32);
    video.spatial_rank = 3;
    video.input = Dims{{8, 28, 28}};
    video.kernel = Dims{{3, 3, 3}};
    CHECK(default_family(video, MathMode::tf32) == Family::depthwise_nhwc);
    // Refused, each with its reason; direct runs them.
    ConvProblem odd = as(headline84(), DType::fp16);
    odd.in_channels = odd.out_channels = odd.groups = 12;  // 1.5 vectors of fp16; 3 of fp32
    CHECK(reason(odd) == "depthwise_nhwc: channels must be a multiple of 8 (16-byte vectors of fp16)");
    CHECK(default_family(odd, MathMode::fp32) == Family::direct);
    CHECK(family_envelope(Family::depthwise_nhwc, as(odd, DType::fp32), MathMode::fp32));
    ConvProblem multiplier = as(headline84(), DType::fp16);
    multiplier.out_channels = 256;
    CHECK(reason(multiplier).find("groups == in_channels == out_channels") != std::string::npos);
    ConvProblem transposed = as(headline84(), DType::fp16);
    transposed.op = OpKind::conv_transpose;
    CHECK(reason(transposed) == "depthwise_nhwc: forward convolutions only");
    CHECK(default_family(transposed, MathMode::fp32) == Family::direct);
    ConvProblem cube = video;
    cube.dtype = DType::fp16;
    cube.input = Dims{{20, 20, 20}};
    cube.kernel = Dims{{13, 13, 13}};
    cube.stride = cube.dilation = Dims{{1, 1, 1}};
    CHECK(reason(cube) == "depthwise_nhwc: 2197 taps: one vector's weights exceed 48 KB of shared memory");
    // A dense fp32 NHWC convolution: still direct alone.
    CHECK(gpu::conv::applicable_families(as(headline76(), DType::fp32), MathMode::fp32) ==
          std::vector<Family>{Family::direct});
  }

  TEST_CASE("every valid random problem in every dtype and layout has direct, and its default is in its envelope") {
    std::mt19937_64 rng(kbench::testing::test_seed(2403));
    for (int trial = 0; trial < 200; ++trial) {
      ConvProblem p = test::random_problem(rng, trial % 2 == 0 ? OpKind::conv : OpKind::conv_transpose);
      p.dtype = static_cast<DType>(trial % 3);
      p.layout = trial % 4 < 2 ? Layout::nchw : Layout::nhwc;
      const std::vector<Family> families = gpu::conv::applicable_families(p, MathMode::fp32);
      CHECK(lists(families, Family::direct));
      CHECK(lists(families, gpu::conv::default_family(p, MathMode::fp32)));
    }
  }

}  // TEST_SUITE

}  // namespace kbench

TEST_CASE("the variant grammar, from the family descriptors, names every family and every knob a variant can force") {
  namespace conv = kbench::gpu::conv;
  const std::string grammar = conv::variant_grammar();
  CAPTURE(grammar);
  for (const conv::Family f : conv::kAllFamilies)
    CHECK(grammar.find(std::string(conv::family_name(f))) != std::string::npos);
  std::vector<std::string> knobs = {conv::igemm::schedule_name(conv::igemm::ASchedule::streamed),
                                    conv::igemm::schedule_name(conv::igemm::ASchedule::resident),
                                    conv::igemm::mma_kind_name(conv::igemm::MmaKind::wgmma),
                                    conv::igemm::split_k_name(conv::igemm::SplitK::none),
                                    conv::fill_blocks_name(conv::FillBlocks::none)};
  for (const conv::igemm::KOrder o : conv::kAllOrders) knobs.emplace_back(conv::igemm::order_name(o));
  for (const conv::depthwise::StoreMode m : conv::kAllStoreModes)
    if (m != conv::depthwise::StoreMode::split) knobs.emplace_back(conv::depthwise::store_mode_name(m));
  for (const std::string& knob : knobs) {
    CAPTURE(knob);
    CHECK(grammar.find("/" + knob) != std::string::npos);
    // and each such part parses on a family its grammar lists it under
    bool parses = false;
    for (const conv::Family f : conv::kAllFamilies)
      parses = parses || conv::parse_variant(std::string(conv::family_name(f)) + "/" + knob).has_value();
    CHECK(parses);
  }
}
