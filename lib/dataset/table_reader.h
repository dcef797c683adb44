// One interface for "a table to read rows from", whatever is on disk: a single Lance data
// file or a Lance dataset directory (`_versions/`, `data/`, `_deletions/`). The CLI opens
// every PATH through `open_table` and never needs to know which kind it got.
//
// Usage:
//   TableOptions opts;
//   opts.columns = {"id", "name"};          // empty = all top-level columns
//   opts.version = 3;                       // datasets only: time travel
//   auto table = open_table(path, opts);
//   table->scan(100, 200, 8192, [&](RecordBatch b) { writer.write(b); });   // rows 100..199
//   std::vector<uint64_t> rows{5, 0, 5};
//   RecordBatch some = table->take(rows);                                   // in that order
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "array/array.h"
#include "dataset/fragment_select.h"
#include "format/file_reader.h"
#include "format/schema.h"
#include "io/object_store.h"
#include "read/read_ahead.h"
#include "read/reader_options.h"
#include "read/row_reader.h"

namespace lance::dataset {

/// What to open and how.
/// What a read will need of a dataset's data files, when known before the dataset is opened.
using read::ReadAheadHint;  // what a read will do, for fetching ahead (read/read_ahead.h)

struct TableOptions {
  /// Columns to read, in this order; empty = all. Top-level names; a single data file also
  /// accepts dotted paths into structs ("s.inner.x"), a dataset does not (yet).
  std::vector<std::string> columns;
  std::optional<uint64_t> version;  ///< dataset version to read; empty = latest (datasets only)
  /// Only the fragments with these ids (`--fragments`), in manifest order; rows are then
  /// numbered over those fragments' visible rows. Empty = all (datasets only).
  std::optional<std::vector<IdRange>> fragments;
  /// I/O, batching, decoding, the object store's settings and the stats object.
  read::ReaderOptions reader;
  /// What the read will need, when the caller knows it before opening: remote datasets then
  /// fetch their small data files whole while the manifest is read (open_data_files_ahead).
  /// Set `sparse_rows` with read_ahead_hint_for_take.
  ReadAheadHint read_ahead;
};

/// The ReadAheadHint of a take of `rows` (any order, repeats allowed): `sparse_rows` is the
/// number of distinct rows when they spread over more than twice as many row numbers as
/// they count (not a contiguous run), else 0.
ReadAheadHint read_ahead_hint_for_take(std::span<const uint64_t> rows);

/// Rows of a table in scan order. Row numbers count visible rows only: for a dataset,
/// deleted rows are skipped and numbering runs across fragments in manifest order (the
/// numbering of LanceDB's `takeOffsets`). Not thread-safe.
class TableReader {
 public:
  virtual ~TableReader() = default;

  /// The path that was opened (for messages).
  virtual const std::string& path() const = 0;
  /// The table schema (all columns, not only the projected ones).
  virtual const format::Schema& schema() const = 0;
  /// Output fields of the projection (dictionary types decoded to their value types).
  virtual const std::vector<FieldPtr>& fields() const = 0;
  /// Visible rows.
  virtual uint64_t num_rows() const = 0;

  /// A reader of the same table (the same file, or the same dataset version and fragments,
  /// with the files this one opened) for `columns`, resolved as open_table resolves them
  /// (empty: every column). Nothing is read again. Throws Error(usage) for an unknown column.
  virtual std::unique_ptr<TableReader> with_columns(const std::vector<std::string>& columns) const = 0;
  /// with_columns, and top-level string and binary columns keep their pages' dictionaries
  /// (read::ReaderOptions::keep_dictionaries): their batches' arrays may be Arrow dictionary
  /// arrays of the field's type. For the filter evaluator (expr::evaluate_filter), which
  /// compares each dictionary entry once; not for output.
  virtual std::unique_ptr<TableReader> with_columns_keeping_dictionaries(
      const std::vector<std::string>& columns) const = 0;

  /// Streams rows [begin, end) (end is clamped to num_rows()) to `sink` as batches of at
  /// most `batch_size` rows (a dataset's batches do not cross fragments), in order. Only the pages (and fragments)
  /// holding those rows are read; the reads of the next batch are in flight while `sink`
  /// handles the current one. Rows are read and decoded in units of at least
  /// kMinScanReadRows, whatever `batch_size` (smaller batches are slices of one unit), so the
  /// bytes read and the chunks decoded do not grow as the batches shrink. Throws Error(usage)
  /// for batch_size 0.
  void scan(uint64_t begin, uint64_t end, uint64_t batch_size, const std::function<void(RecordBatch)>& sink);

