// Every setting of a read, in one object: filled once by the caller (the CLI: from its
// flags, LANCE_CLI_* variables and AWS settings, app/reader_options_env.cpp) and passed down through
// dataset::open_table / Dataset::open / FileRowReader to the I/O scheduler, the column
// readers and the page decoders. Nothing below app/ reads the environment.
//
// Usage:
//   read::ReaderOptions opts;
//   opts.io.io_threads = 4;
//   opts.stats = std::make_shared<ReadStats>();   // one set of counters for the whole read
//   auto file = format::FileReader::open(path, opts.io, opts.stats);
//   read::FileRowReader rows(file, {0, 1}, opts);
#pragma once

#include <cstdint>
#include <memory>
#include <optional>

#include "common/read_stats.h"
#include "io/remote/storage_options.h"
#include "io/scheduler.h"
#include "read/decode_pool.h"

namespace lance::read {

/// Default byte budget of one data request: consecutive page reads of a column are grouped
/// into requests of about this size so the scheduler can merge neighbours.
inline constexpr uint64_t kPageBatchBytes = 8 * 1024 * 1024;
inline constexpr uint64_t kTakeGroupBytes = 4 * 1024 * 1024;
inline constexpr uint64_t kScanBatchBytes = 4 * 1024 * 1024;

struct ReaderOptions {
  /// I/O parallelism, coalescing gap (block size), max IOP size, bytes in flight.
  io::IoOptions io;
  /// Object-store settings for s3:// and http(s):// paths: endpoint, credentials, retries,
  /// timeouts, and the latency model remote stores tune `io` from (io::ObjectStore::tune).
  io::StorageOptions storage;

  /// Page-batch budget in bytes (read/page_batch_planner.h); 0 = one request per page.
  uint64_t page_batch_bytes = kPageBatchBytes;
  /// A take of ascending rows from a local table is answered in groups of rows holding about
  /// this many file bytes (dataset::take_groups), each written and freed before the next
  /// is decoded; 0 = one take per batch.
  uint64_t take_group_bytes = kTakeGroupBytes;
  /// A scan batch holds at most about this many file bytes of the projected columns (fewer
  /// rows than the batch size when rows are large: dataset::scan_batch_rows); 0 = rows only.
  uint64_t scan_batch_bytes = kScanBatchBytes;
  /// Where decoding runs; unset: the CPU pool for scans and large takes, inline for small
  /// takes (read::kPoolTakeBytes).
  std::optional<DecodeMode> decode_mode;
  /// Scan batches planned, read and decoded ahead of the one being written
  /// (read::ScanPipeline); 0 = one per CPU-pool thread, at least 2.
  size_t scan_batches_in_flight = 0;
  /// Full-zip pages keep their whole repetition index after the first partial read, so
  /// later takes need one I/O per row range.
  bool cache_rep_index = false;
  /// Top-level string and binary columns keep the dictionaries of their dictionary-encoded
  /// mini-block pages: such rows come out as an Arrow dictionary array (the page's indices and
  /// its dictionary) instead of looked-up values. For readers whose batches go to the filter
  /// evaluator, which compares a page's few distinct values once; the writers want values.
  bool keep_dictionaries = false;
  /// Counters of everything read with these options (shared by every file opened with
  /// them); null: each file counts on its own (format::FileReader::stats()).
  std::shared_ptr<ReadStats> stats;
};

}  // namespace lance::read
