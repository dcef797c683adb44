// Reading record batches from one Lance data file: projection and row selection
// (a range for scans, indices for take) → batches in row order.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "array/array.h"
#include "format/file_reader.h"
#include "read/decode_pool.h"
#include "read/field_reader.h"
#include "structural/page_decoder.h"

namespace lance::read {

/// Default rows per output batch.
inline constexpr uint64_t kDefaultBatchSize = 8192;

/// One output column: a top-level field, or a field nested in structs below it.
struct ColumnSelection {
  size_t field = 0;          ///< index of the top-level field
  std::vector<size_t> path;  ///< child indices through structs (empty: the field itself)
  std::string name;          ///< output column name: the field's name, or the dotted path
};

/// The columns to read: all top-level fields when `columns` is empty, else those names in
/// the given order. A name that is not a top-level field may be a dotted path through
/// struct fields ("s.inner.y"; a top-level name with a dot in it wins). Throws Error(usage)
/// for an unknown name (with a close-match hint) or a path into a list or map.
std::vector<ColumnSelection> resolve_column_paths(const format::Schema& schema, const std::vector<std::string>& columns);

/// As resolve_column_paths, for readers that take whole top-level fields only: a dotted
/// path is a usage error.
std::vector<size_t> resolve_projection(const format::Schema& schema, const std::vector<std::string>& columns);

/// Rows of a file, read field by field. Not thread-safe.
class FileRowReader {
 public:
  FileRowReader(std::shared_ptr<format::FileReader> file, std::vector<size_t> fields);
  /// Columns that may be nested sub-fields: only their leaf columns are read.
  FileRowReader(std::shared_ptr<format::FileReader> file, const std::vector<ColumnSelection>& columns);
  ~FileRowReader();
  FileRowReader(FileRowReader&&) noexcept;

  /// Output fields (dictionary types decoded to their value types).
  const std::vector<FieldPtr>& fields() const { return fields_; }
  uint64_t num_rows() const { return file_->num_rows(); }

  /// Rows [begin, end) as one batch (begin ≤ end ≤ num_rows()).
  RecordBatch read_range(uint64_t begin, uint64_t end);

  /// Reads of a batch submitted but not decoded: lets a scan read batch k+1 while
  /// batch k is decoded and written.
  struct PendingBatch {
    std::vector<std::unique_ptr<FieldReader::Pending>> fields;
    uint64_t num_rows = 0;
  };
  /// Starts reading `ranges` (sorted, non-overlapping, non-empty, within the file).
  std::unique_ptr<PendingBatch> start(std::vector<structural::RowRange> ranges);
  /// The rows of all ranges of `pending`, in order.
  RecordBatch finish(std::unique_ptr<PendingBatch> pending);

  /// Rows by number, in the order given (repeats allowed): each needed page's bytes
  /// are fetched in batched requests, every row read once. Throws Error(usage) for a row
  /// ≥ num_rows().
  RecordBatch take(std::span<const uint64_t> rows);

 private:
  std::shared_ptr<format::FileReader> file_;
  std::vector<size_t> field_indices_;
  std::vector<FieldPtr> fields_;
  DecodeMode decode_mode_ = decode_mode_from_env(DecodeMode::pool);
  std::vector<std::unique_ptr<FieldReader>> readers_;
};

/// Suggests the closest of `candidates` to `name` (edit distance), or "" if none is close.
std::string closest_name(const std::string& name, const std::vector<std::string>& candidates);

}  // namespace lance::read
