// `inspect columns`: per column of a data file or of a whole dataset, what it costs on disk
// (bytes, pages, layouts, encodings, summed over every data file) and, when the values are
// decoded, what it holds (decoded bytes, nulls, min, max) — what parquet-tools `size` and
// DuckDB's `parquet_metadata` tell Parquet users.
//
// Usage:
//   inspect::ColumnsReport r = inspect::inspect_columns(*file);        // or (*dataset)
//   inspect::add_value_stats(r, *table);                               // --decode: scans every row
//   emit(inspect::render_text(r));                                     // or to_json(r)
//
// A column is what the file format stores as one (inspect::map_columns): every leaf in 2.1+,
// every schema node in 2.0 (struct headers and list offsets too), every field in legacy v1;
// a packed struct or a blob is one column. Dataset columns are matched across data files by
// field id and named as the dataset's schema names them (after renames).
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "array/array.h"
#include "dataset/dataset.h"
#include "dataset/table_reader.h"
#include "format/file_reader.h"

namespace lance::inspect {

/// One column, over every data file that stores it.
struct ColumnUsage {
  std::string path;        ///< "s.a", "l.item"
  int32_t field_id = -1;   ///< Lance field id (-1: no field maps to the column)
  std::string arrow_type;  ///< the stored field's Arrow type
  uint64_t files = 0;      ///< data files holding the column
  uint64_t pages = 0;
  uint64_t bytes = 0;                  ///< page and column buffers on disk (legacy v1: each page's span up to the next)
  double share = 0;                    ///< bytes / the data files' total size
  std::vector<std::string> layouts;    ///< distinct page layouts, first seen first ("mini-block", …)
  std::vector<std::string> encodings;  ///< distinct value encodings, first seen first

  // Filled by add_value_stats (visible rows only: deleted rows are not decoded).
  std::optional<uint64_t> values;           ///< values at this level (list items count once each)
  std::optional<uint64_t> null_count;       ///< null values at this level
  std::optional<uint64_t> decoded_bytes;    ///< Arrow buffers of this level and of the levels
                                            ///< below it that have no column of their own
  std::optional<double> compression_ratio;  ///< decoded_bytes / bytes
  std::optional<std::string> min, max;      ///< orderable leaf types, as csv renders them
};

struct ColumnsReport {
  std::string kind = "file";  ///< "file" or "dataset"
  std::string path;
  std::string format_version;       ///< "2.1", "legacy v1 (0.2)", …
  std::optional<uint64_t> version;  ///< datasets: the version described
  uint64_t num_rows = 0;            ///< visible rows
  uint64_t data_files = 0;
  uint64_t data_bytes = 0;  ///< the data files' total size
  bool decoded = false;     ///< add_value_stats ran
  std::vector<ColumnUsage> columns;
};

/// The columns of one data file (metadata only; no page bytes are read).
/// Throws as format::FileReader does for a corrupt file.
ColumnsReport inspect_columns(const format::FileReader& file);

/// The columns of every data file of `dataset`'s version, in schema order (each file's
/// footer and metadata are read; no page bytes).
ColumnsReport inspect_columns(const dataset::Dataset& dataset);

/// Scans every row of `table` (opened on the same input with all columns) and fills the
/// decoded fields of `report`'s columns. Throws what the scan throws.
void add_value_stats(ColumnsReport& report, dataset::TableReader& table);

}  // namespace lance::inspect
