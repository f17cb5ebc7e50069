#pragma once
// A CPU emulation of the CUDA execution model, just large enough to run kbench's own kernel sources
// (kernels/cuda/**/*.cuh) on the CPU in the tests, on machines with no GPU.
//
// Force-included (-include) before the kernel headers of the emulation tests only. Every thread of a
// block runs as a fiber (ucontext) on one OS thread; __syncthreads() and the warp-collective
// operations (mma.sync, wgmma.mma_async, shuffles) are barriers between fibers. The emulation takes
// the freedoms the hardware has, one mode at a time, so that an ordering bug shows in some mode:
//   - cp.async copies land at their cp.async.wait_group (as late as allowed: a stage read before its
//     wait reads stale data) or at issue (as early as allowed: a stage refilled while someone may
//     still read it is overwritten at once); CopyLanding below;
//   - threads take their turns between barriers in ascending, descending or shuffled order, or warp
//     by warp, each warp running to its next block barrier before the next starts; Schedule below;
//   - wgmma.mma_async meets its warp only (PTX: .sync waits for the warp, .aligned asks the whole
//     warpgroup to issue it; it is no block barrier), reads its shared-memory operands at issue and
//     checks at the wgmma.wait_group that completes it that they did not change in between; every
//     thread of the block must have fenced its shared-memory writes (fence.proxy.async) before the
//     block barrier that precedes a wgmma, as before a bulk copy out.
// A thread that exits with a cp.async copy, a wgmma product or a bulk copy out still in flight fails
// the launch. Shared memory is poisoned with NaNs before every block. Global memory: cp.async sources
// and streaming stores are checked against the buffers the test registered (a small memcheck),
// failing the test by exception.
//
// What it does not model: timing, memory ordering between blocks (they run one after another),
// bank conflicts, and the exact rounding of the tensor cores' accumulation (done here in double).
#include <bit>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <stdexcept>
#include <string>
#include <vector>

namespace kbench::emu {

struct Dim3 {
  unsigned x = 1, y = 1, z = 1;
};

// Raised for anything the hardware would fault on or hang at: an out-of-bounds copy or store, a
// misaligned vector, a barrier not every thread reaches.
struct EmulationError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

// Per-thread and per-block state of the block being run.
const Dim3& thread_idx();
const Dim3& block_idx();
const Dim3& block_dim();
const Dim3& grid_dim();
int lane();  // linear thread index % 32

void syncthreads();
void warp_sync();      // barrier of the calling thread's 32-lane warp
int warpgroup_rank();  // linear thread index % 128

// Scratch the 32 lanes of a warp exchange through in a collective operation.
struct WarpSlots {
  std::uint32_t a[32][4];
  std::uint32_t b[32][2];
  float c[32][4];
  float value[32];
};
WarpSlots& warp_slots();

// The block's dynamic shared memory: shared-window addresses (descriptors) are offsets from it.
unsigned char* shared_base();
std::size_t shared_size();

// wgmma.mma_async, issued by the calling thread with these descriptors (desc_a 0 when A is in
// registers): checks that every thread of the block fenced its shared-memory writes to the async
// proxy before the last block barrier, and that the other warps of the warpgroup issue their product
// of the same number with the same descriptors.
void wgmma_issue(std::uint64_t desc_a, std::uint64_t desc_b);
// wgmma.mma_async's deferred part: `apply` runs when a wgmma.wait_group lets its group complete.
// A thread that exits with a product still in flight fails the launch (its result would be lost).
void wgmma_enqueue(std::function<void()> apply);
void wgmma_commit();
void wgmma_wait(int pending_allowed);

// cp.async: `bytes` copied from src to the shared destination, of which the first `src_bytes` come
// from src and the rest are zeros; in flight until a wait covers its group, landing then or at issue
// (CopyLanding). A thread that exits with a copy in flight fails the launch: the copy would land in
// shared memory that another block may own by then.
void cp_async(void* shared_dst, const void* src, int bytes, int src_bytes);
void cp_async_commit();
void cp_async_wait(int pending_allowed);

// Hopper's bulk copies and the mbarriers that count their bytes (bulk_copy_ops.cuh). A copy into
// shared memory lands when a thread's try_wait on its barrier looks (as late as the hardware may), or
// at issue (CopyLanding::at_issue), its bytes counted on the barrier at the try_wait either way;
// a barrier's phase completes once its arrivals are in and the bytes it expects have landed, and
// more bytes than expected fail the launch. A copy out of shared memory reads its source when its
// thread waits for the group (.read): data written after the copy was issued would reach memory
// here too. Before a copy out, every thread of the block must have fenced its writes to the async
// proxy (fence.proxy.async) before the block barrier that precedes the copy; a thread that exits
// with a copy out not waited for, or a block that ends with copies in that nobody waited for, fail.
void mbarrier_init(void* barrier, unsigned arrivals);
void mbarrier_arrive_expect_tx(void* barrier, unsigned bytes);
bool mbarrier_try_wait(void* barrier, unsigned parity);  // yields to the other threads when not yet
void bulk_copy_to_shared(void* dst, const void* src, unsigned bytes, void* barrier);
void fence_proxy_async_shared();
void bulk_copy_to_global(void* dst, const void* src, unsigned bytes);
void bulk_commit();
void bulk_wait_read(int pending_allowed);

// Global buffers a kernel may read through cp.async and write with streaming stores.
void allow_read(const void* p, std::size_t bytes);
void allow_write(void* p, std::size_t bytes);
void clear_buffers();
void check_read(const void* p, std::size_t bytes);
void check_write(const void* p, std::size_t bytes);       // and counts the bytes written (aligned to its size)
void check_write_span(const void* p, std::size_t bytes);  // the same, for a span of any (checked) alignment
// How many times each byte of the writable buffer that starts at `buffer` was stored to (streaming
// stores) since allow_write, saturating at 255: a test checks each output is written exactly once.
const std::vector<std::uint8_t>& write_counts(const void* buffer);

// The order in which a block's threads take their turns between barriers: by ascending index, by
// descending index, shuffled afresh each round (seeded by the block and the round, so a failure
// reproduces), or warp_ahead: one warp at a time runs until each of its threads waits at the block
// barrier (or has exited, or can make no progress alone), its lanes taking turns in ascending order;
// the warp that goes first rotates with each block barrier. A correct kernel computes the same in
// every order. One that reads another thread's shared-memory write with no barrier between them (what
// racecheck reports on the GPU) sees the write when the writer's turn comes first and the NaN poison
// or a stale value when it comes second; one that refills a stage other warps may still read is seen
// when a warp gets a whole barrier interval ahead (warp_ahead, with copies landing at issue).
enum class Schedule { ascending, descending, shuffled, warp_ahead };
void set_schedule(Schedule schedule);  // for the launches that follow
Schedule schedule();

// When a cp.async (and a bulk copy into shared memory) writes its destination: at the wait that
// covers it (the latest the hardware may) or when it is issued (the earliest).
enum class CopyLanding { at_wait, at_issue };
void set_copy_landing(CopyLanding landing);  // for the launches that follow
CopyLanding copy_landing();

// Runs `kernel` for every block of `grid` (x fastest), each with block.x threads (a multiple of 32),
// with `shared` (shared_bytes of it) as the block's dynamic shared memory.
void launch(Dim3 grid, Dim3 block, unsigned char* shared, std::size_t shared_bytes,
            const std::function<void()>& kernel);

}  // namespace kbench::emu

