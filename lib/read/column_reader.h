// Reads rows of one leaf column across its pages, batching the I/O of many pages
// (read/page_batch_planner.h plans the requests).
#pragma once

#include <future>
#include <map>
#include <memory>
#include <optional>
#include <span>
#include <vector>

#include "format/file_reader.h"
#include "read/page_batch_planner.h"
#include "read/reader_options.h"
#include "structural/page_decoder.h"

namespace lance::read {

/// Rows [begin, end) of a file.
using structural::RowRange;

/// Rows of one 2.1+ leaf column. Not thread-safe: calls, `finish` among them, never overlap.
/// Reads are best finished in the order they were submitted (a read may take the bytes of
/// a chunk it shares with the one before from that one's finish; out of order, it reads
/// them itself).
///
/// Reading is split so that I/O can run ahead of decoding, and so that the metadata of many
/// columns goes out in one request:
///   MetadataRounds rounds;
///   auto pending = col.plan({{0, 8192}}, rounds);  // no I/O: pages split, decoders made
///   rounds.run(file->io(), 0);                      // metadata of every planned column
///   col.submit(*pending);                           // data requests in flight
///   ...                                             // e.g. decode the previous batch meanwhile
///   LeafData rows = col.finish(std::move(pending));
/// `start` is plan + run + submit for this column alone.
class ColumnReader {
 public:
  /// `options`: page_batch_bytes, cache_rep_index and keep_dictionaries are used; counters go to file->stats().
  ColumnReader(std::shared_ptr<format::FileReader> file, uint32_t column, TypePtr leaf_type, std::string field_name,
               const ReaderOptions& options = {});
  ~ColumnReader();

  /// Reads planned for some rows, not yet decoded: per page its local row ranges and
  /// where its data parts are in the request results.
  struct Pending {
    std::vector<PageRows> pages;
    std::vector<BatchSlot> slots;  ///< per page, after submit
    std::vector<std::future<std::vector<Bytes>>> futures;
    uint64_t num_rows = 0;
    uint64_t priority = 0;
    /// The first page's first data range was not requested: the batch before wanted the
    /// same range (a chunk holding rows of both) and its finish leaves the bytes here.
    /// Null when every range was requested.
    std::shared_ptr<std::optional<Bytes>> shared_head;
    io::ByteRange shared_head_range;
    /// Where finish leaves a copy of the last page's last data part, for the next batch.
    std::shared_ptr<std::optional<Bytes>> keep_tail;
  };

  /// Plans reading `ranges` (file rows; sorted, non-empty, within the column; a range may
  /// repeat the row the one before ends with): no I/O; the touched pages' metadata reads are
  /// added to `rounds`, whose `run` must come before `submit`. `*result` must outlive
  /// `rounds.run`.
  std::unique_ptr<Pending> plan(std::span<const RowRange> ranges, MetadataRounds& rounds);
  /// Submits the data requests of `pending` (after the metadata rounds ran).
  void submit(Pending& pending);
  /// plan + metadata rounds (one request, when a page is new) + submit.
  std::unique_ptr<Pending> start(std::span<const RowRange> ranges);
  /// Waits for the reads and decodes; the rows of all ranges, in order.
  structural::LeafData finish(std::unique_ptr<Pending> pending);

  /// start + finish.
  structural::LeafData read(uint64_t begin, uint64_t end);
  structural::LeafData read_ranges(std::span<const RowRange> ranges);

  /// Drops cached page decoders of pages that end at or before `row` (a scan moving on).
  void release_before(uint64_t row);

  uint32_t column() const { return column_; }

  /// Overrides the page-batch budget for this reader (0 = one request per page).
  void set_page_batch_bytes(uint64_t bytes) { batch_budget_ = bytes; }

 private:
  structural::PageDecoder& decoder_for(size_t page);
  /// Drops the first range of `data` (per page of `pending`) when the last submitted read
  /// ends with it (Tail), and makes `pending`'s last range the new tail.
  void share_with_last_read(Pending& pending, std::vector<std::vector<io::ByteRange>>& data);
  /// The bytes of `pending.shared_head_range`: left by the read before, or read now.
  Bytes shared_head_bytes(Pending& pending);
  std::string context() const;

  std::shared_ptr<format::FileReader> file_;
  uint32_t column_;
  TypePtr leaf_type_;
  std::string field_name_;
  std::vector<uint64_t> page_starts_;  // first row of each page, plus the end
  std::map<size_t, std::unique_ptr<structural::PageDecoder>> decoders_;
  /// The last data range of the last submitted read (page and bytes' slot): a next read
  /// whose first range is the same takes its bytes from that read's finish, not from the
  /// file. A scan's batches share the mini-block chunk that holds rows of both
  /// (structural/miniblock.cpp: read_pieces).
  struct Tail {
    size_t page = 0;
    io::ByteRange range;
    std::shared_ptr<std::optional<Bytes>> bytes;
  };
  std::optional<Tail> tail_;
  uint64_t batch_budget_;
  bool cache_rep_index_;
  bool keep_dictionaries_;
};

}  // namespace lance::read
