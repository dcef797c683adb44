// Counters of what a read did, for `--stats`: one object per read (or per process, as the
// CLI uses it), passed down through ReaderOptions / FileReader::open to the I/O scheduler
// (requests, iops, bytes), the column readers (pages, planning and wait times) and the page
// decoders (chunks). Thread-safe: every field is an atomic counter or a StageClock.
//
// Times come in two kinds. `*_ns` sums each thread's time in a stage, so with columns
// decoded in parallel it can exceed the wall time of the read; a StageClock records the
// wall-clock time during which at least one thread was in the stage (the union of the
// intervals), which never exceeds it. StageTimer feeds both:
//   { StageTimer t(stats.decode_ns, stats.decode_wall); ...decode... }
#pragma once

#include <atomic>
#include <chrono>
#include <cstdint>
#include <mutex>

namespace lance {

/// Wall-clock time during which at least one thread was inside a stage.
class StageClock {
 public:
  void enter() {
    std::lock_guard lock(mu_);
    if (active_++ == 0) since_ = std::chrono::steady_clock::now();
  }
  void leave() {
    std::lock_guard lock(mu_);
    if (--active_ == 0) wall_ns_ += elapsed_since(since_);
  }
  /// Nanoseconds so far (a stage still active counts up to now).
  uint64_t wall_ns() const {
    std::lock_guard lock(mu_);
    return wall_ns_ + (active_ > 0 ? elapsed_since(since_) : 0);
  }

 private:
  static uint64_t elapsed_since(std::chrono::steady_clock::time_point t) {
    return static_cast<uint64_t>(
        std::chrono::duration_cast<std::chrono::nanoseconds>(std::chrono::steady_clock::now() - t).count());
  }
  mutable std::mutex mu_;
  int active_ = 0;
  std::chrono::steady_clock::time_point since_;
  uint64_t wall_ns_ = 0;
};

/// Adds the time from construction to destruction to `sum` (this thread's share) and
/// to `wall` (the union over threads). Timers nest per thread, and time counts to the
/// innermost stage only: while a timer is alive, the one it interrupted on the same thread
/// (e.g. planning, around reads run inline on the planning thread, timed as I/O) is paused.
class StageTimer {
 public:
  StageTimer(std::atomic<uint64_t>& sum, StageClock& wall) : sum_(sum), wall_(wall), outer_(current()) {
    if (outer_) outer_->pause();
    current() = this;
    resume();
  }
  ~StageTimer() {
    pause();
    current() = outer_;
    if (outer_) outer_->resume();
  }
  StageTimer(const StageTimer&) = delete;
  StageTimer& operator=(const StageTimer&) = delete;

 private:
  static StageTimer*& current() {
    thread_local StageTimer* t = nullptr;
    return t;
  }
  void pause() {
    wall_.leave();
    sum_ += static_cast<uint64_t>(
        std::chrono::duration_cast<std::chrono::nanoseconds>(std::chrono::steady_clock::now() - t0_).count());
  }
  void resume() {
    t0_ = std::chrono::steady_clock::now();
    wall_.enter();
  }

  std::atomic<uint64_t>& sum_;
  StageClock& wall_;
  StageTimer* outer_;
  std::chrono::steady_clock::time_point t0_;
};

struct ReadStats {
  // I/O (io::IoScheduler)
  std::atomic<uint64_t> requests{0};    ///< submitted requests (each a list of byte ranges)
  std::atomic<uint64_t> iops{0};        ///< positional reads issued after merging/splitting
  std::atomic<uint64_t> bytes_read{0};  ///< bytes those reads returned
  // Network (io::HttpClient, for remote stores; local reads leave them 0)
  std::atomic<uint64_t> http_requests{0};    ///< HTTP requests sent (attempts, retries included)
  std::atomic<uint64_t> http_bytes{0};       ///< response body bytes received
  std::atomic<uint64_t> http_retries{0};     ///< attempts repeated after a retryable failure
  std::atomic<uint64_t> network_wait_ns{0};  ///< time in requests and backoff, ns summed over threads
  // Planning and decoding (read::ColumnReader, structural page decoders)
  std::atomic<uint64_t> pages_touched{0};   ///< page decoders created
  std::atomic<uint64_t> chunks_decoded{0};  ///< mini-block chunks decompressed
  std::atomic<uint64_t> plan_ns{
      0};  ///< planning and metadata rounds (incl. waits for metadata reads), ns summed over threads
  std::atomic<uint64_t> io_wait_ns{0};  ///< waiting for data reads, and running small reads inline
                                        ///< (io::IoOptions::inline_read_bytes), ns summed over threads
  std::atomic<uint64_t> decode_ns{0};   ///< decompression and assembly, ns summed over threads
  StageClock plan_wall;                 ///< the same three stages, wall clock (union over threads)
  StageClock io_wait_wall;
  StageClock decode_wall;
  // Output (the CLI's writer, on the caller's thread: one thread, so sum = wall)
  std::atomic<uint64_t> output_ns{0};  ///< writing batches out (formatting, the sink), ns
  // What was read (dataset::Dataset::open)
  std::atomic<uint64_t> dataset_version{0};  ///< version of the dataset opened; 0 = none (a single data file)
};

}  // namespace lance
