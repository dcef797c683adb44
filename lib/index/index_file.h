// One file of a scalar index: `_indices/<uuid>/<name>.lance` of a dataset, a Lance data
// file like any other (lance-index's `LanceIndexStore` writes them; rust/lance-index/src/
// scalar/lance_format.rs upstream). Reads whole columns, row ranges and single rows by
// column name. Every failure to read it (other than I/O) is Error(corrupt) naming the
// index and the file, so that a damaged index is reported as such, never answered from.
//
// Usage:
//   IndexFile f(ctx, "page_lookup.lance");
//   RecordBatch lookup = f.read({"min", "max"}, 0, f.num_rows());
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <span>
#include <string>
#include <vector>

#include "array/array.h"
#include "format/schema.h"
#include "io/object_store.h"
#include "read/reader_options.h"

namespace lance::format {
class FileReader;
}

namespace lance::index {

/// Where an index's files are and how to read them.
struct IndexLocation {
  std::string dir;   ///< the index's folder, `<dataset>/_indices/<uuid>`
  std::string what;  ///< for messages, e.g. "index 'id_idx' (BTREE on id)"
  const io::ObjectStore* store = nullptr;
  read::ReaderOptions options;
  /// Rows of a fragment of the dataset (deleted ones included), 0 for a fragment it lacks.
  std::function<uint32_t(uint32_t)> physical_rows;
};

class IndexFile {
 public:
  /// Opens `dir/name`. Throws Error(io) when it cannot be read, Error(corrupt) when it is
  /// not a readable Lance file.
  IndexFile(const IndexLocation& where, const std::string& name);
  ~IndexFile();

  uint64_t num_rows() const;
  const format::Schema& schema() const;
  /// Rows [begin, end) of the named top-level columns, in that order. Throws Error(corrupt)
  /// when a column is missing or the rows do not decode.
  RecordBatch read(const std::vector<std::string>& columns, uint64_t begin, uint64_t end) const;
  /// The given rows (ascending or not) of the named columns.
  RecordBatch take(const std::vector<std::string>& columns, std::span<const uint64_t> rows) const;
  /// Runs of rows (first row, count), ascending and apart, of the named columns, one run
  /// after another. Throws Error(corrupt) for a run past the end or out of order.
  RecordBatch take_runs(const std::vector<std::string>& columns,
                        const std::vector<std::pair<uint64_t, uint64_t>>& runs) const;
  /// Global buffer `i` of the file (0 holds the file descriptor). Throws Error(corrupt) when
  /// the file has no such buffer.
  Bytes global_buffer(size_t i) const;
  /// Reads the global buffers `ids` (those the file has) in one request and keeps their bytes
  /// for global_buffer() until drop_prefetched() (io::IoScheduler::begin_keeping): for a remote
  /// file, one round trip for several buffers. Throws as global_buffer() does.
  void prefetch_global_buffers(const std::vector<size_t>& ids) const;
  void drop_prefetched() const;
  /// Whether the file is behind a network (io::IoOptions::remote).
  bool remote() const;
  /// "index 'x' (BTREE on id): _indices/…/page_data.lance" — for messages.
  const std::string& what() const { return what_; }

 private:
  std::vector<size_t> fields_of(const std::vector<std::string>& columns) const;
  template <typename F>
  RecordBatch guarded(F&& read) const;

  std::shared_ptr<format::FileReader> file_;
  read::ReaderOptions options_;
  std::string what_;
};

}  // namespace lance::index
