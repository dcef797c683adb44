// Reading record batches from one Lance data file: projection and row selection
// (a range for scans, indices for take) → batches in row order.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "array/array.h"
#include "format/file_reader.h"

namespace lance::read {

class FieldReader;

/// Default rows per output batch.
inline constexpr uint64_t kDefaultBatchSize = 8192;

/// The top-level fields to read: all when `columns` is empty, else those names in the
/// given order. Throws Error(usage) for an unknown name (with a close-match hint).
std::vector<size_t> resolve_projection(const format::Schema& schema, const std::vector<std::string>& columns);

/// Rows of a file, read field by field. Not thread-safe.
class FileRowReader {
 public:
  FileRowReader(std::shared_ptr<format::FileReader> file, std::vector<size_t> fields);
  ~FileRowReader();
  FileRowReader(FileRowReader&&) noexcept;

  /// Output fields (dictionary types decoded to their value types).
  const std::vector<FieldPtr>& fields() const { return fields_; }
  uint64_t num_rows() const { return file_->num_rows(); }

  /// Rows [begin, end) as one batch (begin ≤ end ≤ num_rows()).
  RecordBatch read_range(uint64_t begin, uint64_t end);

 private:
  std::shared_ptr<format::FileReader> file_;
  std::vector<size_t> field_indices_;
  std::vector<FieldPtr> fields_;
  std::vector<std::unique_ptr<FieldReader>> readers_;
};

/// Suggests the closest of `candidates` to `name` (edit distance), or "" if none is close.
std::string closest_name(const std::string& name, const std::vector<std::string>& candidates);

}  // namespace lance::read
