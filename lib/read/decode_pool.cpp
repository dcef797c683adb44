#include "read/decode_pool.h"

#include <exception>
#include <future>
#include <mutex>
#include <thread>
#include <vector>

#include <boost/asio/post.hpp>
#include <boost/asio/thread_pool.hpp>

#include "common/cancel.h"
#include "common/error.h"

namespace lance::read {

namespace {
boost::asio::thread_pool& cpu_pool() {
  static boost::asio::thread_pool pool = [] {
    StopSignalsBlocked blocked;  // the pool's threads never take SIGINT/SIGTERM
    return boost::asio::thread_pool(std::max(1u, std::thread::hardware_concurrency()));
  }();
  return pool;
}
}  // namespace

void run_decode_tasks(DecodeMode mode, size_t n, const std::function<void(size_t)>& task) {
  if (mode == DecodeMode::inline_run || n <= 1) {
    for (size_t i = 0; i < n; ++i) task(i);
    return;
  }
  std::vector<std::future<void>> done;
  done.reserve(n);
  for (size_t i = 0; i < n; ++i) {
    auto job = std::make_shared<std::packaged_task<void()>>([&task, i] { task(i); });
    done.push_back(job->get_future());
    boost::asio::post(cpu_pool(), [job] { (*job)(); });
  }
  std::exception_ptr first;
  for (auto& f : done) {
    try {
      f.get();
    } catch (...) {
      if (!first) first = std::current_exception();
    }
  }
  if (first) std::rethrow_exception(first);
}

}  // namespace lance::read
