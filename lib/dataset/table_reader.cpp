#include "dataset/table_reader.h"

#include <algorithm>
#include <future>

#include "common/cancel.h"
#include "common/finally.h"
#include "dataset/dataset.h"
#include "dataset/read_cost.h"
#include "io/object_store.h"
#include "io/remote/stores.h"
#include "io/remote/uri.h"
#include "read/read_ahead.h"
#include "read/row_reader.h"
#include "read/scan_pipeline.h"

namespace lance::dataset {

namespace {

/// A single Lance data file as a table.
class FileTableReader final : public TableReader {
 public:
  /// `local`: the file is on local disk (takes are then answered in groups, take_units).
  FileTableReader(std::shared_ptr<format::FileReader> file, std::vector<read::ColumnSelection> selection,
                  const read::ReaderOptions& options, bool local)
      : file_(file), options_(options), reader_(file, std::move(selection), options), local_(local) {}

  const std::string& path() const override { return file_->path(); }
  const format::Schema& schema() const override { return file_->schema(); }
  const std::vector<FieldPtr>& fields() const override { return reader_.fields(); }
  uint64_t num_rows() const override { return reader_.num_rows(); }

  void scan_batches(uint64_t begin, uint64_t end, uint64_t batch_size,
                    const std::function<void(RecordBatch)>& sink) override {
    // Batches are planned, read and decoded one after another (one file: one chain): here for
    // a local file, on the CPU pool for a remote one while `sink` handles the oldest batch.
    // Every column counted (the projection's share of a single file is not known up front):
    // batches of large rows are never larger than the budget, narrow projections' smaller.
    const double per_row = file_->bytes_per_row();
    const read::DecodeMode mode =
        read::scan_decode_mode(options_.decode_mode, local_, per_row * static_cast<double>(end - begin), true);
    read::ScanPipeline pipe(mode, options_.scan_batches_in_flight);
    uint64_t row = begin;
    const uint64_t rows = scan_batch_rows(batch_size, per_row, options_.scan_batch_bytes);
    for (;;) {
      for (; row < end && !pipe.full(); row += rows) {
        const uint64_t lo = row, hi = std::min(end, row + rows);
        pipe.add(0, [this, lo, hi, mode]() -> read::ScanPipeline::Finish {
          auto pending =
              std::make_shared<std::unique_ptr<read::FileRowReader::PendingBatch>>(reader_.start({{lo, hi}}, mode));
          return [this, pending] { return reader_.finish(std::move(*pending)); };
        });
      }
      if (pipe.empty()) break;
      sink(pipe.next());
    }
  }

  RecordBatch take(std::span<const uint64_t> rows) override { return reader_.take(rows); }

  std::unique_ptr<TableReader> with_columns(const std::vector<std::string>& columns) const override {
    return projected(columns, options_);
  }

  std::unique_ptr<TableReader> with_columns_keeping_dictionaries(
      const std::vector<std::string>& columns) const override {
    read::ReaderOptions keeping = options_;
    keeping.keep_dictionaries = true;
    return projected(columns, keeping);
  }

  /// Local file: ascending rows in groups, every row counted at the file's average size (all
  /// columns: more groups than a narrow projection needs, never fewer).
  void take_units(std::span<const uint64_t> rows, uint64_t batch_size,
                  const std::function<void(RecordBatch)>& sink) override {
    const double per_row = file_->bytes_per_row();
    take_in_groups(
        rows, batch_size, options_.take_group_bytes, sink,
        [&](uint64_t) {
          return local_ ? TakeRun{num_rows(), per_row} : TakeRun{};
        },
        [&](std::span<const uint64_t> run, const std::vector<size_t>& groups) {
          if (!reader_.prefetches()) return false;
          reader_.prefetch(run);
          Finally drop([&] { reader_.drop_prefetched(); });
          for (size_t at = 0; size_t g : groups) {
            sink(take(run.subspan(at, g)));
            at += g;
          }
          return true;
        });
  }

 private:
  /// A reader of this file for `columns` (resolved as open_table does) with `options`.
  std::unique_ptr<TableReader> projected(const std::vector<std::string>& columns,
                                         const read::ReaderOptions& options) const {
    auto selection = with_context([&] { return io::display_location(file_->path()); },
                                  [&] { return read::resolve_column_paths(file_->schema(), columns); });
    return std::make_unique<FileTableReader>(file_, std::move(selection), options, local_);
  }