  /// The smallest unit scan() reads and decodes, in rows: read::kDefaultBatchSize.
  static constexpr uint64_t kMinScanReadRows = read::kDefaultBatchSize;

  /// The given rows in the given order, duplicates repeated; every needed row is read
  /// once. Throws Error(usage) for a row ≥ num_rows().
  virtual RecordBatch take(std::span<const uint64_t> rows) = 0;

  /// take() of consecutive slices of `rows`, at most `batch_size` rows each, handed to `sink`
  /// in order. Rows are read and decoded in units of at least kMinScanReadRows rows, whatever
  /// `batch_size` (smaller batches are slices of one unit): the bytes read do not grow as the
  /// batches shrink. A local table given ascending rows reads a unit's bytes together (the I/O
  /// operations of one take) and decodes them in groups of about ReaderOptions::take_group_bytes
  /// file bytes, each handed to `sink` before the next is decoded: the process holds one
  /// group's values at a time, not the unit's (on a VM, first-touched memory can cost more
  /// than decoding such rows), and batches may hold fewer than `batch_size` rows. Throws
  /// Error(usage) for batch_size 0 and, as take does, for a row ≥ num_rows().
  void take_batches(std::span<const uint64_t> rows, uint64_t batch_size, const std::function<void(RecordBatch)>& sink);

 protected:
  /// Where a run of ascending rows may start a take in groups: rows at or past `end_row`
  /// belong to another run (0: no grouping), each row holding about `bytes_per_row` file bytes.
  struct TakeRun {
    uint64_t end_row = 0;
    double bytes_per_row = 0;
  };
  /// The loop of take_batches for readers that read ahead: slices of `batch_size` rows; a
  /// slice whose first row starts a run (`run_at(row)`) that ascends is cut at the run's end and
  /// split by dataset::take_groups (`budget_bytes`); a run of several groups goes to
  /// `take_grouped(run, group_sizes)`, which hands each group's batch to `sink` and returns
  /// false, having done nothing, when it cannot read ahead. Anything else is one take().
  void take_in_groups(std::span<const uint64_t> rows, uint64_t batch_size, uint64_t budget_bytes,
                      const std::function<void(RecordBatch)>& sink, const std::function<TakeRun(uint64_t)>& run_at,
                      const std::function<bool(std::span<const uint64_t>, const std::vector<size_t>&)>& take_grouped);

  /// take_batches()'s reading: take() of consecutive slices of `rows` of `unit_rows` (≥ 1)
  /// rows each, handed to `sink` in order (readers that read ahead split a slice in groups).
  virtual void take_units(std::span<const uint64_t> rows, uint64_t unit_rows,
                          const std::function<void(RecordBatch)>& sink);

  /// scan()'s reading: rows [begin, end) (begin < end ≤ num_rows()) to `sink` in batches of
  /// `batch_size` (≥ 1) rows, each batch planned, read and decoded as one unit.
  virtual void scan_batches(uint64_t begin, uint64_t end, uint64_t batch_size,
                            const std::function<void(RecordBatch)>& sink) = 0;
};

/// True when `path` is a directory holding `_versions/` (a Lance dataset); for an object
/// store, when some key starts with `path/_versions/` (one ListObjectsV2 request).
bool is_dataset_dir(const std::string& path, const io::ObjectStore& store);
/// Same, for a local path.
bool is_dataset_dir(const std::string& path);

/// Opens `path` as a single data file of `store` with `options` (its I/O settings tuned by
/// the store). Throws Error(usage) for a directory that is not a dataset, and when
/// `version_given` or `fragments_given` (those need a dataset).
/// Throws a usage error when `path`, given where a data file belongs (it is not a dataset
/// directory), is a local directory, or a `.manifest` (a dataset version's manifest; the
/// error names the dataset directory).
void check_data_file_path(const std::string& path, const io::ObjectStore& store);

std::shared_ptr<format::FileReader> open_single_file(const std::string& path, const io::ObjectStore& store,
                                                     const read::ReaderOptions& options, bool version_given,
                                                     bool fragments_given = false);

/// Opens a single data file or a dataset directory. Throws Error: usage for an unknown
/// column, a version that does not exist, a fragment id the version lacks, or a version or
/// fragments asked of a single file; io / corrupt /
/// unsupported as the file and manifest readers do.
std::unique_ptr<TableReader> open_table(const std::string& path, const TableOptions& options);

}  // namespace lance::dataset
