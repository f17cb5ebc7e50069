#pragma once
// Hopper's warpgroup-level tensor-core product (wgmma.mma_async, PTX ISA 9.7.15), as the wgmma
// implicit-GEMM kernel uses it: TF32 m64n96k8 with A (64 x 8) in registers and B (8 x 96) read by the
// tensor core from shared memory through a descriptor (wgmma_desc.hpp); and, for `kbench calibrate`,
// m64n256 with both operands in shared memory, in TF32 (k8), fp16 and bf16 (k16); and, for the
// fp16/bf16 implicit GEMM, m64n64k16 with both operands in shared memory. Needs sm_90a: compiled for
// another target the functions trap, and the backend never launches them there. Device code only;
// tests/emu/shadow/ has a CPU version with the same interface.
#include <cstdint>

// wgmma reads shared memory through the async proxy (PTX ISA 9.7.15.4): this thread's earlier
// generic-proxy writes there become visible to it only past fence_proxy_async_shared, issued by each
// writer before the barrier that hands the data to the warpgroups.
#include "cuda/common/proxy_fence.cuh"

namespace kbench::gpu::conv {

#if defined(__CUDA_ARCH_FEAT_SM90_ALL)
#define KBENCH_WGMMA_ASM(...) asm volatile(__VA_ARGS__)
#else
#define KBENCH_WGMMA_ASM(...) __trap()
#endif

// Orders this thread's earlier register writes (accumulators, A fragments) before the next wgmma reads them.
__device__ __forceinline__ void wgmma_fence() { KBENCH_WGMMA_ASM("wgmma.fence.sync.aligned;\n" ::: "memory"); }

// Closes the group of the wgmma issued since the last commit.
__device__ __forceinline__ void wgmma_commit() { KBENCH_WGMMA_ASM("wgmma.commit_group.sync.aligned;\n" ::: "memory"); }

// Waits until at most kPending committed groups are in flight: their accumulators may then be read,
// their A registers rewritten and the shared memory they read overwritten.
template <int kPending>
__device__ __forceinline__ void wgmma_wait() {
  KBENCH_WGMMA_ASM("wgmma.wait_group.sync.aligned %0;\n" ::"n"(kPending) : "memory");
}

// Keeps the compiler from moving accesses to an accumulator across the asynchronous product (the
// asm statements above do not name the accumulators they order).
__device__ __forceinline__ void wgmma_fence_operand(float& v) { asm volatile("" : "+f"(v)::"memory"); }

// d (64 x 96, fp32) += a (64 x 8, TF32 bits: the tensor core ignores the low 13) x b (8 x 96 at desc_b).
// Per warp w of the warpgroup, lane l (gid = l / 4, tig = l % 4), as in mma.m16n8k8:
//   a0 (16w + gid, tig)  a1 (16w + gid + 8, tig)  a2 (16w + gid, tig + 4)  a3 (16w + gid + 8, tig + 4)
//   d[4j + e] (16w + gid + 8 (e / 2), 8j + 2 tig + e % 2), j < 12
__device__ __forceinline__ void wgmma_m64n96k8_tf32(float (&d)[48], const std::uint32_t (&a)[4], std::uint64_t desc_b) {
  KBENCH_WGMMA_ASM(
      "{\n"
      ".reg .pred p;\n"
      "setp.ne.b32 p, %53, 0;\n"
      "wgmma.mma_async.sync.aligned.m64n96k8.f32.tf32.tf32 {"
      "%0, %1, %2, %3, %4, %5, %6, %7, %8, %9, %10, %11, "
      "%12, %13, %14, %15, %16, %17, %18, %19, %20, %21, %22, %23, "
      "%24, %25, %26, %27, %28, %29, %30, %31, %32, %33, %34, %35, "
      "%36, %37, %38, %39, %40, %41, %42, %43, %44, %45, %46, %47 "
      "}, {%48, %49, %50, %51}, %52, p, 1, 1;\n"
      "}\n"
      : "+f"(d[0]), "+f"(d[1]), "+f"(d[2]), "+f"(d[3]), "+f"(d[4]), "+f"(d[5]), "+f"(d[6]), "+f"(d[7]), "+f"(d[8]),
        "+f"(d[9]), "+f"(d[10]), "+f"(d[11]), "+f"(d[12]), "+f"(d[13]), "+f"(d[14]), "+f"(d[15]), "+f"(d[16]),
        "+f"(d[17]), "+f"(d[18]), "+f"(d[19]), "+f"(d[20]), "+f"(d[21]), "+f"(d[22]), "+f"(d[23]), "+f"(d[24]),
        "+f"(d[25]), "+f"(d[26]), "+f"(d[27]), "+f"(d[28]), "+f"(d[29]), "+f"(d[30]), "+f"(d[31]), "+f"(d[32]),
        "+f"(d[33]), "+f"(d[34]), "+f"(d[35]), "+f"(d[36]), "+f"(d[37]), "+f"(d[38]), "+f"(d[39]), "+f"(d[40]),
        "+f"(d[41]), "+f"(d[42]), "+f"(d[43]), "+f"(d[44]), "+f"(d[45]), "+f"(d[46]), "+f"(d[47])
      : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "l"(desc_b), "n"(1));
}

// The 128 accumulators of an m64n256 product: their registers in the instruction, and as asm operands.
#define KBENCH_WGMMA_D128_REGISTERS \
  "%0, %1, %2, %3, %4, %5, %6, %7, %8, %9, %10, %11, %12, %13, %14, %15, %16, %17, %18, %19, %20, " \
  "%21, %22, %23, %24, %25, %26, %27, %28, %29, %30, %31, %32, %33, %34, %35, %36, %37, %38, %39, " \
  "%40, %41, %42, %43, %44, %45, %46, %47, %48, %49, %50, %51, %52, %53, %54, %55, %56, %57, %58, " \
  "%59, %60, %61, %62, %63, %64, %65, %66, %67, %68, %69, %70, %71, %72, %73, %74, %75, %76, %77, " \
  "%78, %79, %80, %81, %82, %83, %84, %85, %86, %87, %88, %89, %90, %91, %92, %93, %94, %95, %96, " \
  "%97, %98, %99, %100, %101, %102, %103, %104, %105, %106, %107, %108, %109, %110, %111, %112, %113, " \
  "%114, %115, %116, %117, %118, %119, %120, %121, %122, %123, %124, %125, %126, %127 "
#define KBENCH_WGMMA_D128_OPERANDS(d) \
  "+f"(d[0]), "+f"(d[1]), "+f"(d[2]), "+f"(d[3]), "+f"(d[4]), "+f"(d[5]), "+f"(d[6]), "+f"(d[7]), \
  "+f"(d[8]), "+f"(d[9]), "+f"(d[10]), "+f"(d[11]), "+f"(d[12]), "+f"(d[13]), "+f"(d[14]), "+f"(d[15]), \
  "+f"(d[16]), "+f"(d[17]), "+f"(d[18]), "+f"(d[19]), "+f"(d[20]), "+f"(d[21]), "+f"(d[22]), "+f"(d[23]), \
  "+f"(d[24]), "+f"(d[25]), "+f"(d[26]), "+f"(d[27]), "+f"(d[28]), "+f"(d[29]), "+f"(d[30]), "+f"(d[31]), \
  "+f"(d[32]), "+f"(d[33]), "+f"(d[34]), "+f"(d[35]), "+f"(d[36]), "+f"(d[37]), "+f"(d[38]), "+f"(d[39]), \
  "+f"(d[40]), "+f"(d[41]), "+f"(d[42]), "+f"(d[43]), "+f"(d[44]), "+f"(d[45]), "+f"(d[46]), "+f"(d[47]), \
  "+f"(d[48]), "+f"(d[49]), "+f"(d[50]), "+f"(d[51]), "+f"(d[52]), "+f"(d[53]), "+f"(d[54]), "+f"(d[55]), \
  "+f"(d[56]), "+f"(d[57]), "+f"(d[58]), "+f"(d[59]), "+f"(d[60]), "+f"(d[61]), "+f"(d[62]), "+f"(d[63]), \
  "+f"(d[64]), "+f"(d[65]), "+f"(d[66]), "+f"(d[67]), "+f"(d[68]), "+f"(d[69]), "+f"(d[70]), "+f"(d[71]), \
  "+f"(d[72]), "+f"(d[73]), "+f"(d[74]), "+f"(d[75]), "+f"(d[76]), "+f"(d[77]), "+f"(d[78]), "+f"(d[79]), \
  "+f"(d[80]), "+f"(d[81]), "+f"(d[82]), "+f"(d[83]), "+f"(d[84]), "+f"(d[85]), "+f"(d[86]), "+f"(d[87]), \
  "+f"(d[88]), "+f"(d[89]), "+f"(d[90]), "+f"(d[91]), "+f"(d[92]), "+f"(d[93]), "+f"(d[94]), "+f"(d[95]), \
  "+f"(d[96]), "+f"(d[97]), "+f"(d[98]), "+f"(d[99]), "+f"(d[100]), "+f"(d[101]), "+f"(d[102]), \
  "+f"(d[103]), "+f"(d[104]), "+f"(d[105]), "+f"(d[106]), "+f"(d[107]), "+f"(d[108]), "+f"(d[109]), \
  "+f"(d[110]), "+f"(d[111]), "+f"(d[112]), "+f"(d[113]), "+f"(d[114]), "+f"(d[115]), "+f"(d[116]), \
  "+f"(d[117]), "+f"(d[118]), "+f"(d[119]), "+f"(d[120]), "+f"(d[121]), "+f"(d[122]), "+f"(d[123]), \
  "+f"(d[124]), "+f"(d[125]), "+f"(d[126]), "+f"(d[127])

// d (64 x 256, fp32) += a (64 x 8 at desc_a) x b (8 x 256 at desc_b), both TF32 in shared memory,
// K-major and unswizzled (wgmma_desc.hpp): the form of the fastest Hopper GEMMs, which `kbench
// calibrate` times. Accumulator layout as above, j < 32: d[4j + e] (16w + gid + 8 (e / 2), 8j + 2 tig + e % 2).
__device__ __forceinline__ void wgmma_m64n256k8_tf32_ss(float (&d)[128], std::uint64_t desc_a, std::uint64_t desc_b) {
  KBENCH_WGMMA_ASM("{\n"
                   ".reg .pred p;\n"
                   "setp.ne.b32 p, %130, 0;\n"
                   "wgmma.mma_async.sync.aligned.m64n256k8.f32.tf32.tf32 {" KBENCH_WGMMA_D128_REGISTERS
                   "}, %128, %129, p, 1, 1;\n"
                   "}\n"
                   : KBENCH_WGMMA_D128_OPERANDS(d)
                   : "l"(desc_a), "l"(desc_b), "n"(1));
}

// The same with fp16 or bf16 operands, m64n256k16 (a 64 x 16, b 16 x 256, both K-major: transpose
// flags 0), fp32 accumulation: the dense half-precision rate `kbench calibrate` times.
__device__ __forceinline__ void wgmma_m64n256k16_f16_ss(float (&d)[128], std::uint64_t desc_a, std::uint64_t desc_b) {
  KBENCH_WGMMA_ASM("{\n"
                   ".reg .pred p;\n"
                   "setp.ne.b32 p, %130, 0;\n"
                   "wgmma.mma_async.sync.aligned.m64n256k16.f32.f16.f16 {" KBENCH_WGMMA_D128_REGISTERS
                   "}, %128, %129, p, 1, 1, 0, 0;\n"
                   "}\n"
                   : KBENCH_WGMMA_D128_OPERANDS(d)
                   : "l"(desc_a), "l"(desc_b), "n"(1));
}

__device__ __forceinline__ void wgmma_m64n256k16_bf16_ss(float (&d)[128], std::uint64_t desc_a, std::uint64_t desc_b) {
  KBENCH_WGMMA_ASM("{\n"
                   ".reg .pred p;\n"
                   "setp.ne.b32 p, %130, 0;\n"
                   "wgmma.mma_async.sync.aligned.m64n256k16.f32.bf16.bf16 {" KBENCH_WGMMA_D128_REGISTERS
                   "}, %128, %129, p, 1, 1, 0, 0;\n"
                   "}\n"
                   : KBENCH_WGMMA_D128_OPERANDS(d)
                   : "l"(desc_a), "l"(desc_b), "n"(1));
}

// m64n64k16 with fp16 or bf16 operands, both K-major in shared memory (transpose flags 0), fp32
// accumulation: the fp16/bf16 implicit GEMM's wgmma variant (half_wgmma_kernel.cuh). Accumulator
// layout as above, j < 8: d[4j + e] (16w + gid + 8 (e / 2), 8j + 2 tig + e % 2).
#define KBENCH_WGMMA_D32_REGISTERS \
  "%0, %1, %2, %3, %4, %5, %6, %7, %8, %9, %10, %11, %12, %13, %14, %15, " \
  "%16, %17, %18, %19, %20, %21, %22, %23, %24, %25, %26, %27, %28, %29, %30, %31 "
#define KBENCH_WGMMA_D32_OPERANDS(d) \
  "+f"(d[0]), "+f"(d[1]), "+f"(d[2]), "+f"(d[3]), "+f"(d[4]), "+f"(d[5]), "+f"(d[6]), "+f"(d[7]), \
  "+f"(d[8]), "+f"(d[9]), "+f"(d[10]), "+f"(d[11]), "+f"(d[12]), "+f"(d[13]), "+f"(d[14]), "+f"(d[15]), \
  "+f"(d[16]), "+f"(d[17]), "+f"(d[18]), "+f"(d[19]), "+f"(d[20]), "+f"(d[21]), "+f"(d[22]), "+f"(d[23]), \
  "+f"(d[24]), "+f"(d[25]), "+f"(d[26]), "+f"(d[27]), "+f"(d[28]), "+f"(d[29]), "+f"(d[30]), "+f"(d[31])

__device__ __forceinline__ void wgmma_m64n64k16_f16_ss(float (&d)[32], std::uint64_t desc_a, std::uint64_t desc_b) {
  KBENCH_WGMMA_ASM("{\n"
                   ".reg .pred p;\n"
                   "setp.ne.b32 p, %34, 0;\n"
                   "wgmma.mma_async.sync.aligned.m64n64k16.f32.f16.f16 {" KBENCH_WGMMA_D32_REGISTERS
                   "}, %32, %33, p, 1, 1, 0, 0;\n"
                   "}\n"
                   : KBENCH_WGMMA_D32_OPERANDS(d)
                   : "l"(desc_a), "l"(desc_b), "n"(1));
}

__device__ __forceinline__ void wgmma_m64n64k16_bf16_ss(float (&d)[32], std::uint64_t desc_a, std::uint64_t desc_b) {
  KBENCH_WGMMA_ASM("{\n"
                   ".reg .pred p;\n"
                   "setp.ne.b32 p, %34, 0;\n"
                   "wgmma.mma_async.sync.aligned.m64n64k16.f32.bf16.bf16 {" KBENCH_WGMMA_D32_REGISTERS
                   "}, %32, %33, p, 1, 1, 0, 0;\n"
                   "}\n"
                   : KBENCH_WGMMA_D32_OPERANDS(d)
                   : "l"(desc_a), "l"(desc_b), "n"(1));
}

#undef KBENCH_WGMMA_D32_OPERANDS
#undef KBENCH_WGMMA_D32_REGISTERS

#undef KBENCH_WGMMA_D128_OPERANDS
#undef KBENCH_WGMMA_D128_REGISTERS
#undef KBENCH_WGMMA_ASM

}  // namespace kbench::gpu::conv
