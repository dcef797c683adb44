// Record-batch writers for `scan` / `take` output. The text formats (csv, tsv, json,
// jsonl) follow docs/output-format.md byte for byte.
#pragma once

#include <map>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "array/array.h"
#include "output/sink.h"

namespace lance::output {

enum class OutputFormat {
  csv,
  tsv,
  json,
  jsonl,
  arrow,  ///< Arrow IPC stream (binary)
  null,   ///< discard: every batch is fully decoded, nothing is written (for benchmarks)
};

/// The format named `name` ("csv", "tsv", "json", "jsonl", "arrow", "null"); throws a usage Error
/// listing the valid names otherwise.
OutputFormat parse_output_format(std::string_view name);

/// The names `parse_output_format` accepts, in its order: csv, tsv, json, jsonl, arrow, null.
std::vector<std::string> output_format_names();

/// The name of `format` as `parse_output_format` accepts it.
const char* output_format_name(OutputFormat format);

struct TextOptions {
  bool header = true;     ///< csv/tsv: write the line of column names first
  std::string null_text;  ///< csv/tsv: the text of a null cell (encoded like a value when it needs quotes or escapes)
};

/// Writes record batches as they arrive.
///
/// Usage: `begin(fields)` once, `write(batch)` for each batch in row order (the batches'
/// columns match `fields`), then `finish()`, which completes the output and flushes the
/// sink. Writing errors propagate from the sink (`OutputClosed`, `Error`).
class BatchWriter {
 public:
  virtual ~BatchWriter() = default;
  virtual void begin(const std::vector<FieldPtr>& fields) = 0;
  virtual void write(const RecordBatch& batch) = 0;
  virtual void finish() = 0;
};

/// A writer of `format` to `sink` (which must outlive it). Throws an unsupported Error for
/// `OutputFormat::arrow`, which is not a text format.
std::unique_ptr<BatchWriter> make_text_writer(OutputFormat format, OutputSink& sink, const TextOptions& options);

/// A writer of any `format` to `sink`: the text writers above, a writer that checks each
/// batch's shape and discards it for `OutputFormat::null`, or for `OutputFormat::arrow`
/// the Arrow IPC stream writer (output/arrow_writer.h), which writes `schema_metadata` as the
/// schema's custom_metadata (text formats ignore it and `options` does not apply to arrow).
std::unique_ptr<BatchWriter> make_writer(OutputFormat format, OutputSink& sink, const TextOptions& options,
                                         const std::map<std::string, std::string>& schema_metadata = {});

}  // namespace lance::output
