#include "dataset/table_reader.h"

#include <algorithm>
#include <filesystem>
#include <system_error>

#include "dataset/dataset.h"
#include "read/row_reader.h"
#include "read/scan_pipeline.h"

namespace lance::dataset {

namespace {

/// A single Lance data file as a table.
class FileTableReader final : public TableReader {
 public:
  FileTableReader(std::shared_ptr<format::FileReader> file, const std::vector<std::string>& columns,
                  const read::ReaderOptions& options)
      : file_(file), options_(options), reader_(file, read::resolve_column_paths(file->schema(), columns), options) {}

  const std::string& path() const override { return file_->path(); }
  const format::Schema& schema() const override { return file_->schema(); }
  const std::vector<FieldPtr>& fields() const override { return reader_.fields(); }
  uint64_t num_rows() const override { return reader_.num_rows(); }

  void scan(uint64_t begin, uint64_t end, uint64_t batch_size, const std::function<void(RecordBatch)>& sink) override {
    end = std::min(end, num_rows());
    if (begin >= end) return;
    if (batch_size == 0) throw_usage("batch size must be at least 1");
    // Batches are planned, read and decoded on the CPU pool, one after another (one file:
    // one chain), while `sink` handles the oldest one here.
    read::ScanPipeline pipe(options_.decode_mode.value_or(read::DecodeMode::pool), options_.scan_batches_in_flight);
    uint64_t row = begin;
    for (;;) {
      for (; row < end && !pipe.full(); row += batch_size) {
        const uint64_t lo = row, hi = std::min(end, row + batch_size);
        pipe.add(0, [this, lo, hi]() -> read::ScanPipeline::Finish {
          auto pending = std::make_shared<std::unique_ptr<read::FileRowReader::PendingBatch>>(reader_.start({{lo, hi}}));
          return [this, pending] { return reader_.finish(std::move(*pending)); };
        });
      }
      if (pipe.empty()) break;
      sink(pipe.next());
    }
  }

  RecordBatch take(std::span<const uint64_t> rows) override { return reader_.take(rows); }

 private:
  std::shared_ptr<format::FileReader> file_;
  read::ReaderOptions options_;
  read::FileRowReader reader_;
};

}  // namespace

bool is_dataset_dir(const std::string& path) {
  std::error_code ec;
  return std::filesystem::is_directory(path, ec) &&
         std::filesystem::is_directory(std::filesystem::path(path) / kVersionsDir, ec);
}

std::unique_ptr<TableReader> open_table(const std::string& path, const TableOptions& options) {
  if (is_dataset_dir(path)) {
    auto ds = Dataset::open(path, options.version, options.reader);
    if (options.fragments) ds = ds->select_fragments(*options.fragments);
    auto fields = read::resolve_projection(ds->schema(), options.columns);
    return std::make_unique<DatasetRowReader>(std::move(ds), std::move(fields));
  }
  std::error_code ec;
  if (std::filesystem::is_directory(path, ec))
    throw_usage("{} is a directory but not a Lance dataset (it has no {}/)", path, kVersionsDir);
  if (options.version)
    throw_usage("{} is a single data file; a version can only be chosen for a dataset directory", path);
  if (options.fragments)
    throw_usage("{} is a single data file; --fragments can only be chosen for a dataset directory", path);
  auto file = format::FileReader::open(path, options.reader.io, options.reader.stats);
  return std::make_unique<FileTableReader>(std::move(file), options.columns, options.reader);
}

}  // namespace lance::dataset
