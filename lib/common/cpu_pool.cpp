#include "common/cpu_pool.h"

#include <atomic>
#include <condition_variable>
#include <exception>
#include <memory>
#include <mutex>
#include <thread>

#include <boost/asio/post.hpp>
#include <boost/asio/thread_pool.hpp>

#include "common/cancel.h"
#include "common/thread_start.h"

namespace lance {

namespace {

size_t cores() { return std::max(1u, std::thread::hardware_concurrency()); }

boost::asio::thread_pool& cpu_pool() {
  static boost::asio::thread_pool pool = [] {
    StopSignalsBlocked blocked;  // the pool's threads never take SIGINT/SIGTERM
    return boost::asio::thread_pool(cores());
  }();
  return pool;
}

thread_local bool t_fan_out = false;

/// One parallel_for call: indices are claimed from `next`; `done` counts finished ones.
struct ParallelFor {
  size_t n = 0;
  const std::function<void(size_t)>* task = nullptr;  // valid while done < n
  std::atomic<size_t> next{0};
  std::mutex mu;
  std::condition_variable cv;
  size_t done = 0;
  std::exception_ptr first;

  void work() {
    FanOutScope allow(true);
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

FanOutScope::FanOutScope(bool allowed) : saved_(t_fan_out) { t_fan_out = allowed; }
FanOutScope::~FanOutScope() { t_fan_out = saved_; }
bool fan_out_allowed() { return t_fan_out; }

size_t cpu_pool_threads() { return cores(); }

void post_to_cpu_pool(std::function<void()> job) {
  boost::asio::post(cpu_pool(), [job = std::move(job)] {
    run_thread_start_hook();
    job();
  });
}

void parallel_for(size_t n, const std::function<void(size_t)>& task) {
  if (n <= 1) {
    FanOutScope allow(true);
    for (size_t i = 0; i < n; ++i) task(i);
    return;
  }
  auto pf = std::make_shared<ParallelFor>();
  pf->n = n;
  pf->task = &task;
  // A helper that starts after every index is claimed returns at once without touching
  // `task` (the shared state keeps `next` alive).
  const size_t helpers = std::min(n - 1, cores());
  for (size_t h = 0; h < helpers; ++h)
    boost::asio::post(cpu_pool(), [pf] {
      run_thread_start_hook();
      pf->work();
    });
  pf->work();
  std::unique_lock lock(pf->mu);
  pf->cv.wait(lock, [&] { return pf->done == n; });
  if (pf->first) std::rethrow_exception(pf->first);
}

}  // namespace lance
