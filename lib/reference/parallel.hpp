#pragma once
// A minimal work-sharing loop for the reference: items are handed out one at a time from an atomic
// counter, so uneven items (border tiles, planes of different cost) still balance across threads.
#include <algorithm>
#include <atomic>
#include <cstdint>
#include <exception>
#include <mutex>
#include <thread>
#include <vector>

namespace kbench::reference {

inline int worker_count() { return static_cast<int>(std::clamp(std::thread::hardware_concurrency(), 1u, 256u)); }

// Calls body(item) for every item in [0, count), on up to worker_count() threads. The first exception
// a body throws is rethrown here once every thread has stopped.
template <class Body>
void parallel_for(std::int64_t count, const Body& body) {
  const std::int64_t threads = std::min<std::int64_t>(worker_count(), count);
  if (threads <= 1) {
    for (std::int64_t item = 0; item < count; ++item) body(item);
    return;
  }
  std::atomic<std::int64_t> next{0};
  std::exception_ptr failure;
  std::mutex failure_mutex;
  const auto work = [&] {
    try {
      for (std::int64_t item = next++; item < count; item = next++) body(item);
    } catch (...) {
      const std::lock_guard lock(failure_mutex);
      if (!failure) failure = std::current_exception();
      next = count;  // stop handing out work
    }
  };
  {
    std::vector<std::jthread> pool;
    for (std::int64_t t = 1; t < threads; ++t) pool.emplace_back(work);
    work();
  }  // joined here
  if (failure) std::rethrow_exception(failure);
}

}  // namespace kbench::reference
