#include "read/decode_pool.h"

#include <atomic>
#include <condition_variable>
#include <exception>
#include <memory>
#include <mutex>
#include <thread>

#include <boost/asio/post.hpp>
#include <boost/asio/thread_pool.hpp>

#include "common/cancel.h"

namespace lance::read {

namespace {

size_t cores() { return std::max(1u, std::thread::hardware_concurrency()); }

boost::asio::thread_pool& cpu_pool() {
  static boost::asio::thread_pool pool = [] {
    StopSignalsBlocked blocked;  // the pool's threads never take SIGINT/SIGTERM
    return boost::asio::thread_pool(cores());
  }();
  return pool;
}

/// One run_decode_tasks call: indices are claimed from `next`; `done` counts finished ones.
struct ParallelFor {
  size_t n = 0;
  const std::function<void(size_t)>* task = nullptr;  // valid while done < n
  std::atomic<size_t> next{0};
  std::mutex mu;
  std::condition_variable cv;
  size_t done = 0;
  std::exception_ptr first;

  void work() {
    for (;;) {
      const size_t i = next.fetch_add(1);
      if (i >= n) return;
      std::exception_ptr err;
      try {
        (*task)(i);
      } catch (...) {
        err = std::current_exception();
      }
      std::lock_guard lock(mu);
      if (err && !first) first = err;
      if (++done == n) cv.notify_all();
    }
  }
};

}  // namespace

size_t pool_threads() { return cores(); }

void post_to_pool(std::function<void()> job) { boost::asio::post(cpu_pool(), std::move(job)); }

void run_decode_tasks(DecodeMode mode, size_t n, const std::function<void(size_t)>& task) {
  if (mode == DecodeMode::inline_run || n <= 1) {
    for (size_t i = 0; i < n; ++i) task(i);
    return;
  }
  auto pf = std::make_shared<ParallelFor>();
  pf->n = n;
  pf->task = &task;
  // A helper that starts after every index is claimed returns at once without touching
  // `task` (the shared state keeps `next` alive).
  const size_t helpers = std::min(n - 1, cores());
  for (size_t h = 0; h < helpers; ++h) boost::asio::post(cpu_pool(), [pf] { pf->work(); });
  pf->work();
  std::unique_lock lock(pf->mu);
  pf->cv.wait(lock, [&] { return pf->done == n; });
  if (pf->first) std::rethrow_exception(pf->first);
}

}  // namespace lance::read
