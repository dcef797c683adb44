// Keeps the batches of a scan in flight on the CPU pool (read/decode_pool.h): while the
// caller writes batch k out, batches k+1 … k+depth are planned, read and decoded, batches of
// different data files side by side. Batches are handed back in scan order.
//
// Usage (dataset::DatasetRowReader::scan, dataset::FileTableReader::scan):
//   ScanPipeline pipe(DecodeMode::pool, 0);              // depth 0: the default
//   for (each batch, in order) {
//     pipe.add(file_or_fragment_id, [&, range] {          // runs on the pool, later
//       auto pending = reader.start(range);               //   plan + metadata + submit
//       return [&, p = share(pending)] { return reader.finish(std::move(*p)); };
//     });
//     while (pipe.full()) sink(pipe.next());
//   }
//   while (!pipe.empty()) sink(pipe.next());
#pragma once

#include <condition_variable>
#include <cstdint>
#include <deque>
#include <exception>
#include <functional>
#include <memory>
#include <mutex>
#include <set>

#include "array/array.h"
#include "read/decode_pool.h"

namespace lance::read {

/// Default batches in flight: one per pool thread, at least 2 (memory is bounded by
/// depth × batch size × columns, never by the file size).
size_t default_scan_depth();

class ScanPipeline {
 public:
  /// Decodes one batch whose reads are in flight.
  using Finish = std::function<RecordBatch()>;
  /// Plans one batch and submits its reads; returns how to decode it.
  using Start = std::function<Finish()>;

  /// `mode` other than pool (inline_run, inline_split_large) runs every batch on the caller's
  /// thread in `next` (still submitting
  /// the reads of the following batch of the same chain before decoding the current one);
  /// `depth` 0 = default_scan_depth(). `chain_threads` (with `pool`): each chain runs on a
  /// thread of its own instead of a CPU-pool thread, for remote stores, where starting a
  /// batch blocks on round trips (metadata) and a pool of one thread per core would let
  /// only that many fragments wait at once; their decoding still fans out to the pool.
  ScanPipeline(DecodeMode mode, size_t depth, bool chain_threads = false);
  /// Drops batches not started and waits for the ones running (their errors are dropped).
  ~ScanPipeline();
  ScanPipeline(const ScanPipeline&) = delete;
  ScanPipeline& operator=(const ScanPipeline&) = delete;

  /// Queues a batch. Batches of one `chain` (one data file / one fragment: they share
  /// readers, which are not thread-safe) run one at a time in the order added, the next
  /// one's reads submitted before the current one decodes; different chains run at once.
  void add(uint64_t chain, Start start);
  /// Batches added and not yet taken by `next`.
  size_t size() const;
  bool empty() const { return size() == 0; }
  bool full() const { return size() >= depth_; }
  /// The oldest batch, once decoded. Rethrows the exception its start or finish threw.
  RecordBatch next();

 private:
  struct Slot {
    uint64_t chain = 0;
    Start start;
    Finish finish;
    enum State { queued, started, done } state = queued;
    RecordBatch result;
    std::exception_ptr error;
  };
  void run_chain(uint64_t chain);
  /// Starts `s` if needed, starts `ahead` (the chain's next batch) if given, finishes `s`.
  void run_slot(const std::shared_ptr<Slot>& s, const std::shared_ptr<Slot>& ahead);
  void start_slot(Slot& s);

  DecodeMode mode_;
  size_t depth_;
  bool chain_threads_ = false;
  mutable std::mutex mu_;
  std::condition_variable cv_;
  std::deque<std::shared_ptr<Slot>> slots_;  // added, not yet taken, in scan order
  std::set<uint64_t> running_;               // chains with a pool task
  bool cancelled_ = false;
};

}  // namespace lance::read
