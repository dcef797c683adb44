#include "io/scheduler.h"

#include <algorithm>

#include <atomic>
#include <cstring>
#include <mutex>
#include <optional>
#include <string>
#include <system_error>
#include <thread>

#include <boost/asio/executor_work_guard.hpp>
#include <boost/asio/io_context.hpp>
#include <boost/asio/post.hpp>

#include "common/cancel.h"
#include "common/thread_start.h"

namespace lance::io {

IoOptions IoOptions::normalized() const {
  IoOptions o = *this;
  if (o.io_threads == 0) o.io_threads = 1;
  if (o.io_threads > kMaxIoThreads) o.io_threads = kMaxIoThreads;
  if (o.max_iop_size == 0) o.max_iop_size = 1;
  return o;
}

/// One caller request: its ranges, the buffers being filled, and the promise.
struct IoScheduler::Request {
  Keeping keep = Keeping::off;  ///< read-ahead: the reads' bytes go to kept_ (too)
  std::vector<ByteRange> ranges;
  std::vector<Bytes> results;
  std::promise<std::vector<Bytes>> promise;
  std::atomic<size_t> remaining{0};
  std::atomic<bool> failed{false};
};

/// Threads running one io_context, started as work needs them: a post finding every started
/// thread busy starts one more, up to `max_threads`. A small local scan whose reads all run
/// inline starts none (each thread start costs the process ~0.1-0.3 ms). A thread that cannot
/// be started (the process or system thread limit) is not fatal while another runs; only a
/// pool left without any thread is an error.
class IoThreadPool {
 public:
  explicit IoThreadPool(unsigned max_threads) : max_threads_(max_threads), guard_(ctx_.get_executor()) {}
  template <typename Fn>
  void post(Fn&& fn) {
    const unsigned busy = busy_.fetch_add(1) + 1;
    if (busy > started_.load()) {
      try {
        start_thread();
      } catch (...) {
        busy_.fetch_sub(1);
        throw;
      }
    }
    boost::asio::post(ctx_, [this, f = std::forward<Fn>(fn)]() mutable {
      f();
      busy_.fetch_sub(1);
    });
  }

 private:
  void start_thread() {
    std::lock_guard lock(start_mutex_);
    if (started_.load() >= max_threads_ || busy_.load() <= started_.load()) return;
    StopSignalsBlocked blocked;  // the pool's threads never take SIGINT/SIGTERM
    try {
      std::thread([this] {
        run_thread_start_hook();
        ctx_.run();
      }).detach();
      started_.fetch_add(1);
    } catch (const std::system_error&) {
      if (started_.load() == 0)
        throw_io("cannot start an I/O thread: the process or system limit on threads is reached");
      max_threads_ = started_.load();  // run with the threads it got
    }
  }

