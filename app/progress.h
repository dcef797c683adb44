// A one-line progress indicator on stderr for long scans and takes.
//
// Shown only when stderr is a terminal and -q/--quiet is not given, and only once the work
// has run for LANCE_CLI_PROGRESS_DELAY_MS milliseconds (default 1000; 0 shows it at once,
// for tests). A background thread redraws the line with \r at most every 250 ms: rows done
// (of the total, with percent and ETA), output bytes, rows per second. `finish()` (or the
// destructor) erases it, so stderr ends as if it had never been there.
//
// Usage:
//   Progress progress(progress_enabled(quiet(), out.is_stdout()), "scan", total_rows);
//   for each batch: { write(batch); progress.add(batch.num_rows, sink.bytes_written()); }
//   progress.finish();
#pragma once

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <mutex>
#include <string>
#include <thread>

namespace lance::app {

/// Whether a progress line may be drawn: not `quiet`, stderr is a terminal, and the rows
/// do not go to that terminal too (`to_stdout` and stdout is a terminal).
bool progress_enabled(bool quiet, bool to_stdout);

/// The text of the progress line (without \r), at most `width` columns (0 = no limit).
/// `total` 0 means unknown: no percent and no ETA.
std::string progress_line(const std::string& label, uint64_t rows, uint64_t total, uint64_t bytes, double seconds,
                          size_t width);

class Progress {
 public:
  /// `total_rows`: rows the command will produce (0 = unknown).
  Progress(bool enabled, std::string label, uint64_t total_rows);
  ~Progress();
  Progress(const Progress&) = delete;
  Progress& operator=(const Progress&) = delete;

  /// Adds `rows` rows done; `bytes_so_far` is the running total of bytes written.
  void add(uint64_t rows, uint64_t bytes_so_far) {
    rows_ += rows;
    bytes_ = bytes_so_far;
  }
  /// Stops redrawing and erases the line. Idempotent.
  void finish();

 private:
  void run();
  void draw();  // with mutex_ held

  std::string label_;
  uint64_t total_;
  std::atomic<uint64_t> rows_{0};
  std::atomic<uint64_t> bytes_{0};
  std::chrono::steady_clock::time_point start_;
  std::chrono::milliseconds delay_;
  std::mutex mutex_;
  std::condition_variable cv_;
  bool stop_ = false;
  bool drawn_ = false;
  std::thread thread_;
};

}  // namespace lance::app
