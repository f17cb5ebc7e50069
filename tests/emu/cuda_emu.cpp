// The fiber scheduler behind cuda_emu.hpp: one ucontext per CUDA thread, run in the Schedule's order
// on the calling OS thread; barriers yield until every thread of the block (or warp) has arrived.
#include "cuda_emu.hpp"

#include "test_seed.hpp"

#include <ucontext.h>

#include <algorithm>
#include <cstring>
#include <deque>
#include <memory>
#include <numeric>
#include <random>
#include <utility>
#include <vector>

namespace kbench::emu {

namespace {

constexpr std::size_t kStackBytes = 256 * 1024;
constexpr std::size_t kMaxDynamicSharedBytes = 227 * 1024;

struct CopyOp {
  unsigned char* dst;
  const unsigned char* src;
  int bytes;
  int src_bytes;
  bool landed = false;  // written at issue (CopyLanding::at_issue), still in flight until waited for
};

// A thread's asynchronous operations of one kind (cp.async copies, wgmma products), PTX's way:
// issued into an open group, committed as a group, completed oldest group first by a wait that
// leaves at most N groups in flight.
template <class Op>
struct AsyncGroups {
  std::vector<Op> open;                    // issued since the last commit
  std::vector<std::vector<Op>> committed;  // oldest first

