#pragma once
// Thin wrappers over the PTX the kernels rely on: asynchronous global->shared copies (sm_80+), the
// m16n8k8 TF32 and the m16n8k16 fp16/bf16 tensor-core products. Device code only. tests/emu/shadow/ has a CPU version
// of this header with the same interface, under which the kernels run in the CPU tests.
#include <cstdint>

namespace kbench::gpu::conv {

__device__ __forceinline__ unsigned shared_address(const void* p) {
  return static_cast<unsigned>(__cvta_generic_to_shared(p));
}

// 4-byte copy through L1 (.ca: neighbouring taps re-read the same lines); zero-fills when !pred.
// `src` must be a valid address even when !pred (no byte is read then).
__device__ __forceinline__ void cp_async_4(float* dst, const float* src, bool pred) {
  asm volatile("cp.async.ca.shared.global [%0], [%1], 4, %2;\n" ::"r"(shared_address(dst)), "l"(src), "r"(pred ? 4 : 0)
               : "memory");
}

// 16-byte copy bypassing L1 (.cg); both addresses 16-byte aligned.
__device__ __forceinline__ void cp_async_16(float* dst, const float* src) {
  asm volatile("cp.async.cg.shared.global [%0], [%1], 16;\n" ::"r"(shared_address(dst)), "l"(src) : "memory");
}

// 16-byte copy bypassing L1 (.cg) of any element type, zero-filling when !pred (the src-size operand
// 0: no byte is read, but `src` must still be a valid address); both addresses 16-byte aligned.
__device__ __forceinline__ void cp_async_16_zfill(void* dst, const void* src, bool pred) {
  asm volatile("cp.async.cg.shared.global [%0], [%1], 16, %2;\n" ::"r"(shared_address(dst)), "l"(src),
               "r"(pred ? 16 : 0)
               : "memory");
}

__device__ __forceinline__ void cp_async_commit() { asm volatile("cp.async.commit_group;\n" ::: "memory"); }

// Wait until at most `kPending` committed groups are still in flight.
template <int kPending>
__device__ __forceinline__ void cp_async_wait() {
  asm volatile("cp.async.wait_group %0;\n" ::"n"(kPending) : "memory");
}

// d += a (16x8, row) * b (8x8, col), fp32 accumulation. Fragment layout (PTX ISA, mma.m16n8k8 .tf32),
// gid = lane / 4, tig = lane % 4:
//   a0 (gid, tig)  a1 (gid+8, tig)  a2 (gid, tig+4)  a3 (gid+8, tig+4)
//   b0 (tig, gid)  b1 (tig+4, gid)
//   d0 (gid, 2tig) d1 (gid, 2tig+1) d2 (gid+8, 2tig) d3 (gid+8, 2tig+1)
__device__ __forceinline__ void mma_tf32(float (&d)[4], const std::uint32_t (&a)[4], const std::uint32_t (&b)[2]) {
  // Not volatile: the product has no side effect, so the compiler may schedule it freely.
  asm("mma.sync.aligned.m16n8k8.row.col.f32.tf32.tf32.f32 {%0,%1,%2,%3}, {%4,%5,%6,%7}, {%8,%9}, "
      "{%0,%1,%2,%3};\n"
      : "+f"(d[0]), "+f"(d[1]), "+f"(d[2]), "+f"(d[3])
      : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "r"(b[0]), "r"(b[1]));
}

// d += a (16x16, row) * b (16x8, col), fp16 or bf16 operands, fp32 accumulation. Each 32-bit register
// holds two elements, the lower-numbered in the low half. Fragment layout (PTX ISA, "Matrix Fragments
// for mma.m16n8k16 with floating point type"), gid = lane / 4, tig = lane % 4, element i:
//   a_i  row gid + 8 * ((i / 2) % 2), col 2 tig + (i % 2) + 8 * (i / 4)    (a0..a7 in 4 registers)
//   b_i  row 2 tig + (i % 2) + 8 * (i / 2), col gid                       (b0..b3 in 2 registers)
//   d_i  row gid + 8 * (i / 2), col 2 tig + (i % 2)
__device__ __forceinline__ void mma_f16_16816(float (&d)[4], const std::uint32_t (&a)[4], const std::uint32_t (&b)[2]) {
  asm("mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32 {%0,%1,%2,%3}, {%4,%5,%6,%7}, {%8,%9}, "
      "{%0,%1,%2,%3};\n"
      : "+f"(d[0]), "+f"(d[1]), "+f"(d[2]), "+f"(d[3])
      : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "r"(b[0]), "r"(b[1]));
}

__device__ __forceinline__ void mma_bf16_16816(float (&d)[4], const std::uint32_t (&a)[4],
                                               const std::uint32_t (&b)[2]) {
  asm("mma.sync.aligned.m16n8k16.row.col.f32.bf16.bf16.f32 {%0,%1,%2,%3}, {%4,%5,%6,%7}, {%8,%9}, "
      "{%0,%1,%2,%3};\n"
      : "+f"(d[0]), "+f"(d[1]), "+f"(d[2]), "+f"(d[3])
      : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "r"(b[0]), "r"(b[1]));
}

}  // namespace kbench::gpu::conv
