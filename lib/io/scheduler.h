// The I/O scheduler: turns requests for byte ranges into coalesced positional reads on a
// Boost.Asio thread pool, and hands each caller back exactly its own ranges.
//
// Usage:
//   auto file = LocalFile::open(path);
//   IoScheduler io(file, IoOptions{}, stats);   // stats: a shared ReadStats, or null
//   auto fut = io.submit({{0, 100}, {4096, 10}}, /*priority=*/first_row);
//   std::vector<Bytes> parts = fut.get();   // parts[i] is ranges[i]'s bytes
//   // or, when nothing can overlap the wait: io.read({...}, priority)
#pragma once

#include <atomic>
#include <condition_variable>
#include <cstdint>
#include <deque>
#include <future>
#include <map>
#include <memory>
#include <mutex>
#include <vector>

#include "common/bytes.h"
#include "common/read_stats.h"
#include "io/coalesce.h"
#include "io/file.h"

namespace lance::io {

class IoThreadPool;  // lib/io/scheduler.cpp

/// Settings of the scheduler (a member of read::ReaderOptions; the CLI fills them from
/// LANCE_CLI_BLOCK_SIZE, LANCE_CLI_MAX_IOP_SIZE, LANCE_CLI_IO_THREADS and
/// LANCE_CLI_IO_BYTES_IN_FLIGHT, see app/reader_options_env.cpp).
/// Most I/O threads one process starts (the pool is shared by every file): larger settings
/// are refused by the CLI, and clamped here, since a failed thread start cannot be recovered.
inline constexpr unsigned kMaxIoThreads = 256;

struct IoOptions {
  uint64_t block_size = 4 * 1024;                    ///< merge ranges whose gap is ≤ this (local disk sector-ish)
  uint64_t max_iop_size = 16 * 1024 * 1024;          ///< split merged reads above this
  unsigned io_threads = 8;                           ///< parallel reads in flight (1..kMaxIoThreads)
  uint64_t max_bytes_in_flight = 256 * 1024 * 1024;  ///< backpressure: reads wait while this many bytes are outstanding
  /// Reads of at most this many bytes run on the thread that submits them, not on the pool:
  /// from a local file (page cache) they take microseconds, less than handing them to a pool
  /// thread and waking the waiter again (on a 2-vCPU VM each wake-up is a cross-CPU IPI).
  /// Object stores set 0: every request goes to the pool, where round trips overlap.
  uint64_t inline_read_bytes = 256 * 1024;
  /// The file is behind a network (a remote store's tune sets it): a request costs a round
  /// trip, so readers may fetch likely bytes early (read::MetadataRounds::run).
  bool remote = false;

  /// Clamps the values that must be positive (0 threads or a 0-byte IOP size mean 1).
  IoOptions normalized() const;
};

/// Counters of one scheduler, readable at any time.
struct IoStats {
  std::atomic<uint64_t> requests{0};    ///< submitted requests (each a list of ranges)
  std::atomic<uint64_t> iops{0};        ///< positional reads issued after merging/splitting
  std::atomic<uint64_t> bytes_read{0};  ///< bytes those reads returned
};

/// What happens to the bytes of requests submitted while keeping (IoScheduler::begin_keeping).
enum class Keeping { off, also, only };

class IoScheduler {
 public:
  /// `stats`, when given, also receives this scheduler's requests, iops and bytes_read
  /// (shared by every scheduler of a read, for `--stats` over many files).
  IoScheduler(std::shared_ptr<RandomAccessFile> file, IoOptions options = {},
              std::shared_ptr<ReadStats> stats = nullptr);
  ~IoScheduler();
  IoScheduler(const IoScheduler&) = delete;
  IoScheduler& operator=(const IoScheduler&) = delete;

  /// Submits one request. Lower `priority` values are served first (use the first row
  /// the request serves). The future yields one Bytes per range, in the given order, or
  /// rethrows the read's Error (io / corrupt for ranges past the end of the file).
  std::future<std::vector<Bytes>> submit(std::vector<ByteRange> ranges, uint64_t priority);

  /// Read-ahead for a read answered in parts (a take in groups of rows): between
  /// begin_keeping(mode) and end_keeping(), submitted requests are read as usual and their
  /// bytes are kept here: also returned (Keeping::also) or only kept (Keeping::only: the
  /// futures yield empty buffers). A later begin_keeping changes the mode; end_keeping()
  /// waits for the reads. From then on, a range lying wholly inside a kept read is copied from
  /// it, with no I/O, until drop_kept(). So the parts issue together the I/O operations one
  /// read would have (a chunk shared by two parts is read once).
  void begin_keeping(Keeping mode);
  void end_keeping();
  void drop_kept();
  /// Whether requests submitted now are only kept (Keeping::only): never handed to a decoder.
  bool keeping_only();

  /// Submit and wait.
  std::vector<Bytes> read(std::vector<ByteRange> ranges, uint64_t priority) {
    return submit(std::move(ranges), priority).get();
  }
  /// One range, read and waited for.
  Bytes read_range(ByteRange range, uint64_t priority = 0) { return std::move(read({range}, priority).at(0)); }

  const RandomAccessFile& file() const { return *file_; }
  const IoOptions& options() const { return options_; }
  /// This scheduler's own counters.
  const IoStats& stats() const { return stats_; }
  /// The shared counters given to the constructor (may be null).
  const std::shared_ptr<ReadStats>& read_stats() const { return read_stats_; }

 private:
  struct Request;
  struct PendingRead {
    std::shared_ptr<Request> request;
    PlannedRead read;
  };
  /// Copies the ranges of `req` that lie wholly inside a kept read; returns which it filled
  /// (empty when none).
  std::vector<bool> fill_from_kept(Request& req);
  /// Adds the bytes of a read at `offset` to kept_, joined with the kept reads it overlaps or touches.
  void keep(uint64_t offset, Bytes data);
  void pump();  // starts queued reads while under the limits; call with mutex_ held
  void run_read(PendingRead pending);
  /// The read itself, its counters and the request's completion. With `only_if_cached`,
  /// nothing happens and false is returned when the file would have to wait for a device
  /// (RandomAccessFile::read_at_if_cached); otherwise true.
  bool execute(PendingRead& pending, bool only_if_cached = false);

  std::shared_ptr<RandomAccessFile> file_;
  IoOptions options_;
  IoStats stats_;
  std::shared_ptr<ReadStats> read_stats_;
  IoThreadPool* pool_;  ///< the process-wide I/O pool (shared by every scheduler)
  std::mutex mutex_;
  std::multimap<uint64_t, PendingRead> queue_;  // by priority, FIFO within a priority
  std::condition_variable idle_;                ///< signalled when running_ drops to 0
  unsigned running_ = 0;
  uint64_t bytes_in_flight_ = 0;
  Keeping keeping_ = Keeping::off;  ///< between begin_keeping and end_keeping
  std::map<uint64_t, Bytes> kept_;  ///< kept bytes by file offset: disjoint, not touching (keep joins them)
};

}  // namespace lance::io