  std::shared_ptr<format::FileReader> file_;
  read::ReaderOptions options_;
  read::FileRowReader reader_;
  bool local_;
};

}  // namespace

namespace {

/// `unit` handed to `sink` in slices of at most `batch_size` rows (copies; the unit itself
/// when it is no longer than that).
void slice_into(RecordBatch unit, uint64_t batch_size, const std::function<void(RecordBatch)>& sink) {
  const auto step = static_cast<int64_t>(batch_size);
  if (unit.num_rows <= step) return sink(std::move(unit));
  for (int64_t at = 0; at < unit.num_rows; at += step) {
    const int64_t n = std::min(step, unit.num_rows - at);
    RecordBatch part{unit.fields, {}, n};
    part.columns.reserve(unit.columns.size());
    for (const auto& c : unit.columns) part.columns.push_back(slice_array(c, at, n));
    sink(std::move(part));
  }
}

}  // namespace

void TableReader::scan(uint64_t begin, uint64_t end, uint64_t batch_size,
                       const std::function<void(RecordBatch)>& sink) {
  end = std::min(end, num_rows());
  if (begin >= end) return;
  if (batch_size == 0) throw_usage("batch size must be at least 1");
  if (batch_size >= kMinScanReadRows) return scan_batches(begin, end, batch_size, sink);
  scan_batches(begin, end, kMinScanReadRows, [&](RecordBatch unit) { slice_into(std::move(unit), batch_size, sink); });
}

void TableReader::take_batches(std::span<const uint64_t> rows, uint64_t batch_size,
                               const std::function<void(RecordBatch)>& sink) {
  if (batch_size == 0) throw_usage("batch size must be at least 1");
  if (batch_size >= kMinScanReadRows) return take_units(rows, batch_size, sink);
  take_units(rows, kMinScanReadRows, [&](RecordBatch unit) { slice_into(std::move(unit), batch_size, sink); });
}

void TableReader::take_units(std::span<const uint64_t> rows, uint64_t unit_rows,
                             const std::function<void(RecordBatch)>& sink) {
  for (size_t i = 0; i < rows.size(); i += unit_rows)
    sink(take(rows.subspan(i, std::min<size_t>(unit_rows, rows.size() - i))));
}

void TableReader::take_in_groups(
    std::span<const uint64_t> rows, uint64_t batch_size, uint64_t budget_bytes,
    const std::function<void(RecordBatch)>& sink, const std::function<TakeRun(uint64_t)>& run_at,
    const std::function<bool(std::span<const uint64_t>, const std::vector<size_t>&)>& take_grouped) {
  if (batch_size == 0) throw_usage("batch size must be at least 1");
  for (size_t i = 0; i < rows.size();) {
    auto part = rows.subspan(i, std::min<size_t>(batch_size, rows.size() - i));
    const TakeRun shape = budget_bytes > 0 && part[0] < num_rows() ? run_at(part[0]) : TakeRun{};
    const size_t run = ascending_run(part, shape.end_row);
    if (run == 0 || (run < part.size() && part[run] < part[run - 1])) {  // rows out of order
      sink(take(part));
      i += part.size();
      continue;
    }
    part = part.first(run);
    const std::vector<size_t> groups = take_groups(part, shape.bytes_per_row, budget_bytes);
    if (groups.size() == 1 || !take_grouped(part, groups)) sink(take(part));  // one group, or no read-ahead
    i += run;
  }
}

ReadAheadHint read_ahead_hint_for_take(std::span<const uint64_t> rows) {
  if (rows.empty()) return {};
  std::vector<uint64_t> sorted(rows.begin(), rows.end());
  std::sort(sorted.begin(), sorted.end());
  sorted.erase(std::unique(sorted.begin(), sorted.end()), sorted.end());
  const uint64_t span = sorted.back() - sorted.front() + 1;
  ReadAheadHint hint;
  if (span / 2 > sorted.size()) hint.sparse_rows = sorted.size();
  return hint;
}

bool is_dataset_dir(const std::string& path, const io::ObjectStore& store) {
  const std::string versions = io::join_path(path, std::string(kVersionsDir));
  try {
    return store.is_directory(versions) && (store.remote() || store.is_directory(path));
  } catch (const Error& e) {
    // A public object read unsigned (aws_skip_signature) from a bucket that denies anonymous
    // listings: the listing fails (403) where the object itself can be read. When the path
    // is an object that answers, it is a data file; otherwise the listing's error stands.
    if (store.remote() && e.kind() == ErrorKind::io) {
      try {
        if (store.size_of(path)) return false;
      } catch (const Error&) {
        // not readable either: report the listing
      }
    }
    // The listing of <path>/_versions/ is only how a dataset is recognised: a failure (an
    // unreachable endpoint, a 403) names the path the caller gave, which may be a single file.
    std::string message = e.what();
    for (std::string from : {versions + "/", versions}) {
      from = io::display_location(from);
      for (size_t at; (at = message.find(from)) != std::string::npos;)
        message.replace(at, from.size(), io::display_location(path));
    }
    throw Error(e.kind(), message);
  }
}

bool is_dataset_dir(const std::string& path) { return is_dataset_dir(path, io::LocalStore()); }

namespace {

/// For a directory or prefix that is not a dataset: when it holds tables (`NAME.lance/`
/// entries, a LanceDB database root), ": it holds the tables a, b (read one: ...)"; else "".
std::string tables_inside(const std::string& path, const io::ObjectStore& store) {
  std::vector<std::string> tables;
  try {
    for (const auto& e : store.list(path))
      if (e.is_dir && e.name.size() > 6 && e.name.ends_with(".lance")) tables.push_back(e.name);
  } catch (const Error&) {
    return {};  // only a hint: the caller's message stands without it
  }
  if (tables.empty()) return {};
  std::sort(tables.begin(), tables.end());
  constexpr size_t kShown = 10;
  std::string names;
  for (size_t i = 0; i < std::min(tables.size(), kShown); ++i)
    names += (i ? ", " : "") + tables[i].substr(0, tables[i].size() - 6);
  if (tables.size() > kShown) names += fmt::format(" and {} more", tables.size() - kShown);
  return fmt::format("; it looks like a LanceDB database holding the table{} {} (read one as {})",
                     tables.size() == 1 ? "" : "s", names, io::display_location(io::join_path(path, tables.front())));
}

}  // namespace

void check_data_file_path(const std::string& path, const io::ObjectStore& store) {
  if (!store.remote() && store.is_directory(path))
    throw_usage("{} is a directory but not a Lance dataset (it has no {}/){}", path, kVersionsDir,
                tables_inside(path, store));
  if (!path.ends_with(".manifest")) return;
  const size_t at = path.rfind("/_versions/");
  throw_usage("{} is a dataset manifest, not a data file: give the dataset directory{}", io::display_location(path),
              at == std::string::npos ? std::string() : fmt::format(" ({})", io::display_location(path.substr(0, at))));
}

std::shared_ptr<format::FileReader> open_single_file(const std::string& path, const io::ObjectStore& store,
                                                     const read::ReaderOptions& options, bool version_given,
                                                     bool fragments_given) {
  check_data_file_path(path, store);
  if (version_given)
    throw_usage("{} is a single data file; a version can only be chosen for a dataset directory",
                io::display_location(path));
  if (fragments_given)
    throw_usage("{} is a single data file; --fragments can only be chosen for a dataset directory",
                io::display_location(path));
  std::shared_ptr<io::RandomAccessFile> file;
  try {
    file = store.open(path);
  } catch (const Error& e) {
    // An object store has no directories: a prefix with objects but no _versions/ is named as such.
    if (e.kind() == ErrorKind::io && store.remote() && store.is_directory(path))
      throw_usage("{} is a prefix with objects but not a Lance dataset (it has no {}/){}", io::display_location(path),
                  kVersionsDir, tables_inside(path, store));
    throw;
  }
  return format::FileReader::open(std::move(file), store.tune(options.io), options.stats);
}

std::unique_ptr<TableReader> open_table(const std::string& path, const TableOptions& options) {
  const auto store = io::store_for(path, options.reader.storage, options.reader.stats);
  // Remote: data/ is listed alongside _versions/ (is_dataset_dir), so the data files can be on
  // their way while the manifest is read; for a single file it lists nothing. The hint holds
  // only when every column of every fragment is read. A scan of every row of
  // some columns opens ahead only files no larger than a tail and files too large to fetch
  // whole: after the manifest the reader fetches a file in between either whole (the columns
  // are most of it), which a tail fetched ahead would only add a request to, or its tail and
  // then the columns' pages.
  const bool every_column = options.columns.empty() && !options.fragments;
  ReadAheadHint hint = every_column ? options.read_ahead : ReadAheadHint{};
  hint.small_files_only = !every_column && options.read_ahead.whole_files;
  std::future<void> opening_ahead;
  if (store->network_model().remote) {  // read::data_files_to_open decides which
    StopSignalsBlocked blocked;         // SIGINT/SIGTERM stay with the main thread (and the GETs it starts)
    opening_ahead = std::async(std::launch::async, [store, path, hint] { open_data_files_ahead(*store, path, hint); });
  }
  const bool dataset = is_dataset_dir(path, *store);
  if (opening_ahead.valid()) opening_ahead.get();
  if (dataset) {
    auto ds = Dataset::open(path, options.version, options.reader);
    if (options.fragments) ds = ds->select_fragments(*options.fragments);
    // An unknown column names the dataset it is not in.
    auto fields = with_context([&] { return io::display_location(path); },
                               [&] { return read::resolve_projection(ds->schema(), options.columns); });
    return std::make_unique<DatasetRowReader>(std::move(ds), std::move(fields));
  }
  auto file =
      open_single_file(path, *store, options.reader, options.version.has_value(), options.fragments.has_value());
  auto selection = with_context([&] { return io::display_location(path); },
                                [&] { return read::resolve_column_paths(file->schema(), options.columns); });
  return std::make_unique<FileTableReader>(std::move(file), std::move(selection), options.reader,
                                           !read::overlap_fragments(store->network_model()));
}

}  // namespace lance::dataset