  bool empty() const { return open.empty() && committed.empty(); }
  // Whether any operation is in flight (committed groups may be empty).
  bool any() const {
    return !open.empty() || std::any_of(committed.begin(), committed.end(), [](const auto& g) { return !g.empty(); });
  }
  void clear() {
    open.clear();
    committed.clear();
  }
  void commit() {
    committed.push_back(std::move(open));
    open.clear();
  }
  // Completes (`complete(group)`) the oldest groups until at most `pending_allowed` are in flight.
  template <class Complete>
  void wait(int pending_allowed, Complete&& complete) {
    while (static_cast<int>(committed.size()) > pending_allowed) {
      complete(committed.front());
      committed.erase(committed.begin());
    }
  }
};

// A bulk copy out of shared memory (cp.async.bulk.global.shared::cta), read when its group is waited for.
struct BulkStore {
  unsigned char* dst;
  const unsigned char* src;
  std::size_t bytes;
};

struct Barrier {
  int arrived = 0;
  unsigned generation = 0;
};

struct Fiber {
  ucontext_t context{};
  std::unique_ptr<unsigned char[]> stack;
  Dim3 thread_idx;
  int linear = 0;
  bool done = false;
  AsyncGroups<CopyOp> copies;                   // cp.async
  AsyncGroups<std::function<void()>> products;  // wgmma.mma_async: each lands its product when run
  AsyncGroups<BulkStore> bulk_stores;           // cp.async.bulk to global, per bulk group
  long long fenced_at = -1;                     // block-barrier generation of the last fence.proxy.async
  long long wgmma_issued = 0;                   // wgmma.mma_async issued so far
  const Barrier* waiting_at = nullptr;          // the barrier the fiber waits at, if any,
  unsigned waiting_generation = 0;              // for its release from this generation
};

// An mbarrier in shared memory: its arrivals, the bytes its current phase still waits for (tx), the
// phases completed so far, and the bulk copies completing on it that have not landed yet.
struct MBarrier {
  const void* address = nullptr;
  unsigned arrivals = 0;
  unsigned pending = 0;
  long long tx = 0;
  unsigned completed = 0;
  std::vector<CopyOp> in_flight;
};

// The wgmma products of a warpgroup not yet issued by all its 128 threads, oldest first, each with
// the descriptors the first thread issued it with: the others must issue the same.
struct WgmmaIssue {
  std::uint64_t desc_a = 0, desc_b = 0;
  int threads = 0;
};
struct WarpgroupIssues {
  std::deque<WgmmaIssue> pending;
  long long first = 0;  // the number of the oldest pending product
};

struct Range {
  const unsigned char* begin;
  std::size_t bytes;
  bool contains(const void* p, std::size_t n) const {
    const auto* c = static_cast<const unsigned char*>(p);
    return c >= begin && c + n <= begin + bytes;
  }
};

struct Machine {
  Dim3 grid, block, block_idx;
  unsigned char* shared = nullptr;
  std::size_t shared_bytes = 0;
  std::vector<Fiber> fibers;
  int current = -1;
  ucontext_t scheduler{};
  const std::function<void()>* kernel = nullptr;
  Barrier block_barrier;
  std::vector<Barrier> warp_barriers;
  std::vector<WarpSlots> warps;
  std::vector<WarpgroupIssues> warpgroup_issues;
  long long fences_checked_at = -1;  // the block-barrier generation whose fences were all found in place
  std::vector<MBarrier> mbarriers;   // of the block being run
  std::uint64_t events = 0;          // barrier arrivals and thread exits: progress, for deadlock detection
  std::vector<Range> reads, writes;
  std::vector<std::vector<std::uint8_t>> write_counts;  // per byte of each writable range (saturating)
  std::string error;                                    // an EmulationError raised inside a fiber, rethrown by launch()
  Schedule schedule = Schedule::ascending;
  CopyLanding landing = CopyLanding::at_wait;
};

Machine& machine() {
  static Machine m;
  return m;
}

Fiber& current_fiber() {
  Machine& m = machine();
  if (m.current < 0) throw EmulationError("CUDA emulation: device code called outside a launch");
  return m.fibers[static_cast<std::size_t>(m.current)];
}

void yield() {
  Machine& m = machine();
  swapcontext(&current_fiber().context, &m.scheduler);
}

void wait_at(Barrier& b, int parties) {
  Machine& m = machine();
  ++m.events;
  const unsigned generation = b.generation;
  if (++b.arrived == parties) {
    b.arrived = 0;
    ++b.generation;
    return;
  }
  Fiber& f = current_fiber();
  f.waiting_at = &b;
  f.waiting_generation = generation;
  while (b.generation == generation) yield();
  f.waiting_at = nullptr;
}

void land(CopyOp& op) {
  if (op.landed) return;
  if (op.src_bytes > 0) std::memcpy(op.dst, op.src, static_cast<std::size_t>(op.src_bytes));
  if (op.bytes > op.src_bytes) std::memset(op.dst + op.src_bytes, 0, static_cast<std::size_t>(op.bytes - op.src_bytes));
  op.landed = true;
}

void land_group(std::vector<CopyOp>& group) {
  for (CopyOp& op : group) land(op);
}

void fiber_entry() {
  Machine& m = machine();
  Fiber& f = current_fiber();
  try {
    (*m.kernel)();
    if (f.copies.any())
      throw EmulationError("cp.async: a thread exited with a copy in flight (no cp.async.wait_group covering it)");
    if (!f.products.empty())
      throw EmulationError("wgmma: a thread exited with a product not waited for (wgmma.wait_group)");
    if (!f.bulk_stores.empty())
      throw EmulationError(
          "cp.async.bulk: a thread exited before its copy out had read shared memory (wait_group.read)");
  } catch (const std::exception& e) {
    if (m.error.empty()) m.error = e.what();
  }
  f.done = true;
  ++m.events;
  swapcontext(&f.context, &m.scheduler);
}

// One turn of thread t: it runs until it yields (at a barrier, a collective, a wait) or exits.
void run_turn(int t) {
  Machine& m = machine();
  m.current = t;
  swapcontext(&m.scheduler, &m.fibers[static_cast<std::size_t>(t)].context);
  m.current = -1;
}

bool at_block_barrier(const Fiber& f) {
  const Barrier& b = machine().block_barrier;
  return f.done || (f.waiting_at == &b && f.waiting_generation == b.generation);
}

// Warp `warp`'s lanes take turns until every one waits at the block barrier or has exited, or a whole
// round of turns makes no progress (they wait for another warp: an mbarrier, a warpgroup's product).
// Returns whether every lane has exited.
bool run_warp_ahead(int warp) {
  Machine& m = machine();
  const auto lane0 = static_cast<std::size_t>(32 * warp);
  for (;;) {
    const std::uint64_t before = m.events;
    bool ran = false;
    for (std::size_t l = lane0; l < lane0 + 32; ++l) {
      if (at_block_barrier(m.fibers[l])) continue;
      ran = true;
      run_turn(static_cast<int>(l));
      if (!m.error.empty()) return false;
    }
    if (!ran || m.events == before) break;
  }
  for (std::size_t l = lane0; l < lane0 + 32; ++l)
    if (!m.fibers[l].done) return false;
  return true;
}

void run_block() {
  Machine& m = machine();
  const int threads = static_cast<int>(m.block.x * m.block.y * m.block.z);
  for (int t = 0; t < threads; ++t) {
    Fiber& f = m.fibers[static_cast<std::size_t>(t)];
    f.linear = t;
    f.thread_idx = Dim3{static_cast<unsigned>(t) % m.block.x, (static_cast<unsigned>(t) / m.block.x) % m.block.y,
                        static_cast<unsigned>(t) / (m.block.x * m.block.y)};
    f.done = false;
    f.copies.clear();
    f.products.clear();
    f.bulk_stores.clear();
    f.fenced_at = -1;
    f.wgmma_issued = 0;
    f.waiting_at = nullptr;
    getcontext(&f.context);
    f.context.uc_stack.ss_sp = f.stack.get();
    f.context.uc_stack.ss_size = kStackBytes;
    f.context.uc_link = nullptr;
    makecontext(&f.context, fiber_entry, 0);
  }
  m.block_barrier = Barrier{};
  m.mbarriers.clear();
  m.warp_barriers.assign(static_cast<std::size_t>(threads / 32), Barrier{});
  m.warpgroup_issues.assign(static_cast<std::size_t>((threads + 127) / 128), WarpgroupIssues{});
  m.fences_checked_at = -1;
  // NaN bytes: a read of shared memory nobody wrote poisons the result.
  if (m.shared_bytes > 0) std::memset(m.shared, 0xff, m.shared_bytes);
  // Turns in schedule order (Schedule in cuda_emu.hpp); shuffled: a fresh order each round, from the
  // block's index (and KBENCH_TEST_SEED, so a soak shuffles differently on every seed).
  std::vector<int> order(static_cast<std::size_t>(threads));
  std::iota(order.begin(), order.end(), 0);
  if (m.schedule == Schedule::descending) std::reverse(order.begin(), order.end());
  std::mt19937_64 shuffle(testing::test_seed((static_cast<std::uint64_t>(m.block_idx.z) << 42) ^
                                             (static_cast<std::uint64_t>(m.block_idx.y) << 21) ^ m.block_idx.x));
  for (;;) {
    const std::uint64_t before = m.events;
    bool all_done = true;
    if (m.schedule == Schedule::warp_ahead) {
      const int warps = threads / 32;
      const int lead = static_cast<int>(m.block_barrier.generation % static_cast<unsigned>(warps));
      for (int i = 0; i < warps && m.error.empty(); ++i) all_done = run_warp_ahead((lead + i) % warps) && all_done;
    } else {
      if (m.schedule == Schedule::shuffled) std::shuffle(order.begin(), order.end(), shuffle);
      for (const int t : order) {
        if (m.fibers[static_cast<std::size_t>(t)].done) continue;
        all_done = false;
        run_turn(t);
        if (!m.error.empty()) break;
      }
    }
    if (!m.error.empty()) return;
    if (all_done) {
      for (const MBarrier& b : m.mbarriers)
        if (!b.in_flight.empty()) m.error = "cp.async.bulk: copies into shared memory that no thread waited for";
      return;
    }
    if (m.events == before) {
      m.error = "CUDA emulation: deadlock (a barrier that not every thread of the block or warp reaches)";
      return;
    }
  }
}

}  // namespace

void set_schedule(Schedule schedule) { machine().schedule = schedule; }
Schedule schedule() { return machine().schedule; }
void set_copy_landing(CopyLanding landing) { machine().landing = landing; }
CopyLanding copy_landing() { return machine().landing; }

const Dim3& thread_idx() { return current_fiber().thread_idx; }
const Dim3& block_idx() { return machine().block_idx; }
const Dim3& block_dim() { return machine().block; }
const Dim3& grid_dim() { return machine().grid; }
int lane() { return current_fiber().linear % 32; }

void syncthreads() {
  Machine& m = machine();
  wait_at(m.block_barrier, static_cast<int>(m.block.x * m.block.y * m.block.z));
}

void warp_sync() {
  Machine& m = machine();
  wait_at(m.warp_barriers[static_cast<std::size_t>(current_fiber().linear / 32)], 32);
}

WarpSlots& warp_slots() {
  Machine& m = machine();
  return m.warps[static_cast<std::size_t>(current_fiber().linear / 32)];
}

int warpgroup_rank() { return current_fiber().linear % 128; }

unsigned char* shared_base() { return machine().shared; }
std::size_t shared_size() { return machine().shared_bytes; }

namespace {

// Every thread of the block still running fenced (fence.proxy.async) in the barrier interval that
// ended at the last block barrier: after its shared-memory writes, before the barrier that hands them
// to the async proxy (a copy out, a wgmma).
bool every_thread_fenced_before_last_barrier() {
  const Machine& m = machine();
  const long long generation = m.block_barrier.generation;
  const auto threads = static_cast<std::size_t>(m.block.x * m.block.y * m.block.z);
  for (std::size_t t = 0; t < threads; ++t) {
    const Fiber& f = m.fibers[t];
    if (!f.done && (f.fenced_at < 0 || f.fenced_at != generation - 1)) return false;
  }
  return true;
}

}  // namespace

void wgmma_issue(std::uint64_t desc_a, std::uint64_t desc_b) {
  Machine& m = machine();
  const int threads = static_cast<int>(m.block.x * m.block.y * m.block.z);
  if (threads % 128 != 0) throw EmulationError("wgmma: a block that is not whole warpgroups");
  const long long generation = m.block_barrier.generation;
  if (m.fences_checked_at != generation) {
    if (!every_thread_fenced_before_last_barrier())
      throw EmulationError(
          "wgmma: shared-memory operands read without every thread's fence.proxy.async before the last block "
          "barrier");
    m.fences_checked_at = generation;
  }
  Fiber& f = current_fiber();
  WarpgroupIssues& issues = m.warpgroup_issues[static_cast<std::size_t>(f.linear / 128)];
  const auto index = static_cast<std::size_t>(f.wgmma_issued - issues.first);
  if (index == issues.pending.size()) issues.pending.push_back(WgmmaIssue{desc_a, desc_b, 0});
  WgmmaIssue& issue = issues.pending[index];
  if (issue.desc_a != desc_a || issue.desc_b != desc_b)
    throw EmulationError("wgmma: descriptors differ across the warpgroup");
  ++issue.threads;
  ++f.wgmma_issued;
  while (!issues.pending.empty() && issues.pending.front().threads == 128) {
    issues.pending.pop_front();
    ++issues.first;
  }
}

void wgmma_enqueue(std::function<void()> apply) { current_fiber().products.open.push_back(std::move(apply)); }

void wgmma_commit() { current_fiber().products.commit(); }

void wgmma_wait(int pending_allowed) {
  current_fiber().products.wait(pending_allowed, [](const std::vector<std::function<void()>>& group) {
    for (const auto& apply : group) apply();
  });
}

void cp_async(void* shared_dst, const void* src, int bytes, int src_bytes) {
  Machine& m = machine();
  auto* dst = static_cast<unsigned char*>(shared_dst);
  if (dst < m.shared || dst + bytes > m.shared + m.shared_bytes)
    throw EmulationError("cp.async: destination outside the block's dynamic shared memory");
  if (reinterpret_cast<std::uintptr_t>(dst) % static_cast<std::uintptr_t>(bytes) != 0 ||
      (src_bytes > 0 && reinterpret_cast<std::uintptr_t>(src) % static_cast<std::uintptr_t>(bytes) != 0))
    throw EmulationError("cp.async: address not aligned to the copy size");
  if (src_bytes > 0 && std::none_of(m.reads.begin(), m.reads.end(), [&](const Range& r) {
        return r.contains(src, static_cast<std::size_t>(src_bytes));
      }))
    throw EmulationError("cp.async: source outside every input buffer");
  CopyOp op{dst, static_cast<const unsigned char*>(src), bytes, src_bytes};
  if (m.landing == CopyLanding::at_issue) land(op);
  current_fiber().copies.open.push_back(op);
}

void cp_async_commit() { current_fiber().copies.commit(); }

void cp_async_wait(int pending_allowed) { current_fiber().copies.wait(pending_allowed, land_group); }

namespace {

bool in_shared(const void* p, std::size_t bytes) {
  const Machine& m = machine();
  const auto* c = static_cast<const unsigned char*>(p);
  return c >= m.shared && c + bytes <= m.shared + m.shared_bytes;
}

void check_bulk_shape(const void* dst, const void* src, unsigned bytes) {
  if (bytes == 0 || bytes % 16 != 0) throw EmulationError("cp.async.bulk: size not a positive multiple of 16 bytes");
  if (reinterpret_cast<std::uintptr_t>(dst) % 16 != 0 || reinterpret_cast<std::uintptr_t>(src) % 16 != 0)
    throw EmulationError("cp.async.bulk: address not 16-byte aligned");
}

MBarrier& mbarrier_at(const void* address) {
  for (MBarrier& b : machine().mbarriers)
    if (b.address == address) return b;
  throw EmulationError("mbarrier: used before mbarrier.init");
}

void complete_phase_if_done(MBarrier& b) {
  if (b.tx < 0) throw EmulationError("mbarrier: copies completed more bytes than the phase expected");
  if (b.pending == 0 && b.tx == 0) {
    ++b.completed;
    b.pending = b.arrivals;
  }
}

void land_stores(const std::vector<BulkStore>& group) {
  for (const BulkStore& op : group) {
    check_write_span(op.dst, op.bytes);
    std::memcpy(op.dst, op.src, op.bytes);
  }
}

}  // namespace

void mbarrier_init(void* barrier, unsigned arrivals) {
  Machine& m = machine();
  if (!in_shared(barrier, 8) || reinterpret_cast<std::uintptr_t>(barrier) % 8 != 0)
    throw EmulationError("mbarrier.init: not an 8-byte aligned address in shared memory");
  if (arrivals == 0) throw EmulationError("mbarrier.init: no arrivals");
  for (const MBarrier& b : m.mbarriers)
    if (b.address == barrier) throw EmulationError("mbarrier.init: barrier initialised twice");
  MBarrier b;
  b.address = barrier;
  b.arrivals = b.pending = arrivals;
  m.mbarriers.push_back(std::move(b));
}

void mbarrier_arrive_expect_tx(void* barrier, unsigned bytes) {
  MBarrier& b = mbarrier_at(barrier);
  if (b.pending == 0) throw EmulationError("mbarrier: more arrivals than the phase was initialised for");
  b.tx += bytes;
  --b.pending;
  ++machine().events;
  complete_phase_if_done(b);
}

bool mbarrier_try_wait(void* barrier, unsigned parity) {
  MBarrier& b = mbarrier_at(barrier);
  for (CopyOp& op : b.in_flight) {
    land(op);
    b.tx -= op.bytes;
  }
  b.in_flight.clear();
  complete_phase_if_done(b);
  if ((b.completed & 1u) != (parity & 1u)) return true;
  yield();
  return false;
}

void bulk_copy_to_shared(void* dst, const void* src, unsigned bytes, void* barrier) {
  Machine& m = machine();
  check_bulk_shape(dst, src, bytes);
  if (!in_shared(dst, bytes)) throw EmulationError("cp.async.bulk: destination outside the block's shared memory");
  if (std::none_of(m.reads.begin(), m.reads.end(), [&](const Range& r) { return r.contains(src, bytes); }))
    throw EmulationError("cp.async.bulk: source outside every input buffer");
  MBarrier& b = mbarrier_at(barrier);
  CopyOp op{static_cast<unsigned char*>(dst), static_cast<const unsigned char*>(src), static_cast<int>(bytes),
            static_cast<int>(bytes)};
  if (m.landing == CopyLanding::at_issue) land(op);
  b.in_flight.push_back(op);
}

void fence_proxy_async_shared() { current_fiber().fenced_at = machine().block_barrier.generation; }

void bulk_copy_to_global(void* dst, const void* src, unsigned bytes) {
  check_bulk_shape(dst, src, bytes);
  if (!in_shared(src, bytes)) throw EmulationError("cp.async.bulk: source outside the block's shared memory");
  if (!every_thread_fenced_before_last_barrier())
    throw EmulationError(
        "cp.async.bulk: a copy out of shared memory without every thread's fence.proxy.async before the last "
        "block barrier");
  current_fiber().bulk_stores.open.push_back(
      BulkStore{static_cast<unsigned char*>(dst), static_cast<const unsigned char*>(src), bytes});
}

void bulk_commit() { current_fiber().bulk_stores.commit(); }

void bulk_wait_read(int pending_allowed) { current_fiber().bulk_stores.wait(pending_allowed, land_stores); }

void allow_read(const void* p, std::size_t bytes) {
  machine().reads.push_back(Range{static_cast<const unsigned char*>(p), bytes});
}
void allow_write(void* p, std::size_t bytes) {
  machine().writes.push_back(Range{static_cast<const unsigned char*>(p), bytes});
  machine().write_counts.emplace_back(bytes, 0);
}
void clear_buffers() {
  machine().reads.clear();
  machine().writes.clear();
  machine().write_counts.clear();
}

const std::vector<std::uint8_t>& write_counts(const void* buffer) {
  const Machine& m = machine();
  for (std::size_t i = 0; i < m.writes.size(); ++i)
    if (m.writes[i].begin == buffer) return m.write_counts[i];
  throw EmulationError("write_counts: not a writable buffer");
}

void check_read(const void* p, std::size_t bytes) {
  const Machine& m = machine();
  if (reinterpret_cast<std::uintptr_t>(p) % bytes != 0) throw EmulationError("load: address not aligned to its size");
  if (std::none_of(m.reads.begin(), m.reads.end(), [&](const Range& r) { return r.contains(p, bytes); }))
    throw EmulationError("load: outside every input buffer");
}

void check_write(const void* p, std::size_t bytes) {
  if (reinterpret_cast<std::uintptr_t>(p) % bytes != 0) throw EmulationError("store: address not aligned to its size");
  check_write_span(p, bytes);
}

void check_write_span(const void* p, std::size_t bytes) {
  Machine& m = machine();
  for (std::size_t i = 0; i < m.writes.size(); ++i) {
    if (!m.writes[i].contains(p, bytes)) continue;
    const auto offset = static_cast<std::size_t>(static_cast<const unsigned char*>(p) - m.writes[i].begin);
    for (std::size_t b = offset; b < offset + bytes; ++b)
      if (m.write_counts[i][b] < 255) ++m.write_counts[i][b];
    return;
  }
  throw EmulationError("store: outside every output buffer");
}

void launch(Dim3 grid, Dim3 block, unsigned char* shared, std::size_t shared_bytes,
            const std::function<void()>& kernel) {
  Machine& m = machine();
  const unsigned threads = block.x * block.y * block.z;
  if (threads == 0 || threads % 32 != 0 || threads > 1024)
    throw EmulationError("launch: blocks of 32 to 1024 threads, a multiple of 32");
  // The device's launch limits (compute capability 9.0), which a launch past them fails on with
  // cudaErrorInvalidConfiguration: the grid's y and z below 2^16, x below 2^31; a block's z at most
  // 64; dynamic shared memory at most the 227 KB a block can opt in to.
  if (grid.x == 0 || grid.y == 0 || grid.z == 0 || grid.x > 0x7fffffffu || grid.y > 65535 || grid.z > 65535)
    throw EmulationError("launch: a grid of 1 to 2^31 - 1 blocks along x and 1 to 65535 along y and z");
  if (block.z > 64) throw EmulationError("launch: a block's z extent is at most 64");
  if (shared_bytes > kMaxDynamicSharedBytes)
    throw EmulationError("launch: more dynamic shared memory than a block can have (227 KB)");
  m.grid = grid;
  m.block = block;
  m.shared = shared;
  m.shared_bytes = shared_bytes;
  m.kernel = &kernel;
  m.error.clear();
  while (m.fibers.size() < threads) {
    Fiber f;
    f.stack.reset(new unsigned char[kStackBytes]);  // not value-initialised: untouched pages stay unmapped
    m.fibers.push_back(std::move(f));
  }
  m.warps.resize(threads / 32);
  for (unsigned z = 0; z < grid.z; ++z)
    for (unsigned y = 0; y < grid.y; ++y)
      for (unsigned x = 0; x < grid.x; ++x) {
        m.block_idx = Dim3{x, y, z};
        run_block();
        if (!m.error.empty()) {
          const std::string error =
              m.error + " (block " + std::to_string(x) + "," + std::to_string(y) + "," + std::to_string(z) + ")";
          m.error.clear();
          throw EmulationError(error);
        }
      }
}

}  // namespace kbench::emu
