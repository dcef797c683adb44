// A Lance dataset directory at one version, and reading its rows.
//
// Layout (docs/format.md §8.1): `_versions/*.manifest` (one per version), `data/*.lance` (data
// files; a fragment has one per group of columns), `_deletions/*.{arrow,bin}` (deleted rows
// per fragment). The manifest lists the fragments in scan order; each fragment's visible rows
// are its physical rows minus its deletions.
//
// Usage:
//   auto ds = Dataset::open("/data/t.lance");            // latest version
//   auto ds1 = Dataset::open("/data/t.lance", 1);        // version 1
//   DatasetRowReader reader(ds, read::resolve_projection(ds->schema(), {"id"}));
//   reader.scan(0, reader.num_rows(), 8192, sink);
#pragma once

#include <cstdint>
#include <deque>
#include <functional>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "dataset/deletion.h"
#include "dataset/fragment_select.h"
#include "dataset/manifest.h"
#include "dataset/table_reader.h"
#include "format/file_reader.h"
#include "io/object_store.h"
#include "read/reader_options.h"

namespace lance::read {
class FileRowReader;
}

namespace lance::dataset {

/// Fragments address rows with 32 bits (Lance row addresses are fragment << 32 | offset).
inline constexpr uint64_t kMaxFragmentRows = uint64_t{1} << 32;

/// Remote stores (a no-op for local ones): lists `dir`/data and, when it holds at most
/// read::kSpeculativeOpens entries, starts opening the data files read::data_files_to_open
/// chooses (whole or their tails, by `hint`) at once (ObjectStore::prefetch), so that those
/// GETs travel with the manifest's instead of in a round trip of their own after it. Call it
/// concurrently with the listing of `dir`/_versions (dataset::open_table does). Most tables
/// read every file they hold (files of replaced versions stay only until a cleanup); a file
/// the manifest does not name costs one unused GET, and a read that wants more of a file than
/// its pending GET overtakes it. Best effort: errors are only logged (debug).
void open_data_files_ahead(const io::ObjectStore& store, const std::string& dir, const ReadAheadHint& hint = {});

/// One version of a dataset: its manifest, and the visible row count of each fragment.
/// Immutable after `open`; data and deletion files are read only when asked for.
class Dataset {
 public:
  /// Opens `dir` at `version` (latest when empty). Reads the manifest, plus the deletion
  /// files (and data-file footers) whose row counts the manifest does not record. Every
  /// data file is read with `options` (without a stats object, the dataset makes one that
  /// all its files share). `dir` may be a local path or an `s3://bucket/prefix` URI;
  /// `options.storage` configures the store.
  static std::shared_ptr<const Dataset> open(const std::string& dir, std::optional<uint64_t> version = std::nullopt,
                                             read::ReaderOptions options = {});

  const std::string& path() const { return dir_; }
  uint64_t version() const { return manifest_.version; }
  const Manifest& manifest() const { return manifest_; }
  const format::Schema& schema() const { return manifest_.schema; }
  const std::vector<Fragment>& fragments() const { return manifest_.fragments; }
  /// Visible rows of each fragment, in manifest order.
  const std::vector<uint64_t>& live_rows() const { return live_rows_; }
  /// Visible rows of the whole dataset.
  uint64_t num_rows() const { return num_rows_; }
  /// The options every data file is read with (`io` tuned for the store).
  const read::ReaderOptions& reader_options() const { return options_; }
  /// Where the dataset's files live.
  const io::ObjectStore& store() const { return *store_; }
  /// Opens one data file of the dataset through the store, with reader_options(). The last
  /// kOpenFilesKept files opened stay open and are handed out again (to every reader of this
  /// dataset and of its fragment selections), so a command reading the table more than once
  /// (a filter's columns, then the output's) reads each file's metadata once. Thread-safe.
  std::shared_ptr<format::FileReader> open_data_file(const DataFileRef& file) const;
  static constexpr size_t kOpenFilesKept = 16;

  /// Path of a data file: `<dataset dir>/data/<file path>` (a URI for remote datasets).
  std::string data_file_path(const DataFileRef& file) const;
  /// The deletion vector of fragment `index` (read from the store; empty when it has none).
  DeletionVector deletion_vector(size_t index) const;

  /// The same version with only the fragments whose ids fall in `ranges`, kept in manifest
  /// order (the order of `ranges` and repeats do not matter). Throws Error(usage) naming the
  /// first id in a range that this version lacks and listing the ids it has. Defined in
  /// fragment_select.cpp.
  std::shared_ptr<const Dataset> select_fragments(std::span<const IdRange> ranges) const;

