// Exporting lance-cli's schemas, arrays and readers through the Arrow C Data Interface and
// the C Stream Interface (c_data.h), without copying any buffer.
#pragma once

#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "array/array.h"
#include "capi/c_data.h"
#include "dataset/table_reader.h"

namespace lance::capi {

/// Fills `out` with the type, name, nullability and metadata of `field` (children and
/// dictionary included). The caller owns `out` and must release it.
void export_field(const Field& field, ArrowSchema* out);

/// Fills `out` with a struct schema ("+s", unnamed, not nullable) whose children are
/// `fields`, with `metadata` as the schema metadata: the schema of a record batch.
void export_schema(const std::vector<FieldPtr>& fields, ArrowSchema* out,
                   const std::map<std::string, std::string>& metadata = {});

/// Fills `out` with `array`. Zero-copy: the exported buffers are the array's own; the
/// ArrowArray holds a reference to `array` (and so to its shared buffers) until released.
/// Empty buffers are exported as pointers to static zeros, never NULL, except a validity
/// bitmap, which is NULL when the array has no nulls.
void export_array(ArrayPtr array, ArrowArray* out);

/// Fills `out` with `batch` as a struct array of `batch.num_rows` rows without nulls, one
/// child per column (zero-copy like `export_array`).
void export_batch(const RecordBatch& batch, ArrowArray* out);

/// A source of record batches for `export_stream`.
class BatchSource {
 public:
  virtual ~BatchSource() = default;
  /// The fields of every batch.
  virtual const std::vector<FieldPtr>& fields() const = 0;
  /// Schema-level metadata.
  virtual std::map<std::string, std::string> metadata() const { return {}; }
  /// The next batch, or nullopt at the end. Errors are thrown (`Error`).
  virtual std::optional<RecordBatch> next() = 0;
};

/// Fills `out` with a stream over `source`: get_schema exports `export_schema(fields)`,
/// get_next one batch per call (`export_batch`). Errors thrown by the source become errno
/// return codes (EIO for I/O and corrupt data, EINVAL for usage, ENOTSUP for unsupported)
/// with the message available from get_last_error until the next call. The stream owns the
/// source; arrays already handed out stay valid after the stream is released.
void export_stream(std::unique_ptr<BatchSource> source, ArrowArrayStream* out);

/// Rows [begin, end) of `table` (a data file or dataset opened with dataset::open_table; `end`
/// is clamped to its rows) in batches of at most `batch_size` rows (0: the default 8192), with
/// the table's schema metadata.
std::unique_ptr<BatchSource> make_table_batch_source(std::unique_ptr<dataset::TableReader> table, uint64_t begin,
                                                     uint64_t end, uint64_t batch_size);

}  // namespace lance::capi
