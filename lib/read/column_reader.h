// Reads rows of one leaf column across its pages, batching the I/O of many pages.
#pragma once

#include <future>
#include <map>
#include <memory>
#include <span>
#include <vector>

#include "format/file_reader.h"
#include "structural/page_decoder.h"

namespace lance::read {

/// Rows [begin, end) of a file.
using structural::RowRange;

/// Default byte budget of one I/O request: consecutive page reads of a column are grouped
/// into requests of about this size so the scheduler can merge neighbours.
inline constexpr uint64_t kPageBatchBytes = 8 * 1024 * 1024;

/// The page-batch budget in bytes: kPageBatchBytes unless LANCE_CLI_PAGE_BATCH_BYTES is
/// set (0 = one request per page, i.e. batching off).
uint64_t page_batch_bytes();

/// Rows of one 2.1+ leaf column. Not thread-safe.
///
/// Reading is split so that I/O can run ahead of decoding:
///   auto pending = col.start({{0, 8192}});   // metadata (if new pages) then data reads submitted
///   ...                                        // e.g. decode the previous batch meanwhile
///   LeafData rows = col.finish(std::move(pending));
class ColumnReader {
 public:
  ColumnReader(std::shared_ptr<format::FileReader> file, uint32_t column, TypePtr leaf_type, std::string field_name);
  ~ColumnReader();

  /// Reads submitted for some rows, not yet decoded: per page its local row ranges and
  /// where its data parts are in the request results.
  struct Pending {
    struct PagePart {
      size_t page;
      std::vector<RowRange> local;
      size_t request;  // index into futures
      size_t first_part;
      size_t num_parts;
    };
    std::vector<PagePart> pages;
    std::vector<std::future<std::vector<Bytes>>> futures;
    uint64_t num_rows = 0;
  };

  /// Starts reading `ranges` (file rows; sorted, non-overlapping, non-empty, within the
  /// column). Loads page metadata first when a page is new (a synchronous round).
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
  std::string context() const;

  std::shared_ptr<format::FileReader> file_;
  uint32_t column_;
  TypePtr leaf_type_;
  std::string field_name_;
  std::vector<uint64_t> page_starts_;  // first row of each page, plus the end
  std::map<size_t, std::unique_ptr<structural::PageDecoder>> decoders_;
  uint64_t batch_budget_ = page_batch_bytes();
};

}  // namespace lance::read
