#pragma once
// What the emulation tests of the fp16/bf16 tensor-core GEMM share (test_emulated_half.cpp, its wgmma
// variant's and the transposed phases'): one launch of either kernel as the CUDA launchers make it,
// the forward shapes every kernel of the family runs, and a check run in both element types and both
// layouts.
#include <cstdint>
#include <optional>
#include <type_traits>
#include <vector>

#include "cuda/registry.hpp"
#include "cuda/half_gemm/half_gemm_kernel.cuh"
#include "cuda/half_gemm/half_wgmma_kernel.cuh"
#include "emulated_typed_run.hpp"
#include "problem_factory.hpp"

// The GEMMs' `extern __shared__` array, defined in test_emulated_half.cpp (one block runs at a time).
namespace kbench::gpu::conv::half_gemm {
extern unsigned char smem[];
}

namespace kbench::emu_tests {

// One launch of the GEMM `d` on tensors x, w (B as the descriptor addresses it), bias b and y: the
// mma.sync kernel (half_gemm.cu's grid and shared memory) or, with `wgmma`, half_wgmma.cu's; with
// kBug, the kernel's body with that ordering mistake planted (ordering_bug.hpp).
template <DType kType, gpu::conv::half_gemm::OrderingBug kBug = gpu::conv::half_gemm::OrderingBug::none>
void launch_half_gemm(const gpu::conv::half_gemm::HalfGemmParams& d, const Stored<kType>* x, const Stored<kType>* w,
                      const Stored<kType>* b, Stored<kType>* y, bool wgmma) {
  namespace hg = gpu::conv::half_gemm;
  const emu::Dim3 grid{static_cast<unsigned>(d.row_tiles), static_cast<unsigned>(d.col_tiles),
                       static_cast<unsigned>(d.p3.groups)};
  const auto run = [&]<bool kVector>() {
    if constexpr (kBug == hg::OrderingBug::none) {
      if (wgmma)
        hg::half_wgmma_kernel<kType, kVector>(d, x, w, b, y);
      else
        hg::half_gemm_kernel<kType, kVector>(d, x, w, b, y);
    } else {
      if (wgmma)
        hg::half_wgmma_body<kType, kVector, kBug>(d, x, w, b, y);
      else
        hg::half_gemm_body<kType, kVector, kBug>(d, x, w, b, y);
    }
  };
  emu::launch(grid, emu::Dim3{hg::kThreads}, hg::smem, wgmma ? hg::kWgmmaSmemBytes : hg::kSmemBytes, [&] {
    if (d.vector_loads)
      run.template operator()<true>();
    else
      run.template operator()<false>();
  });
}

// check(std::integral_constant<DType, T>, layout, seed) for T = fp16 (seed) and bf16 (seed + 1), in
// NHWC and in NCHW.
template <class Check>
void in_both_types_and_layouts(std::uint64_t seed, Check&& check) {
  for (const Layout layout : {Layout::nhwc, Layout::nchw}) {
    CAPTURE(to_string(layout));
    check(std::integral_constant<DType, DType::fp16>{}, layout, seed);
    check(std::integral_constant<DType, DType::bf16>{}, layout, seed + 1);
  }
}

// The forward problem p in kType and `layout` on the mma.sync kernel, or with `wgmma` on the wgmma
// one, inside implicit_gemm_half's envelope for that choice.
template <DType kType>
void check_forward_half_gemm(ConvProblem p, Layout layout, std::uint64_t seed, bool wgmma) {
  p.dtype = kType;
  p.layout = layout;
  const gpu::conv::KernelChoice choice{.family = gpu::conv::Family::implicit_gemm_half,
                                       .mma = wgmma ? std::optional(gpu::conv::igemm::MmaKind::wgmma) : std::nullopt};
  REQUIRE(gpu::conv::choice_envelope(choice, p, MathMode::fp32).ok);
  const gpu::conv::half_gemm::HalfGemmParams d = gpu::conv::half_gemm::make_half_gemm_params(p);
  run_typed_sequence_and_compare<kType>(
      p, seed, [&](const Stored<kType>* x, const Stored<kType>* w, const Stored<kType>* b, Stored<kType>* y) {
        launch_half_gemm<kType>(d, x, w, b, y, wgmma);
      });
}

// check_forward_half_gemm in both element types and layouts; returns whether NHWC ran the 16-byte copies.
inline bool check_forward_half_gemm_everywhere(const ConvProblem& p, std::uint64_t seed, bool wgmma) {
  in_both_types_and_layouts(seed, [&](auto type, Layout layout, std::uint64_t s) {
    check_forward_half_gemm<decltype(type)::value>(p, layout, s, wgmma);
  });
  ConvProblem nhwc = p;
  nhwc.layout = Layout::nhwc;
  return gpu::conv::half_gemm::make_half_gemm_params(nhwc).vector_loads;
}

// Forward shapes for both GEMM kernels (rank, n, cin, cout, groups, input, kernel, stride, dilation,
// pad before, pad after, bias); three of them load 16 bytes at a time under NHWC, two gather.
inline std::vector<ConvProblem> forward_half_gemm_shapes() {
  using D = Dims;
  const OpKind conv = OpKind::conv;
  return {
      // 2-D, 16 channels (vector loads), padding, bias; M 126 (2 row tiles, the second partial), K 144
      // (5 chunks: every stage of either pipeline refilled, the last chunk partial)
      ConvProblem{.op = conv, .spatial_rank = 2, .batch = 2, .in_channels = 16, .out_channels = 24,
                  .input = D{{9, 7, 0}}, .kernel = D{{3, 3, 0}}, .stride = D{{1, 1, 0}}, .dilation = D{{1, 1, 0}},
                  .pad_before = D{{1, 1, 0}}, .pad_after = D{{1, 1, 0}}, .bias = true},
      // 1-D, stride 2, dilation 2, asymmetric padding, K = 40 (a partial second chunk), no bias
      ConvProblem{.op = conv, .spatial_rank = 1, .batch = 1, .in_channels = 8, .out_channels = 16,
                  .input = D{{37, 0, 0}}, .kernel = D{{5, 0, 0}}, .stride = D{{2, 0, 0}}, .dilation = D{{2, 0, 0}},
                  .pad_before = D{{3, 0, 0}}, .pad_after = D{{1, 0, 0}}},
      // 3-D, groups of 8 -> 12 channels, bias
      ConvProblem{.op = conv, .spatial_rank = 3, .batch = 1, .in_channels = 16, .out_channels = 24, .groups = 2,
                  .input = D{{3, 5, 4}}, .kernel = D{{2, 3, 2}}, .stride = D{{1, 1, 2}}, .pad_before = D{{0, 1, 1}},
                  .pad_after = D{{1, 1, 0}}, .bias = true},
      // 2-D, 3 input channels (gathered in either layout: AlexNet-like), 70 output channels (2 column
      // tiles, the second partial), stride 4
      ConvProblem{.op = conv, .spatial_rank = 2, .batch = 1, .in_channels = 3, .out_channels = 70,
                  .input = D{{19, 19, 0}}, .kernel = D{{5, 5, 0}}, .stride = D{{4, 4, 0}}, .dilation = D{{1, 1, 0}},
                  .pad_before = D{{2, 2, 0}}, .pad_after = D{{2, 2, 0}}, .bias = true},
      // 2-D, groups of 12 input channels (gathered), 8 output channels per group
      ConvProblem{.op = conv, .spatial_rank = 2, .batch = 2, .in_channels = 36, .out_channels = 24, .groups = 3,
                  .input = D{{6, 5, 0}}, .kernel = D{{3, 1, 0}}, .stride = D{{1, 2, 0}}, .dilation = D{{2, 1, 0}},
                  .pad_before = D{{2, 0, 0}}, .pad_after = D{{0, 1, 0}}, .bias = true},
  };
}

}  // namespace kbench::emu_tests
