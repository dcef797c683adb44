// json (one array of row objects) and jsonl (one object per line), docs/output-format.md.
#include "output/text_writers.h"
#include "output/value_text.h"

namespace lance::output {

namespace {

class JsonWriter final : public BatchWriter {
 public:
  JsonWriter(OutputSink& sink, bool lines) : sink_(sink), lines_(lines) {}

  void begin(const std::vector<FieldPtr>& fields) override {
    keys_.clear();
    for (size_t k = 0; k < fields.size(); ++k) {
      std::string key = k ? "," : "";
      append_json_string(key, fields[k]->name);
      key += ':';
      keys_.push_back(std::move(key));
    }
  }

  void write(const RecordBatch& batch) override {
    check_batch_shape(batch, keys_.size());
    for (int64_t row = 0; row < batch.num_rows; ++row) {
      if (!lines_) rows_ += num_rows_ == 0 ? "[\n" : ",\n";
      rows_ += '{';
      for (size_t k = 0; k < keys_.size(); ++k) {
        rows_ += keys_[k];
        append_json_value(rows_, *batch.columns[k], row);
      }
      rows_ += '}';
      if (lines_) rows_ += '\n';
      ++num_rows_;
      if (rows_.size() >= kRowChunkBytes) {
        sink_.write(rows_);
        rows_.clear();
      }
    }
  }

  void finish() override {
    if (!lines_) rows_ += num_rows_ == 0 ? "[]\n" : "\n]\n";
    sink_.write(rows_);
    rows_.clear();
    sink_.flush();
  }

 private:
  OutputSink& sink_;
  bool lines_;
  std::vector<std::string> keys_;  ///< per column: `"name":`, with a leading `,` after the first
  std::string rows_;               ///< rows not yet handed to the sink
  int64_t num_rows_ = 0;
};

}  // namespace

std::unique_ptr<BatchWriter> make_json_writer(OutputSink& sink, bool lines) {
  return std::make_unique<JsonWriter>(sink, lines);
}

}  // namespace lance::output