  unsigned max_threads_;
  std::atomic<unsigned> started_{0};
  std::atomic<unsigned> busy_{0};  ///< posted and not finished
  std::mutex start_mutex_;
  boost::asio::io_context ctx_;
  boost::asio::executor_work_guard<boost::asio::io_context::executor_type> guard_;
};

namespace {

/// One pool for every scheduler of the process (a dataset opens a scheduler per data file;
/// threads per file would mean dozens of thread starts for a small take). At most as many
/// threads as the first scheduler's options ask for; each scheduler still bounds its own reads
/// in flight. Never destroyed: its idle threads end with the process.
IoThreadPool& shared_io_pool(unsigned threads) {
  static IoThreadPool* pool = new IoThreadPool(threads);
  return *pool;
}

}  // namespace

namespace {

/// A file held in memory needs no merged reads (the gaps would only be copied, into buffers
/// whose first touch costs page faults) and no pool thread: every read is a copy.
IoOptions for_file(const RandomAccessFile& file, IoOptions options) {
  if (file.in_memory()) {
    options.block_size = 0;
    options.inline_read_bytes = UINT64_MAX;
  }
  return options.normalized();
}

}  // namespace

IoScheduler::IoScheduler(std::shared_ptr<RandomAccessFile> file, IoOptions options, std::shared_ptr<ReadStats> stats)
    : file_(std::move(file)),
      options_(for_file(*file_, options)),
      read_stats_(std::move(stats)),
      pool_(&shared_io_pool(options_.io_threads)) {}

IoScheduler::~IoScheduler() {
  std::unique_lock lock(mutex_);
  queue_.clear();  // reads not started never start; their callers' futures report a broken promise
  idle_.wait(lock, [this] { return running_ == 0; });
}

std::future<std::vector<Bytes>> IoScheduler::submit(std::vector<ByteRange> ranges, uint64_t priority) {
  auto req = std::make_shared<Request>();
  req->ranges = std::move(ranges);
  req->results.resize(req->ranges.size());
  auto fut = req->promise.get_future();
  {
    std::lock_guard lock(mutex_);
    req->keep = keeping_;
  }
  for (size_t i = 0; i < req->ranges.size(); ++i) {
    const auto& r = req->ranges[i];
    if (r.offset > file_->size() || r.length > file_->size() - r.offset) {
      req->promise.set_exception(std::make_exception_ptr(
          Error(ErrorKind::corrupt, fmt::format("{}: byte range [{}, +{}) passes the end of the file ({} bytes)",
                                                file_->path(), r.offset, r.length, file_->size()))));
      return fut;
    }
    check_alloc(r.length, "read");
    if (req->keep != Keeping::only) req->results[i].resize(r.length);
  }
  // Ranges inside a kept read are copied from it; the rest are planned and read.
  const std::vector<bool> filled = req->keep == Keeping::only ? std::vector<bool>{} : fill_from_kept(*req);
  std::vector<PlannedRead> reads;
  if (filled.empty()) {
    reads = plan_reads(req->ranges, options_.block_size, options_.max_iop_size);
  } else {
    std::vector<ByteRange> rest;
    std::vector<size_t> index;
    for (size_t i = 0; i < req->ranges.size(); ++i)
      if (!filled[i]) {
        rest.push_back(req->ranges[i]);
        index.push_back(i);
      }
    reads = plan_reads(rest, options_.block_size, options_.max_iop_size);
    for (auto& r : reads)
      for (auto& k : r.serves) k = index[k];
  }
  if (!reads.empty()) {  // a request answered from kept reads alone asks nothing of the store
    stats_.requests++;
    if (read_stats_) read_stats_->requests++;
  }
  if (reads.empty()) {
    req->promise.set_value(std::move(req->results));
    return fut;
  }
  req->remaining = reads.size();
  std::vector<PendingRead> here;
  {
    std::lock_guard lock(mutex_);
    for (auto& r : reads) {
      if (r.range.length <= options_.inline_read_bytes)
        here.push_back(PendingRead{req, std::move(r)});
      else
        queue_.emplace(priority, PendingRead{req, std::move(r)});
    }
    pump();
  }
  if (!here.empty()) {
    // The submitting thread reads these itself when the page cache has them; a read that
    // would wait for the device goes to the pool instead, so that cold reads wait in
    // parallel (up to io_threads), not one after another on this thread.
    std::optional<StageTimer> timer;
    if (read_stats_) timer.emplace(read_stats_->io_wait_ns, read_stats_->io_wait_wall);
    std::vector<PendingRead> cold;
    for (auto& p : here)
      if (!execute(p, /*only_if_cached=*/true)) cold.push_back(std::move(p));
    if (!cold.empty()) {
      std::lock_guard lock(mutex_);
      for (auto& p : cold) queue_.emplace(priority, std::move(p));
      pump();
    }
  }
  return fut;
}

void IoScheduler::pump() {
  while (!queue_.empty() && running_ < options_.io_threads) {
    auto it = queue_.begin();
    uint64_t len = it->second.read.range.length;
    // Always let one read run, however large, so a big read cannot stall forever.
    if (running_ > 0 && bytes_in_flight_ + len > options_.max_bytes_in_flight) break;
    PendingRead pending = std::move(it->second);
    queue_.erase(it);
    ++running_;
    bytes_in_flight_ += len;
    try {
      pool_->post([this, p = std::move(pending)]() mutable { run_read(std::move(p)); });
    } catch (...) {  // no I/O thread could be started (only ever on a first read, from submit)
      --running_;
      bytes_in_flight_ -= len;
      throw;
    }
  }
}

void IoScheduler::run_read(PendingRead pending) {
  execute(pending);
  const uint64_t length = pending.read.range.length;
  std::lock_guard lock(mutex_);
  --running_;
  bytes_in_flight_ -= length;
  pump();
  if (running_ == 0) idle_.notify_all();
}

bool IoScheduler::execute(PendingRead& pending, bool only_if_cached) {
  auto& req = *pending.request;
  const ByteRange rr = pending.read.range;
  auto read = [&](uint8_t* out) {
    if (only_if_cached) return file_->read_at_if_cached(rr.offset, rr.length, out);
    file_->read_at(rr.offset, rr.length, out);
    return true;
  };
  if (!req.failed) {
    try {
      check_cancelled();  // a signal stops queued reads: they fail instead of running
      const auto& serves = pending.read.serves;
      if (serves.size() == 1 && req.keep == Keeping::off && req.ranges[serves[0]].offset == rr.offset &&
          req.ranges[serves[0]].length == rr.length) {
        // The read is exactly one caller range (e.g. a whole page): read into its buffer.
        if (!read(req.results[serves[0]].data())) return false;
      } else {
        // Where the caller ranges' parts lie in this read (none with Keeping::only: the caller
        // gets empty buffers).
        std::vector<ReadExtent> extents;
        if (req.keep != Keeping::only) {
          extents.reserve(serves.size());
          for (size_t i : serves) {
            const ByteRange& want = req.ranges[i];
            const uint64_t lo = std::max(want.offset, rr.offset), hi = std::min(want.end(), rr.end());
            extents.push_back(ReadExtent{lo, hi - lo, req.results[i].data() + (lo - want.offset)});
          }
          std::sort(extents.begin(), extents.end(),
                    [](const ReadExtent& a, const ReadExtent& b) { return a.offset < b.offset; });
        }
        if (req.keep == Keeping::off) {
          // Only the caller's ranges are kept: a local file reads into them in place, a remote
          // file never stores the holes between them.
          if (only_if_cached) {
            if (!file_->read_extents_if_cached(rr.offset, rr.length, extents)) return false;
          } else {
            file_->read_extents(rr.offset, rr.length, extents);
          }
        } else {
          Bytes buf(rr.length);
          if (!read(buf.data())) return false;
          size_t cursor = 0;
          copy_into_extents(extents, rr.offset, buf.data(), rr.length, cursor);
          keep(rr.offset, std::move(buf));
        }
      }
      stats_.iops++;
      stats_.bytes_read += rr.length;
      if (read_stats_) {
        read_stats_->iops++;
        read_stats_->bytes_read += rr.length;
      }
    } catch (...) {
      if (!req.failed.exchange(true)) req.promise.set_exception(std::current_exception());
    }
  }
  if (--req.remaining == 0 && !req.failed) req.promise.set_value(std::move(req.results));
  return true;
}

void IoScheduler::begin_keeping(Keeping mode) {
  std::lock_guard lock(mutex_);
  keeping_ = mode;
}

bool IoScheduler::keeping_only() {
  std::lock_guard lock(mutex_);
  return keeping_ == Keeping::only;
}

void IoScheduler::end_keeping() {
  std::unique_lock lock(mutex_);
  keeping_ = Keeping::off;
  idle_.wait(lock, [this] { return running_ == 0 && queue_.empty(); });
}

void IoScheduler::drop_kept() {
  std::map<uint64_t, Bytes> dropped;
  std::lock_guard lock(mutex_);
  dropped.swap(kept_);
}

void IoScheduler::keep(uint64_t offset, Bytes data) {
  std::lock_guard lock(mutex_);
  // The kept reads that overlap or touch [offset, end) join it into one: a metadata round
  // merged across a data buffer, say, must answer a range inside it whatever else was kept.
  uint64_t lo = offset, hi = offset + data.size();
  auto first = kept_.upper_bound(lo);
  if (first != kept_.begin() && std::prev(first)->first + std::prev(first)->second.size() >= lo) --first;
  auto last = first;
  for (; last != kept_.end() && last->first <= hi; ++last) {
    lo = std::min(lo, last->first);
    hi = std::max(hi, last->first + last->second.size());
  }
  if (first == last) {
    kept_.emplace(offset, std::move(data));
    return;
  }
  Bytes joined(hi - lo);
  for (auto it = first; it != last; ++it)
    std::memcpy(joined.data() + (it->first - lo), it->second.data(), it->second.size());
  std::memcpy(joined.data() + (offset - lo), data.data(), data.size());
  kept_.erase(first, last);
  kept_.emplace(lo, std::move(joined));
}

std::vector<bool> IoScheduler::fill_from_kept(Request& req) {
  std::lock_guard lock(mutex_);
  if (kept_.empty()) return {};
  std::vector<bool> filled(req.ranges.size(), false);
  bool any = false;
  for (size_t i = 0; i < req.ranges.size(); ++i) {
    const ByteRange& r = req.ranges[i];
    if (r.length == 0) continue;
    auto it = kept_.upper_bound(r.offset);  // the last kept read starting at or before r
    if (it == kept_.begin()) continue;
    --it;
    if (r.end() > it->first + it->second.size()) continue;
    std::memcpy(req.results[i].data(), it->second.data() + (r.offset - it->first), r.length);
    filled[i] = any = true;
  }
  return any ? filled : std::vector<bool>{};
}

}  // namespace lance::io
