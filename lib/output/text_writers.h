// Internal to lib/output: the text writers behind make_text_writer, and what they share.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "output/writer.h"

namespace lance::output {

std::unique_ptr<BatchWriter> make_csv_writer(OutputSink& sink, const TextOptions& options);
std::unique_ptr<BatchWriter> make_tsv_writer(OutputSink& sink, const TextOptions& options);
/// `lines`: jsonl (one object per line) instead of one json array.
std::unique_ptr<BatchWriter> make_json_writer(OutputSink& sink, bool lines);

/// Rows are built into one string that goes to the sink once it holds this many bytes:
/// one sink call per few hundred rows instead of one per row.
inline constexpr size_t kRowChunkBytes = size_t{64} << 10;

/// Throws std::logic_error unless `batch` has one column per field, each at least
/// `batch.num_rows` long (a caller bug, not bad input).
void check_batch_shape(const RecordBatch& batch, size_t num_fields);

/// csv and tsv: a header line, then one line per row of separated cells.
///
/// A subclass supplies the separator and `append_encoded`, which quotes or escapes one
/// cell's text. Cells of types whose text never needs it (numbers, bools, temporals,
/// decimals) skip the encoding step.
class DelimitedWriter : public BatchWriter {
 public:
  void begin(const std::vector<FieldPtr>& fields) override;
  void write(const RecordBatch& batch) override;
  void finish() override;

 protected:
  DelimitedWriter(OutputSink& sink, const TextOptions& options, char separator)
      : sink_(sink), options_(options), separator_(separator) {}
  /// Appends `cell` (the text of a non-null value, or a column name) quoted or escaped.
  virtual void append_encoded(std::string& out, std::string_view cell) const = 0;
  /// Appends the text of a non-null value that equals `--null TEXT`, in double quotes (as
  /// DuckDB's COPY does), so that it does not read back as null.
  virtual void append_quoted(std::string& out, std::string_view cell) const = 0;

 private:
  OutputSink& sink_;
  TextOptions options_;
  char separator_;
  size_t num_fields_ = 0;
  std::vector<bool> plain_;  ///< per column: its text never needs quoting or escapes
  std::string rows_;         ///< rows not yet handed to the sink
  std::string cell_;         ///< one cell's text before encoding
  std::string null_cell_;    ///< `--null TEXT`, encoded like a value when it holds a separator, newline or CSV quote

  /// With `--null TEXT`: when the value just written from `rows_[start]` on reads exactly as
  /// the null cell (and so would read back as null), rewrites it quoted.
  void quote_null_lookalike(const ArrayData& column, int64_t row, size_t start);
};

}  // namespace lance::output
