#pragma once
// A transposed convolution as a set of implicit GEMMs, one per phase combination that has taps
// along every dimension (host side; the device side is igemm_index.hpp and zero_fill_index.hpp).
#include <cstdint>
#include <vector>

#include "cuda/implicit_gemm/igemm_index.hpp"
#include "cuda/transposed/phase_index.hpp"
#include "problem/conv_problem.hpp"

namespace kbench::gpu::conv {

struct PhaseGemm {
  std::int64_t phase[3] = {0, 0, 0};
  std::vector<igemm::GemmTap> taps;
  igemm::GemmConvParams desc;
};

// Number of phase combinations whose GEMM has work (taps along every dimension and some outputs).
inline std::int64_t tapped_phase_combinations(const ConvProblem& p3) {
  PhaseDim dims[3];
  for (int i = 0; i < 3; ++i) dims[i] = make_phase_dim(p3, i);
  std::int64_t per_dim[3] = {0, 0, 0};
  for (int i = 0; i < 3; ++i)
    for (std::int64_t ph = 0; ph < dims[i].stride; ++ph)
      if (phase_has_taps(dims[i], ph) && phase_positions(dims[i], ph).count > 0) ++per_dim[i];
  return per_dim[0] * per_dim[1] * per_dim[2];
}

// p3: rank 3, transposed. `tile_rows` pads M for packed A; the reduction order is chosen per phase.
inline std::vector<PhaseGemm> make_phase_gemms(const ConvProblem& p3, std::int64_t tile_rows) {
  PhaseDim dims[3];
  for (int i = 0; i < 3; ++i) dims[i] = make_phase_dim(p3, i);
  std::vector<PhaseGemm> gemms;
  for (std::int64_t ph0 = 0; ph0 < dims[0].stride; ++ph0)
    for (std::int64_t ph1 = 0; ph1 < dims[1].stride; ++ph1)
      for (std::int64_t ph2 = 0; ph2 < dims[2].stride; ++ph2) {
        PhaseGemm g;
        g.phase[0] = ph0;
        g.phase[1] = ph1;
        g.phase[2] = ph2;
        g.taps = igemm::phase_taps(p3, dims, g.phase);
        if (g.taps.empty()) continue;
        const auto tap_count = static_cast<std::int64_t>(g.taps.size());
        const igemm::KOrder order = igemm::choose_k_order(p3.in_channels_per_group(), tap_count);
        g.desc = igemm::make_phase_desc(p3, dims, g.phase, tap_count, order, tile_rows);
        if (g.desc.columns == 0) continue;
        gemms.push_back(std::move(g));
      }
  return gemms;
}

}  // namespace kbench::gpu::conv
