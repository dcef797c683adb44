#include "output/writer.h"

#include <stdexcept>

#include "common/error.h"
#include "output/arrow_writer.h"
#include "output/text_writers.h"
#include "output/value_text.h"

namespace lance::output {

namespace {

struct FormatName {
  OutputFormat format;
  const char* name;
};
constexpr FormatName kFormatNames[] = {
    {OutputFormat::csv, "csv"},     {OutputFormat::tsv, "tsv"},     {OutputFormat::json, "json"},
    {OutputFormat::jsonl, "jsonl"}, {OutputFormat::arrow, "arrow"}, {OutputFormat::null, "null"},
};

/// Whether the text of every value of `type` is non-empty and free of separators, quotes,
/// backslashes and line breaks, so a csv/tsv cell needs no quoting or escapes.
bool text_is_plain(const DataType& type) {
  switch (type.id) {
    case TypeId::boolean:
    case TypeId::int8:
    case TypeId::int16:
    case TypeId::int32:
    case TypeId::int64:
    case TypeId::uint8:
    case TypeId::uint16:
    case TypeId::uint32:
    case TypeId::uint64:
    case TypeId::float16:
    case TypeId::float32:
    case TypeId::float64:
    case TypeId::date32:
    case TypeId::date64:
    case TypeId::time32:
    case TypeId::time64:
    case TypeId::timestamp:
    case TypeId::duration:
    case TypeId::decimal128:
    case TypeId::decimal256:
      return true;
    case TypeId::dictionary:
      return text_is_plain(*type.value_type);
    default:
      return false;  // strings, binary (base64 may be empty), nested (JSON has commas)
  }
}

/// `-f null`: the batches were decoded to reach here; writing them is skipped.
class NullWriter final : public BatchWriter {
 public:
  void begin(const std::vector<FieldPtr>& fields) override { num_fields_ = fields.size(); }
  void write(const RecordBatch& batch) override { check_batch_shape(batch, num_fields_); }
  void finish() override {}

 private:
  size_t num_fields_ = 0;
};

}  // namespace

OutputFormat parse_output_format(std::string_view name) {
  for (const auto& f : kFormatNames)
    if (name == f.name) return f.format;
  throw_usage("unknown output format '{}' (valid: csv, tsv, json, jsonl, arrow, null)", name);
}

std::vector<std::string> output_format_names() {
  std::vector<std::string> names;
  for (const auto& f : kFormatNames) names.emplace_back(f.name);
  return names;
}

const char* output_format_name(OutputFormat format) {
  for (const auto& f : kFormatNames)
    if (format == f.format) return f.name;
  return "?";
}

std::unique_ptr<BatchWriter> make_text_writer(OutputFormat format, OutputSink& sink, const TextOptions& options) {
  switch (format) {
    case OutputFormat::csv:
      return make_csv_writer(sink, options);
    case OutputFormat::tsv:
      return make_tsv_writer(sink, options);
    case OutputFormat::json:
      return make_json_writer(sink, false);
    case OutputFormat::jsonl:
      return make_json_writer(sink, true);
    case OutputFormat::arrow:
    case OutputFormat::null:
      break;
  }
  throw_unsupported("'{}' is not a text output format", output_format_name(format));
}

std::unique_ptr<BatchWriter> make_writer(OutputFormat format, OutputSink& sink, const TextOptions& options,
                                         const std::map<std::string, std::string>& schema_metadata) {
  if (format == OutputFormat::arrow) return make_arrow_writer(sink, schema_metadata);
  if (format == OutputFormat::null) return std::make_unique<NullWriter>();
  return make_text_writer(format, sink, options);
}

void check_batch_shape(const RecordBatch& batch, size_t num_fields) {
  if (batch.columns.size() != num_fields)
    throw std::logic_error(fmt::format("batch of {} columns for {} fields", batch.columns.size(), num_fields));
  for (const auto& c : batch.columns)
    if (!c || c->length < batch.num_rows)
      throw std::logic_error(fmt::format("column shorter than the batch's {} rows", batch.num_rows));
}

void DelimitedWriter::begin(const std::vector<FieldPtr>& fields) {
  num_fields_ = fields.size();
  plain_.clear();
  for (const auto& f : fields) plain_.push_back(text_is_plain(*f->type));
  null_cell_.clear();
  // Encoded only when it would break the line into other cells or lines (a separator, a
  // newline, a CSV quote): `\N` stays `\N` in TSV, and the empty text stays empty in CSV.
  const std::string breaking = separator_ == ',' ? ",\"\r\n" : std::string(1, separator_) + "\r\n";
  if (options_.null_text.find_first_of(breaking) != std::string::npos)
    append_encoded(null_cell_, options_.null_text);
  else
    null_cell_ = options_.null_text;
  if (!options_.header) return;
  std::string line;
  for (size_t k = 0; k < fields.size(); ++k) {
    if (k) line += separator_;
    append_encoded(line, fields[k]->name);
  }
  line += '\n';
  sink_.write(line);
}

void DelimitedWriter::write(const RecordBatch& batch) {
  check_batch_shape(batch, num_fields_);
  for (int64_t row = 0; row < batch.num_rows; ++row) {
    for (size_t k = 0; k < num_fields_; ++k) {
      if (k) rows_ += separator_;
      const size_t start = rows_.size();
      const ArrayData& column = *batch.columns[k];
      if (is_null_value(column, row)) {
        rows_ += null_cell_;
        continue;
      }
      if (plain_[k]) {
        append_cell_text(rows_, column, row);
      } else {
        cell_.clear();
        append_cell_text(cell_, column, row);
        append_encoded(rows_, cell_);
      }
      if (!null_cell_.empty()) quote_null_lookalike(column, row, start);
    }
    rows_ += '\n';
    if (rows_.size() >= kRowChunkBytes) {
      sink_.write(rows_);
      rows_.clear();
    }
  }
}

void DelimitedWriter::quote_null_lookalike(const ArrayData& column, int64_t row, size_t start) {
  if (std::string_view(rows_).substr(start) != null_cell_) return;
  rows_.resize(start);
  cell_.clear();
  append_cell_text(cell_, column, row);
  append_quoted(rows_, cell_);
}

void DelimitedWriter::finish() {
  sink_.write(rows_);
  rows_.clear();
  sink_.flush();
}

}  // namespace lance::output
