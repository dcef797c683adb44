// The row reader of one Lance data file: projection and row selection (a range for scans,
// indices for take) → record batches in row order.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "array/array.h"
#include "format/file_reader.h"
#include "read/column_selection.h"
#include "read/decode_pool.h"
#include "read/field_reader.h"
#include "read/reader_options.h"
#include "structural/page_decoder.h"

namespace lance::read {

/// Default rows per output batch.
inline constexpr uint64_t kDefaultBatchSize = 8192;

/// Puts the rows of a take in the order it reads them: rows already in order (non-decreasing:
/// an index's partitions, a filter's matches, `takeOffsets`' sorted lists) stay as they are,
/// repeats included, which the decoders then emit again (FileRowReader::row_ranges); other rows
/// are sorted and their repeats dropped, to be put back in the asked order afterwards
/// (take_array). Gathering the repeats afterwards copied every column once more, a tenth of a
/// 2048-row take of vectors.
void order_take_rows(std::vector<uint64_t>& rows);

/// Rows of a file, read field by field. Not thread-safe.
class FileRowReader {
 public:
  /// `options`: page batching, decode mode and the rep-index cache (the file was opened with
  /// its I/O options and counters).
  FileRowReader(std::shared_ptr<format::FileReader> file, std::vector<size_t> fields,
                const ReaderOptions& options = {});
  /// Columns that may be nested sub-fields: only their leaf columns are read.
  FileRowReader(std::shared_ptr<format::FileReader> file, const std::vector<ColumnSelection>& columns,
                const ReaderOptions& options = {});
  ~FileRowReader();
  FileRowReader(FileRowReader&&) noexcept;

  /// Output fields (dictionary types decoded to their value types).
  const std::vector<FieldPtr>& fields() const { return fields_; }
  uint64_t num_rows() const { return file_->num_rows(); }

  /// Rows [begin, end) as one batch (begin ≤ end ≤ num_rows()); decoded as a take of as many
  /// rows would be (inline when they hold under kPoolTakeBytes, unless the options set a mode).
  RecordBatch read_range(uint64_t begin, uint64_t end);

  /// Reads of a batch submitted but not decoded: lets a scan read batch k+1 while
  /// batch k is decoded and written.
  struct PendingBatch {
    std::vector<std::unique_ptr<FieldReader::Pending>> fields;
    uint64_t num_rows = 0;
    DecodeMode mode = DecodeMode::pool;  ///< how finish() decodes it
  };
  /// Starts reading `ranges` (sorted by start, non-empty, within the file; a range may repeat
  /// a row the one before ends with, which is then decoded again: row_ranges): the
  /// metadata every projected column needs goes out as one request per round (usually one,
  /// none when the pages are known already), then the data requests are submitted. `mode`:
  /// how finish() decodes the batch (default: the options' mode, else the pool, as for scans).
  std::unique_ptr<PendingBatch> start(std::vector<structural::RowRange> ranges,
                                      std::optional<DecodeMode> mode = std::nullopt);
  /// The rows of all ranges of `pending`, in order.
  RecordBatch finish(std::unique_ptr<PendingBatch> pending);

  /// Rows by number, in the order given (repeats allowed): each needed page's bytes
  /// are fetched in batched requests, every row read once. Throws Error(usage) for a row
  /// ≥ num_rows().
  RecordBatch take(std::span<const uint64_t> rows);
  /// The rows of `ranges` (as for start()), in order, read as a take reads them: for a caller
  /// whose rows are runs already (an index's partitions), with no row list to sort.
  RecordBatch take_ranges(std::vector<structural::RowRange> ranges);

  /// Reads ahead for takes of some of `rows` (any order, repeats allowed): their bytes are
  /// read now, as take(rows) would read them, and kept in the file's I/O scheduler
  /// (io::IoScheduler::begin_keeping), so that takes of parts of them do no I/O of their own
  /// until drop_prefetched(). Reads no data for 2.0 and v1 files (their fields plan nothing).
  void prefetch(std::span<const uint64_t> rows);
  /// Whether prefetch() reads anything (2.1+ files).
  bool prefetches() const { return file_->version().is_structural(); }
  /// Frees what prefetch() kept.
  void drop_prefetched();

 private:
  using PlannedFields = std::vector<std::unique_ptr<FieldReader::Pending>>;
  /// Every field planned for `ranges`, with the metadata rounds they need run (start, prefetch).
  PlannedFields plan_fields(std::span<const structural::RowRange> ranges);
  /// Submits the data requests of planned fields.
  void submit_fields(PlannedFields& planned);
  /// `rows` checked against num_rows() (Error(usage) naming the file), into `sorted` and
  /// returned as row ranges (take, prefetch). Rows in order (non-decreasing) are kept as they
  /// are, each repeat a one-row range of its own; others are sorted and their repeats dropped.
  std::vector<structural::RowRange> row_ranges(std::span<const uint64_t> rows, std::vector<uint64_t>& sorted) const;

  std::shared_ptr<format::FileReader> file_;
  std::vector<size_t> field_indices_;
  std::vector<FieldPtr> fields_;
  DecodeMode scan_decode_mode_;  ///< for start/finish (scans)
  DecodeMode take_decode_mode_;  ///< for take (random access decodes little)
  /// The mode of a take or read_range of `rows` rows: take_decode_mode_, or the pool when
  /// they hold at least kPoolTakeBytes of bytes to decode (decode_bytes_per_row_ each;
  /// options unset).
  DecodeMode few_rows_mode(uint64_t rows) const;
  /// File bytes per row of the projected fields' pages that take decoding work (all but
  /// full-zip pages of plain fixed-width values; 2.0 and v1: the file's bytes per row).
  double decode_bytes_per_row_ = 0;
  bool take_mode_set_ = false;  ///< the options chose the decode mode: takes keep it whatever their size
  bool taking_ = false;         ///< inside take: plan_fields may fetch likely data with the metadata
  std::vector<std::unique_ptr<FieldReader>> readers_;
};

}  // namespace lance::read