 private:
  std::string dir_;
  Manifest manifest_;
  std::vector<uint64_t> live_rows_;
  uint64_t num_rows_ = 0;
  read::ReaderOptions options_;
  std::shared_ptr<io::ObjectStore> store_;
  std::shared_ptr<format::FileReader> open_new_data_file(const DataFileRef& file, const std::string& path) const;
  struct OpenFiles;
  std::shared_ptr<OpenFiles> open_files_;  // shared with fragment selections
};

/// Rows of a dataset: fragments in manifest order, deleted rows skipped. Columns are found
/// by field id, so renamed columns take the manifest's name, dropped columns are ignored,
/// and a column missing from a fragment's data files reads as nulls.
class DatasetRowReader final : public TableReader {
 public:
  /// `fields`: indices of top-level fields of `dataset->schema()` (see read::resolve_projection).
  /// `keep_dictionaries`: read as read::ReaderOptions::keep_dictionaries says.
  DatasetRowReader(std::shared_ptr<const Dataset> dataset, std::vector<size_t> fields, bool keep_dictionaries = false);
  ~DatasetRowReader() override;

  const std::string& path() const override { return dataset_->path(); }
  const format::Schema& schema() const override { return dataset_->schema(); }
  const std::vector<FieldPtr>& fields() const override { return fields_; }
  uint64_t num_rows() const override { return dataset_->num_rows(); }
  RecordBatch take(std::span<const uint64_t> rows) override;
  std::unique_ptr<TableReader> with_columns(const std::vector<std::string>& columns) const override;
  std::unique_ptr<TableReader> with_columns_keeping_dictionaries(
      const std::vector<std::string>& columns) const override;

  const Dataset& dataset() const { return *dataset_; }

 protected:
  /// Local store: an ascending run of rows inside one fragment is read ahead in one go and
  /// decoded in groups (TableReader::take_in_groups); a fragment's bytes per row come from the
  /// manifest's file sizes and the projected share of them (read_cost.h).
  void take_units(std::span<const uint64_t> rows, uint64_t batch_size,
                  const std::function<void(RecordBatch)>& sink) override;
  void scan_batches(uint64_t begin, uint64_t end, uint64_t batch_size,
                    const std::function<void(RecordBatch)>& sink) override;

 private:
  struct FragmentState;
  struct PendingChunk;
  /// A reader of this version for `columns` (resolved as open_table does).
  std::unique_ptr<TableReader> projected(const std::vector<std::string>& columns, bool keep_dictionaries) const;
  /// Submits the reads of visible rows [begin, end) of fragment `index` (begin < end).
  /// Plans and submits rows [begin, end) of an open fragment (thread-safe across fragments:
  /// scans run it on the CPU pool, read::ScanPipeline).
  /// `mode`: how the chunk's batches decode (read::FileRowReader::start).
  std::unique_ptr<PendingChunk> start_chunk(std::shared_ptr<FragmentState> state, uint64_t begin, uint64_t end,
                                            read::DecodeMode mode);
  RecordBatch finish_chunk(std::unique_ptr<PendingChunk> pending);
  /// Visible rows `rows` (sorted, each repeat taken again, counted within the fragment) of
  /// fragment `index`.
  RecordBatch take_from_fragment(size_t index, const std::vector<uint64_t>& rows);
  RecordBatch take_from_state(const std::shared_ptr<FragmentState>& st, const std::vector<uint64_t>& rows) const;
  /// Table-shaped columns from the data files' batches (one per reader of `st`).
  RecordBatch assemble(const FragmentState& st, std::vector<RecordBatch> parts, uint64_t num_rows) const;
  std::shared_ptr<FragmentState> fragment_state(size_t index);
  std::shared_ptr<FragmentState> open_fragment(size_t index);
  /// The fragment holding visible row `row` of the dataset (row < num_rows()).
  size_t fragment_of(uint64_t row) const;
  /// Estimated file bytes per row of fragment `index` for the projection (0: unknown).
  double bytes_per_row(size_t index) const;
  /// Remote stores: starts fetching, all at once, the deletion files and the tails of the
  /// data files (those holding projected columns) of fragments `frags` not yet opened.
  /// `needed(i, size, gap)`: the bytes of a data file of `size` bytes of fragment frags[i] the
  /// read would fetch with coalescing gap `gap` if every column were projected (an estimate).
  /// A data file up to the store's whole-file limit is fetched whole in that same GET when the
  /// bytes it does not need (with the estimate scaled by dataset::projected_share) cost less than a
  /// round trip (ObjectStore::round_trip_bytes): that saves the metadata and data round trips
  /// after the tail.
  void prefetch_fragments(const std::vector<size_t>& frags,
                          const std::function<uint64_t(size_t, uint64_t, uint64_t)>& needed);

  std::shared_ptr<const Dataset> dataset_;
  std::vector<size_t> field_indices_;
  std::vector<FieldPtr> fields_;
  bool keep_dictionaries_ = false;
  std::vector<uint64_t> starts_;                     ///< first visible row of each fragment; back() = num_rows
  std::deque<std::shared_ptr<FragmentState>> open_;  ///< most recently used first
  std::vector<bool> prefetched_;                     ///< per fragment: its files were prefetched (remote stores)
};

}  // namespace lance::dataset
