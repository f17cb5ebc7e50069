#pragma once
// The cuda backend's kernel families: their names (as `--backends cuda:FAMILY` spells them) and the
// math each performs, generated from the one list, families.def (what each family runs is its
// descriptor's `summary`). Plain C++; family_table.hpp says which family can run a problem.
#include <optional>
#include <string_view>

#include "core/types.hpp"
#include "cuda/common/variant_knobs.hpp"

namespace kbench::gpu::conv {

enum class Family {
#define KBENCH_CUDA_FAMILY(name, descriptor, launcher) name,
#include "cuda/families.def"
};

inline constexpr Family kAllFamilies[] = {
#define KBENCH_CUDA_FAMILY(name, descriptor, launcher) Family::name,
#include "cuda/families.def"
};

inline constexpr std::string_view family_name(Family f) {
  switch (f) {
#define KBENCH_CUDA_FAMILY(name, descriptor, launcher) \
  case Family::name:                                   \
    return #name;
#include "cuda/families.def"
  }
  return "?";
}

inline std::optional<Family> parse_family(std::string_view name) {
  for (const Family f : kAllFamilies)
    if (family_name(f) == name) return f;
  return std::nullopt;
}

inline bool is_implicit_gemm(Family f) {
  return f == Family::implicit_gemm_ffma || f == Family::implicit_gemm_3xtf32 || f == Family::implicit_gemm_tf32;
}
inline bool is_transposed_phase(Family f) {
  return f == Family::transposed_phase_ffma || f == Family::transposed_phase_3xtf32 ||
         f == Family::transposed_phase_tf32;
}

// The GEMM math of a GEMM family.
inline igemm::GemmMath gemm_math(Family f) {
  if (f == Family::implicit_gemm_tf32 || f == Family::transposed_phase_tf32) return igemm::GemmMath::tf32;
  if (f == Family::implicit_gemm_3xtf32 || f == Family::transposed_phase_3xtf32) return igemm::GemmMath::tf32x3;
  return igemm::GemmMath::ffma;
}

// What the family computes in: only the plain TF32 GEMMs round to TF32.
inline MathMode family_math(Family f) {
  return gemm_math(f) == igemm::GemmMath::tf32 ? MathMode::tf32 : MathMode::fp32;
}

}  // namespace kbench::gpu::conv
