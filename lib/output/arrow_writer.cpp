#include "output/arrow_writer.h"

#include "arrow/ipc_writer.h"

namespace lance::output {

namespace {

class ArrowStreamWriter : public BatchWriter {
 public:
  ArrowStreamWriter(OutputSink& sink, std::map<std::string, std::string> metadata)
      : sink_(sink), metadata_(std::move(metadata)), ipc_([this](std::string_view bytes) { sink_.write(bytes); }) {}

  void begin(const std::vector<FieldPtr>& fields) override { ipc_.begin(fields, metadata_); }
  void write(const RecordBatch& batch) override { ipc_.write(batch); }
  void finish() override {
    ipc_.finish();
    sink_.flush();
  }

 private:
  OutputSink& sink_;
  std::map<std::string, std::string> metadata_;
  arrow::IpcWriter ipc_;
};

}  // namespace

std::unique_ptr<BatchWriter> make_arrow_writer(OutputSink& sink, std::map<std::string, std::string> schema_metadata) {
  return std::make_unique<ArrowStreamWriter>(sink, std::move(schema_metadata));
}

}  // namespace lance::output