// ------------------------------------------------------------------ CUDA spellings for the kernel sources
#define __global__
#define __device__
#define __host__
#define __forceinline__ inline
#define __launch_bounds__(...)
#define __shared__
#define __align__(n) __attribute__((aligned(n)))
#define threadIdx (::kbench::emu::thread_idx())
#define blockIdx (::kbench::emu::block_idx())
#define blockDim (::kbench::emu::block_dim())
#define gridDim (::kbench::emu::grid_dim())

inline void __syncthreads() { ::kbench::emu::syncthreads(); }
inline void __syncwarp(unsigned /*mask*/ = 0xffffffffu) { ::kbench::emu::warp_sync(); }

struct alignas(16) float4 {
  float x, y, z, w;
};
struct alignas(8) float2 {
  float x, y;
};
inline float4 make_float4(float x, float y, float z, float w) { return float4{x, y, z, w}; }
inline float2 make_float2(float x, float y) { return float2{x, y}; }
inline unsigned __float_as_uint(float v) { return std::bit_cast<unsigned>(v); }
inline float __uint_as_float(unsigned v) { return std::bit_cast<float>(v); }

// Read-only loads: checked against the registered input buffers.
inline float __ldg(const float* p) {
  ::kbench::emu::check_read(p, sizeof(float));
  return *p;
}
inline float4 __ldg(const float4* p) {
  ::kbench::emu::check_read(p, sizeof(float4));
  return *p;
}

// Warp shuffle: every lane of the warp takes part (the kernels pass the full mask).
inline float __shfl_sync(unsigned /*mask*/, float v, int src_lane) {
  ::kbench::emu::WarpSlots& s = ::kbench::emu::warp_slots();
  s.value[::kbench::emu::lane()] = v;
  ::kbench::emu::warp_sync();
  const float r = s.value[src_lane & 31];
  ::kbench::emu::warp_sync();
  return r;
}

// Streaming stores: checked against the registered output buffers.
inline void __stcs(float* p, float v) {
  ::kbench::emu::check_write(p, sizeof v);
  *p = v;
}
inline void __stcs(float4* p, float4 v) {
  ::kbench::emu::check_write(p, sizeof v);
  *p = v;
}
inline void __stcs(float2* p, float2 v) {
  ::kbench::emu::check_write(p, sizeof v);
  *p = v;
}
