// The page-batch planner: how the reads of some rows of some columns of one data file become
// scheduler requests. This is the one place that decides the number and shape of the
// requests a scan or take sends (`--stats` "requests"); read::ColumnReader and
// read::FileRowReader drive it.
//
// A read of rows goes in three steps:
//   1. split_rows_by_page: the rows of each column, split into page-local ranges (no I/O).
//   2. MetadataRounds: every touched page of every projected column names the metadata it
//      needs (structural::PageDecoder::metadata_ranges); all of it goes out as ONE request,
//      and the parts are handed back page by page. A page may ask for a further round
//      (more_metadata_ranges: a blob page's descriptors); the rounds repeat, again one
//      request each, until no page asks.
//   3. plan_page_batches: each column's pages' data ranges, grouped in page order into
//      requests of about ReaderOptions::page_batch_bytes (0: one request per page), so the
//      scheduler can merge neighbours; the requests are submitted and decoding waits for them.
#pragma once

#include <cstdint>
#include <functional>
#include <span>
#include <string>
#include <vector>

#include "common/read_stats.h"
#include "io/scheduler.h"
#include "structural/page_decoder.h"

namespace lance::read {

using structural::RowRange;

/// The rows a read needs from one page: `page` (index in its column) and page-local ranges.
struct PageRows {
  size_t page = 0;
  std::vector<RowRange> local;
  bool operator==(const PageRows&) const = default;
};

/// Splits `ranges` (column rows; sorted, non-empty, a repeated row as a range of its own) by
/// page. `page_starts` holds the first row of each page, then the column's row count. Pages no
/// row touches are left out. Throws Error(corrupt) for a range that is empty or passes the last row.
std::vector<PageRows> split_rows_by_page(std::span<const uint64_t> page_starts, std::span<const RowRange> ranges);

/// Where one page's data parts are in the planned requests: request `request`, parts
/// [first_part, first_part + num_parts). A page with no data ranges has num_parts 0 (and
/// `request` is then meaningless).
struct BatchSlot {
  size_t request = 0;
  size_t first_part = 0;
  size_t num_parts = 0;
  bool operator==(const BatchSlot&) const = default;
};

/// The data requests of one column's pages.
struct BatchPlan {
  std::vector<std::vector<io::ByteRange>> requests;  ///< ranges of each request, in order
  std::vector<BatchSlot> pages;                      ///< per input page
};

/// Groups the data ranges of consecutive pages (`page_ranges[i]`: page i's ranges, in the
/// order its decoder wants the parts) into requests: a page joins the current request
/// unless that would take it above `budget` bytes (a page is never split, so one page larger
/// than the budget is a request of its own); `budget` 0 puts every page in its own request.
BatchPlan plan_page_batches(std::span<const std::vector<io::ByteRange>> page_ranges, uint64_t budget);

/// Metadata rounds for pages of one file (any columns).
///
///   MetadataRounds rounds;
///   rounds.add(decoder, rows, [&] { return "column 2: page 3"; });   // per touched page
///   rounds.run(file->io(), priority);                               // 0, 1, 2… requests
class MetadataRounds {
 public:
  /// Registers one page's read. `rows` must stay valid until `run` returns; `label` names the
  /// page for error messages (called only when an error passes).
  void add(structural::PageDecoder& decoder, std::span<const RowRange> rows, std::function<std::string()> label);

  /// Takes the bytes of one round and names the ranges of the next (empty: done).
  using Continue = std::function<std::vector<io::ByteRange>(std::vector<Bytes>&&)>;
  /// Registers a task of any reader (read/staged_reads.h: 2.0 and v1 fields): `first` ranges
  /// go out with the first round, then `next` is handed their bytes, and so on while it
  /// names ranges. A task whose `first` is empty is never called.
  void add(std::vector<io::ByteRange> first, Continue next, std::function<std::string()> label);

  /// Runs the rounds: one request per round (none when no page needs metadata). Errors
  /// carry the failing page's label.
  ///
  /// With `likely_data` (takes from remote files, io::IoOptions::remote), the pages' likely
  /// data ranges (PageDecoder::likely_data_ranges) are announced to the file
  /// (io::RandomAccessFile::will_read) before the first round goes out, so a remote file
  /// fetches them alongside it and the data reads that follow are answered from memory when
  /// they fall inside: a take of a few row ranges then waits one round trip instead of two.
  /// A page read in more than kLikelyMaxRanges row ranges is announced only when its likely
  /// ranges total at most kScatteredLikelyMaxBytes (a small buffer whole: scattered rows of a
  /// large page would announce most of it for a few chunks).
  void run(io::IoScheduler& io, uint64_t priority, bool likely_data = false);
  static constexpr size_t kLikelyMaxRanges = 4;
  static constexpr uint64_t kScatteredLikelyMaxBytes = 256 * 1024;

  /// Requests sent by `run` so far.
  size_t rounds() const { return rounds_; }

 private:
  struct Task {
    std::function<std::vector<io::ByteRange>()> first;  ///< the first round's ranges (asked in `run`)
    Continue next;
    std::function<std::vector<io::ByteRange>()> likely;  ///< likely data ranges; null: none
    std::function<std::string()> label;
  };
  std::vector<Task> tasks_;
  size_t rounds_ = 0;
};

/// Rows [begin, end) of one page, read synchronously through `io` with the same protocol
/// (metadata rounds, then the data round). For tests, tools and fuzzing.
structural::LeafData read_page_rows(structural::PageDecoder& decoder, io::IoScheduler& io, uint64_t begin, uint64_t end,
                                    uint64_t priority = 0);

}  // namespace lance::read
