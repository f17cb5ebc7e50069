#pragma once
// The stores of one computed output of an implicit GEMM: the value plus the bias, and for a
// transposed convolution's phase the untapped neighbours the column owns (the `tail` positions
// after it along the last dimension and, first in its row, the `lead` before it), which hold the
// bias alone. Shared by the GEMM's epilogue (igemm_kernel.cuh) and split-K's reduction
// (igemm_split_reduce.cuh), so both write exactly the same elements. Streaming stores
// (st.global.cs): nothing reads the output back in these kernels.
#include <cstdint>

#include "cuda/implicit_gemm/igemm_index.hpp"

namespace kbench::gpu::conv::igemm {

struct ColumnStores {
  OutputState os;         // os.valid: the column exists (the last tile's may not)
  std::int64_t tail = 0;  // untapped outputs right after each computed one
  std::int64_t lead = 0;  // untapped outputs [0, lead) of the row, written by its first column
};

__device__ __forceinline__ ColumnStores column_stores(const GemmConvParams& d, std::int64_t group, std::int64_t column) {
  ColumnStores c;
  c.os = output_state(d, group, column);
  if (!c.os.valid) return c;
  c.tail = tail_length(d, c.os.last_coord);
  c.lead = c.os.first_in_row ? d.lead : 0;
  return c;
}

// Output row m (< d.rows) of a valid column: `value` + `bias`, and the owned untapped neighbours.
__device__ __forceinline__ void store_output(const GemmConvParams& d, const ColumnStores& c, std::int64_t m, float value,
                                             float bias, float* __restrict__ y) {
  float* out = y + c.os.offset + m * d.out_volume;
  __stcs(out, value + bias);
  for (std::int64_t t = 1; t <= c.tail; ++t) __stcs(out + t, bias);
  for (std::int64_t p = 0; p < c.lead; ++p) __stcs(out - c.os.last_coord + p, bias);
}

}  // namespace kbench::gpu::conv::igemm
